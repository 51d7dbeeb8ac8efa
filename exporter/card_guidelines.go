package exporter

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/annotate-dev/annotate/guidelines"
)

// guidelinesUsed lists, in the card, the versions of the guidelines the
// labels were made under, field by field: each field's guidelines have
// versions of their own, the lead's edits after the text annotate ships
// (version 1), so a reader can tell which labels followed which rules.
func (c *card) guidelinesUsed(b *strings.Builder) {
	if len(c.rep.guides) == 0 {
		b.WriteString("Guidelines versions of the labels: not recorded.\n\n")
		return
	}
	fmt.Fprintf(b, "The labels were made under these versions of the annotation guidelines. Each field's guidelines are versioned on their own; "+
		"version 1 is the text annotate ships (%s), later versions are the lead's changes, and each label records the version of its field in force when it was made.\n\n",
		guidelines.Version)
	b.WriteString("| field | guidelines version | by | date | labels |\n|---|---|---|---|---:|\n")
	for _, u := range c.rep.guides {
		version, by, date := u.Version, u.Author, day(u.CreatedAt)
		_, numbered := strconv.Atoi(version)
		switch {
		case version == "":
			version, by, date = "not recorded", "—", "—"
		case numbered != nil:
			// labels made before the guidelines were kept in the database
			version, by, date = "annotate "+version+" (release)", "—", "—"
		case strings.HasPrefix(u.Source, "embedded "):
			by = "annotate (embedded " + strings.TrimPrefix(u.Source, "embedded ") + ")"
		}
		fmt.Fprintf(b, "| %s | %s | %s | %s | %d |\n", cellCode(u.Field), cell(version), cell(by), cell(date), u.Labels)
	}
	b.WriteString("\n")
}
