package main

import (
	"os"

	"github.com/annotate-dev/annotate/internal/lang"
	"github.com/annotate-dev/annotate/store"
	"github.com/spf13/cobra"
)

// The language annotate speaks to an annotator: the screens, their own
// commands' messages and errors, the guidelines they print. The lead's
// reports stay English (their column names are the papers').

func addLangFlag(root *cobra.Command, g *globals) {
	root.PersistentFlags().StringVar(&g.langFlag, "lang", "",
		"language of the screens and messages: en or fr (else the annotator's own, config lang, the locale)")
}

// language chooses the language for an annotator (who, "" none) of the
// store s (nil: no database open): --lang, their stored preference, the
// config file's lang, the locale, English. It is remembered for the errors
// the command prints.
func (g *globals) language(s *store.Store, who string) string {
	var stored string
	if s != nil && who != "" {
		stored, _ = s.AnnotatorLang(who) // unreadable: as if none
	}
	c := lang.Choice{Flag: g.langFlag, Stored: stored, Env: os.Getenv}
	if g.config != nil {
		c.Config = g.config.Lang
	}
	g.spoken = lang.Choose(c)
	return g.spoken
}

// errorPrinter is the language the command's error is said in: the one
// chosen for the annotator, else what names one without a database.
func (g *globals) errorPrinter() *lang.Printer {
	if g.spoken == "" {
		g.language(nil, "")
	}
	return lang.New(g.spoken)
}
