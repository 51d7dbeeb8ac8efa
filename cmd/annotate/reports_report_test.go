package main

import (
	"bytes"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/annotate-dev/annotate/store"
	"github.com/annotate-dev/annotate/store/storetest"
)

// seedReportDB writes a small database: two QA pairs of GDPR with three
// claims, labelled by the given annotators (the same labels each).
func seedReportDB(t *testing.T, annotators ...string) string {
	t.Helper()
	path, s := storetest.Create(t, "annotate.db")
	defer s.Close()
	err := s.Import(func(tx *store.Tx) error {
		ids := map[string]int64{}
		for _, q := range []string{"q1", "q2"} {
			id, _, err := tx.PutQA(store.QAPair{ID: q, Source: "GDPR", Language: "en", Question: "Q?", Answer: "A.",
				Category: "factual_recall", Contexts: []store.Context{{ID: "p-" + q, Text: "t"}}}, "h"+q, "f", false)
			if err != nil {
				return err
			}
			ids[q] = id
		}
		for i, c := range []string{"c1", "c2", "c3"} {
			id, _, err := tx.PutClaim(store.Claim{ID: c, QAID: "q1", Position: i + 1, Triplet: [3]string{"s", "p", "o"},
				Predictions: map[string]string{"refchecker": []string{"entailment", "neutral", "contradiction"}[i]}}, "h"+c, "f", false)
			if err != nil {
				return err
			}
			ids[c] = id
		}
		labels := []struct{ item, field, value string }{
			{"q1", "question_validity", "valid"}, {"q1", "persona", "citizen"}, {"q1", "category", "factual_recall"},
			{"q2", "question_validity", "invalid"}, {"q2", "invalid_reason", "domain"},
			{"c1", "claim_validity", "correct"}, {"c1", "entailment", "entailment"},
			{"c2", "claim_validity", "correct"}, {"c2", "entailment", "entailment"},
			{"c3", "claim_validity", "incorrect"},
		}
		for _, a := range annotators {
			for _, l := range labels {
				if _, err := tx.PutLabel(store.Label{Annotator: a, ItemID: ids[l.item], Field: l.field, Value: l.value}); err != nil {
					return err
				}
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	makeLead(t, s, "lead")
	return path
}

// execute runs the command line in-process through the cobra root and
// returns what it printed.
func execute(t *testing.T, args ...string) (string, error) {
	t.Helper()
	var out bytes.Buffer
	err := runSafely(args, &out, io.Discard)
	return out.String(), err
}

// hasKeys checks that a decoded JSON object has every dotted key path.
func hasKeys(t *testing.T, what string, m map[string]any, paths ...string) {
	t.Helper()
	for _, p := range paths {
		var cur any = m
		for _, k := range strings.Split(p, ".") {
			obj, ok := cur.(map[string]any)
			if !ok {
				t.Errorf("%s: %s: %q is not inside an object", what, p, k)
				break
			}
			if cur, ok = obj[k]; !ok {
				t.Errorf("%s: no key %s", what, p)
				break
			}
		}
	}
}

func TestReportCommandsJSON(t *testing.T) {
	db := seedReportDB(t, "jo", "sam")
	decode := func(args ...string) map[string]any {
		t.Helper()
		out, err := execute(t, append(append([]string{"--db", db}, args...), "--json")...)
		if err != nil {
			t.Fatalf("%v: %v", args, err)
		}
		var m map[string]any
		if err := json.Unmarshal([]byte(out), &m); err != nil {
			t.Fatalf("%v: not JSON: %v\n%s", args, err, out)
		}
		return m
	}

	// The keys of the --json shapes (docs/json.md).
	m := decode("stats", "--annotator", "jo")
	hasKeys(t, "stats", m, "annotator", "sources.GDPR.qa", "sources.GDPR.qa_valid", "sources.GDPR.persona.citizen",
		"sources.GDPR.category.general_legal_research", "sources.GDPR.answers_with_claims", "sources.GDPR.claims",
		"sources.GDPR.valid_claims", "sources.GDPR.entailment.entailment", "sources.GDPR.entailment.neutral",
		"sources.GDPR.entailment.contradiction", "all.qa")
	if m["annotator"] != "jo" || m["all"].(map[string]any)["valid_claims"] != 2.0 {
		t.Errorf("stats: %v", m)
	}

	m = decode("metrics", "--annotator", "sam", "--system", "refchecker")
	hasKeys(t, "metrics", m, "annotator", "system", "extraction.GDPR.judged", "extraction.GDPR.valid",
		"extraction.GDPR.accuracy", "extraction.GDPR.ci95", "extraction.all.judged",
		"verification.GDPR.n", "verification.GDPR.classes.entailment.precision", "verification.GDPR.classes.entailment.recall",
		"verification.GDPR.classes.entailment.f1", "verification.GDPR.classes.entailment.support",
		"verification.GDPR.confusion.entailment.entailment", "verification.GDPR.confusion.entailment.neutral",
		"verification.GDPR.confusion.entailment.contradiction", "verification.GDPR.accuracy", "verification.GDPR.macro_f1",
		"verification.GDPR.weighted_f1", "verification.GDPR.kappa", "verification.all.n")
	if m["annotator"] != "sam" || m["system"] != "refchecker" {
		t.Errorf("metrics: %v %v", m["annotator"], m["system"])
	}
	// c1 entailment/entailment, c2 entailment/neutral; c3 is incorrect.
	if v := m["verification"].(map[string]any)["all"].(map[string]any); v["n"] != 2.0 || v["accuracy"] != 0.5 {
		t.Errorf("verification: %v", v)
	}

	m = decode("agreement", "--annotators", "jo,sam", "--field", "entailment")
	hasKeys(t, "agreement", m, "fields.entailment.items", "fields.entailment.percent_agreement", "fields.entailment.fleiss_kappa",
		"fields.entailment.krippendorff_alpha", "fields.entailment.gwet_ac1", "fields.entailment.per_class.neutral.fleiss_kappa",
		"fields.entailment.pairs")
	pairs := m["fields"].(map[string]any)["entailment"].(map[string]any)["pairs"].([]any)
	if len(pairs) != 1 {
		t.Fatalf("pairs: %v", pairs)
	}
	hasKeys(t, "agreement pair", pairs[0].(map[string]any), "a", "b", "n", "cohen_kappa")
	if p := pairs[0].(map[string]any); p["a"] != "jo" || p["b"] != "sam" || p["n"] != 2.0 {
		t.Errorf("pair %v", p)
	}
}

func TestReportCommandsText(t *testing.T) {
	db := seedReportDB(t, "jo")
	out, err := execute(t, "--db", db, "stats")
	if err != nil || !strings.Contains(out, "labels of jo") || !strings.Contains(out, "GDPR (EN)") {
		t.Errorf("stats: %v\n%s", err, out)
	}
	out, err = execute(t, "--db", db, "metrics", "--ci")
	if err != nil || !strings.Contains(out, "Claim verification: refchecker") || !strings.Contains(out, "F1 95% CI") {
		t.Errorf("metrics: %v\n%s", err, out)
	}
}

// runStderr runs the program as main does and returns its exit status and
// what it wrote to stderr.
func runStderr(t *testing.T, args ...string) (int, string) {
	t.Helper()
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	old, oldOut := os.Stderr, os.Stdout
	os.Stderr, os.Stdout = w, w
	code := run(args)
	os.Stderr, os.Stdout = old, oldOut
	w.Close()
	b, _ := io.ReadAll(r)
	return code, string(b)
}

func TestReportCommandErrors(t *testing.T) {
	one := seedReportDB(t, "jo")
	two := seedReportDB(t, "jo", "sam")
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--db", one, "agreement"}, "annotate: agreement needs at least two annotators with labels; the database has one (jo)\n"},
		{[]string{"--db", two, "agreement", "--annotators", "jo"}, "annotate: agreement needs at least two annotators; --annotators names 1 (jo)\n"},
		{[]string{"--db", two, "stats"}, "annotate: 2 annotators have labels: choose --annotator NAME (jo, sam) or --adjudicated\n"},
		{[]string{"--db", two, "metrics", "--adjudicated"}, "annotate: no adjudicated labels yet (adjudicate disagreements with `annotate review`, or choose --annotator NAME)\n"},
		{[]string{"--db", two, "metrics", "--annotator", "jo", "--adjudicated"}, "annotate: choose --annotator NAME or --adjudicated, not both\n"},
		{[]string{"--db", two, "stats", "--annotator", "bob"}, "annotate: --annotator: no annotator \"bob\" (annotators: jo, sam, lead)\n"},
		{[]string{"--db", two, "agreement", "--field", "colour"}, "annotate: --field: no field \"colour\" (20 fields, e.g. question_validity, "},
		{[]string{"--db", filepath.Join(t.TempDir(), "none.db"), "stats"}, "annotate: no database at "},
	} {
		code, stderr := runStderr(t, c.args...)
		if code == 0 || !strings.HasPrefix(stderr, c.want) || strings.Count(stderr, "\n") != 1 {
			t.Errorf("%v: exit %d, stderr %q; want non-zero and %q", c.args[2:], code, stderr, c.want)
		}
	}
	if code, out := runStderr(t, "--db", two, "agreement", "--field", "entailment"); code != 0 || !strings.Contains(out, "Agreement between jo, sam") {
		t.Errorf("agreement: exit %d\n%s", code, out)
	}
}
