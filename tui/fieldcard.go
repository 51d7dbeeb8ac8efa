package tui

import (
	"strings"

	"github.com/annotate-dev/annotate/schema"

	"github.com/annotate-dev/annotate/tui/internal/ui"
)

// prompts are the questions the field card asks (the guidelines, one key
// away, say how to answer them).
var prompts = map[string]string{} // filled by the kinds' files

// optionKeys is how an option is chosen: "y/1" on two-way fields, else "1".
func optionKeys(f schema.Field, i int) string {
	k := itoa(i + 1)
	if f.TwoWay {
		return []string{"y", "n"}[i] + "/" + k
	}
	return k
}

// card renders the field card: the field, its question and its options with
// their keys, the preselected option marked. compact puts the options on one
// line (for short terminals).
func card(st ui.Styles, field, pre string, w int, compact bool) []string {
	f, ok := schema.Lookup(field)
	if !ok {
		return nil
	}
	bar := st.Card.Render("▌") + " "
	inner := w - 2
	if inner < 1 {
		return []string{ui.Truncate(field, w)}
	}
	head := st.Field.Render(ui.Truncate(field, inner))
	if p := prompts[field]; p != "" && ui.TextWidth(field)+3 < inner {
		head += " " + st.Dim.Render(ui.Truncate(p, inner-ui.TextWidth(field)-1))
	}
	lines := []string{bar + head}
	var opts, plain []string
	for i, v := range f.Values {
		k := "[" + optionKeys(f, i) + "]"
		text := k + " " + v
		styled := st.Key.Render(k) + " " + st.Option.Render(v)
		if v == pre {
			text = "◆ " + text + " (enter)"
			styled = st.Preselect.Render("◆ " + k + " " + v + " (enter)")
		}
		opts = append(opts, styled)
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
		for i, v := range f.Values {
			k := optionKeys(f, i)
			s := k + " " + ui.Truncate(v, max(1, per-ui.TextWidth(k)-1))
			if v == pre {
				s = st.Preselect.Render("◆" + s)
			}
			short = append(short, s)
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
	return []string{bar + st.Field.Render(ui.Truncate("Every field of this item is labelled.", max(1, w-2))),
		bar + ui.TruncateStyled(st.Key.Render("[enter]")+" next item   "+st.Key.Render("[u]")+" undo the last decision", max(1, w-2))}
}

// notAskedCard is the card of an item shown read-only: why it asks the
// annotator nothing.
func notAskedCard(st ui.Styles, why string, w int) []string {
	bar := st.Card.Render("▌") + " "
	return []string{bar + st.Field.Render(ui.Truncate("Not asked: "+why+".", max(1, w-2))),
		bar + ui.TruncateStyled(st.Key.Render("[enter]")+" go on   "+st.Key.Render("[q]")+" home", max(1, w-2))}
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
	for _, f := range schema.Fields(kind) {
		if v := counted[f.Name]; v != "" {
			add(waiting[f.Name], f.Name+" "+ui.SanitizeLine(v))
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
		text = append(text, "⧗ not saved yet: "+strings.Join(unsaved, " · "))
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
