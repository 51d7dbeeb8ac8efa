package store

import (
	"path/filepath"
	"testing"

	"github.com/annotate-dev/annotate/guidelines"
)

// One version number covers both languages: version 1 holds the shipped
// English and French; an English edit is the next version with the French
// carried over (now older than the English); a French edit the next one
// with the English carried over; a text unchanged in its language adds
// nothing.
func TestGuidelinesInBothLanguages(t *testing.T) {
	s := openTemp(t)
	cur, err := s.CurrentGuidelines()
	if err != nil {
		t.Fatal(err)
	}
	v := cur["persona"]
	fr, _ := guidelines.EmbeddedIn("persona", guidelines.French)
	if v.Version != 1 || v.Lang != "" || v.TextFR != normalText(fr) || v.FrenchBehind() || v.EnglishOf != 1 || v.FrenchOf != 1 {
		t.Fatalf("version 1: %+v", v)
	}
	if got := v.TextIn(guidelines.French); got != normalText(fr) {
		t.Errorf("the French of version 1 is not the shipped French")
	}

	added, err := s.AddGuidelines("lead", "edit", []GuidelineText{{Field: "persona", Text: "## persona — Who?\n\nNew English.\n"}})
	if err != nil || len(added) != 1 || added[0].Version != 2 || added[0].Lang != guidelines.English {
		t.Fatalf("English edit: %+v %v", added, err)
	}
	cur, _ = s.CurrentGuidelines()
	v = cur["persona"]
	if v.Version != 2 || v.Text != "## persona — Who?\n\nNew English.\n" || v.TextFR != normalText(fr) {
		t.Fatalf("version 2 holds %q / French kept %v", v.Text, v.TextFR == normalText(fr))
	}
	if !v.FrenchBehind() || v.FrenchOf != 1 || v.EnglishOf != 2 {
		t.Errorf("after an English edit the French is not said older: French of %d, English of %d", v.FrenchOf, v.EnglishOf)
	}

	frText := "## persona — Qui ?\n\nNouveau texte.\n"
	added, err = s.AddGuidelines("lead", "edit", []GuidelineText{{Field: "persona", Text: frText, Lang: guidelines.French}})
	if err != nil || len(added) != 1 || added[0].Version != 3 || added[0].Lang != guidelines.French {
		t.Fatalf("French edit: %+v %v", added, err)
	}
	cur, _ = s.CurrentGuidelines()
	v = cur["persona"]
	if v.Text != "## persona — Who?\n\nNew English.\n" || v.TextFR != frText || v.FrenchBehind() || v.FrenchOf != 3 || v.EnglishOf != 2 {
		t.Errorf("version 3: %+v", v)
	}
	if added, err := s.AddGuidelines("lead", "edit", []GuidelineText{{Field: "persona", Text: frText + "\n\n", Lang: guidelines.French}}); err != nil || len(added) != 0 {
		t.Errorf("an unchanged French text added %+v %v", added, err)
	}
	if _, err := s.AddGuidelines("lead", "edit", []GuidelineText{{Field: "persona", Text: "x", Lang: "de"}}); err == nil {
		t.Error("a text in German was recorded")
	}
	h, _ := s.GuidelineHistory("persona")
	var langs []string
	for _, v := range h {
		langs = append(langs, v.Lang)
	}
	if len(langs) != 3 || langs[0] != "" || langs[1] != "en" || langs[2] != "fr" {
		t.Errorf("history languages %q", langs)
	}
	// A label records the one number, whatever language its annotator
	// read: persona is asked of a valid question.
	seed(t, s, 1, 0)
	label(t, s, "jo", "q1", "question_validity", "valid")
	label(t, s, "jo", "q1", "persona", "citizen")
	var version string
	if err := s.db.QueryRow("SELECT guidelines_version FROM label_events WHERE field = 'persona'").Scan(&version); err != nil || version != "3" {
		t.Errorf("a label made now records version %q (%v), want 3", version, err)
	}
}

func tempPath(t *testing.T) string { return filepath.Join(t.TempDir(), "t.db") }

// A database from before the French guidelines (its versions without
// French) gets them on open: version 1 the shipped French, marked as both
// languages; a lead's later English version the French of the version
// before it, so that it says the French is older.
func TestFrenchFilledOnUpgrade(t *testing.T) {
	path := tempPath(t)
	s, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.AddGuidelines("lead", "edit", []GuidelineText{{Field: "entailment", Text: "## entailment — E\n\nv2.\n"}}); err != nil {
		t.Fatal(err)
	}
	// What the migration leaves of a database written before it.
	if _, err := s.db.Exec("UPDATE guideline_versions SET text_fr = '', changed = 'en'"); err != nil {
		t.Fatal(err)
	}
	if _, err := s.db.Exec("UPDATE guideline_versions SET changed = '' WHERE version = 1 AND author = 'annotate' AND source LIKE 'embedded %'"); err != nil {
		t.Fatal(err)
	}
	s.Close()
	if s, err = Open(path); err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	cur, err := s.CurrentGuidelines()
	if err != nil {
		t.Fatal(err)
	}
	fr, _ := guidelines.EmbeddedIn("entailment", guidelines.French)
	e := cur["entailment"]
	if e.Version != 2 || e.TextFR != normalText(fr) || !e.FrenchBehind() || e.FrenchOf != 1 || e.EnglishOf != 2 {
		t.Errorf("entailment after the upgrade: %+v", e)
	}
	p := cur["persona"]
	frP, _ := guidelines.EmbeddedIn("persona", guidelines.French)
	if p.Version != 1 || p.Lang != "" || p.TextFR != normalText(frP) || p.FrenchBehind() {
		t.Errorf("persona after the upgrade: %+v", p)
	}
	var empty int
	s.db.QueryRow("SELECT count(*) FROM guideline_versions WHERE text_fr = ''").Scan(&empty)
	if empty != 0 {
		t.Errorf("%d versions without French after the upgrade", empty)
	}
}

// An annotator's language: set (creating the annotator), read back,
// cleared; unknown annotators have none; another language is refused.
func TestAnnotatorLang(t *testing.T) {
	s := openTemp(t)
	if l, err := s.AnnotatorLang("nobody"); err != nil || l != "" {
		t.Errorf("an unknown annotator: %q %v", l, err)
	}
	if err := s.SetAnnotatorLang("kim", "fr"); err != nil {
		t.Fatal(err)
	}
	if l, err := s.AnnotatorLang("kim"); err != nil || l != "fr" {
		t.Errorf("kim: %q %v", l, err)
	}
	if err := s.SetAnnotatorLang("kim", ""); err != nil {
		t.Fatal(err)
	}
	if l, _ := s.AnnotatorLang("kim"); l != "" {
		t.Errorf("cleared: %q", l)
	}
	if err := s.SetAnnotatorLang("kim", "de"); err == nil {
		t.Error("German was recorded")
	}
}
