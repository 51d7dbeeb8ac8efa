package exporter

import (
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/annotate-dev/annotate/guidelines"
	"github.com/annotate-dev/annotate/store"
	"github.com/annotate-dev/annotate/store/storetest"
)

// TestCardListsTheGuidelinesVersionsUsed: jo labels three questions under
// version 1, the lead edits question_validity, jo labels a fourth; one
// label is given the version of an older release (as labels made before
// the guidelines were kept in the database carry). The card lists each
// field's versions with their author, date and count of labels.
func TestCardListsTheGuidelinesVersionsUsed(t *testing.T) {
	s := storetest.Open(t)
	storetest.Seed(t, s, func(b *storetest.Builder) {
		for _, id := range []string{"q1", "q2", "q3", "q4"} {
			b.QA(id, "GDPR", "en", "factual_recall")
		}
		for _, id := range []string{"q1", "q2", "q3"} {
			b.Labels("jo", id, "question_validity=valid", "category=factual_recall")
		}
	})
	if _, err := s.AddGuidelines("lead", "edit", []store.GuidelineText{{Field: "question_validity", Text: "## question_validity — v2\n\nNew.\n"}}); err != nil {
		t.Fatal(err)
	}
	ref, _ := storetest.Read(t, s).Resolve("q4")
	if _, err := s.RecordLabel(store.Label{Annotator: "jo", ItemID: ref.ItemID, Field: "question_validity", Value: "invalid"}); err != nil {
		t.Fatal(err)
	}
	if _, err := storetest.DB(t, s).Exec(`UPDATE label_events SET guidelines_version = '2026-11-20.1'
		WHERE field = 'category' AND item_id = (SELECT id FROM items WHERE ext_id = 'q1')`); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "ds")
	export(t, s, Options{Out: out, Annotator: "jo"})
	_, card := readCard(t, out)
	date := `\d{4}-\d\d-\d\d`
	for _, row := range []string{
		"| `question_validity` | 1 | annotate (embedded " + regexp.QuoteMeta(guidelines.Version) + ") | " + date + " | 3 |",
		"| `question_validity` | 2 | lead | " + date + " | 1 |",
		"| `category` | 1 | annotate (embedded " + regexp.QuoteMeta(guidelines.Version) + ") | " + date + " | 2 |",
		"| `category` | annotate 2026-11-20.1 (release) | — | — | 1 |",
	} {
		if !regexp.MustCompile(`(?m)^` + strings.NewReplacer("|", `\|`, "(", `\(`, ")", `\)`).Replace(row) + `$`).MatchString(card) {
			t.Errorf("the card lacks the row %s:\n%s", row, card[strings.Index(card, "annotation guidelines"):])
		}
	}
	if !strings.Contains(card, "version 1 is the text annotate ships ("+guidelines.Version+")") {
		t.Error("the card does not say what version 1 is")
	}
}
