package tui

import (
	"bytes"
	"fmt"
	"image/color"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"
	"github.com/charmbracelet/x/ansi"

	"github.com/annotate-dev/annotate/schema"
	"github.com/annotate-dev/annotate/store"
	"github.com/annotate-dev/annotate/store/storetest"
)

// dashboardDemo is the demo database with two annotators' work on the
// first GDPR pairs: both judge gdpr-001…004 correct and label their
// claims, disagreeing on the entailment of every third claim; jo has a rate.
func dashboardDemo(t testing.TB) *store.Store {
	t.Helper()
	s := demoStore(t)
	qas := []string{"gdpr-001", "gdpr-002", "gdpr-003", "gdpr-004"}
	judgeCorrect(t, s, "jo", qas...)
	judgeCorrect(t, s, "sam", qas...)
	values := []string{"entailment", "neutral", "contradiction"}
	n := 0
	for _, qa := range qas {
		for c := 1; c <= 3; c++ {
			ref, err := storetest.Read(t, s).Resolve(fmt.Sprintf("%s-c%d", qa, c))
			if err != nil {
				t.Fatal(err)
			}
			jo := values[n%3]
			sam := jo
			if n%3 == 2 {
				sam = "neutral"
			}
			n++
			for who, v := range map[string]string{"jo": jo, "sam": sam} {
				for _, l := range [][2]string{{schema.ClaimValidity, "correct"}, {schema.Entailment, v}} {
					if _, err := s.RecordLabel(store.Label{Annotator: who, ItemID: ref.ItemID, Field: l[0], Value: l[1], ActiveMs: 30_000}); err != nil {
						t.Fatal(err)
					}
				}
			}
		}
	}
	rate := 20.0
	if _, err := s.SetAnnotator(nil, "jo", &rate, "CAD", "student"); err != nil {
		t.Fatal(err)
	}
	return s
}

// dashboardHarness opens the dashboard at today 09:00 UTC: the labels,
// stamped now, are today's.
func dashboardHarness(t testing.TB, s *store.Store) *harness {
	t.Helper()
	h := newHarness(t, s, Options{Start: Dashboard(nil), Annotator: "lead"})
	y, m, d := time.Now().UTC().Date()
	h.clock.t = time.Date(y, m, d, 9, 0, 0, 0, time.UTC)
	h.keys("r") // read again at that time
	return h
}

func TestGoldenDashboard(t *testing.T) {
	s := dashboardDemo(t)
	for _, size := range [][2]int{{80, 24}, {120, 40}} {
		for _, theme := range []string{"dark", "light"} {
			name := fmt.Sprintf("dashboard_%dx%d_%s", size[0], size[1], theme)
			t.Run(name, func(t *testing.T) {
				h := dashboardHarness(t, s)
				bg := color.Color(color.Black)
				if theme == "light" {
					bg = color.White
				}
				h.send(tea.BackgroundColorMsg{Color: bg})
				h.send(tea.WindowSizeMsg{Width: size[0], Height: size[1]})
				h.keys("tab", "tab", "tab") // the agreement panel
				out := h.m.View().Content
				checkFits(t, out, size[0], size[1])
				var b bytes.Buffer
				w := &colorprofile.Writer{Forward: &b, Profile: colorprofile.ANSI256}
				w.WriteString(out)
				compareGolden(t, name+".ansi", b.String())
				if theme == "dark" {
					compareGolden(t, fmt.Sprintf("dashboard_%dx%d.txt", size[0], size[1]), ansi.Strip(out))
				}
			})
		}
	}
}

// The dashboard's agreement is `agreement`'s: by hand, on entailment jo
// and sam agree on 8 of 12 claims (every third differs: contradiction
// against neutral); jo's labels are E 4, N 4, C 4 and sam's E 4, N 8, so
// p_e = (4·4 + 4·8 + 4·0)/144 = 1/3 and Cohen's κ = (2/3 − 1/3)/(2/3) = 0.5;
// the heatmap's contradiction row is 0 4 [0].
func TestDashboardShowsTheAgreementNumbers(t *testing.T) {
	h := dashboardHarness(t, dashboardDemo(t))
	h.send(tea.WindowSizeMsg{Width: 160, Height: 50})
	v := h.view()
	for _, want := range []string{"66.7%", "entailment: rows jo, columns sam · κ 0.500", "[4]"} {
		if !strings.Contains(v, want) {
			t.Errorf("the dashboard does not show %q:\n%s", want, v)
		}
	}
}

// A label committed while the dashboard is up shows at the next refresh,
// without a restart.
func TestDashboardRefreshesAsLabelsArrive(t *testing.T) {
	s := dashboardDemo(t)
	h := dashboardHarness(t, s)
	h.send(tea.WindowSizeMsg{Width: 160, Height: 50})
	// Today: jo and sam 40 each (4 pairs × 4 fields + 12 claims × 2
	// fields), the demo's qrels 46.
	if !strings.Contains(h.view(), "126 today") {
		t.Fatalf("want 126 decisions today:\n%s", h.view())
	}
	ref, err := storetest.Read(t, s).Resolve("gdpr-005")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.RecordLabel(store.Label{Annotator: "sam", ItemID: ref.ItemID, Field: schema.QuestionValidity, Value: "valid"}); err != nil {
		t.Fatal(err)
	}
	h.send(dashboardTickMsg{})
	if !strings.Contains(h.view(), "127 today") {
		t.Errorf("after a label and a refresh, want 127 decisions today:\n%s", h.view())
	}
}

// tab moves the focus; enter opens the focused panel's detail, which is
// the command's text; esc comes back to the dashboard.
func TestDashboardPanelOpensItsDetail(t *testing.T) {
	h := dashboardHarness(t, dashboardDemo(t))
	h.send(tea.WindowSizeMsg{Width: 120, Height: 40})
	h.keys("tab", "tab", "tab", "enter")
	if _, ok := h.m.cur.(*dashDetail); !ok {
		t.Fatalf("enter on the agreement panel shows %T", h.m.cur)
	}
	v := h.view()
	for _, want := range []string{"Agreement (annotate agreement)", "Agreement between jo, sam", "Cohen's kappa"} {
		if !strings.Contains(v, want) {
			t.Errorf("the agreement detail lacks %q:\n%s", want, v)
		}
	}
	h.keys("esc")
	if _, ok := h.m.cur.(*dashboardScreen); !ok {
		t.Fatalf("esc shows %T, want the dashboard", h.m.cur)
	}
	h.keys("shift+tab", "shift+tab", "shift+tab", "enter") // progress
	if v := h.view(); !strings.Contains(v, "Progress (annotate progress)") {
		t.Errorf("the progress detail:\n%s", v)
	}
}

// The dashboard records no session and writes nothing.
func TestDashboardIsReadOnly(t *testing.T) {
	s := dashboardDemo(t)
	h := dashboardHarness(t, s)
	h.keys("tab", "enter", "esc", "r")
	spans, err := storetest.Read(t, s).SessionSpans("lead")
	if err != nil || len(spans) != 0 {
		t.Errorf("the dashboard recorded sessions %v (%v)", spans, err)
	}
	if h.m.SessionID() != 0 {
		t.Errorf("session %d", h.m.SessionID())
	}
}

func TestDashboardResizeSweep(t *testing.T) {
	s := dashboardDemo(t)
	var sizes [][2]int
	for w := 20; w <= 300; w += 7 {
		for hh := 6; hh <= 100; hh += 5 {
			sizes = append(sizes, [2]int{w, hh})
		}
	}
	sizes = append(sizes, [2]int{20, 6}, [2]int{300, 100}, [2]int{80, 24}, [2]int{minWidth, minHeight})
	for _, keys := range [][]string{nil, {"tab", "tab", "tab", "tab"}, {"tab", "tab", "tab", "enter"}} {
		h := dashboardHarness(t, s)
		h.keys(keys...)
		for _, size := range sizes {
			h.send(tea.WindowSizeMsg{Width: size[0], Height: size[1]})
			checkFits(t, h.m.View().Content, size[0], size[1])
		}
	}
}

// An ordinal field's agreement panel row is followed by its α on the
// scale and the share within one step: jo and sam grade a graded pool of
// the demo (7 pairs), jo 0, 1, 2, 0, 1, 2, 0 and sam one grade up (2 stays
// 2), so they agree on the pairs jo grades 2 and are always within one
// grade. fast-krippendorff on these grades (value_domain=[0,1,2,3,4]):
// nominal α -0.031746031746031855, ordinal 0.49116161616161613.
func TestDashboardShowsOrdinalAgreement(t *testing.T) {
	s := dashboardDemo(t)
	seed := int64(2)
	if _, err := s.CreatePool(store.PoolSpec{Name: "graded", Runs: []string{"dense-irg", "bm25l"}, Depth: 3, Queries: 3, Seed: &seed,
		Assign: []string{"jo", "sam"}, Overlap: 2, Graded: true}); err != nil {
		t.Fatal(err)
	}
	items, err := storetest.Read(t, s).BatchItems("graded", "jo")
	if err != nil || len(items) < 3 {
		t.Fatalf("pool %v (%v)", items, err)
	}
	for i, id := range items {
		ref, err := storetest.Read(t, s).Resolve(id)
		if err != nil {
			t.Fatal(err)
		}
		for who, g := range map[string]int{"jo": i % 3, "sam": min(i%3+1, 2)} {
			if _, err := s.RecordGradedRelevance(store.Label{Annotator: who, ItemID: ref.ItemID}, g); err != nil {
				t.Fatal(err)
			}
		}
	}
	h := dashboardHarness(t, s)
	h.send(tea.WindowSizeMsg{Width: 160, Height: 60})
	v := h.view()
	var grade, scaled string
	lines := strings.Split(v, "\n")
	for i, l := range lines {
		if strings.Contains(l, "relevance_grade") && i+1 < len(lines) {
			grade, scaled = l, lines[i+1]
			break
		}
	}
	if !strings.Contains(grade, "-0.032") || !strings.Contains(grade, "28.6%") {
		t.Errorf("relevance_grade row: %s", grade)
	}
	if f := strings.Fields(scaled); strings.Join(f, " ") != "ordinal 0.491 M 100.0% ±1" {
		t.Errorf("no ordinal line under relevance_grade:\n%s\n%s\n\n%s", grade, scaled, v)
	}
	if !strings.Contains(v, "indented: on the field's scale") {
		t.Errorf("no legend of the ordinal line:\n%s", v)
	}
	h.keys("tab", "tab", "tab") // the agreement panel, focused
	for _, size := range [][2]int{{20, 6}, {41, 11}, {80, 24}, {300, 100}} {
		h.send(tea.WindowSizeMsg{Width: size[0], Height: size[1]})
		checkFits(t, h.m.View().Content, size[0], size[1])
	}
}
