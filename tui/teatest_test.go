package tui

import (
	"context"
	"io"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/annotate-dev/annotate/store/storetest"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/exp/teatest/v2"

	"github.com/annotate-dev/annotate/schema"
)

// observed wraps the root model to publish, after every Update, which item
// and field are on screen, so the test knows when the next key may be sent.
type observed struct {
	*Model
	mu    sync.Mutex
	where string
}

func (o *observed) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	_, cmd := o.Model.Update(msg)
	where := ""
	if s, ok := o.Model.cur.(*itemScreen); ok && !s.saving {
		where = s.d.ref.ExtID + "/" + s.at.String()
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

// Three QA items labelled through the real program, then the database read.
func TestTeatestThreeItems(t *testing.T) {
	s := openStore(t)
	seedQA(t, s, 0, 0, 0, 0)
	o := &observed{Model: New(Options{Store: s, Annotator: "jo", Kind: "qa", Client: "test"})}
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
	press := func(k string) { tm.Send(keyMsg(k)) }
	steps := []struct{ at, key string }{
		{"q1/" + schema.QuestionValidity, "y"}, {"q1/" + schema.Category, "enter"}, {"q1/" + schema.Persona, "1"}, {"q1/" + schema.AnswerCorrectness, "2"},
		{"q2/" + schema.QuestionValidity, "n"}, {"q2/" + schema.InvalidReason, "1"},
		{"q3/" + schema.QuestionValidity, "y"}, {"q3/" + schema.Category, "4"}, {"q3/" + schema.Persona, "3"}, {"q3/" + schema.AnswerCorrectness, "3"},
	}
	for _, st := range steps {
		waitAt(st.at)
		press(st.key)
	}
	waitAt("q4/" + schema.QuestionValidity)
	// The renderer writes what changed: the header's "item 3 of 4" becomes
	// "item 4" written over its "3", the " of 4" left as it was.
	teatest.WaitFor(t, tm.Output(), func(b []byte) bool { return strings.Contains(string(b), "item 4") },
		teatest.WithDuration(30*time.Second))
	press("q") // home
	press("q") // quit
	tm.WaitFinished(t, teatest.WithFinalTimeout(5*time.Second))
	out, _ := io.ReadAll(tm.FinalOutput(t))
	if len(out) == 0 {
		t.Fatal("no output")
	}

	want := map[string]string{
		"q1": "answer_correctness=partially_correct category=factual_recall persona=citizen question_validity=valid",
		"q2": "invalid_reason=domain question_validity=invalid",
		"q3": "answer_correctness=incorrect category=jurisdiction_time_specific persona=legal_expert question_validity=valid",
		"q4": "",
	}
	for ext, w := range want {
		ref, _ := storetest.Read(t, s).Resolve(ext)
		cur, err := storetest.Read(t, s).CurrentLabels("jo", ref.ItemID)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, f := range []string{"answer_correctness", "category", "invalid_reason", "persona", "question_validity"} {
			if v := cur[f]; v != "" {
				got = append(got, f+"="+v)
			}
		}
		if strings.Join(got, " ") != w {
			t.Errorf("%s: %s, want %s", ext, strings.Join(got, " "), w)
		}
	}
	var client string
	if err := storetest.DB(t, s).QueryRow("SELECT client FROM sessions").Scan(&client); err != nil || client != "test" {
		t.Fatalf("session: client %q, %v", client, err)
	}
}

// Run records a session and ends it when the program ends.
func TestRunEndsSession(t *testing.T) {
	s := openStore(t)
	seedQA(t, s, 0)
	in := strings.NewReader("q")
	err := Run(context.Background(), Options{Store: s, Annotator: "jo", Client: "demo"},
		tea.WithInput(in), tea.WithOutput(io.Discard), tea.WithWindowSize(80, 24), tea.WithoutSignals())
	if err != nil {
		t.Fatal(err)
	}
	var client string
	var ended bool
	if err := storetest.DB(t, s).QueryRow("SELECT client, ended_at IS NOT NULL FROM sessions").Scan(&client, &ended); err != nil || client != "demo" || !ended {
		t.Fatalf("session: client %q ended %v, %v", client, ended, err)
	}
}
