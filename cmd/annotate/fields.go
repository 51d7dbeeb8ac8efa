package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"text/tabwriter"

	"github.com/annotate-dev/annotate/internal/suggest"
	"github.com/annotate-dev/annotate/schema"
	"github.com/annotate-dev/annotate/store"
	"github.com/spf13/cobra"
)

// annotate fields: the fields a lead declares in a file (docs/fields.md).
// The file is read against the schema in force in the database, so a field
// may be asked after another declared one.

func init() {
	register(func(g *globals) *cobra.Command {
		cmd := &cobra.Command{
			Use:   "fields",
			Short: "Declare a field of a kind in a YAML file; list the declared fields and their versions",
			Long: `fields adds a field to a kind without changing annotate: its question,
its scale and values, where it is asked and its guidelines, in a YAML file
(docs/fields.md). Once added, the field is asked on its kind's screen, counted,
compared in agreement and exported like the built-in fields. Adding the
file again after a change records the field's next version; a change that
would leave stored labels without a value of the field is refused.`,
			Example: "  annotate fields add docs/example/citation_accuracy.yaml --as lead\n  annotate fields list\n  annotate fields history citation_accuracy",
			Args:    cobra.NoArgs,
			RunE:    func(cmd *cobra.Command, args []string) error { return cmd.Help() },
		}
		cmd.AddCommand(newFieldsAddCmd(g), newFieldsListCmd(g), newFieldsHistoryCmd(g))
		return cmd
	})
}

func newFieldsAddCmd(g *globals) *cobra.Command {
	return &cobra.Command{
		Use:   "add FILE.yaml",
		Short: "Declare a field (or its next version) from a YAML file",
		Long: `add reads a field's declaration and records it, with you (--as, the
lead) as its author: the field's first version, or its next one when the
file changes what the field's current version says (the same file again
records nothing). Its guidelines become the field's guidelines, versioned
like every field's. Nothing is recorded when the file has an error: the
message names the file, the line and the key.`,
		Example: "  annotate fields add citation_accuracy.yaml --as lead",
		Args:    cobra.ExactArgs(1),
		RunE: g.withDB(func(cmd *cobra.Command, args []string, s *store.Store) error {
			author, err := g.needLead(s, "annotate fields add")
			if err != nil {
				return err
			}
			path := args[0]
			data, err := readFieldFile(path)
			if err != nil {
				return err
			}
			d, err := schema.ParseDeclaration(path, data)
			if err != nil {
				return err
			}
			f, changed, err := s.DeclareField(author, filepath.Base(path), string(data), d)
			if err != nil {
				return err
			}
			out := cmd.OutOrStdout()
			if g.json {
				return writeJSON(out, map[string]any{"field": f, "changed": changed})
			}
			if !changed {
				fmt.Fprintf(out, "%s: unchanged, still version %d\n", f.Field, f.Version)
				return nil
			}
			fmt.Fprintf(out, "%s: version %d on %s by %s (%s); guidelines version %d\n",
				f.Field, f.Version, f.Kind, f.Author, strings.Join(f.Changes, ", "), f.GuidelinesVersion)
			return nil
		}),
	}
}

// readFieldFile reads a declaration, refusing what is no file of one.
func readFieldFile(path string) ([]byte, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return nil, fmt.Errorf("%s: no such file", path)
	}
	if !fi.Mode().IsRegular() {
		return nil, fmt.Errorf("%s: not a file", path)
	}
	if fi.Size() > schema.MaxFieldFile {
		return nil, fmt.Errorf("%s: %d bytes, a field's declaration has at most %d", path, fi.Size(), schema.MaxFieldFile)
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return io.ReadAll(io.LimitReader(f, schema.MaxFieldFile+1))
}

func newFieldsListCmd(g *globals) *cobra.Command {
	return &cobra.Command{
		Use:     "list",
		Short:   "List the declared fields: kind, scale, values, where asked, version",
		Example: "  annotate fields list\n  annotate fields list --json",
		Args:    cobra.NoArgs,
		RunE: g.withDB(func(cmd *cobra.Command, args []string, s *store.Store) error {
			fs, err := s.DeclaredFields()
			if err != nil {
				return err
			}
			out := cmd.OutOrStdout()
			if g.json {
				type listed struct {
					store.DeclaredField
					Declaration schema.Declaration `json:"declaration"`
				}
				rows := []listed{}
				for _, f := range fs {
					rows = append(rows, listed{f, f.Declaration})
				}
				return writeJSON(out, map[string]any{"fields": rows})
			}
			if len(fs) == 0 {
				fmt.Fprintln(out, "No declared field (annotate fields add FILE.yaml declares one).")
				return nil
			}
			tw := tabwriter.NewWriter(out, 0, 0, 2, ' ', 0)
			fmt.Fprintln(tw, "field\tkind\tscale\tvalues\tasked\trequired\tversion")
			for _, f := range fs {
				d := f.Declaration
				fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%d\n", f.Field, f.Kind, d.Scale, strings.Join(d.ValueNames(), ", "),
					d.AskedText(), map[bool]string{true: "yes", false: "no"}[d.Required], f.Version)
			}
			return tw.Flush()
		}),
	}
}

func newFieldsHistoryCmd(g *globals) *cobra.Command {
	return &cobra.Command{
		Use:     "history [FIELD]",
		Short:   "List every version of the declared fields (of one, or all) with author, time and what changed",
		Example: "  annotate fields history\n  annotate fields history citation_accuracy --json",
		Args:    cobra.MaximumNArgs(1),
		RunE: g.withDB(func(cmd *cobra.Command, args []string, s *store.Store) error {
			field := ""
			if len(args) == 1 {
				field = args[0]
				if f, ok := schema.Lookup(field); !ok || f.Declared == 0 {
					var names []string
					for _, d := range schema.InForce() {
						names = append(names, d.Field)
					}
					return fmt.Errorf("fields history: %q is no declared field%s (declared: %s)", field, suggest.Hint(field, names), orNone(names))
				}
			}
			h, err := s.FieldHistory(field)
			if err != nil {
				return err
			}
			out := cmd.OutOrStdout()
			if g.json {
				if h == nil {
					h = []store.DeclaredField{}
				}
				return writeJSON(out, map[string]any{"versions": h})
			}
			tw := tabwriter.NewWriter(out, 0, 0, 2, ' ', 0)
			fmt.Fprintln(tw, "field\tversion\tauthor\ttime (UTC)\tfile\tguidelines\tchanges")
			for _, v := range h {
				fmt.Fprintf(tw, "%s\t%d\t%s\t%s\t%s\t%d\t%s\n", v.Field, v.Version, v.Author, minute(v.CreatedAt), v.Source, v.GuidelinesVersion, strings.Join(v.Changes, ", "))
			}
			return tw.Flush()
		}),
	}
}

func orNone(names []string) string {
	if len(names) == 0 {
		return "none"
	}
	return strings.Join(names, ", ")
}
