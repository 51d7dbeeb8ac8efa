package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/annotate-dev/annotate/schema"
	"github.com/annotate-dev/annotate/store"
)

// repoFile is a file of the repository (the demo, other packages' test
// data), from this package's folder.
func repoFile(parts ...string) string {
	return filepath.Join(append([]string{"..", ".."}, parts...)...)
}

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
// user runs it (without --annotator when one label set exists). One key is
// left out of the comparison, by design: not_asked counts the labels that
// no longer count (a claim labelled before its answer was judged not
// correct), which the hf folder does not publish (the jsonl backup keeps
// them).
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
	var v any
	if json.Unmarshal(out.Bytes(), &v) != nil {
		t.Fatalf("%v: not JSON:\n%s", args, out.String())
	}
	b, _ := json.Marshal(withoutKey(v, "not_asked"))
	return string(b)
}

func withoutKey(v any, key string) any {
	switch x := v.(type) {
	case map[string]any:
		delete(x, key)
		for k, e := range x {
			x[k] = withoutKey(e, key)
		}
	case []any:
		for i, e := range x {
			x[i] = withoutKey(e, key)
		}
	}
	return v
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
	clrb := func(f string) string { return repoFile("report", "testdata", "irclrb", f) }
	release := func(f ...string) string {
		return repoFile(append([]string{"report", "testdata", "clrbrelease"}, f...)...)
	}
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
				repoFile("report", "testdata", "extractors", "empty_extraction.json"), repoFile("report", "testdata", "extractors", "two_extractors.json"),
				repoFile("report", "testdata", "extractors", "found_nothing.json")}},
			reports: [][]string{{"stats"}, {"metrics", "--system", "nli"}, {"metrics", "--system", "nli", "--extractor", "gpt4"},
				{"metrics", "--system", "nli", "--extractor", "claude2"}, {"!", "metrics", "--system", "chk", "--extractor", "gpt4"}, {"!", "agreement"}},
		},
		{
			name:     "ragchecker data with its matrices",
			commands: [][]string{{"import", repoFile("importer", "testdata", "ragchecker_checking_outputs.json")}},
			labels: func(t *testing.T, s *store.Store) {
				const src = "ragchecker_checking_outputs/"
				record(t, s, "jo", [3]string{src + "0-g1", schema.ClaimValidity, "correct"}, [3]string{src + "0-g2", schema.ClaimValidity, "incorrect"},
					[3]string{src + "1-g1", schema.ClaimValidity, "incorrect"})
			},
			reports: [][]string{{"rag"}, {"rag", "--expert", "jo"}, {"stats"}, {"metrics", "--system", "ragchecker"}},
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
		{
			// The benchmark's own files: reference answers read as its
			// is_query_usable reads them, a gold citation naming no
			// document (an absent document, which the folder must carry),
			// a query_results.jsonl run.
			name: "queries, relevance and runs of the benchmark's release",
			commands: [][]string{{"import", filepath.Join("testdata", "kinds", "documents.jsonl"), release("queries.json"),
				release("runs", "exp-q", "results", "query_results.jsonl")}},
			reports: [][]string{{"stats", "--annotator", "canlegalragbench"}, {"stats", "--adjudicated"}, {"ir", "--k", "5"},
				{"ir", "--k", "3", "--definitions", "canlegalragbench"}},
		},
		{
			name:     "answer tasks",
			commands: [][]string{{"import", clrb("items.jsonl")}, {"annotator", "set", "lead", "--role", "lead"}},
			labels: func(t *testing.T, s *store.Store) {
				for _, a := range []struct {
					task, answer string
					cites        []string
					accept       bool
				}{
					{"q1/answer", "Only with 24 hours' written notice.", []string{"d1"}, true},
					{"q2/answer", "Two months.", nil, true},
					{"q3/answer", "It depends.", []string{"d2", "RTA s 106"}, false},
					{"q4/answer", "With the landlord's consent.", []string{"d3"}, false},
				} {
					ref, err := s.Resolve(a.task)
					if err != nil {
						t.Fatal(err)
					}
					if err := s.SubmitAnswer("jo", ref.ItemID, a.answer, a.cites, 5000, 0); err != nil {
						t.Fatal(err)
					}
					if a.task != "q4/answer" { // q4 waits for the lead
						reason := map[bool]string{true: "", false: "incomplete"}[a.accept]
						if err := s.ReviewAnswer("lead", ref.ItemID, "jo", a.accept, reason, store.AnswerReviewOptions{ActiveMs: 2000}); err != nil {
							t.Fatal(err)
						}
					}
				}
			},
			reports: [][]string{{"stats"}, {"stats", "--annotator", "jo"}, {"stats", "--adjudicated"}, {"!", "gen"}, {"!", "agreement"}},
		},
		{
			name:     "generated answers and claims",
			commands: [][]string{{"import", repoFile("demo", "canlegal-gen.jsonl")}},
			labels: func(t *testing.T, s *store.Store) {
				for _, who := range []string{"jo", "sam"} {
					record(t, s, who, [3]string{"gen-a-1-c1", schema.AccuracySupport, "supported"}, [3]string{"gen-a-1-c1", schema.Grounded, "grounded"},
						[3]string{"gen-a-1-c2", schema.AccuracySupport, "not_supported"}, [3]string{"gen-a-1-c2", schema.Grounded, map[string]string{"jo": "grounded", "sam": "not_grounded"}[who]},
						[3]string{"gen-a-1-c2", schema.ErrorCategory, `["hallucination"]`},
						[3]string{"gen-a-2-c1", schema.AccuracySupport, "not_supported"}, [3]string{"gen-a-2-c1", schema.Grounded, "not_grounded"})
				}
			},
			exports: [][]string{{"--annotator", "jo"}, {"--annotator", "sam"}},
			reports: [][]string{{"gen", "--annotator", "jo"}, {"gen", "--annotator", "sam"}, {"stats", "--annotator", "jo"}, {"agreement"}},
		},
	}
}
