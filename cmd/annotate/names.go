package main

import (
	"fmt"
	"strings"
	"unicode"

	"github.com/annotate-dev/annotate/internal/lang"
	"github.com/annotate-dev/annotate/internal/names"
	"github.com/annotate-dev/annotate/internal/suggest"
	"github.com/annotate-dev/annotate/internal/textsafe"
)

// checkName refuses a name the commands would store and print back: empty
// or blank, or holding a control character, a bidirectional control or a
// comma (lists of names are comma-separated). what names the flag or
// argument, e.g. "--assign".
func checkName(what, name string) error {
	if strings.TrimSpace(name) == "" {
		return lang.Errorf("%s: a name cannot be empty or blank", what)
	}
	for _, r := range name {
		switch {
		case r == ',':
			return lang.Errorf("%s %q: a name cannot hold a comma", what, name)
		case unicode.IsControl(r) || textsafe.IsBidiControl(r):
			return lang.Errorf("%s %q: a name cannot hold control characters", what, name)
		}
	}
	return nil
}

// checkAnnotator holds an annotator's name to the one rule of names
// (package names); what names the flag or argument, e.g. "--as".
func checkAnnotator(what, name string) error {
	if err := names.Check(name); err != nil {
		return lang.Errorf("%s: %w", what, err)
	}
	return nil
}

// parseAnnotators is parseNames for a list of annotators (--assign): each
// holds to the rule of names.
func parseAnnotators(flag, list string) ([]string, error) {
	out, err := parseNames(flag, list)
	if err != nil {
		return nil, err
	}
	for _, n := range out {
		if err := checkAnnotator(flag, n); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// parseNames splits a comma-separated list of names, trimming the spaces
// around each, and refuses an empty entry, an invalid name or a name given
// twice.
func parseNames(flag, list string) ([]string, error) {
	var names []string
	seen := map[string]bool{}
	for i, n := range strings.Split(list, ",") {
		n = strings.TrimSpace(n)
		if n == "" {
			return nil, fmt.Errorf("%s %q: name %d is empty", flag, list, i+1)
		}
		if err := checkName(flag, n); err != nil {
			return nil, err
		}
		if seen[n] {
			return nil, fmt.Errorf("%s %q: %s is listed twice", flag, list, n)
		}
		seen[n] = true
		names = append(names, n)
	}
	return names, nil
}

// notFoundError says a name is unknown, with the close ones or the list,
// in the reader's language (lang.Errorf: said when printed).
func notFoundError(what, typed string, known []string) error {
	var msg lang.Sayer = lang.Phrase("no %s %q", what, typed)
	whats := lang.Sayer(lang.Phrase("%ss", what))
	if strings.HasSuffix(what, "ch") {
		whats = lang.Phrase("%ses", what)
	}
	if n, ok := notFoundNames[what]; ok {
		msg, whats = lang.Phrase(n[0], typed), lang.Phrase(n[1])
	}
	if m := suggest.Close(typed, known, suggest.Edits(typed)); len(m) > 0 {
		return lang.Errorf("%s; did you mean %s?", msg, lang.OrList(quoteAll(m)))
	}
	if len(known) == 0 {
		return lang.Errorf("%s (there is none yet)", msg)
	}
	if len(known) > 12 {
		return lang.Errorf("%s (%d %s, e.g. %s)", msg, len(known), whats, strings.Join(known[:12], ", "))
	}
	return lang.Errorf("%s (%s: %s)", msg, whats, strings.Join(known, ", "))
}

// notFoundNames say "no batch %q" and "batches" of each thing a name may
// name, as the catalog holds them (each language its own gender and
// plural).
var notFoundNames = map[string][2]string{
	"annotator": {lang.Key("no annotator %q"), lang.Key("annotators")},
	"batch":     {lang.Key("no batch %q"), lang.Key("batches")},
	"system":    {lang.Key("no system %q"), lang.Key("systems")},
	"run":       {lang.Key("no run %q"), lang.Key("runs")},
	"source":    {lang.Key("no source %q"), lang.Key("sources")},
	"field":     {lang.Key("no field %q"), lang.Key("fields")},
	"judge":     {lang.Key("no judge %q"), lang.Key("judges")},
	"condition": {lang.Key("no condition %q"), lang.Key("conditions")},
	"extractor": {lang.Key("no extractor %q"), lang.Key("extractors")},
}
