package main

import (
	"encoding/json"
	"fmt"
	"text/tabwriter"
	"time"

	"github.com/annotate-dev/annotate/store"
	"github.com/spf13/cobra"
)

func init() {
	register(func(g *globals) *cobra.Command {
		var who string
		cmd := &cobra.Command{
			Use:     "progress",
			Short:   "Per annotator and batch: done, remaining, active time, items per hour",
			Example: "  annotate progress\n  annotate progress --annotator jo --json",
			Args:    cobra.NoArgs,
			RunE: g.withDB(func(cmd *cobra.Command, args []string, s *store.Store) error {
				rows, err := s.Progress(who)
				if err != nil {
					return err
				}
				out := cmd.OutOrStdout()
				if g.json {
					type row struct {
						Annotator    string  `json:"annotator"`
						Batch        string  `json:"batch"`
						Kind         string  `json:"kind"`
						Done         int     `json:"done"`
						Remaining    int     `json:"remaining"`
						Total        int     `json:"total"`
						ActiveSec    float64 `json:"active_seconds"`
						ItemsPerHour float64 `json:"items_per_hour"`
						MedianSec    float64 `json:"median_seconds_per_item"`
					}
					js := []row{}
					for _, p := range rows {
						js = append(js, row{p.Annotator, p.Batch, p.Kind, p.Done, p.Remaining(), p.Total,
							float64(p.ActiveMs) / 1000, p.ItemsPerHour(), float64(p.MedianMs) / 1000})
					}
					return json.NewEncoder(out).Encode(js)
				}
				if len(rows) == 0 {
					fmt.Fprintln(out, "no annotators yet")
					return nil
				}
				tw := tabwriter.NewWriter(out, 0, 0, 2, ' ', tabwriter.AlignRight)
				fmt.Fprintln(tw, "ANNOTATOR\tQUEUE\tKIND\tDONE\tREMAINING\tACTIVE\tITEMS/H\tMEDIAN S/ITEM\t")
				for _, p := range rows {
					queue := p.Batch
					if queue == "" {
						queue = "(all items)"
					}
					fmt.Fprintf(tw, "%s\t%s\t%s\t%d\t%d\t%s\t%.1f\t%.1f\t\n", p.Annotator, queue, p.Kind, p.Done, p.Remaining(),
						(time.Duration(p.ActiveMs) * time.Millisecond).Round(time.Second), p.ItemsPerHour(), float64(p.MedianMs)/1000)
				}
				return tw.Flush()
			}),
		}
		cmd.Flags().StringVar(&who, "annotator", "", "only this annotator")
		return cmd
	})
}
