package tui

import (
	"strings"

	"github.com/annotate-dev/annotate/internal/lang"
	"github.com/annotate-dev/annotate/schema"

	"github.com/annotate-dev/annotate/tui/internal/ui"
)

// prompts are the questions the field card asks (the guidelines, one key
// away, say how to answer them), catalog keys (lang.Key).
var prompts = map[string]string{} // filled by the kinds' files

// optionKeys is how an option is chosen: "y/1" on two-way fields, else "1".
func optionKeys(f schema.Field, i int) string {
	k := f.KeyOf(i)
	if f.TwoWay {
		return []string{"y", "n"}[i] + "/" + k
	}
	return k
}

// card renders the field card: the field, its question and its options with
// their keys, the preselected option marked; an optional field's card says
// enter passes it (when nothing is preselected). compact puts the options on one
// line (for short terminals).
func card(st ui.Styles, field, pre string, w int, compact bool) []string {
	f, ok := schema.Lookup(field)
	if !ok {
		return nil
	}
	l := st.Lang
	name := l.Field(field)
	bar := st.Card.Render("▌") + " "
	inner := w - 2
	if inner < 1 {
		return []string{ui.Truncate(name, w)}
	}
	head := st.Field.Render(ui.Truncate(name, inner))
	p := l.Question(f) // a declared field's, from its declaration
	if key := prompts[field]; key != "" {
		p = l.Text(key)
	}
	if p != "" && ui.TextWidth(name)+3 < inner {
		head += " " + st.Dim.Render(ui.Truncate(p, inner-ui.TextWidth(name)-1))
	}
	lines := []string{bar + head}
	var opts, plain []string
	for i, value := range f.Values {
		v := l.Value(field, value)
		k := "[" + optionKeys(f, i) + "]"
		shown := v
		if words := l.Words(f, value); words != "" {
			shown = v + ": " + words // a declared value's
		}
		text := k + " " + shown
		styled := st.Key.Render(k) + " " + st.Option.Render(shown)
		if value == pre {
			text = "◆ " + text + " (enter)"
			styled = st.Preselect.Render("◆ " + k + " " + shown + " (enter)")
		}
		opts = append(opts, styled)
		plain = append(plain, text)
	}
	if f.Optional && pre == "" {
		// An optional field: enter leaves it unanswered.
		text := "[enter] " + l.Sprintf("pass (optional)")
		opts = append(opts, st.Key.Render("[enter]")+" "+st.Option.Render(l.Sprintf("pass (optional)")))
		plain = append(plain, text)
	}
	oneLine := strings.Join(plain, "   ")
	if compact || ui.TextWidth(oneLine) <= inner {
		if ui.TextWidth(oneLine) <= inner {
			return append(lines, bar+strings.Join(opts, "   "))
		}
		// Compact and too wide: the keys and the start of each value.
		per := max(4, inner/len(f.Values)-2)
		var short []string
		for i, value := range f.Values {
			k := optionKeys(f, i)
			s := k + " " + ui.Truncate(l.Value(field, value), max(1, per-ui.TextWidth(k)-1))
			if value == pre {
				s = st.Preselect.Render("◆" + s)
			}
			short = append(short, s)
		}
		if f.Optional && pre == "" {
			short = append(short, "enter "+l.Sprintf("pass"))
		}
		return append(lines, bar+ui.TruncateStyled(strings.Join(short, "  "), inner))
	}
	for i, o := range opts {
		if ui.TextWidth(plain[i]) > inner {
			o = ui.TruncateStyled(o, inner)
		}
		lines = append(lines, bar+o)
	}
	return lines
}

// completeCard is shown for an item opened with nothing left to ask.
func completeCard(st ui.Styles, w int) []string {
	bar := st.Card.Render("▌") + " "
	l := st.Lang
	return []string{bar + st.Field.Render(ui.Truncate(l.Sprintf("Every field of this item is labelled."), max(1, w-2))),
		bar + ui.TruncateStyled(st.Key.Render("[enter]")+" "+l.Sprintf("next item")+"   "+st.Key.Render("[u]")+" "+l.Sprintf("undo the last decision"), max(1, w-2))}
}

// notAskedCard is the card of an item shown read-only: why it asks the
// annotator nothing.
func notAskedCard(st ui.Styles, why string, w int) []string {
	bar := st.Card.Render("▌") + " "
	l := st.Lang
	return []string{bar + st.Field.Render(ui.Truncate(l.Sprintf("Not asked: %s.", why), max(1, w-2))),
		bar + ui.TruncateStyled(st.Key.Render("[enter]")+" "+l.Sprintf("go on")+"   "+st.Key.Render("[q]")+" "+l.Sprintf("home"), max(1, w-2))}
}

// trail lists the decisions made on the item, in schema order, at most
// maxLines lines: those saved after ✓, then those waiting to be written
// (waiting, by field; "" for the extra) after "⧗ not saved yet:".
func trail(st ui.Styles, kind schema.Kind, labels map[string]string, waiting map[string]bool, extra []string, w, maxLines int) []string {
	if maxLines <= 0 {
		return nil
	}
	var saved, unsaved []string
	add := func(waits bool, part string) {
		if waits {
			unsaved = append(unsaved, part)
		} else {
			saved = append(saved, part)
		}
	}
	counted := schema.Counted(kind, labels, nil)
	l := st.Lang
	for _, f := range schema.Fields(kind) {
		if v := counted[f.Name]; v != "" {
			add(waiting[f.Name], l.Sprintf("%s %s", l.Field(f.Name), ui.SanitizeLine(valueLabel(l, f, v))))
		}
	}
	for _, x := range extra {
		add(waiting[""], x)
	}
	var text []string
	if len(saved) > 0 {
		text = append(text, "✓ "+strings.Join(saved, " · "))
	}
	if len(unsaved) > 0 {
		text = append(text, "⧗ "+l.Sprintf("not saved yet: %s", strings.Join(unsaved, " · ")))
	}
	if len(text) == 0 {
		return nil
	}
	lines := ui.Wrap(strings.Join(text, " · "), w)
	if len(lines) > maxLines {
		lines = lines[:maxLines]
		lines[maxLines-1] = ui.Truncate(lines[maxLines-1]+" …", w)
	}
	for i := range lines {
		lines[i] = st.Trail.Render(lines[i])
	}
	return lines
}

// valueLabel is a label's value as the screen says it: in English as
// stored; in French a value of the field by its label, several (a
// checklist's JSON list) joined, anything else as it is (free text).
func valueLabel(l *lang.Printer, f schema.Field, v string) string {
	if !l.French() {
		return v
	}
	if f.Multi {
		vals := schema.DecodeMulti(v)
		for i, x := range vals {
			vals[i] = l.Value(f.Name, x)
		}
		return strings.Join(vals, ", ")
	}
	return l.Value(f.Name, v)
}
