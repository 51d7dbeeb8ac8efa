package tui

import (
	tea "charm.land/bubbletea/v2"

	"github.com/annotate-dev/annotate/store"
)

// Thin exported wrappers over helpers of this package for the review
// screens (package tui/review), so both draw data the same way: sanitised,
// wrapped with UAX #14, clamped to the terminal.

// Sanitize makes text from data inert (see sanitize); newlines are kept.
func Sanitize(s string) string { return sanitize(s) }

// SanitizeLine is Sanitize for one line: a newline shows as ␤.
func SanitizeLine(s string) string { return sanitizeLine(s) }

// Wrap breaks sanitised text into lines of at most width cells.
func Wrap(s string, width int) []string { return wrap(s, width) }

// Truncate cuts a plain line to width cells, ending with "…".
func Truncate(s string, width int) string { return truncate(s, width) }

// TruncateStyled cuts a styled line to width cells, ending with "…".
func TruncateStyled(s string, width int) string { return truncateStyled(s, width) }

// TextWidth is the display width of a plain string.
func TextWidth(s string) int { return textWidth(s) }

// ClampView cuts a rendering to w×h cells.
func ClampView(s string, w, h int) string { return clampView(s, w, h) }

// Labelled renders "Label  text" wrapped under a hanging indent (text sanitised).
func Labelled(st Styles, label, text string, w int) []string {
	return labelled(st, label, text, w, nil, nil)
}

// ClaimText renders a claim (triple parts styled, or its text) on wrapped lines.
func ClaimText(st Styles, c store.Claim, w int) []string { return claimText(st, c, w) }

// QATop renders a QA pair's question, answer, rationale and meta line.
func QATop(st Styles, q store.QAPair, w int) []string { return qaTop(st, q, w) }

// ContextLines renders context units for a pane; with a claim, the words it
// shares with them are highlighted.
func ContextLines(st Styles, ctx []store.Context, w int, claim *store.Claim) []string {
	var set map[string]bool
	if claim != nil {
		set = claimWords(*claim)
	}
	return contextLines(st, ctx, w, set)
}

// HighlightedAnswer renders "Answer  text" with the words it shares with the
// claim highlighted.
func HighlightedAnswer(st Styles, answer string, claim store.Claim, w int) []string {
	a := sanitize(answer)
	return labelled(st, "Answer", a, w, nil, highlightSpans(a, claimWords(claim), st.Highlight))
}

// PaneTitle draws the rule above a pane with its scroll position.
func PaneTitle(st Styles, title string, focus bool, percent int, scrollable bool, w int) string {
	return paneTitle(st, title, focus, percent, scrollable, w)
}

// Pane is a scrollable list of rendered lines.
type Pane struct{ p pane }

func (p *Pane) SetLines(lines []string) { p.p.setLines(lines) }
func (p *Pane) SetHeight(h int)         { p.p.setHeight(h) }
func (p *Pane) Scroll(n int)            { p.p.scroll(n) }
func (p *Pane) Page(n int)              { p.p.page(n) }
func (p *Pane) Top()                    { p.p.top() }
func (p *Pane) Bottom()                 { p.p.bottom() }
func (p *Pane) Scrollable() bool        { return p.p.scrollable() }
func (p *Pane) Percent() int            { return p.p.percent() }

// View returns exactly the pane's height in lines.
func (p *Pane) View() []string { return p.p.view() }

// LineInput is the one-line text editor of the note input.
type LineInput struct{ l lineInput }

func (l *LineInput) SetValue(s string)         { l.l.SetValue(s) }
func (l *LineInput) Value() string             { return l.l.value() }
func (l *LineInput) SetPrompt(p string, w int) { l.l.prompt, l.l.width = p, w }
func (l *LineInput) Update(msg tea.Msg)        { l.l.update(msg) }
func (l *LineInput) View(st Styles) string     { return l.l.view(st) }
