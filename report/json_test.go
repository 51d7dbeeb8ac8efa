package report

import (
	"fmt"
	"github.com/annotate-dev/annotate/store"
	"sort"
	"strings"
	"testing"
)

// at follows a path of keys ("verification.CIVIL.classes") through decoded
// JSON; a number index picks an array element.
func at(t *testing.T, m map[string]any, path string) any {
	t.Helper()
	var cur any = m
	for _, k := range strings.Split(path, ".") {
		switch c := cur.(type) {
		case map[string]any:
			v, ok := c[k]
			if !ok {
				t.Fatalf("%s: no key %q (keys: %s)", path, k, keys(c))
			}
			cur = v
		case []any:
			var i int
			if _, err := fmt.Sscan(k, &i); err != nil || i >= len(c) {
				t.Fatalf("%s: no element %q", path, k)
			}
			cur = c[i]
		default:
			t.Fatalf("%s: %q is inside a %T", path, k, cur)
		}
	}
	return cur
}

func keys(m map[string]any) string {
	var ks []string
	for k := range m {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	return strings.Join(ks, ",")
}

// TestJSONShapes checks the keys docs/json.md fixes for `--json` (the contract),
// and their types, on the paper's label set.
func TestJSONShapes(t *testing.T) {
	s := openStore(t)
	seedPaper(t, s)

	st, err := store.ReadWith(s, Stats, Selection{})
	if err != nil {
		t.Fatal(err)
	}
	m := jsonMap(t, st)
	if at(t, m, "annotator") != "expert" {
		t.Errorf("annotator %v", m["annotator"])
	}
	for _, src := range []string{"sources.GDPR", "sources.CIVIL", "all"} {
		for _, k := range []string{"qa", "qa_valid", "answers_with_claims", "claims", "valid_claims",
			"persona.citizen", "persona.civil_officer", "persona.legal_expert",
			"category.general_legal_research", "category.factual_recall", "category.false_premise", "category.jurisdiction_time_specific",
			"entailment.entailment", "entailment.neutral", "entailment.contradiction"} {
			if _, ok := at(t, m, src+"."+k).(float64); !ok {
				t.Errorf("%s.%s is not a number", src, k)
			}
		}
	}
	if at(t, m, "sources.GDPR.qa") != 149.0 || at(t, m, "all.valid_claims") != 838.0 {
		t.Errorf("values: %v %v", at(t, m, "sources.GDPR.qa"), at(t, m, "all.valid_claims"))
	}

	mr, err := store.ReadWith(s, Metrics, MetricsOptions{Selection: Selection{Annotator: "expert"}})
	if err != nil {
		t.Fatal(err)
	}
	m = jsonMap(t, mr)
	if at(t, m, "annotator") != "expert" || at(t, m, "system") != "refchecker" {
		t.Errorf("annotator/system %v %v", m["annotator"], m["system"])
	}
	for _, src := range []string{"GDPR", "CIVIL", "all"} {
		for _, k := range []string{"judged", "valid", "accuracy", "ci95.0", "ci95.1"} {
			if _, ok := at(t, m, "extraction."+src+"."+k).(float64); !ok {
				t.Errorf("extraction.%s.%s is not a number", src, k)
			}
		}
		v := "verification." + src + "."
		// A source without verified claims has nothing to count: null,
		// never 0 (docs/metrics.md).
		n, _ := at(t, m, v+"n").(float64)
		for _, k := range []string{"accuracy", "macro_f1", "weighted_f1", "kappa"} {
			got := at(t, m, v+k)
			if _, ok := got.(float64); n > 0 && !ok {
				t.Errorf("%s%s is not a number", v, k)
			}
			if n == 0 && got != nil {
				t.Errorf("%s%s = %v over no claim, want null", v, k, got)
			}
		}
		for _, c := range nli {
			for _, k := range []string{"precision", "recall", "f1", "support"} {
				if _, ok := at(t, m, v+"classes."+c+"."+k).(float64); !ok {
					t.Errorf("%sclasses.%s.%s is not a number", v, c, k)
				}
			}
			for _, col := range append(nli, "other") {
				if _, ok := at(t, m, v+"confusion."+c+"."+col).(float64); !ok {
					t.Errorf("%sconfusion.%s.%s is not a number", v, c, col)
				}
			}
		}
	}
	if at(t, m, "verification.CIVIL.n") != 385.0 || at(t, m, "verification.CIVIL.classes.entailment.support") != 284.0 ||
		at(t, m, "extraction.GDPR.judged") != 520.0 || at(t, m, "verification.CIVIL.confusion.entailment.neutral") != 34.0 {
		t.Errorf("metrics values off")
	}
	if _, ok := m["bootstrap"]; ok {
		t.Errorf("bootstrap key without --ci")
	}

	ar, err := store.ReadWith(seedThree(t), Agreement, AgreementOptions{})
	if err != nil {
		t.Fatal(err)
	}
	m = jsonMap(t, ar)
	for _, f := range []string{"question_validity", "invalid_reason", "category", "persona", "answer_correctness", "claim_validity", "entailment"} {
		p := "fields." + f + "."
		items, ok := at(t, m, p+"items").(float64)
		if !ok {
			t.Errorf("%sitems is not a number", p)
		}
		// The pairs' QA fields have no labels: nothing to count is null.
		for _, k := range []string{"percent_agreement", "fleiss_kappa", "krippendorff_alpha", "gwet_ac1"} {
			got := at(t, m, p+k)
			if _, ok := got.(float64); items > 0 && !ok {
				t.Errorf("%s%s is not a number", p, k)
			}
			if items == 0 && got != nil {
				t.Errorf("%s%s = %v over no item, want null", p, k, got)
			}
		}
		if _, ok := at(t, m, p+"pairs").([]any); !ok {
			t.Errorf("%spairs is not a list", p)
		}
	}
	e := "fields.entailment."
	for _, c := range nli {
		if _, ok := at(t, m, e+"per_class."+c+".fleiss_kappa").(float64); !ok {
			t.Errorf("per_class.%s.fleiss_kappa", c)
		}
	}
	if at(t, m, e+"pairs.1.a") != "jo" || at(t, m, e+"pairs.1.b") != "sam" || at(t, m, e+"pairs.1.n") != 6.0 || at(t, m, e+"items") != 8.0 {
		t.Errorf("agreement values off: %v", at(t, m, e+"pairs.1"))
	}
	near(t, "pairs.1.cohen_kappa", at(t, m, e+"pairs.1.cohen_kappa").(float64), 0.5, 1e-12)
	if _, ok := at(t, m, "fields.entailment").(map[string]any)["disagreements"]; ok {
		t.Errorf("disagreements key without --disagreements")
	}
	// With --disagreements the key is there even when they all agree.
	ar, err = store.ReadWith(seedThree(t), Agreement, AgreementOptions{Annotators: []string{"sam", "kim"}, Field: "claim_validity", Disagreements: true})
	if err != nil {
		t.Fatal(err)
	}
	if d, ok := at(t, jsonMap(t, ar), "fields.claim_validity.disagreements").([]any); !ok || len(d) != 0 {
		t.Errorf("disagreements: %v", d)
	}
}
