package main

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/charmbracelet/x/ansi"
)

// vscreen is the grid a terminal shows, rebuilt from what annotate writes
// to it: Bubble Tea's renderer writes only the cells that change (a new
// item's header may differ from the last in one digit), so what is on
// screen after a key is read from the grid, not from the bytes of the
// frame. It knows the sequences the renderer writes for xterm (cursor
// moves, erasing, inserting and deleting cells and lines, scrolling within
// margins); one it does not know that moves or changes cells is counted in
// unknown, and the key figures refuse a screen that met one.
type vscreen struct {
	w, h        int
	cells       [][]string // "" : the right half of a wide character
	x, y        int
	top, bottom int // the scrolling margins, inclusive
	insert      bool
	wrapNext    bool // the last column was written: the next character wraps
	savedX      int
	savedY      int
	last        string // the last character written (REP repeats it)
	state       byte
	parser      *ansi.Parser
	pending     []byte // an incomplete sequence or character at the end of a chunk
	unknown     map[string]int
}

func newVscreen(w, h int) *vscreen {
	v := &vscreen{w: w, h: h, bottom: h - 1, parser: ansi.NewParser(), unknown: map[string]int{}}
	v.cells = make([][]string, h)
	for y := range v.cells {
		v.cells[y] = blankLine(w)
	}
	return v
}

func blankLine(w int) []string {
	l := make([]string, w)
	for i := range l {
		l[i] = " "
	}
	return l
}

// write applies output to the grid.
func (v *vscreen) write(b []byte) {
	b = append(v.pending, b...)
	v.pending = nil
	for len(b) > 0 {
		if b[0] >= 0x80 && !utf8.FullRune(b) {
			v.pending = append([]byte(nil), b...)
			return
		}
		seq, width, n, state := ansi.DecodeSequence(b, v.state, v.parser)
		if n == len(b) && state != ansi.NormalState {
			// The sequence goes on in the next chunk.
			v.pending = append([]byte(nil), b...)
			return
		}
		v.state = state
		b = b[n:]
		if state != ansi.NormalState {
			continue
		}
		switch {
		case width > 0:
			v.put(string(seq), width)
		case len(seq) == 1 && seq[0] < 0x20:
			v.control(seq[0])
		case len(seq) > 1 && seq[0] == ansi.ESC && seq[1] == '[', len(seq) > 0 && seq[0] == ansi.CSI:
			v.csi(ansi.Cmd(v.parser.Command()), v.parser.Params())
		case len(seq) == 2 && seq[0] == ansi.ESC:
			v.esc(seq[1])
		}
	}
}

func (v *vscreen) put(s string, width int) {
	if v.wrapNext {
		v.x, v.wrapNext = 0, false
		v.lineFeed()
	}
	if v.insert {
		v.insertCells(width)
	}
	if v.x+width > v.w {
		return
	}
	v.cells[v.y][v.x] = s
	for i := 1; i < width; i++ {
		v.cells[v.y][v.x+i] = ""
	}
	v.last = s
	v.x += width
	if v.x >= v.w {
		v.x, v.wrapNext = v.w-1, true
	}
}

func (v *vscreen) control(c byte) {
	switch c {
	case '\r':
		v.x, v.wrapNext = 0, false
	case '\n', '\v', '\f':
		v.wrapNext = false
		v.lineFeed()
	case '\b':
		v.wrapNext = false
		v.x = max(0, v.x-1)
	case '\t':
		v.wrapNext = false
		v.x = min(v.w-1, (v.x/8+1)*8)
	}
}

// lineFeed moves down a line, scrolling the margins at the bottom one.
func (v *vscreen) lineFeed() {
	if v.y == v.bottom {
		v.scrollUp(1)
		return
	}
	v.y = min(v.h-1, v.y+1)
}

func (v *vscreen) esc(c byte) {
	switch c {
	case '7':
		v.savedX, v.savedY = v.x, v.y
	case '8':
		v.x, v.y, v.wrapNext = v.savedX, v.savedY, false
	case 'D':
		v.lineFeed()
	case 'E':
		v.x = 0
		v.lineFeed()
	case 'M':
		if v.y == v.top {
			v.scrollDown(1)
		} else {
			v.y = max(0, v.y-1)
		}
	case '=', '>', '\\', 'c':
	default:
		v.unknown["ESC "+string(c)]++
	}
}

func (v *vscreen) csi(cmd ansi.Cmd, p ansi.Params) {
	n := func(i int) int {
		x, _, _ := p.Param(i, 1)
		return max(1, x)
	}
	zero := func(i int) int {
		x, _, _ := p.Param(i, 0)
		return x
	}
	if cmd.Prefix() != 0 || cmd.Intermediate() != 0 {
		switch cmd.Final() {
		case 'h', 'l', 'p', 'u', 'm', 'q', 'W', 'n', 'c':
			return // private modes, queries, keyboard and cursor settings: no cell changes
		}
		v.unknown[fmt.Sprintf("CSI %c%c%c", cmd.Prefix(), cmd.Intermediate(), cmd.Final())]++
		return
	}
	v.wrapNext = false
	switch cmd.Final() {
	case 'A':
		v.y = max(0, v.y-n(0))
	case 'B', 'e':
		v.y = min(v.h-1, v.y+n(0))
	case 'C', 'a':
		v.x = min(v.w-1, v.x+n(0))
	case 'D':
		v.x = max(0, v.x-n(0))
	case 'E':
		v.x, v.y = 0, min(v.h-1, v.y+n(0))
	case 'F':
		v.x, v.y = 0, max(0, v.y-n(0))
	case 'G', '`':
		v.x = min(v.w-1, n(0)-1)
	case 'd':
		v.y = min(v.h-1, n(0)-1)
	case 'H', 'f':
		v.y, v.x = min(v.h-1, n(0)-1), min(v.w-1, n(1)-1)
	case 'I':
		v.x = min(v.w-1, (v.x/8+n(0))*8)
	case 'Z':
		v.x = max(0, ((v.x+7)/8-n(0))*8)
	case 'J':
		switch zero(0) {
		case 0:
			v.eraseLine(v.x, v.w)
			for y := v.y + 1; y < v.h; y++ {
				v.cells[y] = blankLine(v.w)
			}
		case 1:
			v.eraseLine(0, v.x+1)
			for y := 0; y < v.y; y++ {
				v.cells[y] = blankLine(v.w)
			}
		default:
			for y := range v.cells {
				v.cells[y] = blankLine(v.w)
			}
		}
	case 'K':
		switch zero(0) {
		case 0:
			v.eraseLine(v.x, v.w)
		case 1:
			v.eraseLine(0, v.x+1)
		default:
			v.eraseLine(0, v.w)
		}
	case 'X':
		v.eraseLine(v.x, v.x+n(0))
	case 'b':
		for range n(0) {
			v.put(v.last, max(1, ansi.StringWidth(v.last)))
		}
	case '@':
		v.insertCells(n(0))
	case 'P':
		l := v.cells[v.y]
		k := min(n(0), v.w-v.x)
		copy(l[v.x:], l[v.x+k:])
		for i := v.w - k; i < v.w; i++ {
			l[i] = " "
		}
	case 'L', 'M':
		if v.y < v.top || v.y > v.bottom {
			return
		}
		top := v.top
		v.top = v.y
		if cmd.Final() == 'L' {
			v.scrollDown(n(0))
		} else {
			v.scrollUp(n(0))
		}
		v.top = top
		v.x = 0
	case 'S':
		v.scrollUp(n(0))
	case 'T':
		v.scrollDown(n(0))
	case 'r':
		t, b := n(0)-1, v.h-1
		if x, _, ok := p.Param(1, 0); ok && x > 0 {
			b = x - 1
		}
		if t < b && b < v.h {
			v.top, v.bottom = t, b
		}
		v.x, v.y = 0, 0
	case 'h', 'l':
		if zero(0) == 4 {
			v.insert = cmd.Final() == 'h'
		}
	case 'm', 't', 'n', 'c', 'q', 'u', 's':
		// Styles, window reports, queries: no cell changes (s and u save
		// and restore the cursor on xterm, never written by the renderer).
	default:
		v.unknown[fmt.Sprintf("CSI %c", cmd.Final())]++
	}
}

func (v *vscreen) eraseLine(from, to int) {
	for i := max(0, from); i < min(v.w, to); i++ {
		v.cells[v.y][i] = " "
	}
}

func (v *vscreen) insertCells(k int) {
	l := v.cells[v.y]
	k = min(k, v.w-v.x)
	copy(l[v.x+k:], l[v.x:v.w-k])
	for i := v.x; i < v.x+k; i++ {
		l[i] = " "
	}
}

func (v *vscreen) scrollUp(k int) {
	for range k {
		copy(v.cells[v.top:v.bottom], v.cells[v.top+1:v.bottom+1])
		v.cells[v.bottom] = blankLine(v.w)
	}
}

func (v *vscreen) scrollDown(k int) {
	for range k {
		copy(v.cells[v.top+1:v.bottom+1], v.cells[v.top:v.bottom])
		v.cells[v.top] = blankLine(v.w)
	}
}

// lines is the grid as text, one string a row, trailing blanks cut.
func (v *vscreen) lines() []string {
	out := make([]string, v.h)
	for y, l := range v.cells {
		out[y] = strings.TrimRight(strings.Join(l, ""), " ")
	}
	return out
}

// unknownSeen names the sequences met that the grid does not follow.
func (v *vscreen) unknownSeen() string {
	var out []string
	for _, k := range slices.Sorted(maps.Keys(v.unknown)) {
		out = append(out, fmt.Sprintf("%s ×%d", k, v.unknown[k]))
	}
	return strings.Join(out, ", ")
}
