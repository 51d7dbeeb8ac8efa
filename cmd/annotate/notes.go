package main

import (
	"encoding/json"
	"fmt"
	"slices"

	"github.com/annotate-dev/annotate/internal/lang"
	"github.com/annotate-dev/annotate/store"
	"github.com/spf13/cobra"
)

func init() {
	register(func(g *globals) *cobra.Command {
		var batch string
		cmd := &cobra.Command{
			Use:     "notes",
			Short:   "Flagged items and notes, grouped by field, for the pilot's feedback meeting",
			Example: "  annotate notes --batch pilot\n  annotate notes --json",
			Args:    cobra.NoArgs,
			RunE: g.withDB(func(cmd *cobra.Command, args []string, s *store.Store) error {
				if batch != "" {
					if err := checkBatch(s, batch); err != nil {
						return err
					}
				}
				notes, err := s.Notes(batch)
				if err != nil {
					return err
				}
				out := cmd.OutOrStdout()
				l := lang.New(g.language(s, g.as))
				if g.json {
					type row struct {
						Field     string `json:"field"`
						Item      string `json:"item"`
						Kind      string `json:"kind"`
						Annotator string `json:"annotator"`
						Flagged   bool   `json:"flagged"`
						Note      string `json:"note"`
						At        string `json:"at"`
					}
					rows := []row{}
					for _, n := range notes {
						rows = append(rows, row{n.Field, n.ItemExtID, n.Kind, n.Annotator, n.Flagged, n.Text, n.CreatedAt})
					}
					return json.NewEncoder(out).Encode(rows)
				}
				if len(notes) == 0 {
					fmt.Fprintln(out, l.Sprintf("no notes or flags"))
					return nil
				}
				field := "\x00"
				for _, n := range notes {
					if n.Field != field {
						field = n.Field
						title := field
						switch {
						case title == "":
							title = l.Sprintf("(the item as a whole)")
						case l.French():
							title = l.Field(field) + " (" + field + ")"
						}
						if field != notes[0].Field {
							fmt.Fprintln(out) // a blank line between fields
						}
						fmt.Fprintf(out, "## %s\n", title)
					}
					mark := " "
					if n.Flagged {
						mark = "⚑"
					}
					fmt.Fprintf(out, "%s %-22s %-10s %s\n", mark, n.ItemExtID, n.Annotator, n.Text)
				}
				return nil
			}),
		}
		cmd.Flags().StringVar(&batch, "batch", "", "only items of this batch")
		return cmd
	})
}

// checkBatch refuses a batch name that is not in the database.
func checkBatch(s *store.Store, name string) error {
	bs, err := s.Batches()
	if err != nil {
		return err
	}
	names := make([]string, len(bs))
	for i, b := range bs {
		names[i] = b.Name
	}
	if !slices.Contains(names, name) {
		return notFoundError("batch", name, names)
	}
	return nil
}
