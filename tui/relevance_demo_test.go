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
