package tui

import (
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"

	"github.com/annotate-dev/annotate/internal/lang"
	"github.com/annotate-dev/annotate/schema"
	"github.com/annotate-dev/annotate/store"
	"github.com/annotate-dev/annotate/tui/internal/ui"
)

// The relevance screen (CanLegalRAGBench §4.3): the query, with its persona
// and jurisdiction, above the pane; the document in the pane, the query's
// words highlighted and the passages some run retrieved marked in the left
// margin. It never shows which run retrieved the document, at which rank or
// with which score: the store does not even load them (store.Relevance).
//
// Keys beyond the usual ones: / searches the document (ignoring case and
// accents) and gives the pane the focus, where n and N go to the next and
// previous match (esc or tab leave the pane: n is "not relevant" again);
// c jumps to the next retrieved passage. y relevant, n not relevant then a
// digit for the reason. In a pool cut with --graded, 0, 1 and 2 grade the
// document (y is 1, n is 0).

func init() {
	prompts[schema.Relevance] = lang.Key("Is the document relevant to the query: does it help answer it?")
	prompts[schema.IrrelevanceReason] = lang.Key("Why is it not relevant?")
	Register(relevanceKind{})
}

type relevanceKind struct{}

func (relevanceKind) Kind() schema.Kind { return schema.KindRelevance }

func (relevanceKind) Names() Names {
	return Names{Label: lang.Key("Relevance"), Queue: lang.Key("Relevance judgments"), Noun: lang.Key("relevance")}
}

func (relevanceKind) Top(dr Drawing, w int) []string  { return relevanceTop(dr.st, dr.d, w) }
func (relevanceKind) Pane(dr Drawing, w int) []string { return relevanceOf(dr.d).lines(dr.st, w) }
func (relevanceKind) PaneTitle(dr Drawing) string     { return relevanceOf(dr.d).title(dr.st.Lang) }

// keys and bindings: the search and the passages' jumps (relevanceKeys).
func (relevanceKind) keys(s *itemScreen, msg tea.KeyPressMsg) (ui.Child, tea.Cmd, bool) {
	return relevanceKeys(s, msg)
}
func (relevanceKind) bindings(s *itemScreen, help []key.Binding) []key.Binding {
	return relevanceBindings(s, help)
}

// paneKey: the document's rendering changes with the search.
func (relevanceKind) paneKey(d *itemData) string { return relevanceOf(d).key() }

// card: the grades of a graded pool (relevanceCard).
func (relevanceKind) card(st ui.Styles, s *itemScreen, w int, compact bool) []string {
	return relevanceCard(st, s, w, compact)
}

// relevanceView is the relevance screen's state for one item: the document
// as shown, the search and where the jumps are. Wrapping and styling a long
// case is done once per width and search; moving between matches only
// moves the marker and the scroll position.
type relevanceView struct {
	r       *store.Relevance
	text    ui.Text  // the document, sanitised
	chunks  [][2]int // retrieved passages, offsets in text
	words   map[string]bool
	folded  string // text folded for the search (made on the first search)
	index   []int  // folded byte -> text offset
	term    string // the search ("" : none)
	matches [][2]int
	match   int // the current match
	chunk   int // the passage c jumped to last (-1: none yet)

	// The rendering: its key, the header lines, the document's lines
	// (without the margin) and the offset each starts at.
	rendered string
	margins  [3]string // plain, in a retrieved passage, at the current match
	head     []string
	body     []string
	starts   []int
}

// relevanceOf is the state of the relevance item on screen, made on first use.
func relevanceOf(d *itemData) *relevanceView {
	if v, ok := d.screen.(*relevanceView); ok {
		return v
	}
	v := &relevanceView{r: &store.Relevance{Query: &store.Query{}, Document: &store.Document{}}, chunk: -1}
	if d.view != nil {
		if r, ok := d.view.Item.Payload.(*store.Relevance); ok {
			v.r = r
		}
	}
	v.text, v.chunks = sanitizeKeeping(v.r.Document.Text, v.r.Retrieved)
	v.words = ui.SignificantWords(v.r.Query.Text)
	d.screen = v
	return v
}

// sanitizeKeeping sanitises a document piece by piece between the retrieved
// chunks' bounds, so their byte offsets still point at the same text.
func sanitizeKeeping(text string, cs []store.Chunk) (ui.Text, [][2]int) {
	var cuts []int
	for _, c := range cs {
		cuts = append(cuts, runeStart(text, c.Start), runeStart(text, c.End))
	}
	sort.Ints(cuts)
	at := map[int]int{0: 0}
	var b ui.TextBuilder
	prev := 0
	for _, c := range append(cuts, len(text)) {
		if c < prev {
			continue
		}
		b.Add(ui.Data(text[prev:c]))
		at[c] = b.Len()
		prev = c
	}
	var out [][2]int
	for _, c := range cs {
		s, e := at[runeStart(text, c.Start)], at[runeStart(text, c.End)]
		if e > s {
			out = append(out, [2]int{s, e})
		}
	}
	return b.Text(), out
}

// yearOf is a document's year as text ("" : unknown).
func yearOf(y int) string {
	if y == 0 {
		return ""
	}
	return itoa(y)
}

// runeStart clamps an offset into text and moves it back to a character's start.
func runeStart(text string, i int) int {
	i = min(max(i, 0), len(text))
	for i > 0 && i < len(text) && !utf8.RuneStart(text[i]) {
		i--
	}
	return i
}

// relevanceTop: the query, then who asks it and where.
func relevanceTop(st ui.Styles, d *itemData, w int) []string {
	return ui.QueryTop(st, relevanceOf(d).r.Query, w)
}

// title names the document and, while searching, the match.
func (v *relevanceView) title(l *lang.Printer) string {
	t := l.Sprintf("Document")
	if id := v.r.Document.ID; id != "" {
		t += " " + ui.SanitizeLine(id)
	}
	if v.term != "" {
		if len(v.matches) == 0 {
			t += " · " + l.Sprintf("no match for “%s”", ui.SanitizeLine(v.term))
		} else {
			t += " · " + l.Sprintf("match %d of %d", v.match+1, len(v.matches)) + " · n/N"
		}
	}
	return t
}

// key is the pane's cache key part: the search and where it stands.
func (v *relevanceView) key() string {
	return v.term + "/" + itoa(v.match) + "/" + itoa(v.chunk)
}

// render wraps and styles the document at width w (once per width, style
// and search).
func (v *relevanceView) render(st ui.Styles, w int) {
	k := itoa(w) + "/" + v.term + "/" + strconv.FormatBool(st.Dark) + strconv.FormatBool(st.Plain)
	if k == v.rendered {
		return
	}
	v.rendered = k
	v.margins = [3]string{"  ", st.Key.Render("┃") + " ", st.Key.Render("▶") + " "}
	doc := v.r.Document
	var meta ui.TextBuilder
	for _, s := range []string{doc.Title, doc.Citation, doc.Court, doc.Jurisdiction, yearOf(doc.Year)} {
		if s != "" {
			if meta.Len() > 0 {
				meta.Add(" · ")
			}
			meta.Add(ui.DataLine(s))
		}
	}
	var head []string
	if meta.Len() > 0 {
		head = append(head, ui.WrapStyled(meta.Text(), nil, w, &st.Label)...)
	}
	if len(v.chunks) > 0 {
		head = append(head, st.Dim.Render(ui.Truncate(st.Lang.Sprintf("┃ marks the passages retrieved for this query (c jumps to them)"), w)))
	}
	v.head = append(head, "")
	spans := ui.HighlightSpans(string(v.text), v.words, st.Highlight)
	if len(v.matches) > 0 {
		spans = mergeSpans(spans, v.matches, st.Highlight.Reverse(true))
	}
	v.body, v.starts = ui.WrapStyledAt(v.text, spans, max(1, w-2), nil)
}

// margin is the left margin of a line: ┃ in a retrieved passage, ▶ at the
// current match.
func (v *relevanceView) margin(start int, current bool) string {
	switch {
	case current:
		return v.margins[2]
	case v.inChunk(start):
		return v.margins[1]
	}
	return v.margins[0]
}

func (v *relevanceView) inChunk(off int) bool {
	for _, c := range v.chunks {
		if off >= c[0] && off < c[1] {
			return true
		}
	}
	return false
}

// lines is the pane's content at width w: the header, then the document
// with its margin, the current match's line marked.
func (v *relevanceView) lines(st ui.Styles, w int) []string {
	v.render(st, w)
	current := -1
	if len(v.matches) > 0 {
		current = v.lineOf(v.matches[v.match][0])
	}
	out := make([]string, 0, len(v.head)+len(v.body))
	out = append(out, v.head...)
	for i, l := range v.body {
		out = append(out, v.margin(v.starts[i], i == current)+l)
	}
	return out
}

// size is the number of lines the pane gets from lines.
func (v *relevanceView) size() int { return len(v.head) + len(v.body) }

// lineOf is the document line holding a text offset.
func (v *relevanceView) lineOf(off int) int {
	i := sort.Search(len(v.starts), func(i int) bool { return v.starts[i] > off })
	return max(0, i-1)
}

// search finds every match of term in the document, ignoring case and accents.
func (v *relevanceView) search(term string) {
	v.term, v.matches, v.match = term, nil, 0
	f := ui.Fold(strings.TrimSpace(term))
	if f == "" {
		v.term = ""
		return
	}
	if v.index == nil {
		v.folded, v.index = ui.FoldIndex(string(v.text))
	}
	for from := 0; ; {
		i := strings.Index(v.folded[from:], f)
		if i < 0 {
			break
		}
		start := v.index[from+i]
		endF := from + i + len(f)
		end := len(v.text)
		if endF < len(v.index) {
			end = v.index[endF]
		}
		v.matches = append(v.matches, [2]int{start, end})
		from += i + len(f)
	}
}

// mergeSpans lays the search matches over the highlighted words (a word
// inside a match is shown as the match).
func mergeSpans(words []ui.Span, matches [][2]int, style lipgloss.Style) []ui.Span {
	var out []ui.Span
	mi := 0
	for _, w := range words {
		for mi < len(matches) && matches[mi][1] <= w.Start {
			out = append(out, ui.Span{Start: matches[mi][0], End: matches[mi][1], Style: style})
			mi++
		}
		if mi < len(matches) && w.End > matches[mi][0] {
			continue // under a match
		}
		out = append(out, w)
	}
	for ; mi < len(matches); mi++ {
		out = append(out, ui.Span{Start: matches[mi][0], End: matches[mi][1], Style: style})
	}
	return out
}

// scrollTo shows a document line near the top of the pane.
func (s *itemScreen) scrollToDocLine(v *relevanceView, line int) {
	s.View() // lays the pane out with the current search
	off := s.pane.Pane.Len() - v.size() + len(v.head) + line
	s.pane.Pane.Top()
	s.pane.Pane.Scroll(off - 2)
}

// relevanceKeys are the screen's own keys, seen before the usual ones.
func relevanceKeys(s *itemScreen, msg tea.KeyPressMsg) (ui.Child, tea.Cmd, bool) {
	e, v, l := s.e, relevanceOf(s.d), s.e.lang
	switch {
	case keyIs(msg, e.keys.DocSearch):
		return newInput(e, s, l.Sprintf("Search in the document (empty clears)"), []string{l.Sprintf("search")}, false, "", func(vals []string) tea.Cmd {
			v.search(vals[0])
			s.pane.Focus = v.term != ""
			switch {
			case v.term == "":
				e.status = l.Sprintf("Search cleared.")
			case len(v.matches) == 0:
				e.status = l.Sprintf("No match for “%s” in this document.", ui.SanitizeLine(v.term))
			default:
				// The first match at or after what the pane shows.
				v.match = 0
				v.render(e.styles, s.w)
				top := s.pane.Pane.Offset() - (s.pane.Pane.Len() - v.size()) - len(v.head)
				for i, m := range v.matches {
					if v.lineOf(m[0]) >= top {
						v.match = i
						break
					}
				}
				s.scrollToDocLine(v, v.lineOf(v.matches[v.match][0]))
				e.status = l.Sprintf("Match %d of %d: n next, N previous, esc leaves the document (then n is not relevant).", v.match+1, len(v.matches))
			}
			return nil
		}), nil, true
	case s.pane.Focus && len(v.matches) > 0 && (keyIs(msg, e.keys.NextMatch) || keyIs(msg, e.keys.PrevMatch)):
		step := 1
		if keyIs(msg, e.keys.PrevMatch) {
			step = len(v.matches) - 1
		}
		v.match = (v.match + step) % len(v.matches)
		s.scrollToDocLine(v, v.lineOf(v.matches[v.match][0]))
		e.status = l.Sprintf("Match %d of %d.", v.match+1, len(v.matches))
		return s, nil, true
	case s.pane.Focus && v.term != "" && keyIs(msg, e.keys.NextMatch, e.keys.PrevMatch):
		e.status = l.Sprintf("No match for “%s”: / searches again, esc leaves the document.", ui.SanitizeLine(v.term))
		return s, nil, true
	case keyIs(msg, e.keys.Chunk):
		if len(v.chunks) == 0 {
			e.status = l.Sprintf("No passage of this document was named on its own: the whole document was retrieved.")
			return s, nil, true
		}
		v.chunk = (v.chunk + 1) % len(v.chunks)
		v.render(e.styles, s.w)
		s.scrollToDocLine(v, v.lineOf(v.chunks[v.chunk][0]))
		e.status = l.Sprintf("Retrieved passage %d of %d (c: the next).", v.chunk+1, len(v.chunks))
		return s, nil, true
	}
	if v.r.Graded && s.at.kind == askField && s.at.field == schema.Relevance && !s.saving {
		grade := -1
		switch {
		case keyIs(msg, e.keys.Grade):
			grade, _ = strconv.Atoi(msg.String())
		case keyIs(msg, e.keys.Yes):
			grade = 1
		case keyIs(msg, e.keys.No) && !s.pane.Focus:
			grade = 0
		case keyIs(msg, e.keys.Pick):
			e.status = l.Sprintf("This pool is graded: 0 not relevant, 1 relevant, 2 highly relevant.")
			return s, nil, true
		}
		if grade >= 0 {
			// A graded judgment: the grade and relevance, in one transaction.
			next, cmd := s.enqueue(s.gradeOp(grade))
			return next, cmd, true
		}
	}
	return s, nil, false
}

// relevanceBindings: the search and the passages after the usual keys;
// while the pane shows matches, n/N instead of n "not relevant" (and in a
// graded pool 0-2 instead of y/n).
func relevanceBindings(s *itemScreen, help []key.Binding) []key.Binding {
	e, v := s.e, relevanceOf(s.d)
	searching := s.pane.Focus && len(v.matches) > 0
	graded := v.r.Graded && s.at.kind == askField && s.at.field == schema.Relevance
	var out []key.Binding
	for _, b := range help {
		if (searching || graded) && keyIs(tuiKey("n"), b) || graded && keyIs(tuiKey("y"), b) {
			continue
		}
		out = append(out, b)
	}
	if graded {
		out = append(out, e.keys.Grade)
	}
	out = append(out, e.keys.DocSearch)
	if searching {
		out = append(out, e.keys.NextMatch)
	}
	if len(v.chunks) > 0 {
		out = append(out, e.keys.Chunk)
	}
	return out
}

// tuiKey is the key press of a printable key.
func tuiKey(k string) tea.KeyPressMsg { return tea.KeyPressMsg{Code: rune(k[0]), Text: k} }

// relevanceCard is the card of a graded pool's relevance step (nil: the
// usual card, y/n).
func relevanceCard(st ui.Styles, s *itemScreen, w int, compact bool) []string {
	if !relevanceOf(s.d).r.Graded || s.at.field != schema.Relevance {
		return nil
	}
	bar := st.Card.Render("▌") + " "
	inner := max(1, w-2)
	l := st.Lang
	name := l.Field(schema.Relevance)
	head := st.Field.Render(ui.Truncate(name, inner))
	if p := l.Sprintf("How relevant is the document to the query?"); ui.TextWidth(name)+3 < inner {
		head += " " + st.Dim.Render(ui.Truncate(p, inner-ui.TextWidth(name)-1))
	}
	var opts []string
	for i, v := range []string{l.Sprintf("not relevant (n)"), l.Sprintf("relevant (y)"), l.Sprintf("highly relevant")} {
		opts = append(opts, st.Key.Render("["+itoa(i)+"]")+" "+st.Option.Render(v))
	}
	return []string{bar + head, bar + ui.TruncateStyled(strings.Join(opts, "   "), inner)}
}
