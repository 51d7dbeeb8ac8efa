package adjudicate

import (
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/annotate-dev/annotate/schema"
	"github.com/annotate-dev/annotate/store"
	"github.com/annotate-dev/annotate/store/storetest"
)

// screenCase is a review screen reached by keys (and typed text) from a
// fresh model.
type screenCase struct {
	name string
	opt  Options
	keys []string
	text string
	want []string                      // text the 80x24 rendering must show
	seed func(testing.TB) *store.Store // default renderStore
}

var screenCases = []screenCase{
	{"adjudicate", Options{}, nil, "", []string{"Review · entailment · 1 of 6", "jo ", "sam ", "[1] entailment", "natural persons 3", "¶ gdpr-p1", "final label"}, nil},
	{"adjudicate-focus", Options{}, []string{"tab", "pgdown", "down"}, "", []string{"scroll"}, nil},
	{"confirm", Options{}, []string{"A"}, "", []string{"Accept 36 agreeing labels", "[y] yes"}, nil},
	{"summary", Options{}, []string{"3", "3", "3", "3", "3", "3"}, "", []string{"Every disagreement is adjudicated", "press A"}, nil},
	{"note", Options{}, []string{"m"}, strings.Repeat("a long note ", 20), []string{"Your note on gdpr-001-c03", "enter save"}, nil},
	{"help", Options{}, []string{"?"}, "", []string{"Review keys", "accept agreements"}, nil},
	{"cells", Options{StartSystem: true}, nil, "", []string{"System view", "→ neutral"}, nil},
	{"walker", Options{StartSystem: true}, []string{"enter"}, "", []string{"claim 1 of"}, nil},
	{"walker-note", Options{StartSystem: true}, []string{"enter", "m"}, "note", []string{"Your note"}, nil},
	{"qa", Options{}, nil, "", []string{"Review · category · 1 of 1", "Question", "Answer", "[3] false_premise"}, qaStore},
}

// qaStore holds a long French QA pair whose category jo and sam disagree on.
func qaStore(t testing.TB) *store.Store {
	s := openStore(t)
	long := strings.Repeat("Toute personne peut contracter si elle n’en est pas déclarée incapable par la loi ; « sauf » exceptions. ", 10)
	err := s.Import(func(tx *store.Tx) error {
		qa := store.QAPair{ID: "civil-1123", Source: "CIVIL", Language: "fr", Question: long[:250] + " ?", Answer: long,
			Rationale: long[:200], Category: "factual_recall", Contexts: []store.Context{{ID: "c1", Text: long}, {ID: "c2", Text: long}}}
		id, _, err := tx.PutQA(qa, "h", "f", false)
		if err != nil {
			return err
		}
		for who, cat := range map[string]string{"jo": "factual_recall", "sam": "false_premise"} {
			for f, v := range map[string]string{schema.QuestionValidity: "valid", schema.Category: cat} {
				if _, err := tx.PutLabel(store.Label{Annotator: who, ItemID: id, Field: f, Value: v}); err != nil {
					return err
				}
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// renderStore holds the twenty claims plus an item with long text, wide
// characters and escape sequences, flagged and noted by the annotators.
func renderStore(t testing.TB) *store.Store {
	s := openStore(t)
	seedTwenty(t, s)
	long := strings.Repeat("Le responsable du traitement met en œuvre des mesures « appropriées » conformément à l’article 32 ; 個人データ ", 8)
	err := s.Import(func(tx *store.Tx) error {
		qa := store.QAPair{ID: "civil-" + strings.Repeat("x", 70), Source: "CIVIL", Language: "fr", Hop: "multi",
			Question: long[:300] + "\x1b[31m?", Answer: long, Category: "factual_recall",
			Contexts: []store.Context{{ID: "c1", Text: long}, {ID: "c2", Text: "\x1b]0;pwned\x07" + long}}}
		if _, _, err := tx.PutQA(qa, "h-long", "f", false); err != nil {
			return err
		}
		c := store.Claim{ID: qa.ID + "-c1", QAID: qa.ID, Position: 1, Triplet: [3]string{long[:120], "met\x1b[2J en œuvre", long[:90]},
			Predictions: map[string]string{"refchecker": "contradiction"}}
		id, _, err := tx.PutClaim(c, "h-long-c", "f", false)
		if err != nil {
			return err
		}
		for who, v := range map[string]string{"jo": "neutral", "sam": "entailment"} {
			for f, val := range map[string]string{schema.ClaimValidity: "correct", schema.Entailment: v} {
				if _, err := tx.PutLabel(store.Label{Annotator: who, ItemID: id, Field: f, Value: val}); err != nil {
					return err
				}
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	ref, _ := storetest.Read(t, s).Resolve("gdpr-001-c03")
	s.SetNote("jo", ref.ItemID, schema.Entailment, "the context says \x1b[1mnothing\x1b[0m about it "+strings.Repeat("really ", 30), 0)
	s.SetFlag("sam", ref.ItemID, schema.Entailment, true, 0)
	return s
}

func (c screenCase) store(t testing.TB) *store.Store {
	if c.seed != nil {
		return c.seed(t)
	}
	return renderStore(t)
}

func (c screenCase) open(t testing.TB, s *store.Store, w, h int) *harness {
	o := c.opt
	o.Experts = []store.LabelSet{{Annotator: "jo"}, {Annotator: "sam"}, {Adjudicated: true}}
	hs := newHarness(t, s, o, w, h)
	hs.keys(c.keys...)
	hs.typeText(c.text)
	return hs
}

// At 80x24 each screen shows what it is for, fills the terminal exactly,
// and shows data inert.
func TestScreens80x24(t *testing.T) {
	for _, c := range screenCases {
		t.Run(c.name, func(t *testing.T) {
			h := c.open(t, c.store(t), 80, 24)
			view := h.m.View()
			checkFits(t, view, 80, 24, c.name)
			if n := strings.Count(view, "\n") + 1; n != 24 {
				t.Errorf("%d lines, want 24", n)
			}
			scr := h.screen()
			for _, w := range c.want {
				if !strings.Contains(scr, w) {
					t.Errorf("missing %q", w)
				}
			}
			if os.Getenv("REVIEW_SHOW") != "" {
				t.Logf("\n%s", scr)
			}
		})
	}
}

// The long item: its escape sequences show as symbols, never raw.
func TestInertData(t *testing.T) {
	s := renderStore(t)
	h := newHarness(t, s, Options{}, 120, 40)
	h.keys("right", "right", "right", "right", "right") // the long claim is the last unit
	if !strings.HasPrefix(h.current(), "civil-") {
		t.Fatalf("on %q", h.current())
	}
	view := h.m.View()
	for _, bad := range []string{"\x1b[2J", "\x1b]0;", "\x07", "\x1b[31m?"} {
		if strings.Contains(view, bad) {
			t.Errorf("raw %q in the rendering", bad)
		}
	}
	if !strings.Contains(h.screen(), "␛[2J") {
		t.Errorf("the escape is not shown as a symbol:\n%s", h.screen())
	}
}

// Every screen at sizes from 20x6 to 300x100: no panic, never wider or
// taller than the terminal, and the model survives the resize.
func TestResizeSweep(t *testing.T) {
	sizes := [][2]int{{20, 6}, {39, 11}, {40, 12}, {41, 13}, {300, 100}}
	for w := 20; w <= 300; w += 23 {
		for h := 6; h <= 100; h += 11 {
			sizes = append(sizes, [2]int{w, h})
		}
	}
	for _, c := range screenCases {
		s := c.store(t)
		hs := c.open(t, s, 80, 24)
		for _, sz := range sizes {
			hs.send(sizeMsg(sz[0], sz[1]))
			checkFits(t, hs.m.View(), sz[0], sz[1], c.name)
		}
		// Opened at the smallest size too.
		small := c.open(t, s, 20, 6)
		checkFits(t, small.m.View(), 20, 6, c.name+" opened small")
	}
}

// The review screens keep one drawing per kind: a second is refused.
func TestRegisterRefusesAKindTwice(t *testing.T) {
	defer func() {
		if r := recover(); r == nil || !strings.Contains(fmt.Sprint(r), "kind query registered twice") {
			t.Errorf("a second query drawing: %v, want a panic naming the kind", r)
		}
	}()
	Register(queryKind{})
}
