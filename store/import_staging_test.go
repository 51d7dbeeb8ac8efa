package store

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/annotate-dev/annotate/schema"
)

// TestImportFastPathsWriteWhatSlowPathsWrite runs the same random imports
// twice: with the import's fast paths and rows in bulk (labels of new items
// written without a lookup, items of an empty file inserted without one, a
// claim's pair and a label's item found among the items just written, ids
// met recorded through a filter, predictions of a new item not deleted
// first, the families of new items not loaded as they were), and with none
// of them and every row written by its own statement. Every answer of every
// call, and every row of every table, must be the same.
func TestImportFastPathsWriteWhatSlowPathsWrite(t *testing.T) {
	for seed := range uint64(12) {
		t.Run(fmt.Sprint(seed), func(t *testing.T) {
			fast, fastRows := runImports(t, seed, true)
			slow, slowRows := runImports(t, seed, false)
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
func runImports(t *testing.T, seed uint64, fast bool) (string, string) {
	defer func(f bool, n int) { fastPaths, bulkRows = f, n }(fastPaths, bulkRows)
	fastPaths, bulkRows = fast, 1
	if fast {
		bulkRows = 3 // rows written at odd moments
	}
	s := openTemp(t)
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

// TestBulkRowsAreReadInTheTransaction: rows waiting in a bulk are written
// before a statement of the same transaction reads their table, and a
// label written by other means in an import makes PutLabel look again.
func TestBulkRowsAreReadInTheTransaction(t *testing.T) {
	s := openTemp(t)
	err := s.Import(func(tx *Tx) error {
		id, _, err := tx.PutQA(QAPair{ID: "q1", Source: "GDPR", Question: "Q", Answer: "A", Contexts: []Context{{ID: "p", Text: "t"}}}, "h", "f", false)
		if err != nil {
			return err
		}
		if _, err := tx.PutLabel(Label{Annotator: "jo", ItemID: id, Field: schema.QuestionValidity, Value: "valid"}); err != nil {
			return err
		}
		var n int
		if err := tx.tx.QueryRow("SELECT COUNT(*) FROM current_labels WHERE item_id=?", id).Scan(&n); err != nil || n != 1 {
			return fmt.Errorf("current labels seen in the transaction: %d, %v", n, err)
		}
		if err := tx.tx.QueryRow("SELECT COUNT(*) FROM qa_pairs WHERE item_id=?", id).Scan(&n); err != nil || n != 1 {
			return fmt.Errorf("pairs seen in the transaction: %d, %v", n, err)
		}
		// Another path writes the current label: PutLabel must see it.
		if _, err := tx.tx.Exec("UPDATE current_labels SET value='invalid' WHERE item_id=?", id); err != nil {
			return err
		}
		added, err := tx.PutLabel(Label{Annotator: "jo", ItemID: id, Field: schema.QuestionValidity, Value: "invalid"})
		if err != nil || added {
			return fmt.Errorf("a label equal to the current one was added: %v %v", added, err)
		}
		return errors.New("roll back")
	})
	if err == nil || err.Error() != "roll back" {
		t.Fatal(err)
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
