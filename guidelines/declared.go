package guidelines

import (
	"strings"

	"github.com/annotate-dev/annotate/schema"
)

// DeclaredSection is the guidelines section of a declared field, as the
// database keeps it (version 1, or the next version when a declaration
// changes it): headed like every section ("## FIELD — question"), the
// lead's text, then the values with their keys, labels and meanings, so
// the guidelines a screen shows on ? say what each key means.
func DeclaredSection(d schema.Declaration) string { return declaredSection(d, English) }

// DeclaredSectionFR is the section in French, from the declaration's
// French texts (a text it does not give is the English one); "" when the
// declaration gives none.
func DeclaredSectionFR(d schema.Declaration) string {
	if d.French == nil {
		return ""
	}
	return declaredSection(d, French)
}

func declaredSection(d schema.Declaration, lang string) string {
	fr := lang == French
	pick := func(en, frText string) string {
		if fr && frText != "" {
			return frText
		}
		return en
	}
	var b strings.Builder
	question, text := d.Question, d.Guidelines
	if fr {
		question, text = pick(question, d.French.Question), pick(text, d.French.Guidelines)
	}
	b.WriteString("## " + d.Field + " — " + question + "\n\n")
	b.WriteString(strings.TrimSpace(text) + "\n")
	if len(d.Values) > 0 {
		b.WriteString(map[bool]string{false: "\n### Values\n\n", true: "\n### Valeurs\n\n"}[fr])
		if d.Scale == schema.Ordinal || d.Scale == schema.Interval {
			if fr {
				b.WriteString("De la plus basse à la plus haute (échelle " + map[schema.Level]string{schema.Ordinal: "ordinale", schema.Interval: "d'intervalle"}[d.Scale] + ").\n\n")
			} else {
				b.WriteString("From the lowest to the highest (" + string(d.Scale) + " scale).\n\n")
			}
		}
		for _, v := range d.Values {
			label, meaning := v.Label, v.Meaning
			if fr {
				label, meaning = pick(label, d.French.LabelOf(v.Value)), pick(meaning, d.French.MeaningOf(v.Value))
			}
			line := "- `" + v.Key + "` **" + v.Value + "**"
			if label != "" {
				line += ": " + label
			}
			if meaning != "" {
				line += ". " + meaning
			}
			b.WriteString(line + "\n")
		}
	}
	return b.String()
}
