package tui

import (
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/annotate-dev/annotate/store"
)

// longStore holds items with long texts, long ids and wide characters.
func longStore(t testing.TB) *store.Store {
	s := openStore(t)
	long := strings.Repeat("Le responsable du traitement met en œuvre des mesures techniques et organisationnelles appropriées « conformément » à l’article 32 du règlement (UE) 2016/679 ; ", 12)
	err := s.Import(func(tx *store.Tx) error {
		qa := store.QAPair{ID: "civil-" + strings.Repeat("x", 60), Source: "CIVIL", Language: "fr", Hop: "multi",
			Question: long[:400] + "?", Answer: long, Rationale: long[:300], Category: "general_legal_research",
			Contexts: []store.Context{{ID: "c1", Text: long}, {ID: "c2", Text: "条約第一条の規定により個人データを保護する。" + long}, {ID: "c3", Text: "Court."}}}
		if _, _, err := tx.PutQA(qa, "h", "f", false); err != nil {
			return err
		}
		q := store.Query{ID: "query-" + strings.Repeat("y", 60), Text: long[:500] + "?", Persona: "professional", Jurisdiction: "ON",
			Issue: long[:80], SeedDoc: "doc-" + strings.Repeat("z", 40), SeedGroup: "g1"}
		if _, _, err := tx.PutQuery(q, "hq", "f", false); err != nil {
			return err
		}
		for i, tr := range [][3]string{{long[:200], "met en œuvre", long[:150]}, {"Le responsable", "doit", "informer"}} {
			c := store.Claim{ID: qa.ID + "-c" + itoa(i+1), QAID: qa.ID, Position: i + 1, Triplet: tr}
			if _, _, err := tx.PutClaim(c, "h"+c.ID, "f", false); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	seedQA(t, s, 1)
	return s
}

// Every screen at every size from 20x6 to 300x100: no panic, never wider
// or taller than the terminal.
func TestResizeSweep(t *testing.T) {
	screens := []struct {
		name string
		opt  Options
		keys []string
		text string // typed after the keys
	}{
		{"home", Options{}, nil, ""},
		{"home-guidelines", Options{}, []string{"?"}, ""},
		{"qa", Options{Kind: "qa"}, nil, ""},
		{"qa-category", Options{Kind: "qa"}, []string{"y"}, ""},
		{"qa-focus", Options{Kind: "qa"}, []string{"tab", "pgdown", "down"}, ""},
		{"claim", Options{Kind: "claim"}, nil, ""},
		{"query", Options{Kind: "query"}, nil, ""},
		{"query-focus", Options{Kind: "query"}, []string{"tab", "pgdown"}, ""},
		{"claim-entailment", Options{Kind: "claim"}, []string{"y"}, ""},
		{"missed", Options{Kind: "claim"}, []string{"n", "n"}, ""},
		{"add-claim", Options{Kind: "claim"}, []string{"n", "n", "a"}, strings.Repeat("sujet très long ", 20)},
		{"guidelines", Options{Kind: "qa"}, []string{"?"}, ""},
		{"note", Options{Kind: "qa"}, []string{"m"}, strings.Repeat("note ", 50)},
		{"goto", Options{Kind: "qa"}, []string{"g"}, "civil-"},
		{"error", Options{Kind: "qa"}, []string{"g"}, "does-not-exist\r"},
		{"done", Options{Kind: "qa"}, []string{"s", "s"}, ""},
		{"break", Options{Kind: "qa", SessionLimit: time.Minute}, []string{"tab", "tab"}, ""},
		{"loading", Options{Kind: "qa"}, nil, ""},
		{"typed-ahead", Options{Kind: "qa"}, nil, ""},
		{"goto-ambiguous", Options{Kind: "qa"}, []string{"g"}, "civil\r"},
		{"search", Options{Kind: "qa"}, []string{"/"}, "œuvre"},
		{"search-found", Options{Kind: "qa"}, []string{"/"}, "œuvre\r"},
		{"filter", Options{Kind: "qa"}, []string{"F"}, ""},
		{"filter-flagged", Options{Kind: "qa"}, []string{"F", "2"}, ""},
	}
	var sizes [][2]int
	for w := 20; w <= 300; w += 7 {
		for h := 6; h <= 100; h += 5 {
			sizes = append(sizes, [2]int{w, h})
		}
	}
	sizes = append(sizes, [2]int{20, 6}, [2]int{300, 6}, [2]int{20, 100}, [2]int{300, 100}, [2]int{minWidth, minHeight}, [2]int{minWidth - 1, minHeight})
	for _, sc := range screens {
		t.Run(sc.name, func(t *testing.T) {
			t.Parallel()
			if sc.name == "home-guidelines" && testing.Short() {
				t.Skip("all the guidelines take seconds to render at every width; the guidelines screen is swept above")
			}
			h := newHarness(t, longStore(t), sc.opt)
			for _, k := range sc.keys {
				h.clock.add(time.Minute)
				h.keys(k)
			}
			if sc.text != "" {
				typed := strings.TrimSuffix(sc.text, "\r")
				h.typeText(typed)
				if typed != sc.text {
					h.keys("enter")
				}
			}
			if sc.name == "typed-ahead" { // a save in flight, keys waiting, the database slow
				h.m.Update(keyMsg("y"))
				for i := 0; i < 20; i++ {
					h.m.Update(keyMsg("1"))
				}
				h.send(saveSlowMsg{seq: h.m.e.saves})
			}
			if sc.name == "loading" {
				h.m.cur = newLoading(h.m.e, store.ItemRef{ItemID: 1, ExtID: strings.Repeat("id", 80)}, "Loading "+strings.Repeat("id", 80))
			}
			for _, size := range sizes {
				h.send(tea.WindowSizeMsg{Width: size[0], Height: size[1]})
				checkFits(t, h.m.View().Content, size[0], size[1])
			}
		})
	}
}
