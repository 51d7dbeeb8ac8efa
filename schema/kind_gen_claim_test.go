package schema

import (
	"errors"
	"reflect"
	"slices"
	"strings"
	"testing"
)

func TestGenClaimAsksCategoriesOnlyOfUnsupportedClaims(t *testing.T) {
	for _, tc := range []struct {
		labels map[string]string
		next   string
	}{
		{map[string]string{}, AccuracySupport},
		{map[string]string{AccuracySupport: "supported"}, Grounded},
		{map[string]string{AccuracySupport: "supported", Grounded: "grounded"}, ""},
		{map[string]string{AccuracySupport: "not_supported", Grounded: "grounded"}, ErrorCategory},
		{map[string]string{AccuracySupport: "supported", Grounded: "not_grounded"}, ErrorCategory},
		{map[string]string{AccuracySupport: "supported", Grounded: "not_grounded", ErrorCategory: `["irrelevant"]`}, ""},
	} {
		if got := NextField(KindGenClaim, tc.labels); got != tc.next {
			t.Errorf("%v: next %q, want %q", tc.labels, got, tc.next)
		}
	}
}

func TestAnswerTaskAsksTheExpertNotTheReview(t *testing.T) {
	if got := NextField(KindAnswerTask, map[string]string{}); got != GoldAnswer {
		t.Errorf("first field %q", got)
	}
	done := map[string]string{GoldAnswer: "text", Citations: "[]"}
	if !Complete(KindAnswerTask, done) {
		t.Error("an answer with its citations (none) is complete for the expert: the review is the lead's")
	}
	if got := NextFieldOf(KindAnswerTask, map[string]string{}, nil, RoleLead); got != AnswerReview {
		t.Errorf("the lead is asked %q", got)
	}
	if got := NextFieldOf(KindAnswerTask, map[string]string{AnswerReview: "reject"}, nil, RoleLead); got != RejectReason {
		t.Errorf("a rejection asks %q", got)
	}
}

func TestNormalizeMulti(t *testing.T) {
	for _, tc := range []struct {
		field, in, want string
		known           bool
	}{
		// The taxonomy's order, repeats dropped, the words of a file read.
		{ErrorCategory, `["Document misattribution","misapplied-legal-test","document_misattribution"]`, `["misapplied_legal_test","document_misattribution"]`, true},
		{ErrorCategory, "too detailed; Irrelevant", `["irrelevant","too_detailed"]`, true},
		{ErrorCategory, `["irrelevant","made up"]`, `["irrelevant","made up"]`, false},
		{ErrorCategory, `["not closed"`, `["not closed"`, false},
		// Citations are free: order kept, blanks and repeats dropped.
		{Citations, "doc-2\n 2019 ONCA 12 \n\ndoc-2", `["doc-2","2019 ONCA 12"]`, true},
		{Citations, `[]`, `[]`, true},
	} {
		got, known := Normalize(tc.field, tc.in)
		if got != tc.want || known != tc.known {
			t.Errorf("Normalize(%q, %q) = %q, %v; want %q, %v", tc.field, tc.in, got, known, tc.want, tc.known)
		}
	}
	if got := DecodeMulti(`["a","b"]`); !reflect.DeepEqual(got, []string{"a", "b"}) {
		t.Errorf("DecodeMulti = %v", got)
	}
	if got := DecodeMulti("verbatim"); !reflect.DeepEqual(got, []string{"verbatim"}) {
		t.Errorf("DecodeMulti of a verbatim value = %v", got)
	}
}

func TestDefaultTaxonomyIsDesignMd(t *testing.T) {
	groups := map[string][]string{}
	for _, c := range DefaultTaxonomy() {
		groups[c.Group] = append(groups[c.Group], c.Value)
		if c.Definition == "" || c.Label == "" {
			t.Errorf("%s: no label or definition", c.Value)
		}
	}
	want := map[string][]string{
		GroupJudgeError:    {"valid_contextual_statement", "synthesis_too_far_from_source", "false_positive_in_gold", "missing_from_gold"},
		GroupQuality:       {"irrelevant", "too_detailed", "misses_the_point"},
		GroupHallucination: {"general_vs_case_specific_law", "misapplied_legal_test", "document_misattribution", "statutory_misattribution", "doctrinal_conflation", "modal_or_detail_error", "unsupported_by_cited_document"},
	}
	if !reflect.DeepEqual(groups, want) {
		t.Errorf("groups %v", groups)
	}
}

func TestParseTaxonomy(t *testing.T) {
	yml := "categories:\n  - value: judge_ok\n    group: judge_error\n    definition: fine\n  - value: made_up\n    label: Made up\n    group: hallucination\n    definition: invented\n    example: \"a case that does not exist\"\n"
	cats, err := ParseTaxonomy("t.yaml", []byte(yml))
	if err != nil {
		t.Fatal(err)
	}
	want := []ErrorKind{{"judge_ok", "judge_ok", "judge_error", "fine", ""}, {"made_up", "Made up", "hallucination", "invented", "a case that does not exist"}}
	if !reflect.DeepEqual(cats, want) {
		t.Errorf("got %+v", cats)
	}
	js := "[\n\t{\"value\": \"a\", \"group\": \"quality\", \"definition\": \"d\"}\n]"
	if cats, err := ParseTaxonomy("t.json", []byte(js)); err != nil || len(cats) != 1 {
		t.Errorf("JSON: %v %v", cats, err)
	}
	for _, tc := range []struct{ in, msg string }{
		{"- value: a\n  group: quality\n", `t.yaml:1: field "categories[0].definition": missing (required)`},
		{"- value: a\n  group: quality\n  definition: d\n- value: a\n  group: quality\n  definition: e\n", `t.yaml:4: field "categories[1].value": "a" is also the value of categories[0]`},
		{"- value: Has Space\n  group: quality\n  definition: d\n", `t.yaml:1: field "categories[0].value": "Has Space": want lower-case letters`},
		{"- value: a\n  group: quality\n  definition: d\n  colour: red\n", `t.yaml:4: field "categories[0].colour": unknown key`},
		{"- value: a\n  group: quality\n  definition: [1, 2]\n", `t.yaml:3: field "categories[0].definition": want a string, got a list`},
		{"{\"cats\": []}", `t.yaml:1: field "cats": unknown key`},
		{"", `t.yaml: empty`},
		// A group the reports do not know: its categories would silently
		// leave the hallucination-rate bounds.
		{"- value: a\n  group: quality\n  definition: d\n- value: made_up\n  definition: d\n  group: halucination\n",
			`t.yaml:6: field "categories[1].group": category "made_up": unknown group "halucination" (groups: judge_error, quality, hallucination); did you mean "hallucination"?`},
		{"- value: a\n  group: Judge_Error\n  definition: d\n", `t.yaml:2: field "categories[0].group": "Judge_Error": want lower-case`},
		{"- value: a\n  group: other\n  definition: d\n", `t.yaml:2: field "categories[0].group": category "a": unknown group "other" (groups: judge_error, quality, hallucination)`},
		{"[{\"value\": \"a\", \"group\": \"quality\", \"definition\": \"d\",\n \"value\": \"b\"}]", `t.yaml:2: field "categories[0].value": duplicate key (first on line 1)`},
	} {
		_, err := ParseTaxonomy("t.yaml", []byte(tc.in))
		var te *TaxonomyError
		if !errors.As(err, &te) || !strings.HasPrefix(err.Error(), tc.msg) {
			t.Errorf("%q: error %v, want %s…", tc.in, err, tc.msg)
		}
	}
}

func TestUseTaxonomyChangesTheValues(t *testing.T) {
	t.Cleanup(func() { UseTaxonomy(nil) })
	UseTaxonomy([]ErrorKind{{Value: "made_up", Group: GroupHallucination, Definition: "d"}})
	f, _ := Lookup(ErrorCategory)
	if !reflect.DeepEqual(f.Values, []string{"made_up"}) || GroupOf("made_up") != GroupHallucination || GroupOf("irrelevant") != "" {
		t.Errorf("values %v", f.Values)
	}
	if v, known := Normalize(ErrorCategory, "Made Up"); v != `["made_up"]` || !known {
		t.Errorf("normalise %q %v", v, known)
	}
	UseTaxonomy(nil)
	if !IsDefaultTaxonomy() || GroupOf("irrelevant") != GroupQuality {
		t.Error("back to the default")
	}
}

// IsDefaultTaxonomy reports whether the taxonomy in force is the default.
func IsDefaultTaxonomy() bool {
	taxMu.RLock()
	defer taxMu.RUnlock()
	return slices.Equal(taxonomy, defaultTaxonomy)
}

// GroupOf is the group of a category value ("" for a value outside the
// taxonomy in force).
func GroupOf(value string) string {
	taxMu.RLock()
	defer taxMu.RUnlock()
	for _, c := range taxonomy {
		if c.Value == value {
			return c.Group
		}
	}
	return ""
}
