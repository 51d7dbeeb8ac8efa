package tui

import (
	"bytes"
	"flag"
	"fmt"
	"image/color"
	"os"
	"path/filepath"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"
	"github.com/charmbracelet/x/ansi"

	"github.com/annotate-dev/annotate/store"
)

// updating reports whether -update was given: the flag is the one
// github.com/charmbracelet/x/exp/golden registers (teatest imports it), so
// `go test ./tui/ -run Golden -update` rewrites the golden files in testdata/.
func updating() bool {
	f := flag.Lookup("update")
	return f != nil && f.Value.String() == "true"
}

// goldenScreens builds each screen of the goldens on a fixed store (the
// session clock frozen by Options.Now).
var goldenScreens = []struct {
	name string
	opt  Options
	keys []string
}{
	{"home", Options{}, nil},
	{"qa", Options{Kind: "qa"}, []string{"y"}},
	{"claim", Options{Kind: "claim"}, []string{"y"}},
	{"missed", Options{Kind: "claim"}, []string{"y", "1", "n"}},
	{"guidelines", Options{Kind: "qa"}, []string{"y", "?"}},
	{"search", Options{Kind: "qa"}, []string{"/", "p", "e", "r", "s", "o", "n", "a", "l"}},
	{"filter", Options{Kind: "qa"}, []string{"F"}},
}

func goldenStore(t testing.TB) *store.Store {
	s := openStore(t)
	seedQA(t, s, 2, 1, 0)
	if _, err := s.CreateBatch(store.BatchSpec{Name: "pilot-1", Kind: "qa", Size: 2, Pilot: true, Assign: []string{"jo"}}); err != nil {
		t.Fatal(err)
	}
	return s
}

func TestGoldenScreens(t *testing.T) {
	for _, sc := range goldenScreens {
		for _, size := range [][2]int{{80, 24}, {120, 40}} {
			for _, theme := range []string{"dark", "light"} {
				name := fmt.Sprintf("%s_%dx%d_%s", sc.name, size[0], size[1], theme)
				t.Run(name, func(t *testing.T) {
					s := goldenStore(t)
					if sc.opt.Kind == "claim" { // claims are asked once their answer is judged correct
						judgeCorrect(t, s, "jo", "q1", "q2")
					}
					h := newHarness(t, s, sc.opt)
					bg := color.Color(color.Black)
					if theme == "light" {
						bg = color.White
					}
					h.send(tea.BackgroundColorMsg{Color: bg})
					h.send(tea.WindowSizeMsg{Width: size[0], Height: size[1]})
					h.keys(sc.keys...)
					out := h.m.View().Content
					checkFits(t, out, size[0], size[1])
					// A fixed colour profile: 256 colours.
					var b bytes.Buffer
					w := &colorprofile.Writer{Forward: &b, Profile: colorprofile.ANSI256}
					w.WriteString(out)
					compareGolden(t, name+".ansi", b.String())
					if theme == "dark" {
						compareGolden(t, fmt.Sprintf("%s_%dx%d.txt", sc.name, size[0], size[1]), ansi.Strip(out))
					}
				})
			}
		}
	}
}

func compareGolden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if updating() {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./tui/ -run Golden -update to create it)", err)
	}
	if string(want) != got {
		t.Fatalf("%s differs from the golden file (go test ./tui/ -run Golden -update rewrites it):\n--- got ---\n%s\n--- want ---\n%s",
			name, ansi.Strip(got), ansi.Strip(string(want)))
	}
}

// checkFits fails when a rendering is wider or taller than the terminal.
func checkFits(t testing.TB, out string, w, h int) {
	t.Helper()
	lines := splitLines(out)
	if len(lines) > h {
		t.Fatalf("%dx%d: %d lines", w, h, len(lines))
	}
	for i, l := range lines {
		if lw := ansi.StringWidth(l); lw > w {
			t.Fatalf("%dx%d: line %d is %d wide: %q", w, h, i, lw, ansi.Strip(l))
		}
	}
}

func splitLines(s string) []string {
	var out []string
	start := 0
	for i := 0; i < len(s); i++ {
		if s[i] == '\n' {
			out = append(out, s[start:i])
			start = i + 1
		}
	}
	return append(out, s[start:])
}
