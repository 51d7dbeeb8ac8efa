package tui

import (
	"bytes"
	"fmt"
	"image/color"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"
	"github.com/charmbracelet/x/ansi"

	"github.com/annotate-dev/annotate/schema"
	"github.com/annotate-dev/annotate/store"
	"github.com/annotate-dev/annotate/store/storetest"
	"github.com/annotate-dev/annotate/tui/adjudicate"
)

// reviewStore holds one QA pair with three claims that jo and sam label:
// they disagree on the entailment of c2 and c3 only, so the review opens
// on gdpr-001-c2.
func reviewStore(t testing.TB) *store.Store {
	s := openStore(t)
	storetest.Seed(t, s, func(b *storetest.Builder) {
		b.QA("gdpr-001", "GDPR", "en", "factual_recall")
		for _, c := range []string{"gdpr-001-c1", "gdpr-001-c2", "gdpr-001-c3"} {
			b.Claim("gdpr-001", c, map[string]string{"refchecker": "entailment"})
		}
		for _, who := range []string{"jo", "sam"} {
			for i, c := range []string{"gdpr-001-c1", "gdpr-001-c2", "gdpr-001-c3"} {
				ent := "entailment"
				if who == "sam" && i > 0 {
					ent = "contradiction"
				}
				b.Labels(who, c, schema.ClaimValidity+"=correct", schema.Entailment+"="+ent)
			}
		}
	})
	return s
}

// reviewHarness drives the one root model started on the review screen.
func reviewHarness(t testing.TB, s *store.Store, start Screen) *harness {
	t.Helper()
	return newHarness(t, s, Options{Annotator: "lead", Start: start})
}

// leadEvents counts the lead's label events (adjudications, notes and
// flags are not label events; flags are checked apart).
func leadEvents(t testing.TB, s *store.Store) int {
	t.Helper()
	var n int
	err := storetest.DB(t, s).QueryRow("SELECT COUNT(*) FROM label_events e JOIN annotators a ON a.id=e.annotator_id WHERE a.name='lead'").Scan(&n)
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// The review screen is a child of the one root model: it opens on the
// first disagreement, a digit adjudicates it, and the window title is the
// review's.
func TestReviewIsAScreenOfTheRoot(t *testing.T) {
	s := reviewStore(t)
	h := reviewHarness(t, s, Review(adjudicate.Options{Store: s, Lead: "lead"}))
	if v := h.view(); !strings.Contains(v, "gdpr-001-c2") {
		t.Fatalf("the review does not open on gdpr-001-c2:\n%s", v)
	}
	if got := h.m.View().WindowTitle; got != "annotate review — lead" {
		t.Errorf("window title %q", got)
	}
	h.keys("3") // contradiction
	if n := leadEvents(t, s); n != 1 {
		t.Fatalf("%d adjudications written, want 1", n)
	}
	if v := h.view(); !strings.Contains(v, "gdpr-001-c3") {
		t.Fatalf("after the adjudication the review is not on gdpr-001-c3:\n%s", v)
	}
}

// The root's "please enlarge" screen hides the review as it hides an
// item: keys typed meanwhile adjudicate and flag nothing, and the screen
// says how many were ignored. (Before one root, the review had a copy of
// this screen of its own.)
func TestReviewTooSmallIgnoresKeys(t *testing.T) {
	s := reviewStore(t)
	h := reviewHarness(t, s, Review(adjudicate.Options{Store: s, Lead: "lead"}))
	h.send(tea.WindowSizeMsg{Width: 20, Height: 6})
	h.keys("1", "f")
	if got := strings.ReplaceAll(h.view(), "\n", " "); !strings.Contains(got, "2 keys ignored") {
		t.Fatalf("the small screen does not say the keys were ignored:\n%s", h.view())
	}
	h.send(tea.WindowSizeMsg{Width: 100, Height: 30})
	if v := h.view(); !strings.Contains(v, "2 keys typed while the terminal was too small were ignored") {
		t.Errorf("the review's status line does not say the keys were ignored:\n%s", v)
	}
	if n := leadEvents(t, s); n != 0 {
		t.Fatalf("%d adjudications written under the small screen", n)
	}
	ref, _ := storetest.Read(t, s).Resolve("gdpr-001-c2")
	if _, flagged, _ := storetest.Read(t, s).ItemNote("lead", ref.ItemID); flagged {
		t.Fatal("f flagged the hidden unit")
	}
}

// hasColour reports whether a rendering sets a foreground or background
// colour (SGR 30-49 or their 256/true-colour forms).
func hasColour(s string) bool {
	for _, p := range []string{"\x1b[3", "\x1b[4", ";3", ";4"} {
		for i := 0; i+len(p) < len(s); i++ {
			if strings.HasPrefix(s[i:], p) && s[i+len(p)] >= '0' && s[i+len(p)] <= '9' && strings.Contains(s[:i+1], "\x1b[") {
				return true
			}
		}
	}
	return false
}

// NO_COLOR sent over SSH (a tea.EnvMsg: the client's environment) turns the
// colours off on the review screens as on the annotation screens: the
// root handles it once for every screen. Before one root, the review roots
// ignored it (they kept colours), the answer review even locally.
func TestReviewScreensHonourNoColor(t *testing.T) {
	s := reviewStore(t)
	storetest.Seed(t, s, func(b *storetest.Builder) {
		b.Query(store.Query{ID: "q1", Text: "First query?"})
		b.AnswerTask("q1")
	})
	ref, _ := storetest.Read(t, s).Resolve(store.AnswerTaskID("q1"))
	if err := s.SubmitAnswer("jo", ref.ItemID, "Answer one.", nil, 0, 0); err != nil {
		t.Fatal(err)
	}
	for name, start := range map[string]Screen{
		"review":  Review(adjudicate.Options{Store: s, Lead: "lead"}),
		"system":  Review(adjudicate.Options{Store: s, Lead: "lead", StartSystem: true, Experts: []store.LabelSet{{Annotator: "jo"}}}),
		"answers": AnswerReview(adjudicate.AnswerOptions{Store: s, Lead: "lead"}),
	} {
		h := reviewHarness(t, s, start)
		if !hasColour(h.m.render()) {
			t.Fatalf("%s: no colour before NO_COLOR (the test would prove nothing):\n%q", name, h.m.render())
		}
		h.send(tea.EnvMsg{"TERM=xterm-256color", "NO_COLOR=1"})
		if v := h.m.render(); hasColour(v) {
			t.Errorf("%s: colours after NO_COLOR=1 over SSH:\n%q", name, v)
		}
		h.send(tea.EnvMsg{"TERM=xterm-256color"})
		if !hasColour(h.m.render()) {
			t.Errorf("%s: colours do not come back without NO_COLOR", name)
		}
	}
}

// answersStore is reviewStore with one submitted gold answer to review.
func answersStore(t testing.TB) *store.Store {
	s := reviewStore(t)
	storetest.Seed(t, s, func(b *storetest.Builder) {
		b.Document(store.Document{ID: "d1", Citation: "2099 ONSC 1", Text: "The seed document's text."})
		b.Query(store.Query{ID: "q1", Text: "What notice must a landlord give?", Persona: "lay", Jurisdiction: "ON", SeedDoc: "d1"})
		b.AnswerTask("q1")
	})
	ref, _ := storetest.Read(t, s).Resolve(store.AnswerTaskID("q1"))
	if err := s.SubmitAnswer("jo", ref.ItemID, "Sixty days of notice.", []string{"d1"}, 0, 0); err != nil {
		t.Fatal(err)
	}
	return s
}

// reviewScreens are the review screens as the root hosts them, for the
// goldens and the resize sweep.
var reviewScreens = []struct {
	name  string
	store func(testing.TB) *store.Store
	start func(*store.Store) Screen
	keys  []string
}{
	{"review", reviewStore, func(s *store.Store) Screen { return Review(adjudicate.Options{Store: s, Lead: "lead"}) }, nil},
	{"review_help", reviewStore, func(s *store.Store) Screen { return Review(adjudicate.Options{Store: s, Lead: "lead"}) }, []string{"?"}},
	{"review_system", reviewStore, func(s *store.Store) Screen {
		return Review(adjudicate.Options{Store: s, Lead: "lead", StartSystem: true, Experts: []store.LabelSet{{Annotator: "sam"}}})
	}, nil},
	{"review_answers", answersStore, func(s *store.Store) Screen { return AnswerReview(adjudicate.AnswerOptions{Store: s, Lead: "lead"}) }, nil},
}

// The review screens through the one root, at 80×24 and 120×40, dark and
// light (new goldens: before one root the review screens had none).
func TestGoldenReviewScreens(t *testing.T) {
	for _, sc := range reviewScreens {
		for _, size := range [][2]int{{80, 24}, {120, 40}} {
			for _, theme := range []string{"dark", "light"} {
				name := fmt.Sprintf("%s_%dx%d_%s", sc.name, size[0], size[1], theme)
				t.Run(name, func(t *testing.T) {
					s := sc.store(t)
					h := reviewHarness(t, s, sc.start(s))
					bg := color.Color(color.Black)
					if theme == "light" {
						bg = color.White
					}
					h.send(tea.BackgroundColorMsg{Color: bg})
					h.send(tea.WindowSizeMsg{Width: size[0], Height: size[1]})
					h.keys(sc.keys...)
					out := h.m.View().Content
					checkFits(t, out, size[0], size[1])
					var b bytes.Buffer
					w := &colorprofile.Writer{Forward: &b, Profile: colorprofile.ANSI256}
					w.WriteString(out)
					compareGolden(t, name+".ansi", b.String())
					if theme == "dark" {
						compareGolden(t, fmt.Sprintf("%s_%dx%d.txt", sc.name, size[0], size[1]), ansi.Strip(out))
					}
				})
			}
		}
	}
}

// The review screens at every size from 20×6 to 300×100 (a step of 7
// columns and 5 rows): never wider or taller than the terminal, and the
// root's "please enlarge" screen under 40×12.
func TestReviewResizeSweep(t *testing.T) {
	for _, sc := range reviewScreens {
		s := sc.store(t)
		h := reviewHarness(t, s, sc.start(s))
		h.keys(sc.keys...)
		for w := 20; w <= 300; w += 7 {
			for ht := 6; ht <= 100; ht += 5 {
				h.send(tea.WindowSizeMsg{Width: w, Height: ht})
				out := h.m.View().Content
				checkFits(t, out, w, ht)
				if small := w < minWidth || ht < minHeight; small != strings.Contains(strings.Join(strings.Fields(ansi.Strip(out)), " "), "Please enlarge") {
					t.Fatalf("%s at %dx%d: the enlarge screen shown %v, want %v", sc.name, w, ht, !small, small)
				}
			}
		}
	}
}
