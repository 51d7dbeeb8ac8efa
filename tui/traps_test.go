package tui

import (
	"strings"
	"sync"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/teatest/v2"

	"github.com/annotate-dev/annotate/schema"
)

// watched wraps the root model of the real program and keeps the screen
// it last drew, as plain text, for the tests of the screens' small traps.
type watched struct {
	*Model
	mu     sync.Mutex
	screen string
}

func (o *watched) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	_, cmd := o.Model.Update(msg)
	o.mu.Lock()
	o.screen = ansi.Strip(o.Model.render())
	o.mu.Unlock()
	return o, cmd
}

func (o *watched) now() string {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.screen
}

// program runs the real program at 80×24 and returns a way to type and to
// wait for the screen to hold every text given.
func program(t *testing.T, opt Options) (press func(keys ...string), shows func(want ...string) string) {
	t.Helper()
	opt.Annotator, opt.Client = "jo", "test"
	o := &watched{Model: New(opt)}
	tm := teatest.NewTestModel(t, o, teatest.WithInitialTermSize(80, 24))
	t.Cleanup(func() { tm.Quit() })
	shows = func(want ...string) string {
		t.Helper()
		deadline := time.Now().Add(10 * time.Second)
		for {
			s := o.now()
			ok := true
			for _, w := range want {
				ok = ok && strings.Contains(s, w)
			}
			if ok {
				return s
			}
			if time.Now().After(deadline) {
				t.Fatalf("the screen does not show %q:\n%s", want, s)
			}
			time.Sleep(5 * time.Millisecond)
		}
	}
	press = func(keys ...string) {
		for _, k := range keys {
			tm.Send(keyMsg(k))
		}
	}
	return press, shows
}

// The missed-claims step is about the answer: titled after it, with the
// answer's decisions, not the last claim's title and ✓ line.
func TestTeatestMissedClaimsStepIsTheAnswers(t *testing.T) {
	s := openStore(t)
	seedQA(t, s, 2, 0)
	press, shows := program(t, Options{Store: s, Kind: "qa"})
	shows("QA q1", "question_validity")
	press("y", "enter", "1", "1") // valid, the generated category, citizen, correct: its claims follow
	shows("Claim q1-c1", "claim_validity")
	press("y", "1")
	shows("Claim q1-c2", "claim_validity")
	press("n") // the last claim incorrect: the missed-claims step
	v := shows("Missed claims · q1 ", "missed_claims Did the extractor miss a claim")
	if strings.Contains(v, "Claim q1-c2") || strings.Contains(v, "claim_validity incorrect") {
		t.Fatalf("the step shows the last claim's title or decisions:\n%s", v)
	}
	shows("✓ question_validity valid · category factual_recall · persona citizen ·", "answer_correctness correct")
	press("enter") // none missed
	shows("QA q2")
}

// u undoes the last action, a skip included: u after s brings the item
// skipped back; the next u undoes the decision before the skip.
func TestTeatestUndoTakesBackASkip(t *testing.T) {
	s := openStore(t)
	seedQA(t, s, 0, 0, 0)
	press, shows := program(t, Options{Store: s, Kind: "qa"})
	shows("QA q1", "question_validity")
	press("n", "1") // q1 invalid, domain
	shows("QA q2", "question_validity")
	press("s")
	shows("QA q3", "Skipped q2 (it stays in the queue).")
	press("u")
	shows("QA q2", "Skip undone: back to q2.")
	press("u")
	shows("QA q1", "Undone: invalid_reason = domain on q1.", "invalid_reason")
}

// / opens empty, so new typing is a new search; the last search is one key
// away (↑).
func TestTeatestSearchOpensEmptyTheLastOneAKeyAway(t *testing.T) {
	s := openStore(t)
	seedQA(t, s, 0, 0, 0, 0)
	press, shows := program(t, Options{Store: s, Kind: "qa"})
	shows("QA q1", "question_validity")
	press("/")
	shows("Search the QA queue")
	typeKeys(press, "Article 3 ")
	press("enter")
	shows("QA q3", "Question 3:")
	press("/")
	v := shows("Search the QA queue", "↑ the last one (Article 3) · enter ok · esc cancel")
	if strings.Contains(v, "search: Article 3") {
		t.Fatalf("the search opened with the last one in it:\n%s", v)
	}
	typeKeys(press, "Article 2 ")
	press("enter")
	shows("QA q2", "Question 2:") // not "Article 3 Article 2 "
	press("/", "up")
	shows("search: Article 2")
}

func typeKeys(press func(...string), text string) {
	for _, r := range text {
		if r == ' ' {
			press("space")
			continue
		}
		press(string(r))
	}
}

// A go-to to an item not asked: at 80 columns the card says why, and the
// status line of a decision key says what to do, whole.
func TestTeatestReadOnlyReasonFitsAt80Columns(t *testing.T) {
	s := openStore(t)
	seedQA(t, s, 1)
	press, shows := program(t, Options{Store: s, Kind: "qa"})
	shows("QA q1", "question_validity")
	press("g")
	typeKeys(press, "q1-c1")
	press("enter")
	shows("Claim q1-c1 · (go to)", "▌ Not asked: jo has not judged the answer yet.", "Shown read-only: nothing is asked here. enter goes on.")
	press("y")
	shows("y: nothing is asked here (read-only, see why above). enter goes on.")
}

// Home's counts say what they count: of the claims asked (those of
// answers judged correct), done and left; the others are counted apart.
func TestTeatestHomeCountsSayWhatTheyCount(t *testing.T) {
	s := openStore(t)
	seedQA(t, s, 3, 2)
	for _, l := range [][3]string{{"q1", schema.QuestionValidity, "valid"}, {"q1", schema.Category, "factual_recall"},
		{"q1", schema.Persona, "citizen"}, {"q1", schema.AnswerCorrectness, "correct"}} {
		label(t, s, "jo", l[0], l[1], l[2])
	}
	for _, c := range []string{"q1-c1", "q1-c2", "q1-c3"} {
		label(t, s, "jo", c, schema.ClaimValidity, "incorrect")
	}
	label(t, s, "jo", "q1", schema.MissedClaimsChecked, "checked")
	_, shows := program(t, Options{Store: s})
	v := shows("done    left of those asked", "+ 2 not asked: their answer not judged correct by you")
	for _, line := range strings.Split(v, "\n") {
		if strings.Contains(line, "Claims") && !strings.Contains(line, "3       0 100%") {
			t.Errorf("the Claims row: %q", line)
		}
	}
}
