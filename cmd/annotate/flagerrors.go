package main

import (
	"errors"
	"fmt"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/annotate-dev/annotate/internal/suggest"
)

// Flag errors in the user's words: a number, a duration or a yes/no that
// does not parse is refused saying what the flag wanted (--size: want a
// whole number of items, got "ten"), never with strconv's text; a value
// left out says what to give; a mistyped flag gets did-you-mean. One
// function for every command (cobra's flag error function).

// flagWants says what a flag that is not text wants, by name, where its
// type alone would say less (a whole number of what).
var flagWants = map[string]string{
	"size":                "a whole number of items (0: every remaining item)",
	"depth":               "a whole number of documents per run and query",
	"queries":             "a whole number of queries (0: every query)",
	"sample":              "a whole number of claims",
	"seed":                "a whole number (any one: the same seed draws the same items)",
	"k":                   "a whole number of documents (the cutoff)",
	"max-connections":     "a whole number of connections",
	"max-unauthenticated": "a whole number of connections",
	"rate":                "an amount per hour, such as 20 or 37.50",
	"session-limit":       "a duration such as 90m, 2h or 1h30m",
	"keepalive":           "a duration such as 30s or 1m",
	"write-timeout":       "a duration such as 30s or 1m",
}

// wantOf is what a flag's value must be, in words ("" : text, or a value
// of its own that says so itself).
func wantOf(f *pflag.Flag) string {
	if w, ok := flagWants[f.Name]; ok {
		return w
	}
	switch f.Value.Type() {
	case "int", "int8", "int16", "int32", "int64", "uint", "uint8", "uint16", "uint32", "uint64", "count":
		return "a whole number"
	case "float32", "float64":
		return "a number"
	case "duration":
		return "a duration such as 90s, 20m or 2h"
	case "bool":
		return "true or false (or the flag alone, for true)"
	}
	return ""
}

// flagErrorInWords is the flag error function of every command.
func flagErrorInWords(cmd *cobra.Command, err error) error {
	var invalid *pflag.InvalidValueError
	if errors.As(err, &invalid) {
		f := invalid.GetFlag()
		if want := wantOf(f); want != "" {
			return fmt.Errorf("--%s: want %s, got %q", f.Name, want, invalid.GetValue())
		}
		return fmt.Errorf("--%s: %v", f.Name, errors.Unwrap(err))
	}
	var missing *pflag.ValueRequiredError
	if errors.As(err, &missing) {
		f := missing.GetFlag()
		want := wantOf(f)
		if want == "" {
			want = "a value (" + f.Usage + ")"
		}
		return fmt.Errorf("--%s needs a value: %s", f.Name, want)
	}
	var unknown *pflag.NotExistError
	if errors.As(err, &unknown) && unknown.GetSpecifiedShortnames() == "" {
		var names []string
		cmd.Flags().VisitAll(func(f *pflag.Flag) {
			if !f.Hidden {
				names = append(names, f.Name)
			}
		})
		typed := unknown.GetSpecifiedName()
		if m := suggest.Close(typed, names, suggest.Edits(typed)); len(m) > 0 {
			for i := range m {
				m[i] = "--" + m[i]
			}
			return fmt.Errorf("unknown flag --%s; did you mean %s? (%s --help lists the flags)", typed, orList(m), cmd.CommandPath())
		}
		return fmt.Errorf("unknown flag --%s (%s --help lists the flags)", typed, cmd.CommandPath())
	}
	return err
}
