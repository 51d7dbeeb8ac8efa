package store_test

import (
	"errors"
	"fmt"
	"slices"
	"testing"

	"github.com/annotate-dev/annotate/schema"
	"github.com/annotate-dev/annotate/store"
	"github.com/annotate-dev/annotate/store/storetest"
)

func seedQueries(t *testing.T, s *store.Store) map[string]int64 {
	var ids map[string]int64
	storetest.Seed(t, s, func(b *storetest.Builder) {
		for _, q := range []store.Query{
			{ID: "q1", Text: "one", Persona: "lay", Jurisdiction: "ON", SeedGroup: "g1", SeedDoc: "d1"},
			{ID: "q2", Text: "two", Persona: "professional", Jurisdiction: "ON", SeedGroup: "g1"},
			{ID: "q3", Text: "three", Persona: "lay", Jurisdiction: "BC", SeedGroup: "g2"},
			{ID: "q4", Text: "four", Persona: "lay", Jurisdiction: "BC"},
			{ID: "q5", Text: "five", Persona: "lay", Jurisdiction: "AB", SeedGroup: "g1"},
			{ID: "q6", Text: "six", Persona: "lay", Jurisdiction: "AB", SeedGroup: "g2"},
		} {
			b.Query(q)
		}
		b.Document(store.Document{ID: "d1", Citation: "2019 ONCA 1", Text: "The landlord must give notice."})
		b.GenAnswer(store.GenAnswer{ID: "a1", Query: "q1", System: "gemma", Condition: "oracle", Answer: "Notice. Maybe.",
			Documents: []string{"d1", "d-missing"}, Claims: []store.GenClaim{
				{ID: "a1-c1", Position: 1, Text: "Notice is needed.", Predictions: map[string]map[string]string{"judge": {"grounded": "not_grounded"}}},
				{ID: "a1-c2", Position: 2, Text: "Maybe.", Predictions: map[string]map[string]string{"judge": {"grounded": "grounded"}}},
				{ID: "a1-c3", Position: 3, Text: "Or not.", Predictions: map[string]map[string]string{"judge": {"grounded": "not_grounded"}}},
			}})
		ids = b.IDs
	})
	return ids
}

// checkKept compares the kept counts with a recount from scratch.
func checkKept(t *testing.T, s *store.Store) {
	t.Helper()
	read := func() map[string]int {
		out := map[string]int{}
		rows, err := s.DB().Query("SELECT name, rater, source_id, a, b, n FROM kept_counts")
		if err != nil {
			t.Fatal(err)
		}
		defer rows.Close()
		for rows.Next() {
			var name, a, b string
			var r, src, n int64
			rows.Scan(&name, &r, &src, &a, &b, &n)
			out[fmt.Sprint(name, r, src, a, b)] = int(n)
		}
		return out
	}
	kept := read()
	if err := s.Recount(); err != nil {
		t.Fatal(err)
	}
	again := read()
	for k, n := range again {
		if kept[k] != n {
			t.Errorf("kept %s = %d, recount %d", k, kept[k], n)
		}
	}
	if len(kept) != len(again) {
		t.Errorf("%d kept counts, %d after a recount", len(kept), len(again))
	}
}

func TestAnswerBatchesTakeWholeSeedGroups(t *testing.T) {
	s := storetest.Open(t)
	seedQueries(t, s)
	b, groups, err := s.CreateAnswerBatch(store.BatchSpec{Name: "ans-1", Size: 4, Assign: []string{"jo", "sam"}, Overlap: 1})
	if err != nil {
		t.Fatal(err)
	}
	// g1 (q1, q2, q5) fits in 4; g2 would make 5: the batch stops there.
	if b.Size != 3 || groups != 1 || b.Got["jo"] != 3 || b.Got["sam"] != 0 {
		t.Errorf("batch %+v, %d groups", b, groups)
	}
	items, _ := s.BatchItems("ans-1", "jo")
	if !slices.Equal(items, []string{"q1/answer", "q2/answer", "q5/answer"}) {
		t.Errorf("jo's items %v", items)
	}
	// The rest: g2 (q3, q6) to jo, q4 (no group: its own) to sam.
	b, groups, err = s.CreateAnswerBatch(store.BatchSpec{Name: "ans-2", Assign: []string{"jo", "sam"}, Overlap: 1})
	if err != nil || b.Size != 3 || groups != 2 || b.Got["jo"] != 2 || b.Got["sam"] != 1 {
		t.Errorf("batch %+v, %d groups, %v", b, groups, err)
	}
	if items, _ := s.BatchItems("ans-2", "sam"); !slices.Equal(items, []string{"q4/answer"}) {
		t.Errorf("sam's items %v", items)
	}
	if _, _, err := s.CreateAnswerBatch(store.BatchSpec{Name: "ans-3"}); err == nil {
		t.Error("a third batch found queries left")
	}
	checkKept(t, s)
}

func TestDraftsAreNoLabelsAndSubmitWritesOneEventPerField(t *testing.T) {
	s := storetest.Open(t)
	seedQueries(t, s)
	if _, _, err := s.CreateAnswerBatch(store.BatchSpec{Name: "a", Size: 1}); err != nil {
		t.Fatal(err)
	}
	ref, _ := s.Resolve("q1/answer")
	for _, text := range []string{"The land", "The landlord must give notice."} {
		if err := s.SaveDraft("jo", ref.ItemID, text, "d1\nSmith v Jones", 700); err != nil {
			t.Fatal(err)
		}
	}
	d, ok, err := s.Draft("jo", ref.ItemID)
	if err != nil || !ok || d.GoldAnswer != "The landlord must give notice." || d.ActiveMs != 1400 {
		t.Fatalf("draft %+v %v %v", d, ok, err)
	}
	var events int
	s.DB().QueryRow("SELECT COUNT(*) FROM label_events").Scan(&events)
	if events != 0 {
		t.Fatalf("drafts wrote %d label events", events)
	}
	if err := s.SubmitAnswer("jo", ref.ItemID, d.GoldAnswer, []string{"d1", "Smith v Jones", "d1"}, 300, 0); err != nil {
		t.Fatal(err)
	}
	rows, _ := s.DB().Query("SELECT field, value, active_ms FROM label_events ORDER BY id")
	var got []string
	for rows.Next() {
		var f, v string
		var ms int64
		rows.Scan(&f, &v, &ms)
		got = append(got, fmt.Sprint(f, "=", v, " ", ms))
	}
	rows.Close()
	want := []string{"gold_answer=The landlord must give notice. 1700", `citations=["d1","Smith v Jones"] 0`}
	if !slices.Equal(got, want) {
		t.Errorf("events %q, want %q", got, want)
	}
	if _, ok, _ := s.Draft("jo", ref.ItemID); ok {
		t.Error("the draft outlived the submission")
	}
	checks, err := s.CheckCitations([]string{"d1", " 2019  onca 1", "Smith v Jones"})
	if err != nil || checks[0].Document != "d1" || checks[1].Document != "d1" || checks[2].Document != "" {
		t.Errorf("citations %+v %v", checks, err)
	}
	checkKept(t, s)
}

func TestReviewAcceptsACopyAndRejectsWithAReason(t *testing.T) {
	s := storetest.Open(t)
	seedQueries(t, s)
	s.CreateAnswerBatch(store.BatchSpec{Name: "a", Size: 1})
	ref, _ := s.Resolve("q1/answer")
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(s.SubmitAnswer("jo", ref.ItemID, "First answer.", []string{"d1"}, 0, 0))
	units, err := s.AnswerUnits("")
	if err != nil || len(units) != 1 || units[0].Review != store.ReviewPending || units[0].Task.Query.Text != "one" {
		t.Fatalf("units %+v %v", units, err)
	}
	if err := s.ReviewAnswer("lead", ref.ItemID, "jo", false, "bad", store.AnswerReviewOptions{}); err == nil {
		t.Error("an unknown reason was taken")
	}
	must(s.ReviewAnswer("lead", ref.ItemID, "jo", true, "", store.AnswerReviewOptions{ActiveMs: 900}))
	gold, err := s.GoldAnswerOf("q1")
	if err != nil || gold == nil || gold.Text != "First answer." || !slices.Equal(gold.Citations, []string{"d1"}) {
		t.Fatalf("gold %+v %v", gold, err)
	}
	// The expert edits the answer: it waits for review again, and the gold
	// answer stays what was accepted.
	must(s.SubmitAnswer("jo", ref.ItemID, "Second answer.", nil, 0, 0))
	units, _ = s.AnswerUnits("")
	if units[0].Review != store.ReviewPending || units[0].Answer != "Second answer." {
		t.Errorf("after an edit %+v", units[0])
	}
	if gold, _ := s.GoldAnswerOf("q1"); gold == nil || gold.Text != "First answer." {
		t.Errorf("gold after an edit %+v", gold)
	}
	must(s.ReviewAnswer("lead", ref.ItemID, "jo", false, "off_target", store.AnswerReviewOptions{}))
	if gold, _ := s.GoldAnswerOf("q1"); gold != nil {
		t.Errorf("a rejected answer is gold: %+v", gold)
	}
	units, _ = s.AnswerUnits("")
	if units[0].Review != store.ReviewRejected || units[0].Reason != "off_target" {
		t.Errorf("rejected %+v", units[0])
	}
	// Undo takes the whole review back: the acceptance stands again.
	evs, err := s.UndoAdjudication("lead")
	if err != nil || len(evs) != 2 {
		t.Fatalf("undo %v %v", evs, err)
	}
	if gold, _ := s.GoldAnswerOf("q1"); gold == nil || gold.Text != "First answer." {
		t.Errorf("gold after undo %+v", gold)
	}
	checkKept(t, s)
}

func TestGenEvidenceAndSamples(t *testing.T) {
	s := storetest.Open(t)
	ids := seedQueries(t, s)
	ev, err := s.GenEvidenceOf(ids["a1-c1"])
	if err != nil || ev.Gold != nil || len(ev.Documents) != 1 || ev.Documents[0].ID != "d1" || !slices.Equal(ev.Missing, []string{"d-missing"}) {
		t.Fatalf("evidence %+v %v", ev, err)
	}
	s.CreateAnswerBatch(store.BatchSpec{Name: "a", Size: 1})
	ref, _ := s.Resolve("q1/answer")
	s.SubmitAnswer("jo", ref.ItemID, "Gold.", nil, 0, 0)
	s.ReviewAnswer("lead", ref.ItemID, "jo", true, "", store.AnswerReviewOptions{})
	if ev, _ := s.GenEvidenceOf(ids["a1-c1"]); ev.Gold == nil || ev.Gold.Text != "Gold." {
		t.Errorf("gold evidence %+v", ev.Gold)
	}
	spec := store.BatchSpec{Name: "s1", Assign: []string{"jo"}}
	if _, _, err := s.SampleGenClaims(spec, store.GenSample{Sample: 1, Where: []string{"not_grounded"}}); err == nil {
		t.Error("a sample without a seed")
	}
	seed := int64(4)
	spec.Seed = &seed
	if _, _, err := s.SampleGenClaims(spec, store.GenSample{Sample: 1, Where: []string{"nope"}}); err == nil {
		t.Error("--where nope was taken")
	}
	b, pool, err := s.SampleGenClaims(spec, store.GenSample{Sample: 1, Where: []string{"not_grounded"}, System: "gemma"})
	if err != nil || pool != 2 || b.Size != 1 {
		t.Fatalf("sample %+v of %d: %v", b, pool, err)
	}
	first, _ := s.BatchItems("s1", "")
	spec.Name = "s2"
	b, pool, err = s.SampleGenClaims(spec, store.GenSample{Sample: 5, Where: []string{"not_grounded"}})
	second, _ := s.BatchItems("s2", "")
	if err != nil || pool != 1 || b.Size != 1 || first[0] == second[0] || !slices.Contains([]string{"a1-c1", "a1-c3"}, second[0]) {
		t.Errorf("second sample %v after %v (pool %d): %v", second, first, pool, err)
	}
	spec.Name = "s3"
	if _, _, err := s.SampleGenClaims(spec, store.GenSample{Sample: 5, Where: []string{"not_grounded"}}); err == nil {
		t.Error("a third sample found claims left")
	}
	checkKept(t, s)
}

func TestTaxonomyIsStored(t *testing.T) {
	s := storetest.Open(t)
	ids := seedQueries(t, s)
	storetest.Seed(t, s, func(b *storetest.Builder) {
		b.IDs = ids
		b.Labels("jo", "a1-c1", "accuracy_support=not_supported", "grounded=not_grounded", `error_category=["irrelevant","too_detailed"]`)
	})
	if cats, err := s.Taxonomy(); err != nil || cats != nil {
		t.Fatalf("a new database has a taxonomy: %v %v", cats, err)
	}
	mine := []schema.ErrorKind{{Value: "irrelevant", Label: "Irrelevant", Group: "quality", Definition: "d"}}
	outside, err := s.SetTaxonomy(mine)
	if err != nil || len(outside) != 1 || outside["too_detailed"] != 1 {
		t.Errorf("outside %v %v", outside, err)
	}
	if cats, _ := s.Taxonomy(); !slices.Equal(cats, mine) {
		t.Errorf("stored %v", cats)
	}
	if _, err := s.SetTaxonomy(nil); err != nil {
		t.Fatal(err)
	}
	if cats, _ := s.Taxonomy(); cats != nil {
		t.Errorf("reset left %v", cats)
	}
	var nf error = store.ErrNotFound
	if _, err := s.GoldAnswerOf("nope"); !errors.Is(err, nf) {
		t.Errorf("gold of an unknown query: %v", err)
	}
}
