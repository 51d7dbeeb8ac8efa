package importer

import (
	"slices"
	"strings"
	"testing"

	"github.com/annotate-dev/annotate/schema"
)

// The kinds of records of their own are kept in the kinds' order whatever
// order their files register in (kind_claim.go's init runs before
// kind_qa.go's): the summary speaks of QA pairs before claims, and the
// staged copies of pairs are written before the claims that need them.
func TestRowKindsFollowTheKindsOrder(t *testing.T) {
	savedKinds, savedRows, savedHF := kinds, rowKinds, hfOrder
	defer func() { kinds, rowKinds, hfOrder = savedKinds, savedRows, savedHF }()
	for _, order := range [][]schema.Kind{{schema.KindClaim, schema.KindQA}, {schema.KindQA, schema.KindClaim}} {
		kinds, rowKinds, hfOrder = schema.Registry[Kind]{}, nil, nil
		for _, k := range order {
			Register(savedKinds.Get(k))
		}
		var f FileSummary
		f.File, f.Format = "x.jsonl", FormatNative
		f.QA.Added, f.Claims.Added, f.Claims.Updated = 1, 2, 1
		// Written by hand from the summary's wording.
		want := "x.jsonl (native): 1 QA pair added; 2 claims added, 1 updated; 0 labels added"
		if got := (Summary{Files: []FileSummary{f}}).String(); got != want {
			t.Errorf("registered %v: got %q, want %q", order, got, want)
		}
		_, first0 := rowKinds[0].(stagedFirst)
		_, first1 := rowKinds[1].(stagedFirst)
		if rowKinds[0].Kind() != schema.KindQA || !first0 || first1 {
			t.Errorf("registered %v: staged in the order %s (before items: %v), want the copies of pairs before the items, the claims after",
				order, []schema.Kind{rowKinds[0].Kind(), rowKinds[1].Kind()}, []bool{first0, first1})
		}
		if got := hfConfigs()[:2]; !slices.Equal(got, []string{"qa", "claims"}) {
			t.Errorf("registered %v: hf configs read first %v, want a claim's pair read before it: [qa claims]", order, got)
		}
	}
}

// An hf folder's configs are read in the kinds' order, each after those it
// reads after: a relevance pair's query and document before it (its rows
// would wait for them otherwise), the runs after the items, the long
// configs of --all-annotators last.
func TestHFConfigsOrder(t *testing.T) {
	want := []string{"qa", "claims", "queries", "documents", "relevance", "answers", "gen_answers", "gen_claims", "runs",
		"qa_by_annotator", "claims_by_annotator", "queries_by_annotator", "answers_by_annotator", "gen_claims_by_annotator"}
	var got []string
	for _, c := range hfConfigs() {
		if k, ok := hfKindOfConfig(strings.TrimSuffix(c, byAnnotatorSuffix)); !ok || kindOrder(k) < 100 || c == hfRunsConfig {
			got = append(got, c) // the product's (a test kind has an order of its own, past 900)
		}
	}
	if !slices.Equal(got, want) {
		t.Errorf("hf configs read in the order\n%v\nwant\n%v", got, want)
	}
}

// An id met as one kind and then as another names both in the kinds' words.
func TestKindNameSaysTheKind(t *testing.T) {
	for k, want := range map[schema.Kind]string{schema.KindQA: "a QA pair", schema.KindClaim: "a claim", schema.KindQuery: "a query"} {
		if got := kindName(k); got != want {
			t.Errorf("kindName(%s) = %q, want %q", k, got, want)
		}
	}
}
