package ui

import (
	"math/rand/v2"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
)

// otherMsg is a message of the program's, not the textarea's.
type otherMsg struct{}

// The editor's kept drawing (Editor.View) is the textarea's own drawing:
// two editors get the same random edits, messages, sizes, focus changes and gutter
// marks, one drawn through View, the other by its textarea at every step;
// the drawings are equal at every step. New editors start often, so that
// pristine editors are drawn from the drawings kept of others (of other
// sizes, focus, styles and gutters too).
func TestEditorViewIsTheTextareas(t *testing.T) {
	styles := []Styles{NewStyles(true, false), NewStyles(false, false), NewStyles(false, true)}
	placeholders := []string{"Write the answer to the query here. Enter starts a new line.", "One document id or citation per line", ""}
	keys := []tea.KeyPressMsg{
		{Code: tea.KeyEnter}, {Code: tea.KeyBackspace}, {Code: tea.KeyDelete}, {Code: tea.KeyLeft}, {Code: tea.KeyRight},
		{Code: tea.KeyUp}, {Code: tea.KeyDown}, {Code: tea.KeyHome}, {Code: tea.KeyEnd}, {Code: tea.KeyPgUp}, {Code: tea.KeyPgDown},
		{Code: 'z', Mod: tea.ModCtrl}, {Code: 'y', Mod: tea.ModCtrl}, {Code: 'w', Mod: tea.ModCtrl}, {Code: 'k', Mod: tea.ModCtrl},
		{Code: tea.KeySpace, Text: " "},
	}
	words := []string{"a", "landlord", "may", "enter", "2099 ONSC 1", "é", "日本語", "without notice only in an emergency"}
	rng := rand.New(rand.NewPCG(31, 7))
	steps := 0
	for run := range 120 {
		st := styles[rng.IntN(len(styles))]
		ph := placeholders[rng.IntN(len(placeholders))]
		// The gutter's marks follow state outside the editor, as the
		// citations' do the database's.
		known := map[int]bool{}
		mark := func(line int) string {
			if known[line] {
				return "✓ "
			}
			return "  "
		}
		gutter := rng.IntN(2) == 0
		kept, plain := NewEditor(st, true, ph), NewEditor(st, true, ph)
		for _, e := range []*Editor{kept, plain} {
			if gutter {
				e.SetGutter(2, mark)
			}
			if run%3 == 0 {
				e.SetValue("")
			}
		}
		w, h := 1+rng.IntN(80), 1+rng.IntN(25)
		if run%2 == 0 { // the answer screen's sizes, often met again
			w, h = 71, 22
		}
		for range 1 + rng.IntN(40) {
			var op func(*Editor)
			switch r := rng.IntN(20); {
			case r < 8:
				s := words[rng.IntN(len(words))]
				op = func(e *Editor) {
					for _, c := range s {
						e.Update(tea.KeyPressMsg{Code: c, Text: string(c)})
					}
				}
			case r < 13:
				k := keys[rng.IntN(len(keys))]
				op = func(e *Editor) { e.Update(k) }
			case r < 14:
				p := strings.Repeat(words[rng.IntN(len(words))]+"\n", rng.IntN(12))
				op = func(e *Editor) { e.Update(tea.PasteMsg{Content: p}) }
			case r < 15:
				v := []string{"", "a", "one\ntwo\n\nthree", strings.Repeat("long line ", 40)}[rng.IntN(4)]
				op = func(e *Editor) { e.SetValue(v) }
			case r < 17:
				if rng.IntN(2) == 0 {
					w, h = 1+rng.IntN(80), 1+rng.IntN(25)
				}
				op = func(*Editor) {}
			case r < 18:
				if rng.IntN(2) == 0 {
					op = (*Editor).Focus
				} else {
					op = (*Editor).Blur
				}
			case r < 19 && rng.IntN(2) == 0:
				// A message of the program's (the next item loaded, a
				// count): the textarea itself is handed it.
				msg := []tea.Msg{otherMsg{}, &otherMsg{}, tea.WindowSizeMsg{Width: 100, Height: 30}}[rng.IntN(3)]
				for _, e := range []*Editor{kept, plain} {
					e.SetSize(w, h)
				}
				kept.Update(msg)
				plain.ta, _ = plain.ta.Update(msg)
				op = func(*Editor) {}
			case r < 19:
				line := rng.IntN(6)
				known[line] = !known[line]
				op = func(*Editor) {}
			default:
				st := styles[rng.IntN(len(styles))]
				op = func(e *Editor) { e.SetStyles(st) }
			}
			for _, e := range []*Editor{kept, plain} {
				op(e)
				e.SetSize(w, h)
			}
			got, want := kept.View(), plain.ta.View()
			steps++
			if got != want {
				t.Fatalf("run %d, step %d (%d×%d, value %q): the kept drawing\n%s\nis not the textarea's\n%s", run, steps, w, h, plain.Value(), got, want)
			}
			// A second frame with nothing changed is the kept drawing.
			if again := kept.View(); again != want {
				t.Fatalf("run %d: a second drawing differs:\n%s\nwant\n%s", run, again, want)
			}
		}
	}
}
