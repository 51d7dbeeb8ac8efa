package adjudicate

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/annotate-dev/annotate/schema"
	"github.com/annotate-dev/annotate/store"
	"github.com/annotate-dev/annotate/store/storetest"
	"github.com/annotate-dev/annotate/tui/internal/ui"
	"github.com/annotate-dev/annotate/tui/tuitest"
)

// harness drives the root model at Update level: it sends a message, runs
// the returned commands synchronously (tea.Batch and tea.Sequence too) and
// feeds their messages back until nothing is left.
type harness struct {
	t    testing.TB
	s    *store.Store
	m    *Model
	quit bool
}

func newHarness(t testing.TB, s *store.Store, o Options, w, h int) *harness {
	t.Helper()
	o.Store = s
	if o.Lead == "" {
		o.Lead = "lead"
	}
	hs := &harness{t: t, s: s, m: New(o, testHost)}
	hs.send(tea.WindowSizeMsg{Width: w, Height: h})
	hs.run(hs.m.Init())
	return hs
}

// send hands a message to the review screen as the root model (package
// tui) does: a new size is given with SetSize first.
func (h *harness) send(msg tea.Msg) {
	h.t.Helper()
	if ws, ok := msg.(tea.WindowSizeMsg); ok {
		h.m.SetSize(ws.Width, ws.Height)
	}
	_, cmd := h.m.Update(msg)
	h.run(cmd)
}

func (h *harness) run(cmd tea.Cmd) {
	h.t.Helper()
	if tuitest.Run(cmd, h.send) {
		h.quit = true
	}
}

func keyMsg(k string) tea.KeyPressMsg { return tuitest.Key(k) }

func (h *harness) keys(ks ...string) {
	h.t.Helper()
	for _, k := range ks {
		h.send(keyMsg(k))
	}
}

func sizeMsg(w, h int) tea.WindowSizeMsg { return tea.WindowSizeMsg{Width: w, Height: h} }

func (h *harness) typeText(s string) {
	for _, r := range s {
		h.send(tea.KeyPressMsg{Code: r, Text: string(r)})
	}
}

// screen is the current rendering without styles.
func (h *harness) screen() string { return ansi.Strip(h.m.View()) }

// current is the unit on the adjudication screen ("" : none).
func (h *harness) current() string {
	if u := h.m.e.adj.unit(); u != nil {
		return u.ExtID + " " + u.Field
	}
	return ""
}

// checkFits fails when a line of the rendering is wider than w or there
// are more than h lines.
func checkFits(t testing.TB, view string, w, h int, what string) {
	t.Helper()
	lines := strings.Split(view, "\n")
	if len(lines) > h {
		t.Errorf("%s at %dx%d: %d lines", what, w, h, len(lines))
	}
	for i, l := range lines {
		if lw := ansi.StringWidth(l); lw > w {
			t.Errorf("%s at %dx%d: line %d is %d wide: %q", what, w, h, i, lw, ansi.Strip(l))
		}
	}
}

// testHost stands for the root model: dark styles, the default key map.
var testHost host = host{ui.NewStyles(true, false)}

type host struct{ st ui.Styles }

func (h host) Styles() ui.Styles { return h.st }
func (host) Keys() ui.KeyMap     { return ui.DefaultKeyMap() }

func openStore(t testing.TB) *store.Store { return storetest.Open(t) }

var classes = []string{"entailment", "neutral", "contradiction"}

// seedClaims imports one QA pair with n claims c1..cn and the predictions
// pred(i) of refchecker; labels(i) gives each annotator's labels of claim i.
func seedClaims(t testing.TB, s *store.Store, n int, pred func(i int) string, labels func(i int) map[string]map[string]string) {
	t.Helper()
	err := s.Import(func(tx *store.Tx) error {
		qa := store.QAPair{ID: "gdpr-001", Source: "GDPR", Language: "en", Question: "What does Article 1 protect?",
			Answer:   "Article 1 protects natural persons with regard to the processing of personal data.",
			Category: "factual_recall", Contexts: []store.Context{{ID: "gdpr-p1", Text: "This Regulation lays down rules relating to the protection of natural persons with regard to the processing of personal data."}}}
		if _, _, err := tx.PutQA(qa, "h-qa", "f", false); err != nil {
			return err
		}
		for i := 1; i <= n; i++ {
			c := store.Claim{ID: fmt.Sprintf("gdpr-001-c%02d", i), QAID: qa.ID, Position: i,
				Triplet: [3]string{"Article 1", "protects", fmt.Sprintf("natural persons %d", i)}}
			if p := pred(i); p != "" {
				c.Predictions = map[string]string{"refchecker": p}
			}
			id, _, err := tx.PutClaim(c, "h"+c.ID, "f", false)
			if err != nil {
				return err
			}
			ls := labels(i)
			for _, who := range slices.Sorted(maps.Keys(ls)) {
				for _, f := range []string{schema.ClaimValidity, schema.Entailment} {
					if v := ls[who][f]; v != "" {
						if _, err := tx.PutLabel(store.Label{Annotator: who, ItemID: id, Field: f, Value: v}); err != nil {
							return err
						}
					}
				}
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

func claimID(i int) string { return fmt.Sprintf("gdpr-001-c%02d", i) }

// unitIDs lists the ext ids of a review's units of a field.
func unitIDs(rev store.Adjudication, field string) []string {
	var out []string
	for _, u := range rev.Units {
		if u.Field == field {
			out = append(out, u.ExtID)
		}
	}
	slices.Sort(out)
	return out
}

func boolStr(b bool) string {
	if b {
		return "1"
	}
	return "0"
}
