// Package guidelines holds the annotation guidelines of annotate, written for
// this tool from the ClaimRAG-LAW manual-validation protocol, as embedded
// Markdown: an introduction and one section per labelled field.
//
// Every label records Version, so that labels given under different
// guidelines can be told apart. Version must change whenever the meaning of
// the guidelines changes (a new rule, a changed decision, a changed
// definition or value); pure typo or layout fixes may keep it.
package guidelines

import (
	"embed"
	"fmt"
	"strings"

	"github.com/annotate-dev/annotate/schema"
)

// Version identifies the guidelines in force; every label records it.
// Format: the date of the change, a dot, and a counter for that day.
// Change it whenever the meaning of any section changes.
const Version = "2026-12-01.1"

//go:embed md/*.md
var files embed.FS

// Fields returns the names of the sections, in the order they are asked:
// each kind's fields, then its own steps (schema.GuidelineSections), so a
// kind's sections come with the kind. Each needs its file md/NAME.md.
func Fields() []string { return schema.GuidelineSections() }

// Intro returns the introduction: what the items are, the fields and keys,
// and the general principles.
func Intro() string {
	return strings.ReplaceAll(read("intro"), "{{VERSION}}", Version)
}

// Section returns the Markdown guidelines of one field. The name is matched
// case-insensitively, with spaces and hyphens read as underscores. An unknown
// field gives an error that lists the known ones.
func Section(field string) (string, error) {
	name := normalize(field)
	fields := Fields()
	for _, f := range fields {
		if f == name {
			return read(f), nil
		}
	}
	return "", fmt.Errorf("guidelines: unknown field %q (known fields: %s)",
		field, strings.Join(fields, ", "))
}

// All returns the introduction followed by every field's section, in order.
func All() string {
	parts := []string{Intro()}
	for _, f := range Fields() {
		parts = append(parts, read(f))
	}
	for i := range parts {
		parts[i] = strings.TrimRight(parts[i], "\n")
	}
	return strings.Join(parts, "\n\n") + "\n"
}

func read(name string) string {
	b, err := files.ReadFile("md/" + name + ".md")
	if err != nil {
		// The files are embedded at build time; a missing one is a bug.
		panic("guidelines: missing embedded file md/" + name + ".md")
	}
	return strings.ReplaceAll(string(b), "{{TAXONOMY}}", taxonomyTable())
}

// taxonomyTable renders the error taxonomy in force (the default one, or
// the lead's --taxonomy) for the error_category section: the checklist's
// keys, each value with its group, definition and example.
func taxonomyTable() string {
	var b strings.Builder
	b.WriteString("| key | value | group | definition |\n|---|---|---|---|\n")
	for i, c := range schema.Taxonomy() {
		k := "—"
		if i < 9 {
			k = fmt.Sprintf("`%d`", i+1)
		}
		def := c.Definition
		if c.Label != "" && c.Label != c.Value {
			def = "**" + c.Label + ".** " + def
		}
		if c.Example != "" {
			def += " *Example:* " + c.Example
		}
		fmt.Fprintf(&b, "| %s | `%s` | %s | %s |\n", k, c.Value, c.Group, strings.ReplaceAll(strings.ReplaceAll(def, "|", "\\|"), "\n", " "))
	}
	return strings.TrimRight(b.String(), "\n")
}

func normalize(s string) string {
	s = strings.ToLower(strings.TrimSpace(s))
	return strings.NewReplacer(" ", "_", "-", "_").Replace(s)
}
