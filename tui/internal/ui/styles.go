package ui

import (
	"image/color"

	"charm.land/bubbles/v2/help"
	gstyles "charm.land/glamour/v2/styles"
	"charm.land/lipgloss/v2"

	"github.com/annotate-dev/annotate/internal/lang"
)

// Styles is every style the TUI draws with. It is built once from the
// terminal's background (light or dark) and NO_COLOR, and passed down to the
// screens; nothing reads a global style.
type Styles struct {
	Dark, Plain bool
	// Lang is the language the screens are written in: how a screen says
	// things, as the styles are how it shows them (nil: English). The
	// root sets it once; every widget that writes words says them
	// through it.
	Lang *lang.Printer

	Title     lipgloss.Style // the annotator's name, screen titles
	Header    lipgloss.Style // the header bar
	Dim       lipgloss.Style // secondary text (rationale, ids, hints)
	Label     lipgloss.Style // "Question", "Answer" …
	Text      lipgloss.Style
	Selected  lipgloss.Style // the selected row on the home screen
	Key       lipgloss.Style // a key in an option list
	Option    lipgloss.Style
	Preselect lipgloss.Style // the preselected option (generated category)
	Field     lipgloss.Style // the current field's name on the card
	Card      lipgloss.Style // the left bar of the field card
	Trail     lipgloss.Style
	Error     lipgloss.Style
	Status    lipgloss.Style
	Flag      lipgloss.Style
	Highlight lipgloss.Style // words shared by a claim and its context
	Rule      lipgloss.Style // pane title rules
	Focus     lipgloss.Style // pane title when the pane has the focus
	BarFull   lipgloss.Style
	BarEmpty  lipgloss.Style
	Subject   lipgloss.Style
	Predicate lipgloss.Style
	Object    lipgloss.Style
	Warn      lipgloss.Style // the break reminder

	Help    help.Styles
	Glamour string // glamour standard style name
}

// NewStyles builds the styles for a dark or light background; plain (NO_COLOR)
// uses no colour at all, only bold, faint, underline and reverse.
func NewStyles(dark, plain bool) Styles {
	ld := lipgloss.LightDark(dark)
	c := func(light, darkc string) color.Color { return ld(lipgloss.Color(light), lipgloss.Color(darkc)) }
	s := Styles{Dark: dark, Plain: plain}
	n := lipgloss.NewStyle
	if plain {
		s.Title = n().Bold(true)
		s.Header = n().Reverse(true)
		s.Dim = n().Faint(true)
		s.Label = n().Bold(true)
		s.Text = n()
		s.Selected = n().Reverse(true)
		s.Key = n().Bold(true)
		s.Option = n()
		s.Preselect = n().Bold(true).Reverse(true)
		s.Field = n().Bold(true)
		s.Card = n().Bold(true)
		s.Trail = n().Faint(true)
		s.Error = n().Bold(true).Reverse(true)
		s.Status = n().Italic(true)
		s.Flag = n().Bold(true)
		s.Highlight = n().Reverse(true)
		s.Rule = n().Faint(true)
		s.Focus = n().Bold(true).Reverse(true)
		s.BarFull = n()
		s.BarEmpty = n().Faint(true)
		s.Subject = n().Bold(true)
		s.Predicate = n().Italic(true)
		s.Object = n().Bold(true)
		s.Warn = n().Bold(true).Reverse(true)
		s.Help = help.Styles{
			Ellipsis: n().Faint(true), ShortKey: n().Bold(true), ShortDesc: n(), ShortSeparator: n().Faint(true),
			FullKey: n().Bold(true), FullDesc: n(), FullSeparator: n().Faint(true),
		}
		s.Glamour = gstyles.NoTTYStyle
		return s
	}
	accent := c("#1d4ed8", "#7aa2f7")
	s.Title = n().Bold(true).Foreground(accent)
	s.Header = n().Foreground(c("#111827", "#e5e7eb")).Background(c("#dbe4f0", "#2a3142"))
	s.Dim = n().Foreground(c("#6b7280", "#8b93a7"))
	s.Label = n().Bold(true).Foreground(accent)
	s.Text = n()
	s.Selected = n().Bold(true).Foreground(c("#ffffff", "#0b1020")).Background(accent)
	s.Key = n().Bold(true).Foreground(c("#b45309", "#e0af68"))
	s.Option = n().Foreground(c("#111827", "#d1d5db"))
	s.Preselect = n().Bold(true).Foreground(c("#047857", "#9ece6a"))
	s.Field = n().Bold(true).Foreground(c("#7c3aed", "#bb9af7"))
	s.Card = n().Foreground(c("#7c3aed", "#bb9af7"))
	s.Trail = n().Foreground(c("#047857", "#73daca"))
	s.Error = n().Bold(true).Foreground(c("#ffffff", "#1a1b26")).Background(c("#b91c1c", "#f7768e"))
	s.Status = n().Foreground(c("#1d4ed8", "#7dcfff"))
	s.Flag = n().Bold(true).Foreground(c("#b91c1c", "#ff9e64"))
	s.Highlight = n().Bold(true).Foreground(c("#111827", "#1a1b26")).Background(c("#fde68a", "#e0af68"))
	s.Rule = n().Foreground(c("#9ca3af", "#565f89"))
	s.Focus = n().Bold(true).Foreground(c("#ffffff", "#1a1b26")).Background(accent)
	s.BarFull = n().Foreground(c("#047857", "#9ece6a"))
	s.BarEmpty = n().Foreground(c("#d1d5db", "#3b4261"))
	s.Subject = n().Bold(true).Foreground(c("#1d4ed8", "#7aa2f7"))
	s.Predicate = n().Italic(true).Foreground(c("#7c3aed", "#bb9af7"))
	s.Object = n().Bold(true).Foreground(c("#047857", "#9ece6a"))
	s.Warn = n().Bold(true).Foreground(c("#111827", "#1a1b26")).Background(c("#fcd34d", "#e0af68"))
	s.Help = help.DefaultStyles(dark)
	s.Glamour = gstyles.LightStyle
	if dark {
		s.Glamour = gstyles.DarkStyle
	}
	return s
}
