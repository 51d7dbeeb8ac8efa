package ui

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
)

func TestSparklineScalesToTheLargest(t *testing.T) {
	// By hand: top 8, one cell per value; v → index (8v-1)/8: 1→0 ▁,
	// 4→3 ▄, 8→7 █; a zero is ·.
	if got := Sparkline([]int64{0, 1, 4, 8}, 10); got != "·▁▄█" {
		t.Errorf("Sparkline = %q, want ·▁▄█", got)
	}
	// More values than cells: the most recent.
	if got := Sparkline([]int64{8, 0, 0, 2}, 2); got != "·█" {
		t.Errorf("Sparkline last two = %q, want ·█", got)
	}
	if got := Sparkline([]int64{0, 0}, 5); got != "··" {
		t.Errorf("Sparkline of nothing = %q, want ··", got)
	}
}

func TestStyledBarIsBarWhateverTheColour(t *testing.T) {
	for _, plain := range []bool{true, false} {
		st := NewStyles(true, plain)
		for _, c := range [][3]int{{0, 10, 8}, {5, 10, 8}, {10, 10, 8}, {3, 0, 4}, {12, 10, 5}} {
			if got, want := ansi.Strip(StyledBar(st, c[0], c[1], c[2])), Bar(min(c[0], max(c[1], 0)), c[1], c[2]); got != want {
				t.Errorf("plain %v %v: %q, want %q", plain, c, got, want)
			}
		}
	}
}

func TestBandOfLandisKoch(t *testing.T) {
	for _, c := range []struct {
		x    float64
		want string
	}{{-0.1, "poor"}, {0, "slight"}, {0.2, "slight"}, {0.21, "fair"}, {0.4, "fair"}, {0.6, "moderate"}, {0.61, "substantial"}, {0.8, "substantial"}, {0.81, "almost perfect"}, {1, "almost perfect"}} {
		if got := BandOf(c.x).String(); got != c.want {
			t.Errorf("BandOf(%v) = %s, want %s", c.x, got, c.want)
		}
	}
}

func TestHeatmapShowsEveryCountAndTheDiagonal(t *testing.T) {
	h := Heatmap{Rows: []string{"entailment", "neutral"}, Cols: []string{"entailment", "neutral"}, Counts: [][]int{{5, 1}, {0, 12}}}
	for _, plain := range []bool{true, false} {
		lines := h.Lines(NewStyles(false, plain), 40)
		if len(lines) != 3 {
			t.Fatalf("%d lines, want header and 2 rows: %q", len(lines), lines)
		}
		row1, row2 := ansi.Strip(lines[1]), ansi.Strip(lines[2])
		if !strings.Contains(row1, "[5]") || !strings.Contains(row1, " 1 ") || !strings.Contains(row2, " 0 ") || !strings.Contains(row2, "[12]") {
			t.Errorf("rows %q / %q: want [5] 1 and 0 [12]", row1, row2)
		}
		for _, l := range lines {
			if w := ansi.StringWidth(l); w > 40 {
				t.Errorf("line %q is %d wide", ansi.Strip(l), w)
			}
		}
	}
	// Narrow: never wider than asked.
	for _, l := range h.Lines(NewStyles(true, false), 9) {
		if w := ansi.StringWidth(l); w > 9 {
			t.Errorf("at 9 cells: %q is %d wide", ansi.Strip(l), w)
		}
	}
}
