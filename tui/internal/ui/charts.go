package ui

import (
	"strconv"
	"strings"

	"charm.land/lipgloss/v2"
)

// Charts drawn as text for the lead's dashboard: bars, sparklines, a
// coefficient scale and confusion heatmaps. Each is readable without
// colour: a bar is filled and empty cells, a sparkline block heights, a
// coefficient carries its band's name, a heatmap cell its count; colour
// only repeats what the symbols say.

// StyledBar is Bar with its filled and empty cells styled.
func StyledBar(st Styles, done, total, n int) string {
	if n <= 0 {
		return ""
	}
	full := 0
	if total > 0 {
		full = min(n, max(0, done*n/total))
	}
	return st.BarFull.Render(strings.Repeat("█", full)) + st.BarEmpty.Render(strings.Repeat("░", n-full))
}

// sparks are the eight heights of a sparkline cell; a zero is "·", so that
// a day without work is seen as such rather than as the smallest bar.
var sparks = []rune("▁▂▃▄▅▆▇█")

// Sparkline draws values as one cell each, scaled to the largest; with more
// values than w cells, the last w (the most recent) are drawn.
func Sparkline(values []int64, w int) string {
	if w <= 0 {
		return ""
	}
	if len(values) > w {
		values = values[len(values)-w:]
	}
	var top int64
	for _, v := range values {
		top = max(top, v)
	}
	var b strings.Builder
	for _, v := range values {
		switch {
		case v <= 0:
			b.WriteRune('·')
		default:
			// 1..top onto 0..7: any non-zero value shows at least ▁, the
			// largest as █.
			i := int((v*int64(len(sparks)) - 1) / top)
			b.WriteRune(sparks[min(i, len(sparks)-1)])
		}
	}
	return b.String()
}

// Band is a chance-corrected coefficient's band (Landis and Koch 1977, the
// scale the annotation literature reports kappa against), from 0 (poor) to
// 5 (almost perfect).
type Band int

// Bands, by their lower bound.
const (
	BandPoor Band = iota
	BandSlight
	BandFair
	BandModerate
	BandSubstantial
	BandAlmostPerfect
)

var bandNames = []string{"poor", "slight", "fair", "moderate", "substantial", "almost perfect"}

func (b Band) String() string { return bandNames[b] }

// BandOf places a coefficient: below 0 poor, up to 0.20 slight, 0.40 fair,
// 0.60 moderate, 0.80 substantial, above almost perfect.
func BandOf(x float64) Band {
	switch {
	case x < 0:
		return BandPoor
	case x <= 0.20:
		return BandSlight
	case x <= 0.40:
		return BandFair
	case x <= 0.60:
		return BandModerate
	case x <= 0.80:
		return BandSubstantial
	}
	return BandAlmostPerfect
}

// BandStyle colours a band from red (poor) to green (almost perfect);
// without colour, the bands at and above substantial are bold and those
// below fair underlined, the name saying the rest.
func (s Styles) BandStyle(b Band) lipgloss.Style {
	n := lipgloss.NewStyle()
	if s.Plain {
		switch {
		case b >= BandSubstantial:
			return n.Bold(true)
		case b <= BandSlight:
			return n.Underline(true)
		}
		return n
	}
	ld := lipgloss.LightDark(s.Dark)
	light := []string{"#b91c1c", "#c2410c", "#b45309", "#4d7c0f", "#15803d", "#047857"}
	dark := []string{"#f7768e", "#ff9e64", "#e0af68", "#c3e88d", "#9ece6a", "#73daca"}
	return n.Bold(true).Foreground(ld(lipgloss.Color(light[b]), lipgloss.Color(dark[b])))
}

// heat are the backgrounds of a heatmap cell by its share of the largest
// count, in four steps.
func (s Styles) heat(step int) lipgloss.Style {
	n := lipgloss.NewStyle()
	if s.Plain {
		if step >= 3 {
			return n.Reverse(true)
		}
		return n
	}
	ld := lipgloss.LightDark(s.Dark)
	light := []string{"", "#dbeafe", "#93c5fd", "#3b82f6"}
	dark := []string{"", "#24283b", "#2e3c64", "#3d59a1"}
	if step == 0 {
		return n
	}
	return n.Background(ld(lipgloss.Color(light[step]), lipgloss.Color(dark[step])))
}

// Heatmap is a confusion table: rows (the first rater's classes) against
// columns (the second's), a count in each cell.
type Heatmap struct {
	Rows, Cols []string // class names (already sanitised)
	Counts     [][]int  // Counts[i][j]: row i, column j
}

// Lines draws the heatmap in at most w cells a line: a header of the
// columns' names cut to the cell width, then a row per class with its name
// and counts, each cell shaded by its share of the largest count. The
// diagonal (agreement) is marked with brackets, readable without colour.
func (h Heatmap) Lines(st Styles, w int) []string {
	if len(h.Rows) == 0 || len(h.Cols) == 0 || w <= 0 {
		return nil
	}
	top, widest := 0, 1
	for _, r := range h.Counts {
		for _, n := range r {
			top = max(top, n)
			widest = max(widest, len(strconv.Itoa(n)))
		}
	}
	label := 0
	for _, r := range h.Rows {
		label = max(label, TextWidth(r))
	}
	label = min(label, max(4, w/3))
	// A cell is the count in brackets or spaces, at least 4 wide and as
	// wide as room allows up to 10 (a class name's first letters show).
	cell := widest + 2
	if room := (w - label - 1) / len(h.Cols); room > cell {
		cell = min(room, 10)
	}
	cell = max(cell, 3)
	head := strings.Repeat(" ", label+1)
	for _, c := range h.Cols {
		head += PadLeft(Truncate(c, cell-1), cell)
	}
	out := []string{st.Dim.Render(TruncateStyled(head, w))}
	for i, r := range h.Rows {
		line := st.Label.Render(PadRight(r, label)) + " "
		for j := range h.Cols {
			n := 0
			if i < len(h.Counts) && j < len(h.Counts[i]) {
				n = h.Counts[i][j]
			}
			text := " " + strconv.Itoa(n) + " "
			if i == j && h.Rows[i] == h.Cols[j] {
				text = "[" + strconv.Itoa(n) + "]"
			}
			step := 0
			if top > 0 && n > 0 {
				step = 1 + min(2, n*3/(top+1))
			}
			line += st.heat(step).Render(PadLeft(text, cell))
		}
		out = append(out, TruncateStyled(line, w))
	}
	return out
}
