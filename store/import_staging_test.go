package store

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/annotate-dev/annotate/schema"
)

// TestImportFastPathsWriteWhatSlowPathsWrite runs the same random imports
// twice: with rows staged and written many a statement, and with every row
// written as it is staged. Every answer of every call, and every row of
// every table, must be the same. The import's fast answers (labels of new
// items written without a lookup, items of an empty file inserted without
// one, a claim's pair and a label's item found among the items just
// written, ids met recorded through a filter, predictions of a new item
// not deleted first, the families of new items not loaded as they were)
// are each asked of the table too, under the staging check
// (import_check_test.go): on every seed with rows written at once, and on
// the first seeds with rows staged, where no statement may depend on a
// staged row not yet written either.
func TestImportFastPathsWriteWhatSlowPathsWrite(t *testing.T) {
	for seed := range uint64(12) {
		t.Run(fmt.Sprint(seed), func(t *testing.T) {
			fast, fastRows := runImports(t, seed, true, seed < 4)
			slow, slowRows := runImports(t, seed, false, true)
			if fast != slow {
				t.Fatalf("answers differ:\n%s", firstDiff(fast, slow))
			}
			if fastRows != slowRows {
				t.Fatalf("rows differ:\n%s", firstDiff(fastRows, slowRows))
			}
		})
	}
}

func firstDiff(a, b string) string {
	al, bl := strings.Split(a, "\n"), strings.Split(b, "\n")
	for i := range min(len(al), len(bl)) {
		if al[i] != bl[i] {
			return fmt.Sprintf("line %d:\nfast: %s\nslow: %s", i+1, al[i], bl[i])
		}
	}
	return fmt.Sprintf("%d lines against %d", len(al), len(bl))
}

// runImports runs three imports of random calls and returns the calls'
// answers and the tables' rows (without the times).
func runImports(t *testing.T, seed uint64, staged, check bool) (string, string) {
	defer func(n int) { bulkRows = n }(bulkRows)
	bulkRows = 1 // every row written as it is staged
	if staged {
		bulkRows = 3 // rows written at odd moments
	}
	s := openTemp(t)
	if check {
		checkStaging(s)
	}
	r := rand.New(rand.NewPCG(seed, 7))
	var log strings.Builder
	pairs, claims := 0, map[int]int{}
	note := func(format string, args ...any) { fmt.Fprintf(&log, format+"\n", args...) }
	for imp := range 3 {
		err := s.Import(func(tx *Tx) error {
			if err := tx.BeginScratch(); err != nil {
				return err
			}
			var items []string
			for i := 1; i <= pairs; i++ {
				items = append(items, fmt.Sprintf("q%d", i))
				for c := 1; c <= claims[i]; c++ {
					items = append(items, fmt.Sprintf("q%d-c%d", i, c))
				}
			}
			for step := range 60 {
				switch op := r.IntN(12); {
				case op < 2 || pairs == 0: // a pair, new or again
					i := pairs + 1
					if pairs > 0 && r.IntN(3) == 0 {
						i = 1 + r.IntN(pairs)
					}
					hop := []string{"single", "multi"}[r.IntN(2)]
					qa := QAPair{ID: fmt.Sprintf("q%d", i), Source: []string{"GDPR", "CIVIL"}[i%2], Question: "Q", Answer: "A", Hop: hop,
						Contexts: []Context{{ID: fmt.Sprintf("p%d", i%4), Text: "t"}}}
					if r.IntN(2) == 0 {
						qa.Predictions = map[string]string{"refchecker": "Factual"}
					}
					id, res, err := tx.PutQA(qa, hop, "f", true)
					note("%d/%d put %s: %d %d %v", imp, step, qa.ID, id, res, err)
					if err != nil {
						return err
					}
					if i > pairs {
						pairs = i
						items = append(items, qa.ID)
					}
				case op < 5: // a claim, new or again
					i := 1 + r.IntN(pairs)
					c := claims[i] + 1
					if claims[i] > 0 && r.IntN(3) == 0 {
						c = 1 + r.IntN(claims[i])
					}
					pred := []string{"Entailment", "neutral", "odd"}[r.IntN(3)]
					cl := Claim{ID: fmt.Sprintf("q%d-c%d", i, c), QAID: fmt.Sprintf("q%d", i), Position: c, Triplet: [3]string{"s", "p", "o"},
						Predictions: map[string]string{"refchecker": pred}}
					id, res, err := tx.PutClaim(cl, pred, "f", true)
					note("%d/%d put %s: %d %d %v", imp, step, cl.ID, id, res, err)
					if err != nil {
						return err
					}
					if c > claims[i] {
						claims[i] = c
						items = append(items, cl.ID)
					}
				case op < 10: // a label, on an item just written or any
					ext := items[len(items)-1]
					if r.IntN(2) == 0 {
						ext = items[r.IntN(len(items))]
					}
					id, kind, err := tx.ItemID(ext)
					note("%d/%d item %s: %d %s %v", imp, step, ext, id, kind, err)
					if err != nil {
						return err
					}
					fields := schema.Fields(schema.Kind(kind))
					f := fields[r.IntN(len(fields))]
					l := Label{Annotator: people[r.IntN(3)], ItemID: id, Field: f.Name, Value: f.Values[r.IntN(len(f.Values))],
						Adjudicate: r.IntN(6) == 0}
					added, err := tx.PutLabel(l)
					note("%d/%d label %s %s %s=%s adj=%v: %v %v", imp, step, ext, l.Annotator, l.Field, l.Value, l.Adjudicate, added, err)
					if err != nil {
						return err
					}
				case op < 11: // predictions of an item, field by field
					ext := items[r.IntN(len(items))]
					id, _, err := tx.ItemID(ext)
					if err != nil {
						return err
					}
					field := []string{schema.Entailment, "response"}[r.IntN(2)]
					err = tx.PutPredictions(id, field, map[string]string{"nli": []string{"neutral", "contradiction"}[r.IntN(2)]})
					note("%d/%d predictions %s %s: %v", imp, step, ext, field, err)
				default: // an id met, or met before
					ext := fmt.Sprintf("x%d", r.IntN(20))
					prev, met, err := tx.SeeFast("item", ext, Seen{Kind: "qa", Hash: ext, File: imp, Line: step, Record: -1})
					note("%d/%d see %s: %+v %v %v", imp, step, ext, prev, met, err)
					if err != nil {
						return err
					}
				}
			}
			if err := tx.WriteSeen(); err != nil {
				return err
			}
			return tx.EndScratch()
		})
		if err != nil {
			t.Fatal(err)
		}
		if msg := checkKept(t, s); msg != "" {
			t.Fatalf("import %d: %s", imp, msg)
		}
	}
	var rows strings.Builder
	for _, q := range []string{
		"SELECT id, ext_id, kind, source_id, parent_id, hash, origin_file FROM items ORDER BY id",
		"SELECT * FROM qa_pairs ORDER BY item_id",
		"SELECT * FROM claims ORDER BY item_id",
		"SELECT * FROM predictions ORDER BY item_id, system, field",
		"SELECT * FROM qa_contexts ORDER BY qa_item_id, position",
		"SELECT * FROM context_units ORDER BY id",
		"SELECT id, annotator_id, item_id, field, value, role, active_ms, session_id, guidelines_version, retracts FROM label_events ORDER BY id",
		"SELECT * FROM current_labels ORDER BY item_id, field, role, annotator_id",
		"SELECT * FROM done_items ORDER BY item_id, annotator_id",
		"SELECT * FROM kept_counts ORDER BY name, rater, source_id, a, b",
		"SELECT id, name FROM annotators ORDER BY id",
		"SELECT * FROM sources ORDER BY id",
	} {
		dumpRows(t, s, q, &rows)
	}
	return log.String(), rows.String()
}

func dumpRows(t *testing.T, s *Store, q string, out *strings.Builder) {
	rows, err := s.db.Query(q)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	cols, _ := rows.Columns()
	fmt.Fprintln(out, q)
	for rows.Next() {
		vals := make([]any, len(cols))
		ptrs := make([]any, len(cols))
		for i := range vals {
			ptrs[i] = &vals[i]
		}
		if err := rows.Scan(ptrs...); err != nil {
			t.Fatal(err)
		}
		fmt.Fprintln(out, vals...)
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
}

// TestStagingCheckFailsAReadBeforeItsRowsAreWritten: under the staging
// check, a statement that reads or writes a staged table before its rows
// are written fails the import with an error naming it, and so does an
// answer the import gives without asking the table once the table was
// written by other means; the same statements after an explicit flush pass
// and see the rows.
func TestStagingCheckFailsAReadBeforeItsRowsAreWritten(t *testing.T) {
	// One step for the whole import: a step committed in the middle of a
	// case (a slow machine) would flush the staged rows the case reads.
	defer SetImportSteps(time.Hour, 0)()
	pair := QAPair{ID: "q1", Source: "GDPR", Question: "Q", Answer: "A", Contexts: []Context{{ID: "p", Text: "t"}}}
	label := Label{Annotator: "jo", Field: schema.QuestionValidity, Value: "valid"}
	for _, c := range []struct {
		name, want string // want: in the error; "" for none
		fn         func(tx *Tx, item int64) error
	}{
		{"read", `"SELECT COUNT(*) FROM qa_pairs" [] depends on staged rows`, func(tx *Tx, _ int64) error {
			var n int
			return tx.tx.QueryRow("SELECT COUNT(*) FROM qa_pairs").Scan(&n)
		}},
		{"write", `"UPDATE qa_pairs SET hop='multi'" [] depends on staged rows`, func(tx *Tx, _ int64) error {
			_, err := tx.tx.Exec("UPDATE qa_pairs SET hop='multi'")
			return err
		}},
		{"current labels", "current_labels", func(tx *Tx, item int64) error {
			if _, err := tx.PutLabel(Label{Annotator: "jo", ItemID: item, Field: schema.QuestionValidity, Value: "valid"}); err != nil {
				return err
			}
			var n int
			return tx.tx.QueryRow("SELECT COUNT(*) FROM current_labels").Scan(&n)
		}},
		{"label written by other means", "no label", func(tx *Tx, item int64) error {
			if err := tx.tx.flushAll(); err != nil {
				return err
			}
			if err := setCurrent(tx.tx, RoleAnnotate, 1, item, schema.QuestionValidity, "invalid", 1); err != nil {
				return err
			}
			_, err := tx.PutLabel(Label{Annotator: "jo", ItemID: item, Field: schema.QuestionValidity, Value: "valid"})
			return err
		}},
		{"flushed", "", func(tx *Tx, item int64) error {
			if _, err := tx.PutLabel(Label{Annotator: "jo", ItemID: item, Field: schema.QuestionValidity, Value: "valid"}); err != nil {
				return err
			}
			if err := tx.tx.flush(stageQAPairs, stageEvents); err != nil {
				return err
			}
			var pairs, labels int
			if err := tx.tx.QueryRow("SELECT COUNT(*) FROM qa_pairs").Scan(&pairs); err != nil {
				return err
			}
			if err := tx.tx.QueryRow("SELECT COUNT(*) FROM current_labels").Scan(&labels); err != nil {
				return err
			}
			if pairs != 1 || labels != 1 {
				return fmt.Errorf("after the flush: %d pairs, %d current labels, want 1 and 1", pairs, labels)
			}
			return nil
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			// A store of its own: a slow machine may commit a step of the
			// import, and a row written by other means is in no journal.
			s := checkStaging(openTemp(t))
			errBack := errors.New("roll back")
			err := s.Import(func(tx *Tx) error {
				id, _, err := tx.PutQA(pair, "h", "f", false)
				if err != nil {
					return err
				}
				if _, err := annotatorID(tx.tx, label.Annotator); err != nil {
					return err
				}
				if err := c.fn(tx, id); err != nil {
					return err
				}
				return errBack
			})
			switch {
			case c.want == "" && err != errBack:
				t.Fatalf("got %v, want the import to run to its end", err)
			case c.want != "" && (err == nil || !strings.Contains(err.Error(), "staging check") || !strings.Contains(err.Error(), c.want)):
				t.Fatalf("got %v, want a staging check error with %q", err, c.want)
			}
		})
	}
}

func TestIDFilterHasNoFalseNegatives(t *testing.T) {
	var f idFilter
	for i := range 300_000 {
		f.add(fmt.Sprint("id", i))
	}
	for i := range 300_000 {
		if !f.mayHave(fmt.Sprint("id", i)) {
			t.Fatalf("id%d added but not found", i)
		}
	}
	fp := 0
	for i := range 100_000 {
		if f.mayHave(fmt.Sprint("other", i)) {
			fp++
		}
	}
	if fp > 3000 { // about 1% by design
		t.Fatalf("%d false positives in 100,000", fp)
	}
}

func TestIDSet(t *testing.T) {
	var s idSet
	want := []int64{0, 1, 63, 64, 65, 1000, 70000}
	for _, id := range []int64{70000, 1, 63, 0, 64, 65, 1000, 64} {
		s.add(id)
	}
	var got []int64
	s.each(3, func(ids []int64) error { got = append(got, ids...); return nil })
	if fmt.Sprint(got) != fmt.Sprint(want) || s.has(2) || !s.has(1000) || s.has(-1) || s.empty() {
		t.Fatalf("got %v", got)
	}
}
