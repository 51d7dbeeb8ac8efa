package guidelines

import (
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/annotate-dev/annotate/schema"
)

// canonical holds the canonical values of each field (the schema, "Label
// schema"); for missed_claims, the marker and origin its section must name.
var canonical = map[string][]string{
	"question_validity":  {"valid", "invalid"},
	"invalid_reason":     {"domain", "linguistic", "both"},
	"category":           {"general_legal_research", "factual_recall", "false_premise", "jurisdiction_time_specific"},
	"persona":            {"citizen", "civil_officer", "legal_expert"},
	"answer_correctness": {"correct", "partially_correct", "incorrect"},
	"claim_validity":     {"correct", "incorrect"},
	"entailment":         {"entailment", "neutral", "contradiction"},
	"missed_claims":      {"missed_claims_checked", "annotator"},
	"query_validity":     {"valid", "invalid"},
	"relevance":          {"relevant", "not_relevant"},
	"irrelevance_reason": {"different_issue", "reversed_roles", "different_posture", "other"},
	"gold_answer":        {"ctrl+s"},
	"citations":          {"✓", "?"},
	"answer_review":      {"accept", "reject"},
	"reject_reason":      {"off_target", "wrong_law", "incomplete", "other"},
	"accuracy_support":   {"supported", "not_supported"},
	"grounded":           {"grounded", "not_grounded"},
	"error_category": {"valid_contextual_statement", "synthesis_too_far_from_source", "false_positive_in_gold", "missing_from_gold",
		"irrelevant", "too_detailed", "misses_the_point", "general_vs_case_specific_law", "misapplied_legal_test",
		"document_misattribution", "statutory_misattribution", "doctrinal_conflation", "modal_or_detail_error", "unsupported_by_cited_document"},
}

// Fields whose values are not picked with a key each: free text (its keys
// are the editor's), marks, a checklist (keys 1-9, then the arrows).
var notPicked = map[string]bool{"missed_claims": true, "gold_answer": true, "citations": true, "error_category": true}

// The sections follow the order an annotator meets the fields: a QA pair's
// fields in asking order before its claims', the missed-claims step right
// after the claim's fields, and every kind's fields together.
func TestFieldsFollowTheOrderOfAsking(t *testing.T) {
	got := Fields()
	at := map[string]int{}
	for i, f := range got {
		if _, dup := at[f]; dup {
			t.Fatalf("section %s twice in %v", f, got)
		}
		at[f] = i
	}
	for _, k := range schema.AllKinds() {
		fs := schema.Fields(k)
		for i := 1; i < len(fs); i++ {
			if at[fs[i].Name] != at[fs[i-1].Name]+1 {
				t.Errorf("%s: section %s does not follow %s: %v", k, fs[i].Name, fs[i-1].Name, got)
			}
		}
	}
	if at["answer_correctness"] > at["claim_validity"] || at["missed_claims"] != at["entailment"]+1 {
		t.Errorf("the QA pair's sections, then the claim's, then the missed-claims step: %v", got)
	}
	if len(canonical) != len(got) {
		t.Fatalf("test table has %d fields, Fields() %d", len(canonical), len(got))
	}
}

// Every embedded file is a section of some kind (or the introduction): a
// kind's section cannot be written and never shown.
func TestEveryFileIsASection(t *testing.T) {
	entries, err := files.ReadDir("md")
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if e.IsDir() {
			continue // a language's files: TestEveryEnglishFileHasItsFrench
		}
		name := strings.TrimSuffix(e.Name(), ".md")
		if name != "intro" && !slices.Contains(Fields(), name) {
			t.Errorf("md/%s is no kind's section (schema Spec.Fields or Spec.Guidelines)", e.Name())
		}
	}
}

func TestVersion(t *testing.T) {
	if strings.TrimSpace(Version) == "" {
		t.Fatal("Version is empty")
	}
	if !regexp.MustCompile(`^\d{4}-\d{2}-\d{2}\.\d+$`).MatchString(Version) {
		t.Errorf("Version %q is not DATE.N", Version)
	}
	if !strings.Contains(Intro(), Version) || strings.Contains(All(), "{{VERSION}}") {
		t.Error("the introduction does not show the version")
	}
}

func TestSections(t *testing.T) {
	for _, lang := range []string{English, French} {
		subsections, example := headingsIn(lang)
		for _, f := range Fields() {
			t.Run(lang+"/"+f, func(t *testing.T) {
				s, err := SectionIn(f, lang)
				if err != nil {
					t.Fatal(err)
				}
				if !strings.HasPrefix(s, "## "+f+" — ") {
					t.Errorf("section does not start with a heading naming %q", f)
				}
				for _, h := range subsections {
					if !strings.Contains(s, "\n"+h+"\n") {
						t.Errorf("missing heading %q", h)
					}
				}
				for _, v := range canonical[f] {
					if !regexp.MustCompile("`" + regexp.QuoteMeta(v) + "`").MatchString(s) {
						t.Errorf("canonical value %q does not appear (as `%s`)", v, v)
					}
				}
				ex := examples(s, subsections[len(subsections)-1])
				if n := strings.Count(ex, "\n#### "+example+" "); n < 2 {
					t.Errorf("%d examples, want at least 2", n)
				}
				if !strings.Contains(ex, "(FR") {
					t.Error("no example marked (FR")
				}
				if !looksFrench(ex) {
					t.Error("the examples contain no French text")
				}
				if !strings.Contains(ex, "(EN") {
					t.Error("no example marked (EN")
				}
			})
		}
	}
}

// TestKeys checks that each section says which key picks each value: 1..n in
// table order, and y/n on the two-way fields, in every language.
func TestKeys(t *testing.T) {
	twoWay := map[string]bool{"question_validity": true, "query_validity": true, "claim_validity": true, "relevance": true, "answer_review": true, "accuracy_support": true, "grounded": true}
	or := map[string]string{English: "or", French: "ou"}
	for _, lang := range []string{English, French} {
		for f, values := range canonical {
			if notPicked[f] {
				continue
			}
			s, _ := SectionIn(f, lang)
			for i, v := range values {
				key := string(rune('1' + i))
				row := regexp.MustCompile("(?m)^\\|[^\\n]*`" + key + "`[^\\n]*\\| `" + v + "` \\|")
				if !row.MatchString(s) {
					t.Errorf("%s, %s: no table row giving key %s for %q", lang, f, key, v)
				}
			}
			if twoWay[f] {
				for i, k := range []string{"y", "n"} {
					row := regexp.MustCompile("(?m)^\\| `" + k + "` " + or[lang] + " `" + string(rune('1'+i)) + "` \\| `" + values[i] + "` \\|")
					if !row.MatchString(s) {
						t.Errorf("%s, %s: no row giving key %s for %q", lang, f, k, values[i])
					}
				}
			}
		}
		s, _ := SectionIn("missed_claims", lang)
		for _, k := range []string{"| `a` |", "| `enter` |"} {
			if !strings.Contains(s, k) {
				t.Errorf("%s, missed_claims: no row for key %s", lang, k)
			}
		}
	}
}

func TestUnknownField(t *testing.T) {
	_, err := Section("relevancy")
	if err == nil {
		t.Fatal("no error for an unknown field")
	}
	for _, f := range Fields() {
		if !strings.Contains(err.Error(), f) {
			t.Errorf("error %q does not list %q", err, f)
		}
	}
}

func TestSectionNameNormalised(t *testing.T) {
	want, _ := Section("answer_correctness")
	for _, name := range []string{"Answer-Correctness", " answer correctness "} {
		got, err := Section(name)
		if err != nil || got != want {
			t.Errorf("Section(%q) = err %v, want the answer_correctness section", name, err)
		}
	}
}

func TestAll(t *testing.T) {
	all := All()
	if !strings.HasPrefix(all, "# Annotation guidelines") {
		t.Error("All() does not start with the introduction")
	}
	last := -1
	for _, f := range Fields() {
		i := strings.Index(all, "\n## "+f+" ")
		if i < 0 {
			t.Fatalf("All() lacks the section %q", f)
		}
		if i < last {
			t.Errorf("section %q out of order", f)
		}
		last = i
	}
}

// examples is the text of a section under its heading of examples.
func examples(section, heading string) string {
	_, after, ok := strings.Cut(section, "\n"+heading+"\n")
	if !ok {
		return ""
	}
	return after
}

// looksFrench reports whether s contains accented French letters and several
// French function words (line breaks and French no-break spaces read as
// spaces).
func looksFrench(s string) bool {
	s = " " + strings.Join(strings.Fields(s), " ") + " " // Fields splits at U+00A0 and U+202F too
	if !strings.ContainsAny(s, "éèàçêôù") {
		return false
	}
	n := 0
	for _, w := range []string{" le ", " la ", " les ", " est ", " du ", " des ", " une ", " que ", " pas ", " touche "} {
		if strings.Contains(s, w) {
			n++
		}
	}
	return n >= 4
}

// TestEveryFieldHasGuidelines: every asked field of every kind in the schema
// has its own embedded section (version 1 of every database), so `?` never
// finds nothing on a screen; every marker a step writes has its step's.
func TestEveryFieldHasGuidelines(t *testing.T) {
	kinds := schema.AllKinds()
	if len(kinds) < 2 {
		t.Fatalf("%d kinds in the schema, want QA pairs and claims at least", len(kinds))
	}
	for _, k := range kinds {
		for _, f := range schema.KindFields(k) {
			if f.Marker {
				if sec, ok := SectionOf(f.Name); ok && !slices.Contains(Fields(), sec) {
					t.Errorf("marker %s of kind %s: section %q is not a field", f.Name, k, sec)
				}
				continue
			}
			if _, ok := Embedded(f.Name); !ok {
				t.Errorf("field %s of kind %s has no embedded guidelines (md/%s.md)", f.Name, k, f.Name)
			}
			if !slices.Contains(Fields(), f.Name) {
				t.Errorf("field %s of kind %s is not in Fields()", f.Name, k)
			}
		}
	}
	for _, m := range []string{"missed_claims_checked", "claim_added"} {
		if sec, ok := SectionOf(m); !ok || sec != "missed_claims" {
			t.Errorf("SectionOf(%s) = %q, %v; want missed_claims", m, sec, ok)
		}
	}
	if _, ok := SectionOf("relevance_grade"); ok {
		t.Error("relevance_grade (an imported grade) has a section")
	}
}
