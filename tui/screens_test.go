package tui

import (
	"bytes"
	"context"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/annotate-dev/annotate/schema"
	"github.com/annotate-dev/annotate/store"
	"github.com/annotate-dev/annotate/store/storetest"
)

// The rough edges of issue 10, item 10 (and items 2 and 12), each as a
// user meets it on screen.

func label(t *testing.T, s *store.Store, who, ext, field, value string) {
	t.Helper()
	ref, err := storetest.Read(t, s).Resolve(ext)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.RecordLabel(store.Label{Annotator: who, ItemID: ref.ItemID, Field: field, Value: value}); err != nil {
		t.Fatal(err)
	}
}

func (h *harness) wantOnScreen(want ...string) {
	h.t.Helper()
	v := h.view()
	for _, w := range want {
		if !strings.Contains(v, w) {
			h.t.Fatalf("the screen does not show %q:\n%s", w, v)
		}
	}
}

// enter on home continues the queue of the latest decision, in a new
// session too: a batch when the item is in one of the annotator's batches.
func TestHomeEnterContinuesTheLastQueue(t *testing.T) {
	s := openStore(t)
	seedQA(t, s, 1, 1, 0)
	judgeCorrect(t, s, "jo", "q1")
	label(t, s, "jo", "q1-c1", schema.ClaimValidity, "correct")
	h := newHarness(t, s, Options{})
	h.wantOnScreen("▸ Claims")
	h.keys("enter")
	h.at("q1-c1", schema.Entailment)

	if _, err := s.CreateBatch(store.BatchSpec{Name: "pilot", Kind: string(schema.KindQA), Size: 3, Assign: []string{"jo"}, Seed: new(int64)}); err != nil {
		t.Fatal(err)
	}
	label(t, s, "jo", "q2", schema.QuestionValidity, "valid")
	h = newHarness(t, s, Options{})
	h.wantOnScreen("▸ pilot")
	h.keys("enter")
	h.wantOnScreen("batch pilot", "item 1 of 3") // the batch's order (seed 0) starts with q2 here or not: its position is counted
	if h.item() == nil || h.item().d.ref.Kind != string(schema.KindQA) {
		t.Fatalf("enter did not open the batch:\n%s", h.view())
	}
}

// A queue with nothing left is not continued: the first queue with work is.
func TestHomeEnterSkipsAFinishedLastQueue(t *testing.T) {
	s := openStore(t)
	seedQA(t, s, 1)
	label(t, s, "jo", "q1-c1", schema.ClaimValidity, "incorrect")
	label(t, s, "jo", "q1", schema.MissedClaimsChecked, "checked")
	h := newHarness(t, s, Options{})
	h.wantOnScreen("▸ QA pairs")
}

func TestGotoIgnoresCaseAndTakesAUniquePrefix(t *testing.T) {
	s := openStore(t)
	seedQA(t, s, 2, 1, 0, 0, 0, 0, 0)
	judgeCorrect(t, s, "jo", "q2")
	h := newHarness(t, s, Options{Kind: string(schema.KindQA)})
	goTo := func(typed string) {
		h.t.Helper()
		h.keys("g")
		h.typeText(typed)
		h.keys("enter")
	}
	goTo("Q3") // case
	h.at("q3", schema.QuestionValidity)
	goTo("q2-") // a unique start
	h.at("q2-c1", schema.ClaimValidity)
	goTo("q1") // an exact id wins over the ids it starts
	h.at("q1", schema.QuestionValidity)
	goTo("Q1-C") // ambiguous: say so, with the ids
	h.wantOnScreen("Go to Q1-C: several items match: q1-c1, q1-c2; type more of the id")
	h.at("q1", schema.QuestionValidity)
	goTo("q") // many: a few and an ellipsis
	h.wantOnScreen("several items match: q1, q1-c1, q1-c2, q2, q2-c1, …")
	goTo("q1c2")                            // no id, nor the start of one: the one id that holds q, 1, c, 2 in order
	h.wantOnScreen("Claim q1-c2 · (go to)") // shown read-only: jo has not judged q1's answer
	h.wantOnScreen("No id is “q1c2”: the closest is q1-c2.")
	goTo("q1c") // q1-c1 and q1-c2 hold it equally closely
	h.wantOnScreen("Go to q1c: several items match: q1-c1, q1-c2; type more of the id")
	goTo("x9") // no id within one edit (q1…q7 are two away)
	h.wantOnScreen("Go to x9: no item has this id or one close to it")
}

// "item N of M" is the item's place in its queue, whatever was done before.
func TestItemNumberIsItsPositionInTheQueue(t *testing.T) {
	s := openStore(t)
	seedQA(t, s, 0, 0, 0, 0)
	label(t, s, "jo", "q3", schema.QuestionValidity, "invalid")
	label(t, s, "jo", "q3", schema.InvalidReason, "domain")
	h := newHarness(t, s, Options{Kind: string(schema.KindQA)})
	h.at("q1", schema.QuestionValidity)
	h.wantOnScreen("item 1 of 4")
	h.keys("s") // skipped: q2 is the second item, not "1 done + 1"
	h.at("q2", schema.QuestionValidity)
	h.wantOnScreen("item 2 of 4")
	h.keys("n", "1") // q3 is done already: on to q4
	h.at("q4", schema.QuestionValidity)
	h.wantOnScreen("item 4 of 4")
	h.keys("g")
	h.typeText("q3")
	h.keys("enter")
	h.wantOnScreen("item 3 of 4")
	h.keys("u") // back into q2 by undo
	h.at("q2", schema.InvalidReason)
	h.wantOnScreen("item 2 of 4")
}

// Claims added by annotators are not in the claims queue, nor counted.
func TestClaimPositionCountsExtractedClaimsOnly(t *testing.T) {
	s := openStore(t)
	seedQA(t, s, 1, 2)
	judgeCorrect(t, s, "jo", "q1", "q2")
	h := newHarness(t, s, Options{Kind: string(schema.KindClaim)})
	h.keys("n", "a")
	h.typeText("The controller")
	h.keys("enter")
	h.typeText("must inform")
	h.keys("enter")
	h.typeText("the data subject")
	h.keys("enter", "enter")
	h.at("q2-c1", schema.ClaimValidity)
	h.wantOnScreen("item 2 of 3")
}

// A key that belongs to no option of the field says so (item 2).
func TestKeyOfNoOptionIsExplained(t *testing.T) {
	s := openStore(t)
	seedQA(t, s, 0, 0)
	h := newHarness(t, s, Options{Kind: string(schema.KindQA)})
	h.keys("y", "enter", "1")
	h.at("q1", schema.AnswerCorrectness)
	h.keys("y")
	h.at("q1", schema.AnswerCorrectness)
	h.wantOnScreen("y is not an option of answer_correctness: press 1-3.")
	h.keys("x")
	h.wantOnScreen("x is not a key of this screen")
	h.keys("down")
	h.wantOnScreen("down scrolls the context pane once it has the focus: tab first.")
	h.keys("2")
	h.at("q2", schema.QuestionValidity) // …and the field still answers its own keys
}

// The focused pane keeps its position indicator and names home/end.
func TestFocusedPaneShowsItsPosition(t *testing.T) {
	s := openStore(t)
	seedQA(t, s, 0)
	h := newHarness(t, s, Options{Kind: string(schema.KindQA)})
	h.send(tea.WindowSizeMsg{Width: 60, Height: 16})
	h.keys("tab")
	h.wantOnScreen("▶ Context (2 units) (0%) — ↑↓ pgup pgdn home end")
	h.send(tea.KeyPressMsg{Code: tea.KeyEnd})
	h.wantOnScreen("▶ Context (2 units) (100%)")
	h.send(tea.KeyPressMsg{Code: tea.KeyHome})
	h.wantOnScreen("(0%)")
	h.keys("q")
	h.send(tea.WindowSizeMsg{Width: 100, Height: 30})
	h.wantOnScreen("home top", "end  bottom") // the keys on home list them
}

// At 80×24 a long QA pair is shown once: what does not fit above the pane
// is continued in it, not repeated; and the help bar wraps instead of
// being cut.
func TestLongItemAt80x24IsShownOnce(t *testing.T) {
	s := openStore(t)
	words := func(tag string, n int) string {
		return strings.Repeat(tag+" lorem ipsum dolor sit amet, ", n) + tag + "-END."
	}
	err := s.Import(func(tx *store.Tx) error {
		qa := store.QAPair{ID: "long-1", Source: "GDPR", Language: "en", Category: "factual_recall",
			Question: "QSTART " + words("question", 6), Answer: "ASTART " + words("answer", 25),
			Contexts: []store.Context{{ID: "p1", Text: "CSTART " + words("context", 10)}}}
		_, _, err := tx.PutQA(qa, "h", "f", false)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	h := newHarness(t, s, Options{Kind: string(schema.KindQA)})
	h.send(tea.WindowSizeMsg{Width: 80, Height: 24})
	h.keys("y")
	h.wantOnScreen("QSTART", "… continued in the pane below")
	once := func(v, w string) {
		t.Helper()
		if n := strings.Count(v, w); n != 1 {
			t.Fatalf("%q shows %d times:\n%s", w, n, v)
		}
	}
	once(h.view(), "QSTART")
	// Scrolled through, the pane holds the rest of the item once, then the context.
	h.keys("tab")
	var seen strings.Builder
	for i := 0; i < 40; i++ {
		seen.WriteString(h.view())
		h.keys("down")
	}
	all := seen.String()
	for _, w := range []string{"answer-END.", "CSTART", "context-END."} {
		if !strings.Contains(all, w) {
			t.Fatalf("scrolling the pane never shows %q", w)
		}
	}
	h.keys("tab")
	for i := 0; i < 40; i++ {
		h.keys("pgup")
	}
	once(h.view(), "QSTART")
	lines := strings.Split(h.view(), "\n")
	last := lines[len(lines)-2] + "\n" + lines[len(lines)-1]
	if strings.Contains(last, "…") || !strings.Contains(last, "g go to") || !strings.Contains(last, "enter accept") {
		t.Fatalf("the help bar is cut instead of wrapped:\n%s", last)
	}
}

// Run saves the terminal's title before and restores it after.
func TestRunRestoresTheWindowTitle(t *testing.T) {
	s := openStore(t)
	seedQA(t, s, 0)
	var term bytes.Buffer
	err := Run(context.Background(), Options{Store: s, Annotator: "jo", Client: "demo", Terminal: &term},
		tea.WithInput(strings.NewReader("q")), tea.WithWindowSize(80, 24), tea.WithoutSignals())
	if err != nil {
		t.Fatal(err)
	}
	out := term.String()
	set := strings.LastIndex(out, "\x1b]2;")
	if !strings.HasPrefix(out, SaveTitle) || !strings.HasSuffix(out, RestoreTitle) || set < 0 || set > len(out)-len(RestoreTitle) {
		t.Fatalf("title not saved first and restored last: %q … %q", out[:min(20, len(out))], out[max(0, len(out)-40):])
	}
	if !strings.Contains(out, "annotate — jo") {
		t.Fatalf("the title was never set: %q", out)
	}
}

// Under `annotate serve` ctrl+v cannot read the server's clipboard; a paste
// from the annotator's own terminal still works (item 12).
func TestNoClipboardUnderSSH(t *testing.T) {
	s := openStore(t)
	seedQA(t, s, 0)
	ctrlV := tea.KeyPressMsg{Code: 'v', Mod: tea.ModCtrl}
	for _, client := range []string{"ssh", "local"} {
		h := newHarness(t, s, Options{Kind: string(schema.KindQA), Client: client})
		for _, open := range []string{"m", "g"} { // the note (a text area), the go-to (a line)
			h.keys(open)
			in := h.m.cur.(*inputScreen)
			_, cmd := h.m.Update(ctrlV)
			if (cmd != nil) != (client == "local") || in.in.CanPaste() != (client == "local") {
				t.Fatalf("%s, %s input: ctrl+v returned a command: %v, paste enabled: %v", client, open, cmd != nil, in.in.CanPaste())
			}
			h.send(tea.PasteMsg{Content: "pasted\x1b[31m by the terminal"})
			if got := in.in.Value(); got != "pasted[31m by the terminal" {
				t.Fatalf("%s: bracketed paste gave %q", client, got)
			}
			h.keys("esc")
		}
	}
}

// Keys typed after a go-to or an undo that fails were meant for what it
// would have shown: they are not applied, and the screen says so.
func TestKeysAfterAFailedGotoOrUndoAreNotApplied(t *testing.T) {
	s := openStore(t)
	seedQA(t, s, 0, 0)
	h := newHarness(t, s, Options{Kind: string(schema.KindQA)})
	h.keys("g")
	h.typeText("zz")
	_, find := h.m.Update(keyMsg("enter")) // the go-to is on its way…
	h.m.Update(keyMsg("y"))                // …and y waits for its item
	h.run(find)
	h.wantOnScreen("Go to zz: no item has this id or one close to it; 1 key typed after it was not applied.")
	h.wantLabels("q1", map[string]string{})
	_, undo := h.m.Update(keyMsg("u"))
	h.m.Update(keyMsg("n"))
	h.m.Update(keyMsg("2"))
	h.run(undo)
	h.wantOnScreen("Nothing to undo; 2 keys typed after it were not applied.")
	h.wantLabels("q1", map[string]string{})
	h.at("q1", schema.QuestionValidity)
}
