package tui

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/annotate-dev/annotate/demo"
	"github.com/annotate-dev/annotate/importer"
	"github.com/annotate-dev/annotate/store"
)

// demoStore seeds the embedded demo as `annotate demo` does.
func demoStore(t testing.TB) *store.Store {
	t.Helper()
	s := openStore(t)
	for _, f := range demo.Files() {
		if _, err := importer.ImportReader(s, f.Name, f.Data, importer.Options{Format: f.Format}); err != nil {
			t.Fatal(err)
		}
	}
	if err := demo.Setup(s); err != nil {
		t.Fatal(err)
	}
	return s
}

// Every document of the demo's pool, on the screen: no run name, rank or
// score of demo/canlegal.run, whatever the step.
func TestDemoRelevancePoolIsBlind(t *testing.T) {
	s := demoStore(t)
	ids, err := s.BatchItems(demo.DemoPool, "")
	if err != nil || len(ids) == 0 {
		t.Fatalf("the demo pool: %v %v", ids, err)
	}
	secrets := []string{"dense-irg", "dense-rerank", "bm25l", "rank", "score"}
	for _, l := range strings.Split(string(runFile(t)), "\n") {
		if f := strings.Fields(l); len(f) == 6 {
			secrets = append(secrets, f[4]) // every score as the file writes it
		}
	}
	h := newHarness(t, s, Options{Kind: "relevance"})
	for i, id := range ids {
		h.at(id, "relevance")
		for _, keys := range [][]string{nil, {"c"}, {"tab", "pgdown"}, {"tab"}} {
			h.keys(keys...)
			v := strings.ToLower(h.view())
			for _, secret := range secrets {
				if strings.Contains(v, secret) {
					t.Fatalf("%s shows %q:\n%s", id, secret, v)
				}
			}
		}
		if i%2 == 0 {
			h.keys("y")
		} else {
			h.keys("n", "4")
		}
	}
}

func runFile(t *testing.T) []byte {
	for _, f := range demo.Files() {
		if f.Format == importer.FormatTRECRun {
			return f.Data
		}
	}
	t.Fatal("the demo has no run file")
	return nil
}

// The relevance screen at every size: no panic, never wider or taller than
// the terminal, searching or not.
func TestRelevanceResizeSweep(t *testing.T) {
	for _, keys := range [][]string{nil, {"c"}, {"/"}, {"n"}} {
		h := newHarness(t, relevanceStore(t, 40, true), Options{Kind: "relevance"})
		h.keys("g")
		h.typeText("q-1/d-long")
		h.keys("enter")
		h.keys(keys...)
		if len(keys) == 1 && keys[0] == "/" {
			h.typeText("tribunal")
			h.keys("enter")
		}
		for w := 20; w <= 240; w += 11 {
			for hh := 6; hh <= 70; hh += 8 {
				h.send(tea.WindowSizeMsg{Width: w, Height: hh})
				checkFits(t, h.m.View().Content, w, hh)
			}
		}
	}
}

// The demo's first pair, key by key, as `annotate demo --as jo` takes it:
// the claim queue is empty until jo judges an answer correct; judging
// gdpr-001 correct brings its three claims, then the missed-claims step,
// then gdpr-002. Home before: claims 0 done, 0 left (none asked yet).
func TestDemoClaimsFollowTheAnswer(t *testing.T) {
	s := demoStore(t)
	h := newHarness(t, s, Options{Kind: "claim"})
	h.wantOnScreen("Nothing left in this queue", "Claims are asked once you judge their answer correct.")
	h = newHarness(t, s, Options{Kind: "qa"})
	h.at("gdpr-001", "question_validity")
	h.keys("y", "enter", "1", "1") // valid, the generated category, citizen, correct
	h.at("gdpr-001-c1", "claim_validity")
	h.keys("y", "1") // correct, entailment
	h.at("gdpr-001-c2", "claim_validity")
	h.keys("y", "2") // correct, neutral
	h.at("gdpr-001-c3", "claim_validity")
	h.keys("n") // incorrect
	h.at("gdpr-001-c3", "own")
	h.keys("enter") // none missed
	h.at("gdpr-002", "question_validity")
	q := store.QueueQuery{Annotator: "jo", Kind: "claim"}
	total, err := s.QueueTotal(q)
	if err != nil {
		t.Fatal(err)
	}
	done, err := s.QueueDone(q)
	if err != nil || total != 3 || done != 3 {
		t.Fatalf("jo's claims: %d of %d done (%v), want 3 of 3", done, total, err)
	}
	// gdpr-002's answer judged incorrect: straight on to gdpr-003; a go-to
	// to one of its claims shows it read-only and says why.
	h.keys("y", "enter", "1", "3")
	h.at("gdpr-003", "question_validity")
	h.keys("g")
	h.typeText("gdpr-002-c1")
	h.keys("enter")
	h.at("gdpr-002-c1", "complete")
	h.wantOnScreen("Not asked: jo judged the answer incorrect")
	h.keys("y", "1")
	h.wantLabels("gdpr-002-c1", map[string]string{})
	h.keys("enter") // goes on: back to the pair left
	h.at("gdpr-003", "question_validity")
}
