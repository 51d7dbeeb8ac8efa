package main

import (
	"slices"
	"testing"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// freeText are the flags whose value is the user's own text (a path, a
// new name, a label for the card), which nothing can be refused against.
var freeText = []string{"db", "as", "color", "taxonomy", "currency", "role", "out", "name", "contact", "split",
	"authorized-keys", "host-key", "listen", "email-map", "license-name", "license-link"}

// Every flag of every command says what it wants when its value is wrong:
// a number, a duration or a yes/no in words (wantOf), a closed set or a
// name through valueSets (with did-you-mean), or it is free text. A new
// flag that takes a name fails here until it says which names.
func TestEveryFlagSaysWhatItWants(t *testing.T) {
	root, g := newRoot()
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		c.LocalFlags().VisitAll(func(f *pflag.Flag) {
			typ := f.Value.Type()
			_, named := g.valueSetOf(c, f.Name)
			switch {
			case typ == "string" || typ == "stringSlice":
				if !named && !slices.Contains(freeText, f.Name) {
					t.Errorf("%s --%s: a text flag neither in valueSets nor free text", c.CommandPath(), f.Name)
				}
			case wantOf(f) == "":
				t.Errorf("%s --%s (%s): wantOf says nothing", c.CommandPath(), f.Name, typ)
			}
		})
		for _, s := range c.Commands() {
			walk(s)
		}
	}
	walk(root)
}
