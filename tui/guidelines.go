package tui

import (
	"regexp"
	"strings"

	"charm.land/bubbles/v2/viewport"
	tea "charm.land/bubbletea/v2"
	"charm.land/glamour/v2"

	"github.com/annotate-dev/annotate/guidelines"
	"github.com/annotate-dev/annotate/internal/lang"
	"github.com/annotate-dev/annotate/internal/textsafe"
	"github.com/annotate-dev/annotate/store"

	"github.com/annotate-dev/annotate/tui/internal/ui"
)

// guideScreen shows the guidelines of one field (or all of them, from home),
// the versions in force in the database, rendered from Markdown with
// glamour, in a scrollable viewport over the screen it was opened from.
// esc, q or ? close it. Its load is one store call (the versions in force,
// one snapshot) in a Cmd; rendering takes tens of milliseconds, so it runs
// in a Cmd too; renderings are kept per text version, width and style.
type guideScreen struct {
	e     *env
	under ui.Child
	field string // "" : all the guidelines
	// md and versions are the loaded text and the versions it is made of
	// ("" until the load arrives).
	md, versions string
	vp           viewport.Model
	shown        string // key of the rendering in the viewport
	// ignored names the last key ignored because the guidelines hide the
	// item ("": none since they opened).
	ignored string
	w, h    int
}

// guideRenderedMsg carries a rendering of the guidelines.
type guideRenderedMsg struct {
	key, text string
}

// guideLoadedMsg carries the guidelines in force of a field ("": all).
type guideLoadedMsg struct {
	field, md, versions string
}

// guideWidth caps the text width of the guidelines: lines of more than
// about 100 characters are hard to read.
func guideWidth(w int) int { return max(10, min(w-2, 100)) }

func newGuide(e *env, under ui.Child, field string) (*guideScreen, tea.Cmd) {
	g := &guideScreen{e: e, under: under, field: field}
	g.vp = viewport.New()
	g.SetSize(e.w, e.h)
	return g, loadGuide(e.store, e.lang, field)
}

// loadGuide reads the versions in force (one store call) and builds the
// Markdown shown: the field's section, or the introduction and every
// section. The text is the lead's: it is made inert before glamour sees it.
func loadGuide(s *store.Store, l *lang.Printer, field string) tea.Cmd {
	return func() tea.Msg {
		cur, err := s.CurrentGuidelines()
		if err != nil {
			return guideLoadedMsg{field: field, md: l.Sprintf("The guidelines could not be read: %s", err.Error()), versions: "error"}
		}
		code := l.Code()
		fields := guidelines.Fields()
		if field != "" {
			fields = []string{field}
		}
		var parts, changed, behind []string
		if field == "" {
			parts = append(parts, strings.TrimRight(guidelines.IntroIn(code), "\n"))
		}
		for _, f := range fields {
			v, ok := cur[f]
			if !ok {
				text, _ := guidelines.EmbeddedIn(f, code)
				v = store.GuidelineVersion{Field: f, Version: 1, Text: text, TextFR: text}
			}
			parts = append(parts, strings.TrimRight(guidelines.RenderIn(textsafe.Text(v.TextIn(code)), code), "\n"))
			if l.French() && v.FrenchBehind() {
				behind = append(behind, f)
				if field != "" {
					// The French is older: say so, and give the English in
					// force after it.
					parts = append([]string{"> " + l.Sprintf("The French text of %s dates from version %d; the English text changed at version %d. The English text in force follows the French.", f, v.FrenchOf, v.EnglishOf)}, parts...)
					parts = append(parts, "---", "# "+l.Sprintf("The English text in force (version %d)", v.EnglishOf),
						strings.TrimRight(guidelines.RenderIn(textsafe.Text(v.Text), guidelines.English), "\n"))
				}
			}
			if field != "" {
				changed = append(changed, versionLabel(l, v))
			} else if v.Version > 1 {
				changed = append(changed, f+" "+itoa(v.Version))
			}
		}
		if field == "" && len(behind) > 0 {
			parts = append([]string{"> " + l.Sprintf("The French text of %s is older than its English text (annotate guidelines FIELD --lang en shows the English).", strings.Join(behind, ", "))}, parts...)
		}
		versions := strings.Join(changed, ", ")
		if field == "" {
			versions = l.Sprintf("version %d", 1)
			if len(changed) > 0 {
				versions = l.Sprintf("version 1, but %s", strings.Join(changed, ", "))
			}
		}
		if len(behind) > 0 {
			versions += " · " + l.Sprintf("French older than English")
		}
		return guideLoadedMsg{field: field, md: strings.Join(parts, "\n\n") + "\n", versions: versions}
	}
}

// versionLabel names the version in force of one field: "version 1" (the
// embedded text), "version 2 (lead, 2026-12-02)".
func versionLabel(l *lang.Printer, v store.GuidelineVersion) string {
	if v.Version <= 1 || v.Author == "" {
		return l.Sprintf("version %d", v.Version)
	}
	return l.Sprintf("version %d (%s, %s)", v.Version, textsafe.Text(v.Author), v.CreatedAt[:min(10, len(v.CreatedAt))])
}

func (g *guideScreen) key() string {
	return g.field + "@" + g.versions + "/" + itoa(guideWidth(g.w)) + "/" + g.e.styles.Glamour
}

func (g *guideScreen) SetSize(w, h int) {
	g.w, g.h = w, h
	g.under.SetSize(w, h)
	g.vp.SetWidth(w)
	g.vp.SetHeight(max(1, h-2))
	g.show()
}

// show puts the rendering for the current width in the viewport, if there is one.
func (g *guideScreen) show() {
	k := g.key()
	if text, ok := g.e.guides[k]; ok && k != g.shown {
		g.shown = k
		g.vp.SetContent(text)
	}
}

// render starts rendering for the current width and style unless it is
// done or under way (? pressed over and over starts one rendering).
func (g *guideScreen) render() tea.Cmd {
	if g.md == "" {
		return nil // rendered when the load arrives
	}
	k := g.key()
	if _, ok := g.e.guides[k]; ok || g.w <= 0 {
		g.show()
		return nil
	}
	if g.e.rendering[k] {
		return nil
	}
	g.e.rendering[k] = true
	md, style, width := g.md, g.e.styles.Glamour, guideWidth(g.w)
	return func() tea.Msg {
		out, err := renderMarkdown(md, style, width)
		if err != nil {
			out = md + "\n\n(" + err.Error() + ")"
		}
		return guideRenderedMsg{key: k, text: strings.TrimRight(out, "\n")}
	}
}

func renderMarkdown(md, style string, width int) (string, error) {
	r, err := glamour.NewTermRenderer(glamour.WithStandardStyle(style), glamour.WithWordWrap(width))
	if err != nil {
		return "", err
	}
	return r.Render(reflowLists(md))
}

var listMarker = regexp.MustCompile(`^\s*([-*+]|\d+[.)])\s+`)

// reflowLists joins the continuation lines of list items to their item:
// glamour keeps a list item's source line breaks, which, once it wraps the
// text to the terminal, leaves single words on lines of their own.
func reflowLists(md string) string {
	var out []string
	inFence, inItem := false, false
	for _, l := range strings.Split(md, "\n") {
		t := strings.TrimSpace(l)
		switch {
		case strings.HasPrefix(t, "```") || strings.HasPrefix(t, "~~~"):
			inFence, inItem = !inFence, false
		case inFence:
		case listMarker.MatchString(l):
			inItem = true
		case inItem && t != "" && (l[0] == ' ' || l[0] == '\t') && !strings.HasPrefix(t, "|") && !strings.HasPrefix(t, ">"):
			out[len(out)-1] += " " + t
			continue
		default:
			inItem = false
		}
		out = append(out, l)
	}
	return strings.Join(out, "\n")
}

func (g *guideScreen) Update(msg tea.Msg) (ui.Child, tea.Cmd) {
	km, ok := msg.(tea.KeyPressMsg)
	if !ok {
		var cmds []tea.Cmd
		switch m := msg.(type) {
		case guideRenderedMsg:
			g.show() // the root model has kept it
			return g, nil
		case guideLoadedMsg:
			if m.field == g.field && g.md == "" {
				g.md, g.versions = m.md, m.versions
				return g, g.render()
			}
			return g, nil
		case tea.WindowSizeMsg, tea.BackgroundColorMsg:
			cmds = append(cmds, g.render())
		}
		var cmd tea.Cmd
		g.under, cmd = g.under.Update(msg)
		return g, tea.Batch(append(cmds, cmd)...)
	}
	k := g.e.keys
	switch {
	case keyIs(km, k.Close, k.Quit, k.Help):
		return g.under, nil
	case keyIs(km, k.Up):
		g.vp.ScrollUp(1)
	case keyIs(km, k.Down):
		g.vp.ScrollDown(1)
	case keyIs(km, k.PageUp):
		g.vp.PageUp()
	case keyIs(km, k.PageDown):
		g.vp.PageDown()
	case keyIs(km, k.Top):
		g.vp.GotoTop()
	case keyIs(km, k.Bottom):
		g.vp.GotoBottom()
	default:
		g.ignored = ignoredKey(km)
	}
	return g, nil
}

func (g *guideScreen) View() string {
	st, l := g.e.styles, g.e.lang
	name := l.Field(g.field)
	if name == "" {
		name = l.Sprintf("all fields")
	}
	title := l.Sprintf("Guidelines · %s", name)
	if g.versions != "" {
		title += " · " + g.versions
	}
	body := g.vp.View()
	if g.shown == "" {
		body = st.Dim.Render(ui.Truncate(l.Sprintf("Rendering the guidelines…"), g.w))
	} else if g.vp.TotalLineCount() > g.vp.Height() {
		title += " · " + l.Sprintf("%d%%", int(g.vp.ScrollPercent()*100))
	}
	head := st.Header.Render(ui.PadRight(ui.Truncate(" "+title, g.w), g.w))
	foot := st.Dim.Render(ui.Truncate(l.Sprintf("↑↓ pgup pgdn scroll · esc/q/? close"), g.w))
	if g.ignored != "" {
		foot = st.Warn.Render(ui.Truncate(l.Sprintf("%s ignored while the guidelines are open · esc/q/? close", g.ignored), g.w))
	}
	return head + "\n" + body + "\n" + foot
}
