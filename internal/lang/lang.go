// Package lang is the language annotate speaks to an annotator: which one
// (English or French, chosen as a terminal user expects: choose.go), and
// the one message catalog every string an annotator reads goes through
// (the screens, their keys' help, the field cards' labels, the errors of
// the commands an annotator runs), built on golang.org/x/text's
// message/catalog so that plurals and numbers follow each language's rules
// (1 élément, 2 éléments; 12,5 %).
//
// The code writes a message in English, as the key of the catalog
// (Printer.Sprintf("%d items", n)); the catalog holds, for each key, its
// English forms (plurals) and its French text. Identifiers stored in the
// database, the JSON and the exports (fields, values) are never
// translated: their labels are (Printer.Field, Printer.Value).
package lang

import (
	"fmt"
	"strings"
)

// The languages annotate speaks, by their ISO 639-1 codes (the codes of
// package guidelines too).
const (
	English = "en"
	French  = "fr"
)

// Codes lists the languages annotate speaks, English first.
func Codes() []string { return []string{English, French} }

// Parse reads a language as a user names it: "en" or "fr", any case, or a
// locale of either ("fr_CA.UTF-8", "fr-FR", "english" is not one). It is
// the check of --lang, of the config file's lang and of annotator set
// --lang.
func Parse(s string) (string, error) {
	if c := FromLocale(s); c != "" && strings.TrimSpace(s) != "" && !posix(s) {
		return c, nil
	}
	return "", fmt.Errorf("%q: want en (English) or fr (French)", s)
}

// FromLocale is the language of a locale name as POSIX systems write it
// (LANG=fr_CA.UTF-8, fr_FR@euro, fr): "fr" for French, "en" for English
// and for the C and POSIX locales, "" for a language annotate does not
// speak or an empty value.
func FromLocale(locale string) string {
	l := strings.TrimSpace(locale)
	if posix(l) {
		return English
	}
	// language[_territory][.codeset][@modifier], or a BCP 47 tag (fr-CA).
	if i := strings.IndexAny(l, "_-.@"); i >= 0 {
		l = l[:i]
	}
	switch strings.ToLower(l) {
	case English:
		return English
	case French:
		return French
	}
	return ""
}

// posix reports whether a locale is the portable one, which is English.
func posix(l string) bool {
	l = strings.TrimSpace(l)
	if i := strings.IndexAny(l, ".@"); i >= 0 {
		l = l[:i]
	}
	return l == "C" || l == "POSIX"
}
