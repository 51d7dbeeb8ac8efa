package main

import (
	"fmt"
	"strings"

	"github.com/annotate-dev/annotate/guidelines"
	"github.com/annotate-dev/annotate/importer"
	"github.com/spf13/cobra"
)

func init() {
	register(func(g *globals) *cobra.Command {
		var opt importer.Options
		cmd := &cobra.Command{
			Use:   "import FILE...",
			Short: "Import items and labels (native JSONL, labels JSONL, ClaimRAG-LAW, RefChecker, exported folder)",
			Long: `Import QA pairs, claims and labels. The format of each file is detected from
its content; --format forces one. One invocation is one transaction: any
error leaves the database unchanged. Re-importing an identical item is a
no-op; a changed item with an existing id is an error unless --update.`,
			Example: `  annotate import gdpr.jsonl civil.jsonl
  annotate import --annotator sam labels-sam.jsonl
  annotate import GDPR-RAG-LAW.json GDPR-CLAIM-LAW.json
  annotate import dolly_gpt4_answers.json nq_gpt4_answers.json`,
			Args: cobra.MinimumNArgs(1),
			RunE: func(cmd *cobra.Command, args []string) error {
				s, err := g.open()
				if err != nil {
					return err
				}
				defer s.Close()
				opt.GuidelinesVersion = guidelines.Version
				sum, err := importer.Import(s, args, opt)
				if err != nil {
					return err
				}
				fmt.Fprintln(cmd.OutOrStdout(), strings.TrimRight(sum.String(), "\n"))
				return nil
			},
		}
		cmd.Flags().StringVar(&opt.Format, "format", "", "force a format: native, labels, claimrag, refchecker-checker, ragchecker, refchecker-human, hf")
		cmd.Flags().BoolVar(&opt.Update, "update", false, "replace items whose content changed")
		cmd.Flags().StringVar(&opt.Annotator, "annotator", "", "annotator of labels that do not name one (ClaimRAG-LAW default: claimrag-expert)")
		return cmd
	})
}
