// Package guidelines holds the annotation guidelines of annotate, written for
// this tool from the ClaimRAG-LAW manual-validation protocol, as embedded
// Markdown: an introduction and one section per labelled field, in English
// (md/) and in French (md/fr/, lang.go), and reads the guidelines files the
// lead imports (parse.go).
//
// The embedded sections are version 1 of each field in every database; the
// database keeps the lead's later versions (store/guidelines.go), and every
// label records the version of its field in force. Version names this
// build's embedded text: it must change whenever the meaning of a section
// changes (a new rule, a changed decision, definition or value); pure typo
// or layout fixes may keep it.
package guidelines

import (
	"embed"
	"fmt"
	"slices"
	"strings"

	"github.com/annotate-dev/annotate/internal/suggest"
	"github.com/annotate-dev/annotate/schema"
)

// Version identifies the embedded guidelines; a database notes it with the
// version 1 it seeded. Format: the date of the change, a dot, and a counter
// for that day. Change it whenever the meaning of any section changes.
const Version = "2026-12-02.1"

//go:embed md/*.md md/fr/*.md
var files embed.FS

// Fields returns the names of the sections, in the order they are asked:
// each kind's fields, then its own steps (schema.GuidelineSections), so a
// kind's sections come with the kind. Each needs its file md/NAME.md.
func Fields() []string { return schema.GuidelineSections() }

// steps are the sections that are not one field of the schema but a step of
// the flow (a kind's own step): each covers the marker fields the step
// writes, so their labels keep its version.
var steps = []struct {
	name, after string
	markers     []string
}{
	{name: "missed_claims", after: "entailment", markers: []string{"missed_claims_checked", "claim_added"}},
}

// SectionOf names the section whose version a label of the field records:
// the field's own, or the step's for a marker a step writes; false for a
// field with no section (an imported grade).
func SectionOf(field string) (string, bool) {
	for _, st := range steps {
		if slices.Contains(st.markers, field) {
			return st.name, true
		}
	}
	if slices.Contains(Fields(), field) {
		return field, true
	}
	return "", false
}

// IntroIn is the introduction in a language (English for one the
// guidelines are not written in).
func IntroIn(lang string) string {
	return strings.ReplaceAll(raw(lang, "intro"), "{{VERSION}}", Version)
}

// Lookup gives the canonical name of a field that has a section, matched
// case-insensitively, with spaces and hyphens read as underscores, or an
// error that lists the known ones.
func Lookup(field string) (string, error) {
	name := normalize(field)
	if slices.Contains(Fields(), name) {
		return name, nil
	}
	return "", fmt.Errorf("guidelines: unknown field %q%s (known fields: %s)",
		field, suggest.Hint(name, Fields()), strings.Join(Fields(), ", "))
}

// Embedded returns the section of a field as this build embeds it, before
// RenderIn: version 1 of the field in every database.
func Embedded(field string) (string, bool) { return EmbeddedIn(field, English) }

// EmbeddedIn is the section of a field as this build embeds it in a
// language, before RenderIn; false when there is none in that language (a
// language the guidelines are not written in).
func EmbeddedIn(field, lang string) (string, bool) {
	if !Written(lang) {
		return "", false
	}
	b, err := files.ReadFile(dir(lang) + field + ".md")
	return string(b), err == nil
}

// raw is an embedded file in a language, else the English one; a missing
// one is a field of the schema without guidelines, which
// TestEveryFieldHasGuidelines refuses (and TestEveryEnglishFileHasItsFrench
// a French file missing).
func raw(lang, name string) string {
	if s, ok := EmbeddedIn(name, lang); ok {
		return s
	}
	if s, ok := Embedded(name); ok {
		return s
	}
	return "## " + name + "\n\n" + words(lang).none + "\n"
}

// RenderIn fills in what a section's text leaves to the build: the error
// taxonomy in force where it says {{TAXONOMY}}, its table headed in lang and
// its default categories described in it. Stored versions keep the
// placeholder, so a section follows the lead's --taxonomy.
func RenderIn(section, lang string) string {
	return strings.ReplaceAll(section, "{{TAXONOMY}}", taxonomyTable(lang))
}

// taxonomyTable renders the error taxonomy in force (the default one, or
// the lead's --taxonomy) for the error_category section: the checklist's
// keys, each value with its group, definition and example. A category of
// the lead's own is shown as the lead wrote it, in any language.
func taxonomyTable(lang string) string {
	w := words(lang)
	var b strings.Builder
	b.WriteString(w.taxonomyHead + "\n|---|---|---|---|\n")
	for i, c := range schema.Taxonomy() {
		c = translated(c, lang)
		k := "—"
		if i < 9 {
			k = fmt.Sprintf("`%d`", i+1)
		}
		def := c.Definition
		if c.Label != "" && c.Label != c.Value {
			def = "**" + c.Label + ".** " + def
		}
		if c.Example != "" {
			def += " *" + w.example + "* " + c.Example
		}
		fmt.Fprintf(&b, "| %s | `%s` | %s | %s |\n", k, c.Value, c.Group, strings.ReplaceAll(strings.ReplaceAll(def, "|", "\\|"), "\n", " "))
	}
	return strings.TrimRight(b.String(), "\n")
}

func normalize(s string) string {
	s = strings.ToLower(strings.TrimSpace(s))
	return strings.NewReplacer(" ", "_", "-", "_").Replace(s)
}
