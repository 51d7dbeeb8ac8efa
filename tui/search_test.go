package tui

import (
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/teatest/v2"

	"github.com/annotate-dev/annotate/schema"
	"github.com/annotate-dev/annotate/store"
)

// searchSeed holds five QA pairs, in this import order, from three sources;
// "données" (in any case, with or without its accent) is in the second and
// the fifth only.
func searchSeed(t *testing.T) *store.Store {
	t.Helper()
	s := openStore(t)
	pairs := []struct{ id, source, q, a string }{
		{"gdpr-art-5", "GDPR", "What principles govern processing?", "Lawfulness, fairness and transparency."},
		{"gdpr-art-17", "GDPR", "Quand les DONNÉES doivent-elles être effacées ?", "Sans retard injustifié."},
		{"ccpa-1798-100", "CCPA", "What may a consumer request?", "Disclosure of the categories of data."},
		{"fr-cnil-2019", "CNIL", "Qu'est-ce qu'une donnée sensible ?", "Une donnée qui révèle l'origine."},
		{"fr-cnil-2021", "CNIL", "Who enforces the rules?", "The supervisory authority (donnees ouvertes)."},
	}
	err := s.Import(func(tx *store.Tx) error {
		for _, p := range pairs {
			qa := store.QAPair{ID: p.id, Source: p.source, Language: "en", Hop: "single", Question: p.q, Answer: p.a, Category: "factual_recall"}
			if _, _, err := tx.PutQA(qa, "h"+p.id, "seed", false); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// framed is observed that also keeps the frame drawn after every Update.
type framed struct {
	observed
	frame string
}

func (f *framed) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	_, cmd := f.observed.Update(msg)
	v := ansi.Strip(f.Model.View().Content)
	f.mu.Lock()
	f.frame = v
	f.mu.Unlock()
	return f, cmd
}

func (f *framed) screen() string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.frame
}

var (
	ctrlN = tea.KeyPressMsg{Code: 'n', Mod: tea.ModCtrl}
	ctrlP = tea.KeyPressMsg{Code: 'p', Mod: tea.ModCtrl}
)

// Search, next and previous match with wrapping, no match, fuzzy go-to and
// a filter, through the real program: each step waits for the item the
// search must land on (worked out by hand from searchSeed).
func TestTeatestSearchAndFilter(t *testing.T) {
	s := searchSeed(t)
	ref, _ := s.Resolve("ccpa-1798-100")
	if err := s.SetFlag("jo", ref.ItemID, "", true, 0); err != nil {
		t.Fatal(err)
	}
	o := &framed{observed: observed{Model: New(Options{Store: s, Annotator: "jo", Kind: "qa", Client: "test"})}}
	tm := teatest.NewTestModel(t, o, teatest.WithInitialTermSize(120, 40))
	waitAt := func(want string) {
		t.Helper()
		want += "/" + schema.QuestionValidity
		deadline := time.Now().Add(5 * time.Second)
		for o.at() != want {
			if time.Now().After(deadline) {
				t.Fatalf("waiting for %s, on %q", want, o.at())
			}
			time.Sleep(2 * time.Millisecond)
		}
	}
	// The screen shows text (the terminal's output is drawn as changes to
	// the last frame, so the frame itself is read).
	shows := func(text string) {
		t.Helper()
		deadline := time.Now().Add(5 * time.Second)
		for !strings.Contains(o.screen(), text) {
			if time.Now().After(deadline) {
				t.Fatalf("waiting for %q on the screen:\n%s", text, o.screen())
			}
			time.Sleep(2 * time.Millisecond)
		}
	}
	typeText := func(text string) {
		for _, r := range text {
			tm.Send(tea.KeyPressMsg{Code: r, Text: string(r)})
		}
	}
	waitAt("gdpr-art-5")
	tm.Send(keyMsg("/"))
	typeText("donnees")
	tm.Send(keyMsg("enter"))
	waitAt("gdpr-art-17")
	shows("Match 1 of 2")
	tm.Send(ctrlN)
	waitAt("fr-cnil-2021")
	shows("Match 2 of 2")
	tm.Send(ctrlN) // wraps round to the first match
	waitAt("gdpr-art-17")
	shows("Match 1 of 2")
	tm.Send(ctrlP) // and back round to the last
	waitAt("fr-cnil-2021")
	shows("Match 2 of 2")

	tm.Send(keyMsg("/"))
	tm.Send(keyMsg("up"))     // the prompt opens empty, the last search one key away,
	tm.Send(keyMsg("ctrl+j")) // and enter searches it again,
	waitAt("gdpr-art-17")     // from fr-cnil-2021, wrapping round
	tm.Send(keyMsg("/"))
	typeText("zzz") // a new search, not "donneeszzz"
	tm.Send(keyMsg("enter"))
	shows("No item of this queue matches “zzz”")

	// g with a fragment that is no id nor the start of one: the closest.
	tm.Send(keyMsg("g"))
	typeText("cnil2021")
	tm.Send(keyMsg("enter"))
	waitAt("fr-cnil-2021")
	shows("the closest is fr-cnil-2021")

	// F, then 2 (flagged): the queue holds the one flagged item.
	tm.Send(keyMsg("F"))
	shows("Filter the QA queue")
	tm.Send(keyMsg("2"))
	waitAt("ccpa-1798-100")
	shows("filter: flagged")
	shows("item 1 of 1")
	tm.Send(keyMsg("s")) // skipped: nothing else is flagged
	shows("Nothing left in this queue")

	tm.Send(keyMsg("q"))
	tm.Send(keyMsg("q"))
	tm.WaitFinished(t, teatest.WithFinalTimeout(5*time.Second))
}

// In a relevance pair / still searches the document; ctrl+f searches the
// queue: "deposit" is in d-short's text only (the query is the same for
// every pair of the pool).
func TestRelevanceSearchKeys(t *testing.T) {
	s := relevanceStore(t, 0, false)
	h := newHarness(t, s, Options{Kind: "relevance"})
	ids, _ := s.BatchItems("pool", "")
	h.at(ids[0], "relevance")
	h.keys("/")
	h.wantOnScreen("Search in the document")
	h.keys("esc")
	h.send(tea.KeyPressMsg{Code: 'f', Mod: tea.ModCtrl})
	h.wantOnScreen("Search the relevance queue")
	h.typeText("DEPOSIT")
	h.keys("enter")
	h.at("q-1/d-short", "relevance")
	h.wantOnScreen("Match 1 of 1 for “DEPOSIT”")
}
