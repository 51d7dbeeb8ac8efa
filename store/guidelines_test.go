package store

import (
	"slices"
	"strings"
	"testing"

	"github.com/annotate-dev/annotate/guidelines"
)

// TestGuidelinesSeeded: a fresh database holds version 1 of every field,
// the embedded text, by annotate; opening it again writes nothing more.
func TestGuidelinesSeeded(t *testing.T) {
	s := openTemp(t)
	cur, err := s.pooled().CurrentGuidelines()
	if err != nil {
		t.Fatal(err)
	}
	if len(cur) != len(embeddedFields()) {
		t.Fatalf("%d fields seeded, want %d", len(cur), len(embeddedFields()))
	}
	for _, f := range embeddedFields() {
		v := cur[f]
		want, _ := guidelines.Embedded(f)
		if v.Version != 1 || v.Author != SeedAuthor || v.Source != "embedded "+guidelines.Version || v.Text != strings.TrimRight(want, "\n")+"\n" {
			t.Errorf("%s: version %d by %q from %q, text equal %v", f, v.Version, v.Author, v.Source, v.Text == want)
		}
	}
	if err := s.seedGuidelines(); err != nil {
		t.Fatal(err)
	}
	var n int
	s.db.QueryRow("SELECT count(*) FROM guideline_versions").Scan(&n)
	if n != len(embeddedFields()) {
		t.Errorf("%d rows after a second seeding, want %d", n, len(embeddedFields()))
	}
}

// TestGuidelinesSeededOnUpgrade: the version-1 database of the migration
// test gets version 1 of every field when it is opened.
func TestGuidelinesSeededOnUpgrade(t *testing.T) {
	s, err := Open(copyV1(t))
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	h, err := s.pooled().GuidelineHistory("entailment")
	if err != nil {
		t.Fatal(err)
	}
	if len(h) != 1 || h[0].Version != 1 || h[0].Field != "entailment" {
		t.Fatalf("history of entailment after the upgrade: %+v", h)
	}
}

// TestGuidelineVersions: a changed text is the next version of its field
// only; an unchanged one (up to trailing blank lines) adds nothing; labels
// record the number of their field's version in force, the missed-claims
// markers the version of their step.
func TestGuidelineVersions(t *testing.T) {
	s := openTemp(t)
	seed(t, s, 2, 1)
	label(t, s, "jo", "q1", "question_validity", "valid")
	e1, _ := guidelines.Embedded("entailment")
	added, err := s.AddGuidelines("lead", "edit", []GuidelineText{
		{Field: "question_validity", Text: "## question_validity — new\n\nA new rule.\n"},
		{Field: "entailment", Text: e1 + "\n\n"},
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(added) != 1 || added[0].Field != "question_validity" || added[0].Version != 2 || added[0].Author != "lead" {
		t.Fatalf("added %+v, want question_validity version 2 by lead", added)
	}
	label(t, s, "sam", "q1", "question_validity", "invalid")
	label(t, s, "sam", "q1-c1", "claim_validity", "correct")
	added, err = s.AddGuidelines("lead", "import g.md", []GuidelineText{{Field: "question_validity", Text: "## question_validity — third\n\nRule three.\n"},
		{Field: "missed_claims", Text: "## missed_claims\n\nCheck.\n"}})
	if err != nil || len(added) != 2 || added[0].Version != 3 || added[1].Version != 2 {
		t.Fatalf("second change: %+v, %v", added, err)
	}
	label(t, s, "jo", "q2", "question_validity", "valid")
	qa, _ := s.pooled().Resolve("q1")
	if _, err := s.AddMissedClaim("jo", qa.ItemID, [3]string{"a", "b", "c"}, 0); err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	rows, err := s.db.Query(`SELECT a.name || ' ' || i.ext_id || ' ' || e.field, e.guidelines_version FROM label_events e
		JOIN annotators a ON a.id=e.annotator_id JOIN items i ON i.id=e.item_id`)
	if err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
		var k, v string
		rows.Scan(&k, &v)
		got[k] = v
	}
	rows.Close()
	want := map[string]string{
		"jo q1 question_validity":     "1",
		"sam q1 question_validity":    "2",
		"sam q1-c1 claim_validity":    "1",
		"jo q2 question_validity":     "3",
		"jo q1 missed_claims_checked": "2",
	}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("%s: guidelines version %q, want %q", k, got[k], v)
		}
	}
	h, err := s.pooled().GuidelineHistory("question_validity")
	if err != nil {
		t.Fatal(err)
	}
	var vs []string
	for _, v := range h {
		vs = append(vs, v.Author+"/"+v.Source)
	}
	if !slices.Equal(vs, []string{"annotate/embedded " + guidelines.Version, "lead/edit", "lead/import g.md"}) {
		t.Errorf("history %v", vs)
	}
	all, _ := s.pooled().GuidelineHistory("")
	if len(all) != len(embeddedFields())+3 || all[0].Field != guidelines.Fields()[0] {
		t.Errorf("whole history: %d rows, first %q", len(all), all[0].Field)
	}
	cur, _ := s.pooled().CurrentGuidelines()
	if cur["question_validity"].Text != "## question_validity — third\n\nRule three.\n" || cur["question_validity"].Version != 3 {
		t.Errorf("current question_validity: %+v", cur["question_validity"])
	}
}

func TestAddGuidelinesRefusesAndWritesNothing(t *testing.T) {
	s := openTemp(t)
	for _, texts := range [][]GuidelineText{
		{{Field: "persona", Text: "## persona\n\nok\n"}, {Field: "relevancy", Text: "x"}},
		{{Field: "persona", Text: "## persona\n\nok\n"}, {Field: "category", Text: " \n\n"}},
	} {
		if _, err := s.AddGuidelines("lead", "edit", texts); err == nil {
			t.Errorf("%+v: no error", texts)
		}
	}
	if _, err := s.AddGuidelines("", "edit", []GuidelineText{{Field: "persona", Text: "x"}}); err == nil {
		t.Error("a version without author was accepted")
	}
	h, _ := s.pooled().GuidelineHistory("persona")
	if len(h) != 1 {
		t.Errorf("persona has %d versions after refused changes, want 1", len(h))
	}
}

// embeddedFields are the sections that ship with a text: every field of the
// real kinds (this package's tests also register a toy kind, which has none).
func embeddedFields() []string {
	var out []string
	for _, f := range guidelines.Fields() {
		if _, ok := guidelines.Embedded(f); ok {
			out = append(out, f)
		}
	}
	return out
}
