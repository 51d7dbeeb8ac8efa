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
func DeclaredSection(d schema.Declaration) string {
	var b strings.Builder
	b.WriteString("## " + d.Field + " — " + d.Question + "\n\n")
	b.WriteString(strings.TrimSpace(d.Guidelines) + "\n")
	if len(d.Values) > 0 {
		b.WriteString("\n### Values\n\n")
		if d.Scale == schema.Ordinal || d.Scale == schema.Interval {
			b.WriteString("From the lowest to the highest (" + string(d.Scale) + " scale).\n\n")
		}
		for _, v := range d.Values {
			line := "- `" + v.Key + "` **" + v.Value + "**"
			if v.Label != "" {
				line += ": " + v.Label
			}
			if v.Meaning != "" {
				line += ". " + v.Meaning
			}
			b.WriteString(line + "\n")
		}
	}
	return b.String()
}
