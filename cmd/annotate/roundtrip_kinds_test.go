package main

import (
	"bytes"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/annotate-dev/annotate/schema"
	"github.com/annotate-dev/annotate/store"
)

// repoFile is a file of the repository (the demo, other packages' test
// data), from this package's folder.
func repoFile(parts ...string) string { return filepath.Join(append([]string{"..", ".."}, parts...)...) }

// kindDB builds a database of one kind of data (and the items it needs):
// the commands it runs, then what it records through the store (labels made
// on the screens).
type kindDB struct {
	name     string
	commands [][]string
	labels   func(t *testing.T, s *store.Store)
	// exports are the --annotator (or --adjudicated) flags of each hf folder
	// written: one folder per label set; nil: one folder, no flag.
	exports [][]string
	// reports are the report commands that apply, compared as they print
	// (stdout, and the error when they fail: those that fail before the
	// round trip start with "!").
	reports [][]string
}

// Every single-kind database round trips through the hf folder: export
// --format hf (one folder per label set), import the folders into an empty
// database, and every report that applies prints the same JSON, run as a
// user runs it (without --annotator when one label set exists).
func TestEveryKindRoundTripsThroughHF(t *testing.T) {
	for _, k := range roundTripKinds() {
		t.Run(k.name, func(t *testing.T) {
			dir := t.TempDir()
			src := filepath.Join(dir, "src.db")
			for _, c := range k.commands {
				if out, err := execute(t, append([]string{"--db", src}, c...)...); err != nil {
					t.Fatalf("%v: %v\n%s", c, err, out)
				}
			}
			if k.labels != nil {
				s, err := store.Open(src)
				if err != nil {
					t.Fatal(err)
				}
				k.labels(t, s)
				s.Close()
			}
			exports := k.exports
			if exports == nil {
				exports = [][]string{nil}
			}
			var folders []string
			for i, flags := range exports {
				out := filepath.Join(dir, fmt.Sprint("hf", i))
				args := append([]string{"--db", src, "export", "--format", "hf", "--out", out}, flags...)
				if msg, err := execute(t, args...); err != nil {
					t.Fatalf("%v: %v\n%s", args, err, msg)
				}
				folders = append(folders, out)
			}
			back := filepath.Join(dir, "back.db")
			if msg, err := execute(t, append([]string{"--db", back, "import"}, folders...)...); err != nil {
				t.Fatalf("re-import: %v\n%s", err, msg)
			}
			for _, r := range k.reports {
				fails := r[0] == "!"
				if fails {
					r = r[1:]
				}
				want, got := printed(t, src, r), printed(t, back, r)
				if fails != strings.HasPrefix(want, "error: ") {
					t.Errorf("%s before the round trip: %s", strings.Join(r, " "), want)
				}
				if got != want {
					t.Errorf("%s after the round trip:\n%s", strings.Join(r, " "), firstDifference(got, want))
				}
			}
		})
	}
}

// printed is what a report command prints with --json: its stdout, or its
// error.
func printed(t *testing.T, db string, args []string) string {
	t.Helper()
	var out, errOut bytes.Buffer
	err := runSafely(append([]string{"--db", db}, append(args, "--json")...), &out, &errOut)
	if err != nil {
		return "error: " + errOut.String()
	}
	return out.String()
}

func firstDifference(got, want string) string {
	i := 0
	for i < len(got) && i < len(want) && got[i] == want[i] {
		i++
	}
	from := max(0, i-200)
	return fmt.Sprintf("from byte %d:\n got …%s\nwant …%s", i, got[from:min(len(got), i+200)], want[from:min(len(want), i+200)])
}

// record makes labels as the screens do, in one session per annotator.
func record(t *testing.T, s *store.Store, who string, labels ...[3]string) {
	t.Helper()
	sess, err := s.StartSession(who, "local")
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range labels {
		ref, err := s.Resolve(l[0])
		if err != nil {
			t.Fatal(err)
		}
		if _, err := s.RecordLabel(store.Label{Annotator: who, ItemID: ref.ItemID, Field: l[1], Value: l[2], ActiveMs: 3000, SessionID: sess.ID}); err != nil {
			t.Fatal(err)
		}
	}
}

func roundTripKinds() []kindDB {
	ir := func(f string) string { return repoFile("report", "testdata", "ir", f) }
	return []kindDB{
		{
			name:     "qa pairs with claims",
			commands: [][]string{{"import", repoFile("demo", "demo.jsonl")}},
			labels: func(t *testing.T, s *store.Store) {
				for _, who := range []string{"jo", "sam"} {
					v := map[string]string{"jo": "correct", "sam": "partially_correct"}[who]
					record(t, s, who,
						[3]string{"gdpr-001", schema.QuestionValidity, "valid"}, [3]string{"gdpr-001", schema.Category, "factual_recall"},
						[3]string{"gdpr-001", schema.Persona, "citizen"}, [3]string{"gdpr-001", schema.AnswerCorrectness, v},
						[3]string{"gdpr-001-c1", schema.ClaimValidity, "correct"}, [3]string{"gdpr-001-c1", schema.Entailment, "entailment"},
						[3]string{"gdpr-001-c2", schema.ClaimValidity, "correct"}, [3]string{"gdpr-001-c2", schema.Entailment, map[string]string{"jo": "neutral", "sam": "entailment"}[who]},
						[3]string{"gdpr-002", schema.QuestionValidity, "invalid"}, [3]string{"gdpr-002", schema.InvalidReason, "domain"})
				}
			},
			exports: [][]string{{"--annotator", "jo"}, {"--annotator", "sam"}},
			reports: [][]string{{"stats", "--annotator", "jo"}, {"stats", "--annotator", "sam"}, {"metrics", "--annotator", "jo"},
				{"metrics", "--annotator", "sam"}, {"agreement"}, {"!", "stats"}},
		},
		{
			name: "refchecker data",
			commands: [][]string{{"import", repoFile("report", "testdata", "refchecker", "nq_gpt4_answers.json"),
				repoFile("report", "testdata", "extractors", "empty_extraction.json"), repoFile("report", "testdata", "extractors", "two_extractors.json")}},
			reports: [][]string{{"stats"}, {"metrics", "--system", "nli"}, {"metrics", "--system", "nli", "--extractor", "gpt4"}, {"!", "agreement"}},
		},
		{
			name:     "ragchecker data with its matrices",
			commands: [][]string{{"import", repoFile("importer", "testdata", "ragchecker_checking_outputs.json")}},
			reports:  [][]string{{"rag"}, {"stats"}, {"metrics", "--system", "ragchecker"}},
		},
		{
			name: "queries, relevance and runs",
			commands: [][]string{{"import", ir("items.jsonl")}, {"import", "--format", "trec-run", ir("runs.run")},
				{"import", "--format", "qrels", ir("gold.qrels")},
				{"annotator", "set", "lead", "--role", "lead"},
				{"--as", "lead", "batch", "create", "pool", "--kind", "relevance", "--runs", "alpha,beta", "--depth", "10", "--seed", "3", "--assign", "jo"}},
			labels: func(t *testing.T, s *store.Store) {
				record(t, s, "jo", [3]string{"qA/d07", schema.Relevance, schema.Relevant},
					[3]string{"qA/d06", schema.Relevance, schema.NotRelevant}, [3]string{"qA/d06", schema.IrrelevanceReason, "different_issue"},
					[3]string{"qC/d03", schema.Relevance, schema.Relevant})
			},
			reports: [][]string{{"stats"}, {"ir", "--k", "10"}, {"ir", "--k", "5", "--definitions", "canlegalragbench"}, {"!", "agreement"}},
		},
	}
}
