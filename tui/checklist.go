package tui

import (
	"strconv"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/annotate-dev/annotate/guidelines"
	"github.com/annotate-dev/annotate/internal/lang"
	"github.com/annotate-dev/annotate/schema"

	"github.com/annotate-dev/annotate/tui/internal/ui"
)

// A multi-valued field (a generated claim's error categories) is asked as a
// checklist on the field card: ↑/↓ move, space (or the option's digit)
// checks and unchecks, enter records the checked values as one label (a
// JSON array, in the field's order). The card shows the definition of the
// value under the cursor; ? has them all.

// checklist is the state of the checklist on screen.
type checklist struct {
	field   string
	version int // the item screen's data version it belongs to
	cursor  int
	checked map[string]bool
}

// checklistOf returns the checklist of the field asked, nil when the step
// is not a multi-valued field.
func (s *itemScreen) checklistOf() *checklist {
	if s.at.kind != askField {
		return nil
	}
	f, ok := schema.Lookup(s.at.field)
	if !ok || !f.Multi || len(f.Values) == 0 {
		return nil
	}
	if s.check == nil || s.check.field != f.Name || s.check.version != s.version {
		s.check = &checklist{field: f.Name, version: s.version, checked: map[string]bool{}}
	}
	return s.check
}

// checklistKey handles a key on a checklist step; ok is false for the keys
// the screen handles as usual (undo, skip, note, flag, guidelines, tab…).
func (s *itemScreen) checklistKey(c *checklist, msg tea.KeyPressMsg) (ui.Child, tea.Cmd, bool) {
	k := s.e.keys
	f, _ := schema.Lookup(c.field)
	n := len(f.Values)
	switch {
	case keyIs(msg, k.Check):
		c.toggle(f.Values[c.cursor])
	case !s.pane.Focus && keyIs(msg, k.Up):
		c.cursor = (c.cursor + n - 1) % n
	case !s.pane.Focus && keyIs(msg, k.Down):
		c.cursor = (c.cursor + 1) % n
	case keyIs(msg, k.Pick):
		i, _ := strconv.Atoi(msg.String())
		if i < 1 || i > n {
			s.e.status = s.e.lang.Sprintf("%s has %d values: ↑↓ and space check the others.", s.e.lang.Field(c.field), n)
			return s, nil, true
		}
		c.cursor = i - 1
		c.toggle(f.Values[i-1])
	case keyIs(msg, k.Accept):
		var vals []string
		for _, v := range f.Values {
			if c.checked[v] {
				vals = append(vals, v)
			}
		}
		if len(vals) == 0 {
			s.e.status = s.e.lang.Sprintf("Check at least one category (space), then enter.")
			return s, nil, true
		}
		next, cmd := s.enqueue(s.decisionOp(s.d.ref.ItemID, c.field, schema.EncodeMulti(vals), false))
		return next, cmd, true
	case keyIs(msg, k.Yes, k.No):
		s.e.status = s.e.lang.Sprintf("%s answers no question here: check the categories with space, enter confirms.", msg.String())
		return s, nil, true
	default:
		return nil, nil, false
	}
	return s, nil, true
}

func (c *checklist) toggle(v string) { c.checked[v] = !c.checked[v] }

// groupTag is a short name of a taxonomy group for the checklist ("judge
// error": the judge was wrong, not the judge's verdict).
func groupTag(l *lang.Printer, g string) string {
	switch g {
	case schema.GroupJudgeError:
		return l.Sprintf("judge error")
	case schema.GroupHallucination:
		return l.Sprintf("halluc.")
	case schema.GroupQuality:
		return l.Sprintf("quality")
	}
	return g
}

// checklistCard draws the checklist: the field and its question, the values
// with their boxes and groups (two columns when they fit), and the
// definition of the value under the cursor. compact keeps the rows around
// the cursor only.
func checklistCard(st ui.Styles, c *checklist, w int, compact bool) []string {
	f, _ := schema.Lookup(c.field)
	l := st.Lang
	name := l.Field(c.field)
	bar := st.Card.Render("▌") + " "
	inner := max(1, w-2)
	head := st.Field.Render(ui.Truncate(name, inner))
	q := l.Sprintf("Why? Check every category that applies: space toggles, enter confirms.")
	if ui.TextWidth(name)+3 < inner {
		head += " " + st.Dim.Render(ui.Truncate(q, inner-ui.TextWidth(name)-1))
	}
	groups := map[string]string{}
	defs := map[string]string{}
	for _, k := range guidelines.TaxonomyIn(l.Code()) {
		groups[k.Value], defs[k.Value] = k.Group, k.Definition
	}
	cell := func(i int) (string, int) {
		value := f.Values[i]
		v := l.Value(c.field, value)
		box := "[ ]"
		if c.checked[value] {
			box = "[x]"
		}
		mark := " "
		if i == c.cursor {
			mark = "▸"
		}
		num := "  "
		if i < 9 {
			num = strconv.Itoa(i+1) + " "
		}
		group := groupTag(l, groups[value])
		plain := mark + box + " " + num + v + " (" + group + ")"
		styled := mark + st.Key.Render(box) + " " + num + st.Option.Render(v) + " " + st.Dim.Render("("+group+")")
		if i == c.cursor {
			styled = st.Preselect.Render(plain)
		}
		return styled, ui.TextWidth(plain)
	}
	widest := 0
	for i := range f.Values {
		_, n := cell(i)
		widest = max(widest, n)
	}
	cols := 1
	if 2*widest+3 <= inner {
		cols = 2
	}
	rows := (len(f.Values) + cols - 1) / cols
	var body []string
	for r := 0; r < rows; r++ {
		var line string
		for col := 0; col < cols; col++ {
			i := col*rows + r
			if i >= len(f.Values) {
				break
			}
			styled, n := cell(i)
			if col > 0 {
				line += "   "
			}
			line += styled
			if col < cols-1 {
				line += strings.Repeat(" ", max(0, widest-n))
			}
		}
		body = append(body, bar+ui.TruncateStyled(line, inner))
	}
	if compact && len(body) > 3 {
		r := c.cursor % rows
		from := max(0, min(r-1, len(body)-3))
		body = body[from : from+3]
	}
	var checked []string
	for _, v := range f.Values {
		if c.checked[v] {
			checked = append(checked, l.Value(c.field, v))
		}
	}
	at := f.Values[c.cursor]
	def := "▸ " + l.Sprintf("%s: %s", l.Value(c.field, at), defs[at])
	out := []string{bar + head}
	out = append(out, body...)
	out = append(out, bar+st.Dim.Render(ui.Truncate(def, inner)))
	if !compact {
		sel := l.Sprintf("checked: none yet")
		if len(checked) > 0 {
			sel = l.Sprintf("checked: %s", strings.Join(checked, ", "))
		}
		out = append(out, bar+st.Trail.Render(ui.Truncate(sel, inner)))
	}
	return out
}

// checklistBindings are the help bar's keys on a checklist step.
func checklistBindings(k ui.KeyMap, n int) []key.Binding {
	l := k.Lang()
	return []key.Binding{
		k.Check,
		ui.With(k.Accept, "enter", l.Sprintf("confirm")),
		ui.With(k.Up, "↑↓", l.Sprintf("move")),
		ui.With(k.Pick, "1-"+strconv.Itoa(min(9, n)), l.Sprintf("check")),
	}
}
