package adjudicate

import (
	"strings"
	"testing"

	"github.com/annotate-dev/annotate/schema"
	"github.com/annotate-dev/annotate/store"
	"github.com/annotate-dev/annotate/store/storetest"
)

// CanLegalRAGBench items reviewed: each shows what the annotators saw, not
// an empty QA pair.
func init() {
	screenCases = append(screenCases,
		screenCase{"relevance", Options{}, nil, "", []string{"Review · relevance · 1 of 1", "Query", "Can my landlord evict me",

			"lay · ON", "Document d-rta", "¶ d-rta · Residential Tenancies Act", "[y/1] relevant"}, relevanceStore},
		screenCase{"gen-claim", Options{}, nil, "", []string{"Review · grounded · 1 of 1", "Claim 1 of a generated answer to query q1",
			"The landlord must give sixty days", "Gold answer", "Documents", "¶ d-rta"}, genClaimStore},
	)
}

const landlordQuery = "Can my landlord evict me without notice?"

func canLegalSeed(b *storetest.Builder) {
	b.Query(store.Query{ID: "q1", Text: landlordQuery, Persona: "lay", Jurisdiction: "ON"})
	b.Document(store.Document{ID: "d-rta", Title: "Residential Tenancies Act", Text: strings.Repeat("A landlord may evict a tenant only after notice of termination. ", 30)})
}

// relevanceStore: a run retrieved the Act for the query, the pair was
// pooled for jo and sam, and they disagree on whether it is relevant.
func relevanceStore(t testing.TB) *store.Store {
	s := openStore(t)
	storetest.Seed(t, s, func(b *storetest.Builder) {
		canLegalSeed(b)
		if err := b.Tx.BeginRuns(); err != nil {
			t.Fatal(err)
		}
		b.Fail(b.Tx.StageRunRow(store.RunRow{Run: "bm25", Query: "q1", Doc: "d-rta", Rank: 1, Score: 9, Line: 1}), "run row")
		_, err := b.Tx.WriteRuns(false, func(int) string { return "bm25.run" })
		b.Fail(err, "runs")
	})
	if _, err := s.CreatePool(store.PoolSpec{Name: "pool-1", Runs: []string{"bm25"}, Depth: 1, Assign: []string{"jo", "sam"}}); err != nil {
		t.Fatal(err)
	}
	storetest.Seed(t, s, func(b *storetest.Builder) {
		ref, err := s.Resolve(store.RelevanceID("q1", "d-rta"))
		b.Fail(err, "pair")
		b.IDs["q1/d-rta"] = ref.ItemID
		b.Label("jo", "q1/d-rta", schema.Relevance, "relevant")
		b.Label("sam", "q1/d-rta", schema.Relevance, "not_relevant")
		b.Label("sam", "q1/d-rta", schema.IrrelevanceReason, "different_issue")
	})
	return s
}

// genClaimStore: jo and sam disagree on whether a generated claim is
// grounded in the document its answer used.
func genClaimStore(t testing.TB) *store.Store {
	s := openStore(t)
	storetest.Seed(t, s, func(b *storetest.Builder) {
		canLegalSeed(b)
		b.GenAnswer(store.GenAnswer{ID: "a1", Query: "q1", System: "gemma", Condition: "oracle", Answer: "Sixty days.",
			Documents: []string{"d-rta"}, Claims: []store.GenClaim{{ID: "a1-c1", Position: 1, Text: "The landlord must give sixty days of notice."}}})
		b.Labels("jo", "a1-c1", schema.AccuracySupport+"=supported", schema.Grounded+"=grounded")
		b.Labels("sam", "a1-c1", schema.AccuracySupport+"=supported", schema.Grounded+"=not_grounded")
	})
	return s
}
