package adjudicate

import (
	"sync"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/exp/teatest/v2"

	"github.com/annotate-dev/annotate/store"
	"github.com/annotate-dev/annotate/store/storetest"
)

// observed publishes, after every Update, where the adjudication screen
// is, so the test knows when the next key may be sent.
type observed struct {
	*Model
	mu    sync.Mutex
	where string
}

func (o *observed) Init() tea.Cmd { return o.Model.Init() }

func (o *observed) View() tea.View { return tea.NewView(o.Model.View()) }

// Update hands a message to the review screen as the root model (package
// tui) does: a new size is given with SetSize first.
func (o *observed) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	if ws, ok := msg.(tea.WindowSizeMsg); ok {
		o.Model.SetSize(ws.Width, ws.Height)
	}
	_, cmd := o.Model.Update(msg)
	where := "busy"
	if a := o.e.adj; a != nil && a.rev != nil && !a.saving {
		switch {
		case a.unit() == nil:
			where = "summary"
		case a.ready():
			where = a.unit().ExtID
		}
	}
	o.mu.Lock()
	o.where = where
	o.mu.Unlock()
	return o, cmd
}

func (o *observed) at() string {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.where
}

// The five disagreements adjudicated and the agreements accepted through
// the real program (commands run concurrently), then the store read.
func TestTeatestAdjudication(t *testing.T) {
	s := openStore(t)
	seedTwenty(t, s)
	o := &observed{Model: New(Options{Store: s, Lead: "lead"}, testHost)}
	tm := teatest.NewTestModel(t, o, teatest.WithInitialTermSize(100, 30))
	waitAt := func(want string) {
		t.Helper()
		deadline := time.Now().Add(5 * time.Second)
		for o.at() != want {
			if time.Now().After(deadline) {
				t.Fatalf("waiting for %s, on %q", want, o.at())
			}
			time.Sleep(2 * time.Millisecond)
		}
	}
	for k, i := range disagree {
		waitAt(claimID(i))
		tm.Send(keyMsg(digitOf(finalPick(k, i))))
	}
	waitAt("summary")
	tm.Send(keyMsg("A"))
	tm.Send(keyMsg("y"))
	deadline := time.Now().Add(5 * time.Second)
	for {
		rev, err := storetest.Read(t, s).Adjudication(store.AdjudicationQuery{})
		if err != nil {
			t.Fatal(err)
		}
		if rev.Accepted == 35 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("accepted %d", rev.Accepted)
		}
		time.Sleep(5 * time.Millisecond)
	}
	tm.Send(keyMsg("q"))
	tm.WaitFinished(t, teatest.WithFinalTimeout(5*time.Second))
	rev, _ := storetest.Read(t, s).Adjudication(store.AdjudicationQuery{})
	if p, d, _ := rev.Counts(""); p != 0 || d != 5 {
		t.Errorf("pending %d done %d", p, d)
	}
}
