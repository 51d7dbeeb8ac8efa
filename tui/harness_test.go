package tui

import (
	"fmt"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/annotate-dev/annotate/schema"
	"github.com/annotate-dev/annotate/store"
	"github.com/annotate-dev/annotate/store/storetest"
	"github.com/annotate-dev/annotate/tui/tuitest"
)

// clockT is a fake clock tests move by hand.
type clockT struct{ t time.Time }

func (c *clockT) now() time.Time      { return c.t }
func (c *clockT) add(d time.Duration) { c.t = c.t.Add(d) }
func newClock() *clockT               { return &clockT{t: time.Date(2026, 3, 2, 9, 0, 0, 0, time.UTC)} }

// harness drives the root model at Update level: it sends messages, runs the
// returned commands synchronously (including tea.Batch and tea.Sequence) and
// feeds their messages back, until nothing is left to run.
type harness struct {
	t     testing.TB
	s     *store.Store
	m     *Model
	clock *clockT
	quit  bool
}

func openStore(t testing.TB) *store.Store { return storetest.Open(t) }

func newHarness(t testing.TB, s *store.Store, opt Options) *harness {
	t.Helper()
	c := newClock()
	opt.Store = s
	if opt.Annotator == "" {
		opt.Annotator = "jo"
	}
	if opt.Now == nil {
		opt.Now = c.now
	}
	h := &harness{t: t, s: s, clock: c}
	h.m = New(opt)
	h.m.e.noTicks = true
	h.m.e.plain = false // whatever NO_COLOR says in the environment of the test
	h.m.e.setStyles()
	h.send(tea.WindowSizeMsg{Width: 100, Height: 30})
	h.run(h.m.Init())
	return h
}

// send delivers one message and runs what it returns.
func (h *harness) send(msg tea.Msg) {
	h.t.Helper()
	_, cmd := h.m.Update(msg)
	h.run(cmd)
}

// run executes a command tree synchronously.
func (h *harness) run(cmd tea.Cmd) {
	h.t.Helper()
	if tuitest.Run(cmd, h.send) {
		h.quit = true
	}
}

// keyMsg builds the key press of a key name ("enter", "ctrl+c", "y").
func keyMsg(k string) tea.KeyPressMsg { return tuitest.Key(k) }

// keys presses keys in order.
func (h *harness) keys(ks ...string) {
	h.t.Helper()
	for _, k := range ks {
		h.send(keyMsg(k))
	}
}

// typeText types text into an input.
func (h *harness) typeText(s string) {
	h.t.Helper()
	for _, r := range s {
		h.send(tea.KeyPressMsg{Code: r, Text: string(r)})
	}
}

// view is the current screen without styling.
func (h *harness) view() string { return ansi.Strip(h.m.render()) }

// item is the item screen on show (nil if another screen is).
func (h *harness) item() *itemScreen {
	s, _ := h.m.cur.(*itemScreen)
	return s
}

// at asserts the item and field on screen ("own" for a kind's own step: the missed-claims step).
func (h *harness) at(ext, field string) {
	h.t.Helper()
	s := h.item()
	if s == nil {
		h.t.Fatalf("want item %s/%s, screen is %T:\n%s", ext, field, h.m.cur, h.view())
	}
	got := s.at.String()
	if s.complete() {
		got = "complete"
	}
	if s.d.ref.ExtID != ext || got != field {
		h.t.Fatalf("on %s/%s, want %s/%s\n%s", s.d.ref.ExtID, got, ext, field, h.view())
	}
	// The missed-claims step is titled after the claim's answer.
	shown := ext
	if field == "own" {
		shown = "Missed claims · " + s.d.qa.ID
	}
	if !strings.Contains(h.view(), shown) {
		h.t.Fatalf("the screen does not show %s:\n%s", shown, h.view())
	}
}

func (h *harness) labels(who, ext string) map[string]string {
	h.t.Helper()
	ref, err := h.s.Resolve(ext)
	if err != nil {
		h.t.Fatal(err)
	}
	cur, err := h.s.CurrentLabels(who, ref.ItemID)
	if err != nil {
		h.t.Fatal(err)
	}
	return cur
}

func (h *harness) wantLabels(ext string, want map[string]string) {
	h.t.Helper()
	got := h.labels("jo", ext)
	if fmt.Sprint(got) != fmt.Sprint(want) {
		h.t.Fatalf("labels of %s = %v, want %v", ext, got, want)
	}
}

// history lists an item's events as "field=value" ("field=<retract>" for a retraction).
func (h *harness) history(ext string) string {
	h.t.Helper()
	ref, _ := h.s.Resolve(ext)
	evs, err := h.s.History(ref.ItemID)
	if err != nil {
		h.t.Fatal(err)
	}
	var out []string
	for _, e := range evs {
		if e.Retracts != 0 {
			out = append(out, e.Field+"=<retract>")
		} else {
			out = append(out, e.Field+"="+e.Value)
		}
	}
	return strings.Join(out, " ")
}

// seedQA imports QA pairs q1..qn, each with claims qN-c1..qN-cK (K = claims[i]).
func seedQA(t testing.TB, s *store.Store, claims ...int) {
	t.Helper()
	err := s.Import(func(tx *store.Tx) error {
		for i, k := range claims {
			id := fmt.Sprintf("q%d", i+1)
			qa := store.QAPair{ID: id, Source: "GDPR", Language: "en", Hop: "single",
				Question:  fmt.Sprintf("Question %d: what does Article %d of the GDPR protect?", i+1, i+1),
				Answer:    fmt.Sprintf("Answer %d: it protects natural persons with regard to the processing of personal data.", i+1),
				Rationale: "Article 1(1) states the subject matter.",
				Category:  "factual_recall",
				Contexts: []store.Context{{ID: fmt.Sprintf("gdpr-p%d", i+1),
					Text: "This Regulation lays down rules relating to the protection of natural persons with regard to the processing of personal data and rules relating to the free movement of personal data."}}}
			if i == 0 {
				qa.Hop = "multi"
				qa.Contexts = append(qa.Contexts, store.Context{ID: "gdpr-p-extra",
					Text: "This Regulation protects fundamental rights and freedoms of natural persons and in particular their right to the protection of personal data."})
			}
			if _, _, err := tx.PutQA(qa, "h"+id, "seed", false); err != nil {
				return err
			}
			for c := 1; c <= k; c++ {
				cl := store.Claim{ID: fmt.Sprintf("%s-c%d", id, c), QAID: id, Position: c,
					Triplet:     [3]string{"The Regulation", "protects", fmt.Sprintf("natural persons (%d)", c)},
					Predictions: map[string]string{"refchecker": "PREDICTED-SECRET"}}
				if _, _, err := tx.PutClaim(cl, "h"+cl.ID, "seed", false); err != nil {
					return err
				}
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// judgeCorrect records who's judgement of each pair: a valid question, its
// answer correct (and the other QA fields), so that its claims are asked.
func judgeCorrect(t testing.TB, s *store.Store, who string, qas ...string) {
	t.Helper()
	for _, id := range qas {
		ref, err := s.Resolve(id)
		if err != nil {
			t.Fatal(err)
		}
		for _, l := range [][2]string{{schema.QuestionValidity, "valid"}, {schema.Category, "factual_recall"},
			{schema.Persona, "citizen"}, {schema.AnswerCorrectness, "correct"}} {
			if _, err := s.RecordLabel(store.Label{Annotator: who, ItemID: ref.ItemID, Field: l[0], Value: l[1]}); err != nil {
				t.Fatal(err)
			}
		}
	}
}

// judgedCorrect is the labels judgeCorrect records, with more field-value pairs.
func judgedCorrect(more ...string) map[string]string {
	m := map[string]string{schema.QuestionValidity: "valid", schema.Category: "factual_recall",
		schema.Persona: "citizen", schema.AnswerCorrectness: "correct"}
	for i := 0; i+1 < len(more); i += 2 {
		m[more[i]] = more[i+1]
	}
	return m
}

var _ = schema.KindQA
