package store

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
)

// TestRunImportFastPathWritesWhatSQLWrites imports the same random runs
// twice: through the fast path (lines kept per query, resolved and ranked
// in Go) and through the obvious one (every line a TEMP row, resolved and
// ranked by SQL). Runs name documents and chunks, repeat them, tie on rank
// and score, are ordered by score (trec_eval's order) or by rank, give no score, scatter a query's lines, come again unchanged,
// changed, with update, name unknown queries and documents, and stage
// queries with nothing retrieved. Every answer and every row of runs and
// run_lists must be the same. (The two ways the fast path resolves ids, one
// lookup each or everything read first, are held equal by
// TestRunResolverPreloadAnswersAsLookups.)
func TestRunImportFastPathWritesWhatSQLWrites(t *testing.T) {
	empty := 0
	defer func() {
		if empty == 0 && !t.Failed() {
			t.Error("no seed wrote an empty list")
		}
	}()
	for seed := range uint64(16) {
		t.Run(fmt.Sprint(seed), func(t *testing.T) {
			fast, fastRows := runImportsOf(t, seed, true)
			slow, slowRows := runImportsOf(t, seed, false)
			if fast != slow {
				t.Fatalf("answers differ:\n%s", firstDiff(fast, slow))
			}
			if fastRows != slowRows {
				t.Fatalf("rows differ:\n%s", firstDiff(fastRows, slowRows))
			}
			empty += strings.Count(fastRows, " [] [] [] []")
			if !strings.Contains(fastRows, "[") {
				t.Fatalf("no run list written:\n%s", fastRows)
			}
		})
	}
}

func runImportsOf(t *testing.T, seed uint64, fast bool) (string, string) {
	s := openTemp(t)
	err := s.Import(putRunTargets)
	if err != nil {
		t.Fatal(err)
	}
	r := rand.New(rand.NewPCG(seed, 11))
	var log strings.Builder
	docIDs := []string{"d0", "d1", "d2", "d3", "d4", "d5", "d6", "d7", "d0#0", "d0#1", "d2#0", "d2#1", "d4#1", "d6#0"}
	for imp := range 5 {
		var rows []RunRow
		line := 0
		for run := range 1 + r.IntN(3) {
			name := fmt.Sprintf("r%d", run)
			if imp > 0 && r.IntN(2) == 0 {
				name = fmt.Sprintf("r%d", r.IntN(3))
			}
			for range 3 + r.IntN(30) {
				line++
				q := fmt.Sprintf("q%d", r.IntN(6))
				doc := docIDs[r.IntN(len(docIDs))]
				if r.IntN(15) == 0 {
					doc = "" // the query, nothing retrieved (StageRunQuery)
				}
				rows = append(rows, RunRow{Run: name, Query: q, Doc: doc, Rank: 1 + r.IntN(8), Score: float64(r.IntN(4)) / 2,
					NoScore: r.IntN(5) == 0, Line: line})
			}
		}
		if r.IntN(3) == 0 { // one line names nothing, or not a document
			bad := &rows[r.IntN(len(rows))]
			switch r.IntN(3) {
			case 0:
				bad.Query = "nope"
			case 1:
				bad.Doc = "gone"
			default:
				bad.Doc = "q1"
			}
		}
		if r.IntN(2) == 0 { // a query's lines one after the other, as runs are written
			sortRows(rows)
		}
		update := r.IntN(2) == 0
		again := r.IntN(3) == 0
		err := s.Import(func(tx *Tx) error {
			begin, stage, write := tx.BeginRuns, tx.StageRunRow, tx.WriteRuns
			if !fast {
				begin, stage, write = tx.beginRunsSQL, tx.stageRunRowSQL, tx.writeRunsSQL
			}
			for pass := range 1 + boolInt(again) {
				if err := begin(); err != nil {
					return err
				}
				// r1 is ordered by its ranks (as a list given in order is),
				// the others by score (as trec_eval orders a TREC run).
				tx.SetRunFields("r1", RunFields{Query: "query_id", Doc: "document_id", Run: "run"})
				for _, row := range rows {
					if err := stage(row); err != nil {
						return err
					}
				}
				w, err := write(update, func(int) string { return "f.run" })
				fmt.Fprintf(&log, "%d/%d update=%v: %+v %v\n", imp, pass, update, w, err)
				if err != nil {
					return err
				}
			}
			return nil
		})
		fmt.Fprintf(&log, "%d: %v\n", imp, err)
	}
	var rows strings.Builder
	for _, q := range []string{
		"SELECT id, name, hash, origin_file FROM runs ORDER BY id",
		"SELECT * FROM run_lists ORDER BY run_id, query_item_id",
		"SELECT typeof(docs), typeof(scores), typeof(chunk_docs), typeof(chunk_ids), COUNT(*) FROM run_lists GROUP BY 1, 2, 3, 4",
	} {
		dumpRows(t, s, q, &rows)
	}
	return log.String(), rows.String()
}

// sortRows groups rows by run and query, keeping their order otherwise.
func sortRows(rows []RunRow) {
	key := func(r RunRow) string { return r.Run + "\x00" + r.Query }
	first := map[string]int{}
	for i, r := range rows {
		if _, ok := first[key(r)]; !ok {
			first[key(r)] = i
		}
	}
	for i := 1; i < len(rows); i++ {
		for j := i; j > 0 && first[key(rows[j])] < first[key(rows[j-1])]; j-- {
			rows[j], rows[j-1] = rows[j-1], rows[j]
		}
	}
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// putRunTargets puts the documents (half of them with two chunks) and the
// queries the runs of these tests name.
func putRunTargets(tx *Tx) error {
	for i := range 8 {
		d := Document{ID: fmt.Sprintf("d%d", i), Text: strings.Repeat("x", 40)}
		if i%2 == 0 {
			d.Chunks = []Chunk{{ID: fmt.Sprintf("d%d#0", i), Start: 0, End: 20}, {ID: fmt.Sprintf("d%d#1", i), Start: 20, End: 40}}
		}
		if _, _, err := tx.PutDocument(d, d.ID, "f", false); err != nil {
			return err
		}
	}
	for i := range 6 {
		q := Query{ID: fmt.Sprintf("q%d", i), Text: "t"}
		if _, _, err := tx.PutQuery(q, q.ID, "f", false); err != nil {
			return err
		}
	}
	return nil
}

// The resolver that reads every id first (a large run) answers as the one
// that looks each id up: documents, chunks (which name their document),
// queries, a query's id asked as a document, a document's asked as a query,
// and ids that name nothing.
func TestRunResolverPreloadAnswersAsLookups(t *testing.T) {
	s := openTemp(t)
	ids := []string{"d0", "d1", "d7", "d0#0", "d0#1", "d2#1", "d6#0", "d1#0", "q0", "q5", "q6", "gone", ""}
	err := s.Import(func(tx *Tx) error {
		if err := putRunTargets(tx); err != nil {
			return err
		}
		if err := tx.BeginRuns(); err != nil {
			return err
		}
		defer tx.endRuns()
		answers := func(preload bool) (string, error) {
			r, err := newRunResolver(tx, preload)
			if err != nil {
				return "", err
			}
			var b strings.Builder
			for _, id := range ids {
				d, err := r.doc([]byte(id))
				if err != nil {
					return "", err
				}
				if d.id == 0 {
					d = docRef{} // names nothing: WriteRuns reads only the id
				}
				q, err := r.query(id)
				if err != nil {
					return "", err
				}
				fmt.Fprintf(&b, "%q: doc %+v, query %d\n", id, d, q)
			}
			return b.String(), nil
		}
		looked, err := answers(false)
		if err != nil {
			return err
		}
		read, err := answers(true)
		if err != nil {
			return err
		}
		if read != looked {
			t.Errorf("read first:\n%s\nlooked up:\n%s", read, looked)
		}
		if !strings.Contains(looked, `"d0#1": doc {id:`) || !strings.Contains(looked, "chunk:true") {
			t.Errorf("no chunk resolved:\n%s", looked)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
