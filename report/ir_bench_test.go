package report

import (
	"fmt"
	"testing"

	"github.com/annotate-dev/annotate/schema"
	"github.com/annotate-dev/annotate/store"
)

// BenchmarkIR5000: annotate ir over 5,000 queries, 4 runs of 20 ranked
// documents each (400,000 run rows), 15,000 gold judgments and 10,000
// expert judgments, with a breakdown by jurisdiction. The report reads one
// snapshot with a handful of statements whatever the number of queries.
func BenchmarkIR5000(b *testing.B) {
	const queries, docs, depth = 5000, 2000, 20
	s := openStore(b)
	err := s.Import(func(tx *store.Tx) error {
		for i := 0; i < docs; i++ {
			d := store.Document{ID: fmt.Sprintf("d%d", i), Text: "text"}
			if _, _, err := tx.PutDocument(d, d.ID, "b", false); err != nil {
				return err
			}
		}
		for q := 0; q < queries; q++ {
			qq := store.Query{ID: fmt.Sprintf("q%d", q), Text: "q", Persona: []string{"lay", "professional"}[q%2],
				Jurisdiction: []string{"ON", "BC", "AB"}[q%3]}
			if _, _, err := tx.PutQuery(qq, qq.ID, "b", false); err != nil {
				return err
			}
		}
		if err := tx.BeginRuns(); err != nil {
			return err
		}
		line := 0
		for r := 0; r < 4; r++ {
			for q := 0; q < queries; q++ {
				for k := 1; k <= depth; k++ {
					line++
					row := store.RunRow{Run: fmt.Sprintf("run%d", r), Query: fmt.Sprintf("q%d", q), Doc: fmt.Sprintf("d%d", (q*7+k*(r+1))%docs), Rank: k, Score: 1 / float64(k), Line: line}
					if err := tx.StageRunRow(row); err != nil {
						return err
					}
				}
			}
		}
		if _, err := tx.WriteRuns(false, func(int) string { return "b.run" }); err != nil {
			return err
		}
		for q := 0; q < queries; q++ {
			for j, who := range []string{"gold", "gold", "gold", "jo", "jo"} {
				doc := fmt.Sprintf("d%d", (q*7+(j+1)*(j%4+1))%docs)
				id, _, err := tx.PutRelevance(fmt.Sprintf("q%d", q), doc, "b")
				if err != nil {
					continue // the same pair twice: judged once
				}
				v := schema.Relevant
				if (q+j)%3 == 0 {
					v = schema.NotRelevant
				}
				if _, err := tx.PutLabel(store.Label{Annotator: who, ItemID: id, Field: schema.Relevance, Value: v}); err != nil {
					return err
				}
			}
		}
		return nil
	})
	if err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		rep, err := store.ReadWith(s, IR, IROptions{K: 10, By: "jurisdiction", Selection: Selection{Annotator: "jo"}})
		if err != nil {
			b.Fatal(err)
		}
		if rep.Queries != queries {
			b.Fatalf("%d queries", rep.Queries)
		}
	}
}
