package adjudicate

import (
	"strings"

	"charm.land/bubbles/v2/key"
	"github.com/charmbracelet/x/ansi"

	"github.com/annotate-dev/annotate/internal/lang"
	"github.com/annotate-dev/annotate/schema"
	"github.com/annotate-dev/annotate/store"

	"github.com/annotate-dev/annotate/tui/internal/ui"
)

// The adjudication screen's rendering: header, the item, one row per
// annotator, the context pane, the decision card, status and help.

func (a *adjScreen) bindings() []key.Binding {
	k, l := a.e.keys, a.e.say()
	if a.confirm {
		return []key.Binding{ui.With(k.Yes, "y", l.Sprintf("accept")), ui.With(k.No, "n/esc", l.Sprintf("cancel"))}
	}
	var out []key.Binding
	if u := a.unit(); u != nil && u.State != store.UnitMoot {
		if f, _ := schema.Lookup(u.Field); f.TwoWay {
			out = append(out, ui.With(k.Pick, "y/n/1-2", l.Sprintf("final label")))
		} else {
			out = append(out, ui.With(k.Pick, "1-"+itoa(len(f.Values)), l.Sprintf("final label")))
		}
	}
	out = append(out, k.Undo)
	if a.rev != nil && a.rev.Ready > 0 {
		out = append(out, k.AcceptAll)
	}
	if a.rev != nil && a.rev.ReadySingle > a.rev.Ready {
		out = append(out, k.AcceptSingle)
	}
	return append(out, ui.With(k.Prev, "←/→", l.Sprintf("browse")), k.Skip, k.Flag, k.Note, k.Focus, k.Mode, k.Help, k.Quit)
}

func (a *adjScreen) View() string {
	e, st, l := a.e, a.e.styles, a.e.say()
	w := a.w
	f := ui.Frame{Header: a.header(w), Bottom: e.bottom(a.bindings(), w)}
	switch {
	case a.loadErr != nil:
		f.Top = ui.Message(st, l.Sprintf("Could not load the review: %s", a.loadErr.Error()), w, true)
	case a.rev == nil:
		f.Top = ui.Message(st, l.Sprintf("Loading the disagreements…"), w, false)
	case a.unit() == nil:
		f.Top = a.summary(w)
	case a.detailErr != nil:
		f.Top = ui.Message(st, l.Sprintf("Could not load %s: %s", a.unit().ExtID, a.detailErr.Error()), w, true)
	case !a.ready():
		f.Top = ui.Message(st, l.Sprintf("Loading %s…", a.unit().ExtID), w, false)
	default:
		d := a.detail
		f.Top = itemTop(st, d, w)
		f.Mid = a.labelRows(w)
		f.Pane = func(w int) []string { return itemPane(st, d, w) }
		f.PaneKey = itoa(int(d.ItemID)) + "/" + itoa(e.styleGen)
		f.PaneTitle = paneTitleOf(st, d)
		f.Card = a.card(w)
	}
	switch {
	case a.confirm && a.confirmSingle:
		f.Card = confirmCard(st, l.Sprintf("Accept %d labels (agreements and single labels) as your adjudication, in one go?", a.rev.ReadySingle), w)
	case a.confirm:
		f.Card = confirmCard(st, l.Sprintf("Accept %d agreeing labels as your adjudication, in one go?", a.rev.Ready), w)
	}
	return a.p.Render(st, f, w, a.h)
}

// header: the field, k of n within it, its counts, the agreements.
func (a *adjScreen) header(w int) string {
	l := a.e.say()
	ps := []ui.Piece{{Text: l.Sprintf("Review")}}
	if a.rev != nil {
		field := "" // on the summary: every field
		if u := a.unit(); u != nil {
			field = u.Field
			k, n := 0, 0
			for i, x := range a.rev.Units {
				if x.Field == field {
					n++
					if i <= a.idx {
						k++
					}
				}
			}
			ps = append(ps, ui.Piece{Text: l.Field(field)}, ui.Piece{Text: l.Sprintf("%d of %d", k, n)})
		}
		pending, done, moot := a.rev.Counts(field)
		ps = append(ps, ui.Piece{Text: l.Sprintf("%d done, %d to do", done, pending), Optional: true})
		if n := a.rev.Singles(field); n > 0 {
			ps = append(ps, ui.Piece{Text: l.Sprintf("%d single", n), Optional: true})
		}
		if moot > 0 {
			ps = append(ps, ui.Piece{Text: l.Sprintf("%d not asked", moot), Optional: true})
		}
		if a.rev.Agreeing > 0 {
			ps = append(ps, ui.Piece{Text: l.Sprintf("%d agree", a.rev.Agreeing), Optional: true})
		}
	}
	return ui.Header(a.e.styles, ps, l.Sprintf("as %s", a.e.lead), w)
}

// labelRows shows each annotator's label with its key, why there is none
// (no label, or not asked given their own labels), their flag and note;
// then the adjudicated label and the lead's own note.
func (a *adjScreen) labelRows(w int) []string {
	st, u, d, l := a.e.styles, a.unit(), a.detail, a.e.say()
	f, _ := schema.Lookup(u.Field)
	nameW := 0
	for _, n := range a.rev.Annotators {
		nameW = max(nameW, ui.TextWidth(ui.SanitizeLine(n)))
	}
	nameW = min(nameW, max(4, w/4))
	var out []string
	for _, n := range a.rev.Annotators {
		line := st.Label.Render(ui.PadRight(ui.SanitizeLine(n), nameW)) + "  "
		if v, ok := u.Labels[n]; ok {
			line += st.Key.Render("["+optionKey(f, v)+"]") + " " + st.Text.Render(ui.SanitizeLine(l.Value(f.Name, v)))
		} else {
			line += st.Dim.Render("— " + absentReason(l, f, d.Labels[n]))
		}
		if d.Flagged[n] {
			line += "  " + st.Flag.Render("⚑")
		}
		if note := d.Notes[n]; note != "" {
			line += "  " + st.Dim.Render("✎ "+ui.SanitizeLine(note))
		}
		out = append(out, ui.TruncateStyled(line, w))
	}
	switch {
	case u.State == store.UnitMoot:
		out = append(out, st.Dim.Render(ui.Truncate(l.Sprintf("Not asked given the adjudicated labels (%s)", trailOf(l, schema.Kind(u.Kind), d.Final, f.Name)), w)))
	case u.Own && !a.e.allowOwn:
		out = append(out, st.Dim.Render(ui.Truncate(l.Sprintf("Your own unit: you labelled it, so another lead decides it (--allow-own decides it anyway)"), w)))
	case u.Final != "":
		out = append(out, st.Trail.Render(ui.Truncate("✓ "+l.Sprintf("final: [%s] %s (adjudicated; a key revises it)", optionKey(f, u.Final), ui.SanitizeLine(l.Value(f.Name, u.Final))), w)))
	case u.Single:
		out = append(out, st.Dim.Render(ui.Truncate(l.Sprintf("Single label: the other annotators were not asked, by their own labels (S accepts the single labels that are ready)"), w)))
	case u.FollowUp:
		out = append(out, st.Dim.Render(ui.Truncate(l.Sprintf("Asked given the adjudicated labels (%s)", trailOf(l, schema.Kind(u.Kind), d.Final, f.Name)), w)))
	}
	return append(out, leadMarks(st, d, w)...)
}

// absentReason says why an annotator has no label that counts.
func absentReason(l *lang.Printer, f schema.Field, labels map[string]string) string {
	why := l.Sprintf("no label")
	if labels[f.Name] != "" {
		why = l.Sprintf("not asked given their labels")
	}
	if t := trailOf(l, f.Kind, labels, f.Name); t != "" {
		why += " (" + t + ")"
	}
	return why
}

// trailOf lists the counted labels of the fields before field, "a x · b y".
func trailOf(l *lang.Printer, k schema.Kind, labels map[string]string, field string) string {
	counted := schema.Counted(k, labels, nil)
	var parts []string
	for _, f := range schema.Fields(k) {
		if f.Name == field {
			break
		}
		if v := counted[f.Name]; v != "" {
			parts = append(parts, l.Sprintf("%s %s", l.Field(f.Name), ui.SanitizeLine(l.Value(f.Name, v))))
		}
	}
	return strings.Join(parts, " · ")
}

// optionKey is the key that picks value: "2", or "n/2" on a two-way field;
// "?" for a value outside the schema.
func optionKey(f schema.Field, value string) string {
	for i, v := range f.Values {
		if v == value {
			if f.TwoWay {
				return []string{"y", "n"}[i] + "/" + itoa(i+1)
			}
			return itoa(i + 1)
		}
	}
	return "?"
}

// card is the decision: the field and its values with their keys (a
// declared value with its words), each followed by who chose it; the
// adjudicated one marked.
func (a *adjScreen) card(w int) []string {
	st, u, l := a.e.styles, a.unit(), a.e.say()
	f, _ := schema.Lookup(u.Field)
	bar := st.Card.Render("▌") + " "
	inner := max(1, w-2)
	name := l.Field(f.Name)
	head := st.Field.Render(ui.Truncate(name, inner))
	prompt := l.Sprintf("pick the final label")
	switch {
	case u.State == store.UnitMoot:
		prompt = l.Sprintf("not asked: nothing to decide (→ next)")
	case u.Final != "":
		prompt = l.Sprintf("adjudicated; a key revises it")
	}
	if ui.TextWidth(name)+3 < inner {
		head += " " + st.Dim.Render(ui.Truncate(prompt, inner-ui.TextWidth(name)-1))
	}
	var opts []string
	for _, v := range f.Values {
		var who []string
		for _, n := range a.rev.Annotators {
			if u.Labels[n] == v {
				who = append(who, ui.SanitizeLine(n))
			}
		}
		label := l.Value(f.Name, v)
		if words := l.Words(f, v); words != "" {
			label += ": " + ui.SanitizeLine(words) // a declared value's
		}
		o := st.Key.Render("["+optionKey(f, v)+"]") + " " + st.Option.Render(label)
		if v == u.Final {
			o = st.Preselect.Render("◆ [" + optionKey(f, v) + "] " + label)
		}
		if len(who) > 0 {
			o += st.Dim.Render(" · " + strings.Join(who, ", "))
		}
		if g := generatedOf(a.detail, f.Name); g != "" && v == g {
			o += st.Dim.Render(" " + l.Sprintf("(generated)"))
		}
		opts = append(opts, o)
	}
	out := []string{bar + head}
	for _, l := range flow(opts, "   ", inner) {
		out = append(out, bar+l)
	}
	return out
}

// flow puts styled options on as few lines of width w as it can, never
// splitting one (one too wide alone is cut).
func flow(opts []string, sep string, w int) []string {
	var out []string
	line := ""
	for _, o := range opts {
		switch {
		case line == "":
			line = o
		case ansi.StringWidth(line+sep+o) <= w:
			line += sep + o
		default:
			out = append(out, ui.TruncateStyled(line, w))
			line = o
		}
	}
	return append(out, ui.TruncateStyled(line, w))
}

// confirmCard asks a yes/no question in place of the decision card.
func confirmCard(st ui.Styles, question string, w int) []string {
	bar := st.Card.Render("▌") + " "
	inner := max(1, w-2)
	return []string{bar + st.Field.Render(ui.Truncate(question, inner)),
		bar + ui.TruncateStyled(st.Key.Render("[y]")+" "+st.Lang.Sprintf("yes")+"   "+st.Key.Render("[n]")+" "+st.Lang.Sprintf("no"), inner)}
}

// summary is shown when no unit waits for a decision.
func (a *adjScreen) summary(w int) []string {
	st, rev, l := a.e.styles, a.rev, a.e.say()
	var out []string
	pending, done, moot := rev.Counts("")
	title := l.Sprintf("No disagreement between %s.", strings.Join(rev.Annotators, ", "))
	if len(rev.Units) > 0 {
		title = l.Sprintf("Every disagreement is adjudicated (%d done).", done)
		if moot > 0 {
			title = l.Sprintf("Every disagreement is adjudicated (%d done, %d not asked).", done, moot)
		}
	}
	if pending > 0 {
		title = l.Sprintf("%d units wait for a decision.", pending)
		if n := rev.Singles(""); n > 0 {
			title = l.Sprintf("%d units wait for a decision, %d of them with a single label.", pending, n)
		}
	}
	out = append(out, ui.Message(st, title, w, false)...)
	for _, f := range schema.AllFields() {
		p, d, m := rev.Counts(f.Name)
		if p+d+m == 0 {
			continue
		}
		out = append(out, ui.Truncate("  "+ui.PadRight(l.Field(f.Name), 20)+" "+l.Sprintf("%d done, %d to do", d, p), w))
	}
	out = append(out, "")
	switch {
	case rev.Ready > 0:
		out = append(out, ui.Message(st, l.Sprintf("%d agreements can be accepted as adjudicated: press A.", rev.Ready), w, false)...)
	}
	if n := rev.ReadySingle - rev.Ready; n > 0 {
		out = append(out, ui.Message(st, l.Sprintf("%d single labels can be accepted as adjudicated too: press S.", n), w, false)...)
	}
	switch {
	case rev.Ready > 0:
	case rev.Agreeing > 0:
		out = append(out, ui.Message(st, l.Sprintf("%d agreements wait for the adjudication of a field they depend on.", rev.Agreeing), w, false)...)
	case rev.Accepted > 0:
		out = append(out, ui.Message(st, l.Sprintf("Every agreement is accepted (%d).", rev.Accepted), w, false)...)
	}
	return append(out, ui.Message(st, l.Sprintf("← → browse the decided units · u undoes your last adjudication · v system view"), w, false)...)
}

// leadMarks is the line that shows the lead's own flag and note on the item
// (none when there are neither), on the adjudication and the system view.
func leadMarks(st ui.Styles, d *store.AdjudicationDetail, w int) []string {
	if !d.LeadFlagged && d.LeadNote == "" {
		return nil
	}
	mine := st.Lang.Sprintf("you:")
	if d.LeadFlagged {
		mine += " ⚑ " + st.Lang.Sprintf("flagged")
	}
	if d.LeadNote != "" {
		mine += " ✎ " + ui.SanitizeLine(d.LeadNote)
	}
	return []string{st.Flag.Render(ui.Truncate(mine, w))}
}
