package main

import (
	"strings"
	"testing"
)

// The grid follows what the renderer writes: the expected screens are
// worked out by hand from the sequences (xterm's ctlseqs).
func TestVscreenFollowsTheRenderersSequences(t *testing.T) {
	for _, c := range []struct {
		name, out string
		want      []string
	}{
		{"text, CR LF and a move", "ab\r\ncd\x1b[1;2HX", []string{"aX", "cd", "", ""}},
		{"erase to the end of the line and below", "abcdef\r\nghij\r\nkl\x1b[1;3H\x1b[K\x1b[2;2H\x1b[J", []string{"ab", "g", "", ""}},
		{"vertical and horizontal absolute, relative moves", "\x1b[3d\x1b[4Gx\x1b[2Ay\x1b[Cz\x1b[3Dw", []string{"", "", "", ""}},
		{"insert and delete characters, erase characters", "abcdef\x1b[1;2H\x1b[2@XY\x1b[1;1H\x1b[P\x1b[1;4H\x1b[2X", []string{"XYb  ef", "", "", ""}},
		{"repeat the last character", "-\x1b[4b", []string{"-----", "", "", ""}},
		{"scroll within margins", "1\r\n2\r\n3\r\n4\x1b[2;3r\x1b[S", []string{"1", "3", "", "4"}},
		{"insert and delete lines", "1\r\n2\r\n3\r\n4\x1b[2;1H\x1b[L", []string{"1", "", "2", "3"}},
		{"a line feed at the bottom scrolls", "1\r\n2\r\n3\r\n4\r\n5", []string{"2", "3", "4", "5"}},
		{"wide characters take two cells", "界x\x1b[1;1Hab", []string{"abx", "", "", ""}},
		{"a sequence split across writes", "ab\x1b[1;", []string{"ab", "", "", ""}},
	} {
		t.Run(c.name, func(t *testing.T) {
			v := newVscreen(8, 4)
			// Written a byte at a time: a chunk may end anywhere.
			for i := range len(c.out) {
				v.write([]byte{c.out[i]})
			}
			got := v.lines()
			want := c.want
			if c.name == "vertical and horizontal absolute, relative moves" {
				// x at (row 3, col 4); y two rows up at col 5; z one right
				// of y's next column (col 7); w three left of there (col 5,
				// over y).
				want = []string{"    w z", "", "   x", ""}
			}
			if strings.Join(got, "|") != strings.Join(want, "|") {
				t.Errorf("screen %q, want %q", got, want)
			}
			if u := v.unknownSeen(); u != "" {
				t.Errorf("unknown sequences: %s", u)
			}
		})
	}
	// The renderer rewrites from the first cell that changed: the rest of
	// the line stays.
	v := newVscreen(30, 2)
	v.write([]byte("Query bq-0 · item 1 of 500\x1b[1;10H1 · item 2"))
	if got := v.lines()[0]; got != "Query bq-1 · item 2 of 500" {
		t.Errorf("partial rewrite: %q", got)
	}
	v.write([]byte("\x1b[3~"))
	if v.unknownSeen() != "CSI ~ ×1" {
		t.Errorf("unknown %q", v.unknownSeen())
	}
}
