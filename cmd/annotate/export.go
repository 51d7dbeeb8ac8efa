package main

import (
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"os/signal"
	"runtime/debug"
	"slices"
	"strings"
	"syscall"

	"github.com/annotate-dev/annotate/exporter"
	"github.com/annotate-dev/annotate/schema"
	"github.com/annotate-dev/annotate/store"
	"github.com/spf13/cobra"
)

func init() {
	register(func(g *globals) *cobra.Command {
		var o exporter.Options
		cmd := &cobra.Command{
			Use:   "export --out DIR",
			Short: "Publish the dataset: a Hugging Face folder, the native JSONL files, or CSV tables",
			Long: `export writes the database into a new folder DIR.

--format hf (default): a Hugging Face dataset folder that
datasets.load_dataset(DIR, CONFIG) loads as is: README.md (the dataset card:
YAML header with each config's data files, features and split sizes, then
statistics, label distributions, metrics, agreement, protocol, field
descriptions) and data/CONFIG/SPLIT.parquet (--data-format jsonl: .jsonl),
one config per kind of item the database holds:
  qa            QA pairs with their contexts and the label set's labels
  claims        the claims of the answers, with system predictions
  queries       legal questions (CanLegalRAGBench)
  documents     cases and statutes, with their chunks (ids and byte spans)
  relevance     every relevance judgment: the gold set's (annotator gold),
                each expert's, the adjudicated ones
  qrels_before  the gold set as qrels (query_id, document_id, relevance_grade)
  qrels_after   the gold set plus what the label set judged relevant
  runs          retrieval runs: run, query_id, rank, document_id, chunk_id,
                score (one row per retrieved line)
  answers       answer tasks: the query, the lead's review (reviewed_by),
                the gold answer
  gen_answers   the systems' generated answers
  gen_claims    their atomic claims, the judges' verdicts, the experts' labels
A config with no rows is left out. Every row has the same keys; null means
no label. Closed-value label columns are class_label features: Parquet
stores the code (the value's index in the card's names), JSON Lines the
name. "annotate import DIR" reads every config back, the runs and the
lead's reviews included (qrels_* are derived from relevance and read past).

--format jsonl: a lossless backup, backup.json (the manifest) and
tables/TABLE.jsonl, every row of every table (label events with their times,
sessions, guidelines versions and retractions; batches, notes, flags, runs,
annotators with their rates, the taxonomy…), one JSON object per line.
"annotate import DIR" into a new database restores it: every report reads
the same. --labels-only (or --annotator, --adjudicated) writes the native
import formats instead: items.jsonl (QA pairs with their contexts, claims
and predictions) and labels.jsonl (every current label of every annotator;
adjudicated ones carry "role":"adjudicate"). "annotate import DIR" reads
any of these folders back.

--format csv: qa.csv and claims.csv, flat tables (RFC 4180, UTF-8).

--format label-studio: label-studio/CONFIG.tasks.json for each kind with
fields (qa, claims, queries, relevance, answers, gen_claims: Label Studio
tasks, with one annotation per annotator and one prediction per system,
every result a choice of the config) and the labeling config of each
(CONFIG.config.xml). --email-map FILE gives each annotator's annotations the
e-mail of their Label Studio account (lines "NAME EMAIL"); without it they
have no completed_by and the task's meta names the annotator.

--format prodigy --field FIELD: prodigy/FIELD.jsonl, one line per label of
a field with a closed list of values, as Prodigy stores annotations: an
accept/reject binary task for a two-way field, a choice task (options,
accept) for the others; hashes that keep distinct items apart.

--format trec: trec/runs/RUN.run (each run, "qid Q0 docid rank score tag"),
trec/qrels_before.txt (the gold set) and trec/qrels_after.txt (with the
documents the label set judged relevant), "qid 0 docid rel", for trec_eval,
ir_measures or ranx.

Labels (hf, csv) come from --annotator NAME or --adjudicated; with neither,
from the only human annotator. --all-annotators (hf) adds, for each kind
with labels, a config CONFIG_by_annotator in long format: one row per item
and label set (column annotator: the annotator, or "adjudicated"), every
annotator's labels in one export; with several annotators and no
--annotator or --adjudicated, the other configs then carry no labels. DIR must be new or empty unless --force; the
export is written beside it and moved into place at the end, so a failed or
interrupted export leaves nothing half-written.`,
			Example: `  annotate export --out claimrag-law-hf --annotator jo
  annotate export --out claimrag-law-hf --adjudicated --license cc-by-sa-4.0 --name "ClaimRAG-LAW v2"
  annotate export --out claimrag-law-hf --all-annotators
  annotate export --out firm-hf --annotator jo --license other --license-name firm-data-1.0 --license-link LICENSE
  annotate export --format jsonl --out backup
  annotate export --format jsonl --labels-only --out items-and-labels
  annotate export --format csv --out tables --annotator sam --with-notes
  annotate export --format label-studio --out ls
  annotate export --format label-studio --email-map emails.txt --out ls
  annotate export --format prodigy --field claim_validity --out prodigy
  annotate export --format prodigy --field entailment --out prodigy-nli
  annotate export --format trec --out trec --annotator jo`,
			Args: cobra.NoArgs,
			RunE: func(cmd *cobra.Command, args []string) error {
				// Every export but the backup reads with small page
				// caches: its memory stays the same at any size.
				g.pragmas = exporter.ReadPragmas(o)
				return g.withDB(func(cmd *cobra.Command, args []string, s *store.Store) error {
					// A progress bar only on a terminal: piped or redirected
					// stderr gets no control characters.
					if f := terminalOf(cmd.ErrOrStderr()); f != nil {
						o.Progress = f
					}
					if os.Getenv("GOGC") == "" {
						debug.SetGCPercent(exporter.GCPercent)
					}
					// Ctrl-C, SIGTERM or a closed terminal (SIGHUP) stops the
					// export between two rows; its temporary folder is removed.
					ctx, stop := signal.NotifyContext(cmd.Context(), os.Interrupt, syscall.SIGTERM, syscall.SIGHUP)
					defer stop()
					// The card's contact: --contact, else the name given with
					// --as (not the $USER fallback).
					if f := g.asFlag; o.Contact == "" && o.Format == "hf" && f != nil && f.Changed {
						o.Contact = g.as
					}
					res, err := exporter.Export(ctx, s, o)
					if err != nil {
						return err
					}
					for _, n := range res.Notes {
						fmt.Fprintln(cmd.ErrOrStderr(), "annotate:", n)
					}
					return printExport(cmd, g, res)
				})(cmd, args)
			},
		}
		f := cmd.Flags()
		f.StringVar(&o.Format, "format", "hf", "hf, jsonl, csv, label-studio, prodigy or trec")
		f.StringVar(&o.Field, "field", "", "prodigy: the field to export (e.g. claim_validity, entailment)")
		f.StringVar(&o.EmailMap, "email-map", "", "label-studio: a file of lines \"NAME EMAIL\", the annotators' Label Studio accounts")
		f.StringVar(&o.Out, "out", "", "folder to create (required)")
		f.BoolVar(&o.Force, "force", false, "replace DIR if it is not empty")
		f.StringVar(&o.Split, "split", exporter.DefaultSplit, "hf: split name of the data files")
		f.StringVar(&o.License, "license", exporter.DefaultLicense, "hf: license of the dataset card (a Hub identifier, or other)")
		f.StringVar(&o.LicenseName, "license-name", "", "hf, with --license other: the license's id in the card (license_name)")
		f.StringVar(&o.LicenseLink, "license-link", "", "hf, with --license other: a URL, or LICENSE for a file you add (license_link)")
		f.StringVar(&o.Name, "name", exporter.DefaultName, "hf: pretty_name and title of the dataset card")
		f.StringVar(&o.Contact, "contact", "", "hf: who answers questions about the dataset, in the card (default: the --as name)")
		f.StringVar(&o.Annotator, "annotator", "", "export this annotator's labels (jsonl: only theirs)")
		f.BoolVar(&o.Adjudicated, "adjudicated", false, "export the adjudicated labels (jsonl: only those)")
		f.BoolVar(&o.AllAnnotators, "all-annotators", false, "hf: every label set too, one row per item and annotator (configs CONFIG_by_annotator)")
		f.BoolVar(&o.LabelsOnly, "labels-only", false, "jsonl: the native items.jsonl and labels.jsonl instead of the backup")
		f.BoolVar(&o.WithNotes, "with-notes", false, "hf, csv: add the annotators' notes")
		f.StringVar(&o.DataFormat, "data-format", "", "hf: data files as parquet (default) or jsonl")
		cmd.MarkFlagRequired("out")
		return cmd
	})
}

func printExport(cmd *cobra.Command, g *globals, res exporter.Result) error {
	out := cmd.OutOrStdout()
	if res.Tables != nil {
		return printBackup(cmd, g, res)
	}
	if g.json {
		return json.NewEncoder(out).Encode(map[string]any{
			"dir": res.Dir, "format": res.Format, "files": res.Files, "labels_of": res.LabelSet,
			"qa": res.QA, "claims": res.Claims, "items": res.Items, "label_lines": res.Labels, "languages": res.Languages,
			"cleaned_up": append([]string{}, res.Notes...),
		})
	}
	switch res.Format {
	case "prodigy":
		fmt.Fprintf(out, "exported %d labels of %s to %s: %s\n", res.Labels, res.Field, res.Dir, strings.Join(res.Files, ", "))
		return nil
	case "trec":
		fmt.Fprintf(out, "exported %d runs and the qrels to %s: %s\n", res.Items["runs"], res.Dir, strings.Join(res.Files, ", "))
		return nil
	}
	parts := []string{}
	if res.QA+res.Claims > 0 || len(res.Items) == 0 {
		parts = append(parts, fmt.Sprintf("%d QA pairs", res.QA), fmt.Sprintf("%d claims", res.Claims))
	}
	for _, k := range schema.AllKinds() {
		config := exporter.ConfigOf(k)
		if res.Format == "label-studio" {
			config = exporter.LabelStudioConfigOf(k) // relevance: a task per pooled pair
		}
		if n, ok := res.Items[config]; ok && config != "" {
			parts = append(parts, schema.Count(k, n))
		}
	}
	what := strings.Join(parts[:len(parts)-1], ", ")
	if len(parts) > 1 {
		what += " and "
	}
	what += parts[len(parts)-1]
	switch {
	case res.Format == "jsonl":
		what += fmt.Sprintf(" with %d labels", res.Labels)
		if res.LabelSet != "" {
			what += " of " + res.LabelSet
		}
	case res.LabelSet == "adjudicated":
		what += " with the adjudicated labels"
	case res.LabelSet != "":
		what += " with the labels of " + res.LabelSet
	}
	var long []string // --all-annotators
	for _, config := range slices.Sorted(maps.Keys(res.Items)) {
		if strings.HasSuffix(config, "_by_annotator") {
			long = append(long, fmt.Sprintf("%d rows of %s", res.Items[config], config))
		}
	}
	if len(long) > 0 {
		what += ", and every label set (" + strings.Join(long, ", ") + ")"
	}
	fmt.Fprintf(out, "exported %s to %s: %s\n", what, res.Dir, strings.Join(res.Files, ", "))
	return nil
}

// printBackup says what the backup holds: rows in all, and the main tables.
func printBackup(cmd *cobra.Command, g *globals, res exporter.Result) error {
	out := cmd.OutOrStdout()
	rows := 0
	for _, n := range res.Tables {
		rows += n
	}
	if g.json {
		return json.NewEncoder(out).Encode(map[string]any{
			"dir": res.Dir, "format": res.Format, "backup": true, "files": res.Files,
			"rows": rows, "tables": res.Tables, "cleaned_up": append([]string{}, res.Notes...),
		})
	}
	var parts []string
	for _, t := range []struct{ table, one, many string }{
		{"items", "item", "items"}, {"label_events", "label event", "label events"},
		{"sessions", "session", "sessions"}, {"annotators", "annotator", "annotators"},
		{"batches", "batch", "batches"}, {"notes", "note", "notes"}, {"runs", "run", "runs"},
	} {
		if n := res.Tables[t.table]; n > 0 {
			w := t.many
			if n == 1 {
				w = t.one
			}
			parts = append(parts, fmt.Sprintf("%d %s", n, w))
		}
	}
	what := fmt.Sprintf("%d rows of %d tables", rows, len(res.Tables))
	if len(parts) > 0 {
		what += " (" + strings.Join(parts, ", ") + ")"
	}
	fmt.Fprintf(out, "backed up %s to %s: backup.json and tables/*.jsonl\n", what, res.Dir)
	return nil
}
