package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strings"

	"github.com/annotate-dev/annotate/importer"
	"github.com/annotate-dev/annotate/store"
	"github.com/spf13/cobra"
)

func init() {
	register(func(g *globals) *cobra.Command {
		var opt importer.Options
		cmd := &cobra.Command{
			Use:   "import FILE...",
			Short: "Import items and labels (native JSONL, labels JSONL, ClaimRAG-LAW, RefChecker, RAGChecker, exported folder)",
			Long: `Import QA pairs, claims and labels. The format of each file is detected from
the keys that define it; a file that fits no format, or several, is refused
with the formats it resembles: --format says which. One invocation is one
transaction: any error leaves the database unchanged (and a database this
import would have created is not left behind). Re-importing an identical
item is a no-op; a changed item with an existing id is an error unless
--update. Files are read as streams: memory does not grow with their size.
On a terminal, progress shows on stderr; --json prints the summary as JSON.`,
			Example: `  annotate import gdpr.jsonl civil.jsonl
  annotate import --annotator sam labels-sam.jsonl
  annotate import GDPR-RAG-LAW.json GDPR-CLAIM-LAW.json
  annotate import dolly_gpt4_answers.json nq_gpt4_answers.json
  annotate import --json checking_outputs.json
  annotate import --format trec-run bm25.run
  annotate import --format qrels gold.qrels
  annotate import runs/bm25_okapi_recursive_4096/results/query_results.jsonl`,
			Args: cobra.MinimumNArgs(1),
			RunE: func(cmd *cobra.Command, args []string) error {
				// A progress line only on a terminal: piped or redirected
				// stderr gets no control characters.
				// stderr is behind the sanitiser: terminalOf looks through it
				// (the line prints counts and phase names, no data string).
				if f := terminalOf(cmd.ErrOrStderr()); f != nil {
					opt.Progress = f
				}
				sum, err := importInto(g.db, args, opt, func(s *store.Store) func() { return g.sayWaiting(cmd, s) })
				if err != nil {
					return err
				}
				return printImport(cmd, g, sum)
			},
		}
		cmd.Flags().StringVar(&opt.Format, "format", "", "force a format: "+strings.Join(importer.Formats, ", "))
		cmd.Flags().BoolVar(&opt.Update, "update", false, "replace items whose content changed")
		cmd.Flags().StringVar(&opt.Annotator, "annotator", "", "annotator of labels that do not name one (ClaimRAG-LAW default: claimrag-expert; qrels: gold; CanLegalRAGBench queries.json answers: canlegalragbench)")
		cmd.Flags().StringVar(&opt.EmailMap, "email-map", "", "--format label-studio: a file of lines \"NAME EMAIL\": an annotation by that e-mail is NAME's")
		cmd.Flags().StringVar(&opt.Field, "field", "", "--format prodigy: the field the answers are about (default: each line's meta.field, else \"label\")")
		cmd.Flags().StringVar(&opt.Run, "run", "", "the run's name instead of the file's tag column (trec-run) or its experiment folder (canlegalragbench-run)")
		cmd.Flags().StringVar(&opt.Source, "source", "", "RAGChecker: the source (dataset) of the results, shared by its systems' files (default: the file's name)")
		cmd.Flags().StringVar(&opt.System, "system", "", "the system of the answers: RAGChecker responses (default: the file's name); CanLegalRAGBench generated answers (default: the rows' generator)")
		cmd.Flags().StringVar(&opt.Condition, "condition", "", "CanLegalRAGBench generated answers: oracle or pipeline instead of the rows' condition")
		return cmd
	})
}

// importInto imports into the database at path, creating it when it does
// not exist; when the import fails, a database it created is removed with
// its -wal and -shm files, so a failed first import leaves nothing behind.
func importInto(path string, files []string, opt importer.Options, waiting func(*store.Store) func()) (importer.Summary, error) {
	_, statErr := os.Lstat(path)
	created := errors.Is(statErr, fs.ErrNotExist)
	s, err := openTaxonomy(store.Open(path))
	if err != nil {
		if created {
			removeDB(path)
		}
		if dbErr := store.ExplainError(path, err); dbErr != nil {
			return importer.Summary{}, dbErr
		}
		return importer.Summary{}, err
	}
	// Another import in progress is waited for, and said so. Who waits for
	// this one is told it is an import: it records itself (store.Import).
	var sum importer.Summary
	err = s.Retry(context.Background(), waiting(s), func() (err error) {
		sum, err = importer.Import(s, files, opt)
		return err
	})
	if cerr := s.Close(); err == nil && cerr != nil {
		err = store.ExplainError(path, cerr)
		if err == nil {
			err = cerr
		}
	}
	if err != nil && created {
		removeDB(path)
	}
	return sum, err
}

func removeDB(path string) {
	for _, suffix := range []string{"", "-wal", "-shm", "-journal"} {
		os.Remove(path + suffix)
	}
}

func printImport(cmd *cobra.Command, g *globals, sum importer.Summary) error {
	out := cmd.OutOrStdout()
	if !g.json {
		// The counts are the result (stdout); the warnings, the last lines
		// of the summary, go to stderr.
		ws := sum.Warnings()
		text := strings.TrimRight(strings.TrimSuffix(sum.String(), strings.Join(ws, "\n")), "\n")
		if text != "" {
			fmt.Fprintln(out, text)
		}
		for _, w := range ws {
			fmt.Fprintln(cmd.ErrOrStderr(), "annotate: "+w)
		}
		return nil
	}
	t := sum.Total()
	warnings := []string{}
	for _, w := range sum.Warnings() {
		warnings = append(warnings, strings.TrimPrefix(w, "warning: "))
	}
	if sum.Backup != nil {
		return json.NewEncoder(out).Encode(map[string]any{
			"backup": sum.Backup, "nothing_changed": sum.NoOp(), "warnings": warnings,
		})
	}
	return json.NewEncoder(out).Encode(map[string]any{
		"files":           sum.Files,
		"total":           map[string]any{"qa": t.QA, "claims": t.Claims, "labels_added": t.LabelsAdded, "labels_unchanged": t.LabelsUnchanged},
		"nothing_changed": sum.NoOp(),
		"warnings":        warnings,
	})
}
