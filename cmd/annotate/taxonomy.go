package main

import (
	"fmt"
	"io"
	"os"
	"sort"
	"strings"

	"github.com/annotate-dev/annotate/internal/smallfile"
	"github.com/annotate-dev/annotate/schema"
	"github.com/annotate-dev/annotate/store"
	"github.com/spf13/cobra"
)

// The error taxonomy of generated claims (--taxonomy FILE, YAML or JSON)
// is kept in the database: given once, with any command that opens it, it
// replaces the taxonomy in force for every later command and every
// annotator's screen (over SSH too). Each command puts the database's
// taxonomy in force (schema.UseTaxonomy) as soon as it opens it, before it
// reads or writes a label.

// taxonomyFlags are the --taxonomy flag and where its warnings go.
var taxonomyFlags struct {
	file string
	warn io.Writer
	// lead checks that the command runs as a lead: changing the taxonomy
	// is the lead's (nil: not checked, as in the tests of the store).
	lead func(*store.Store) error
}

// addTaxonomyFlag adds --taxonomy to the root command.
func addTaxonomyFlag(root *cobra.Command, g *globals) {
	root.PersistentFlags().StringVar(&taxonomyFlags.file, "taxonomy", "",
		"error taxonomy file (YAML or JSON: value, label, group, definition, example) to use from now on in this database; \"default\" goes back to the paper's")
	root.PersistentPreRunE = func(cmd *cobra.Command, args []string) error {
		taxonomyFlags.warn = cmd.ErrOrStderr()
		taxonomyFlags.lead = func(s *store.Store) error {
			_, err := g.needLead(s, "changing the error taxonomy (--taxonomy)")
			return err
		}
		g.cmd = cmd
		if err := g.checkGlobals(cmd); err != nil {
			return err
		}
		return g.checkClosedFlags(cmd)
	}
}

// useTaxonomy stores the --taxonomy file's taxonomy, if given, then puts the
// database's in force.
func useTaxonomy(s *store.Store) error {
	if f := taxonomyFlags.file; f != "" {
		var cats []schema.ErrorKind
		if f != "default" {
			data, err := smallfile.Read(f, schema.MaxTaxonomyFile)
			if err != nil {
				return fmt.Errorf("--taxonomy: %w", err)
			}
			if cats, err = schema.ParseTaxonomy(f, data); err != nil {
				return err
			}
		}
		// The file is checked first (its errors name it), then who
		// changes the database's taxonomy.
		if check := taxonomyFlags.lead; check != nil {
			if err := check(s); err != nil {
				return err
			}
		}
		outside, err := s.SetTaxonomy(cats)
		if err != nil {
			return err
		}
		if len(outside) > 0 && taxonomyFlags.warn != nil {
			var parts []string
			for v, n := range outside {
				parts = append(parts, fmt.Sprintf("%s (%d)", v, n))
			}
			sort.Strings(parts)
			fmt.Fprintf(taxonomyFlags.warn, "annotate: warning: error_category labels use values the taxonomy in force lacks, kept as they are and counted in no group: %s\n",
				strings.Join(parts, ", "))
		}
		taxonomyFlags.file = "" // stored: once is enough
	}
	cats, err := s.Taxonomy()
	if err != nil {
		return err
	}
	schema.UseTaxonomy(cats)
	return nil
}

// openTaxonomy wraps an opened store: the taxonomy is put in force, or the
// store closed and the error returned.
func openTaxonomy(s *store.Store, err error) (*store.Store, error) {
	if err != nil {
		return nil, err
	}
	if err := useTaxonomy(s); err != nil {
		s.Close()
		return nil, err
	}
	return s, nil
}

// guidelinesTaxonomy puts in force the taxonomy the guidelines show: the
// --taxonomy file's (read, not stored: printing guidelines changes no
// database), else the one of the --db database when there is one.
func guidelinesTaxonomy(g *globals) error {
	if f := taxonomyFlags.file; f != "" && f != "default" {
		data, err := smallfile.Read(f, schema.MaxTaxonomyFile)
		if err != nil {
			return fmt.Errorf("--taxonomy: %w", err)
		}
		cats, err := schema.ParseTaxonomy(f, data)
		if err != nil {
			return err
		}
		schema.UseTaxonomy(cats)
		return nil
	}
	if _, err := os.Stat(g.db); err != nil || taxonomyFlags.file == "default" {
		return nil
	}
	s, err := store.Open(g.db)
	if err != nil {
		return nil // the guidelines print without a database
	}
	defer s.Close()
	cats, err := s.Taxonomy()
	if err == nil {
		schema.UseTaxonomy(cats)
	}
	return nil
}
