package guidelines

import "strings"

// The embedded guidelines whole, a section at a time, as the tests read
// them: the program reads the versions its database holds (seeded from
// Embedded), and composes what it shows from IntroIn, EmbeddedIn and
// RenderIn.

// Intro returns the introduction: what the items are, the fields and keys,
// and the general principles.
func Intro() string { return IntroIn(English) }

// Section returns the Markdown guidelines of one field. The name is matched
// case-insensitively, with spaces and hyphens read as underscores. An unknown
// field gives an error that lists the known ones.
func Section(field string) (string, error) { return SectionIn(field, English) }

// SectionIn is the section of one field in a language, matched as Section
// matches it: the language's text, rendered in that language, or the
// English one for a language the guidelines are not written in.
func SectionIn(field, lang string) (string, error) {
	name, err := Lookup(field)
	if err != nil {
		return "", err
	}
	return RenderIn(raw(lang, name), lang), nil
}

// All returns the introduction followed by every field's section, in order.
func All() string { return AllIn(English) }

// AllIn is All in a language (English for one the guidelines are not
// written in).
func AllIn(lang string) string {
	parts := []string{IntroIn(lang)}
	for _, f := range Fields() {
		parts = append(parts, RenderIn(raw(lang, f), lang))
	}
	for i := range parts {
		parts[i] = strings.TrimRight(parts[i], "\n")
	}
	return strings.Join(parts, "\n\n") + "\n"
}

// Render is RenderIn in English.
func Render(section string) string { return RenderIn(section, English) }
