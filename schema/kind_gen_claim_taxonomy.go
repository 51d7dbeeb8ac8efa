package schema

import (
	"bytes"
	"fmt"
	"slices"
	"strings"
	"sync"
	"unicode"

	"gopkg.in/yaml.v3"

	"github.com/annotate-dev/annotate/internal/suggest"
)

// The error taxonomy of generated claims (CanLegalRAGBench Appendix E,
// Tables 13–15): why a claim the automatic judge found unsupported or
// ungrounded is so. Each category belongs to a group: judge_error (the
// claim is fine; the judge over-penalised it), quality (the answer's
// quality, not its truth) or hallucination. The report's hallucination-rate
// bounds count the group hallucination. A file (--taxonomy) may replace the
// default; error_category's values follow the taxonomy in force.

// ErrorKind is one category (value) of the error taxonomy.
type ErrorKind struct {
	Value      string `json:"value"`
	Label      string `json:"label"`
	Group      string `json:"group"`
	Definition string `json:"definition"`
	Example    string `json:"example,omitempty"`
}

// Taxonomy groups.
const (
	GroupJudgeError    = "judge_error"
	GroupQuality       = "quality"
	GroupHallucination = "hallucination"
)

// groups are the groups a category may belong to: the reports know no
// other (a typo would drop its categories from the hallucination bounds).
var groups = []string{GroupJudgeError, GroupQuality, GroupHallucination}

// DefaultTaxonomy is the default taxonomy, from the paper's Appendix E.
func DefaultTaxonomy() []ErrorKind {
	return slices.Clone(defaultTaxonomy)
}

var defaultTaxonomy = []ErrorKind{
	{"valid_contextual_statement", "Valid contextual or concluding statement", GroupJudgeError,
		"A correct statement that frames or concludes the answer (advice to consult a lawyer, a summary of what was said) and that no document or gold answer states as such.",
		"\"Each situation depends on its facts; a lawyer can advise on yours.\""},
	{"synthesis_too_far_from_source", "Synthesis too far from the source", GroupJudgeError,
		"A grounded statement that combines or paraphrases the documents so freely that the judge no longer recognises its source.",
		"Two holdings joined into one rule that both cases support."},
	{"false_positive_in_gold", "False positive: in the gold answer", GroupJudgeError,
		"The judge said the claim is not supported by the gold answer, but the gold answer does state it.",
		"The gold answer says \"72 hours\"; the claim says \"three days\"."},
	{"missing_from_gold", "Relevant, missing from the gold answer", GroupJudgeError,
		"A correct and relevant claim that the gold answer simply does not cover.",
		"A limitation period the expert did not mention."},
	{"irrelevant", "Irrelevant", GroupQuality,
		"The claim may be true but does not help answer the query.",
		"A history of the statute in an answer about a tenant's rights today."},
	{"too_detailed", "Too detailed", GroupQuality,
		"The claim goes into detail the query does not need.",
		"Every sub-paragraph of a section when one applies."},
	{"misses_the_point", "Relevant but misses the point", GroupQuality,
		"On topic, but answers another question than the one asked.",
		"Factors for eligibility when the client is already known to be ineligible."},
	{"general_vs_case_specific_law", "General law confused with case-specific law", GroupHallucination,
		"States a finding on the facts of one case as if it were a general rule, or the reverse.",
		"\"Landlords may never enter without notice\" from a case decided on its own facts."},
	{"misapplied_legal_test", "Misapplied legal test", GroupHallucination,
		"Names the right test but applies it wrongly, or applies the wrong test.",
		"A two-part test applied as if either part sufficed."},
	{"document_misattribution", "Document misattribution", GroupHallucination,
		"Attributes a statement to a case or document that does not contain it.",
		"A holding of one case cited to another."},
	{"statutory_misattribution", "Statutory misattribution", GroupHallucination,
		"Attributes a rule to the wrong statute or section.",
		"A notice period cited to the wrong section of the Act."},
	{"doctrinal_conflation", "Doctrinal conflation", GroupHallucination,
		"Merges two distinct doctrines or concepts into one.",
		"Treating constructive dismissal and wrongful dismissal as the same claim."},
	{"modal_or_detail_error", "Modal or detail error", GroupHallucination,
		"Gets a modality or a detail wrong: \"shall not\" for \"may not\", a number, a date, a party.",
		"\"A tenant in Ontario may end a monthly tenancy with 30 days' notice\" where the Residential Tenancies Act, 2006 requires at least 60."},
	{"unsupported_by_cited_document", "Unsupported by the cited document", GroupHallucination,
		"States something the document it cites does not support at all.",
		"A claim citing a case that never discusses the point."},
}

var (
	taxMu    sync.RWMutex
	taxonomy = DefaultTaxonomy()
)

func defaultValues() []string { return valuesOf(defaultTaxonomy) }

func valuesOf(cats []ErrorKind) []string {
	out := make([]string, len(cats))
	for i, c := range cats {
		out[i] = c.Value
	}
	return out
}

// Taxonomy is the taxonomy in force.
func Taxonomy() []ErrorKind {
	taxMu.RLock()
	defer taxMu.RUnlock()
	return slices.Clone(taxonomy)
}

// UseTaxonomy puts a taxonomy in force (nil: the default): error_category's
// values become its values, in its order. Call it before anything reads the
// schema (a command does, right after opening the database).
func UseTaxonomy(cats []ErrorKind) {
	if len(cats) == 0 {
		cats = defaultTaxonomy
	}
	taxMu.Lock()
	taxonomy = slices.Clone(cats)
	taxMu.Unlock()
	build.Lock()
	defer build.Unlock()
	t, err := rebuild(build.declared)
	if err != nil {
		// The declarations in force were built over these kinds already;
		// a taxonomy changes no field but error_category's values.
		panic("schema: " + err.Error())
	}
	current.Store(t)
}

// TaxonomyError is a problem with a taxonomy file.
type TaxonomyError = FileError

// FileError is a problem with a file the lead gives (a taxonomy, a field's
// declaration), named like the importer's: FILE:LINE: field
// "categories[2].group": what is wrong.
type FileError struct {
	File  string
	Line  int
	Field string
	Msg   string
}

func (e *FileError) Error() string {
	var b strings.Builder
	b.WriteString(e.File)
	if e.Line > 0 {
		fmt.Fprintf(&b, ":%d", e.Line)
	}
	b.WriteString(": ")
	if e.Field != "" {
		fmt.Fprintf(&b, "field %q: ", e.Field)
	}
	b.WriteString(e.Msg)
	return b.String()
}

// ParseTaxonomy reads a taxonomy file, YAML or JSON (JSON is read as
// YAML): a list of categories, or an object whose "categories" is that
// list. Each category has a value (lower case, digits and underscores), a
// group (judge_error, quality or hallucination) and a definition; label
// (default: the value) and example are optional. Values must be unique, and
// a key may appear once per category.
// MaxTaxonomyFile bounds a taxonomy file (a few dozen categories).
const MaxTaxonomyFile = 1 << 20

func ParseTaxonomy(file string, data []byte) ([]ErrorKind, error) {
	fail := func(line int, field, format string, args ...any) error {
		return &TaxonomyError{File: file, Line: line, Field: field, Msg: fmt.Sprintf(format, args...)}
	}
	data = bytes.TrimPrefix(data, []byte("\ufeff"))
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return nil, fail(0, "", "not YAML or JSON: %v", err)
	}
	if doc.Kind != yaml.DocumentNode || len(doc.Content) == 0 {
		return nil, fail(0, "", "empty: want a list of categories (value, label, group, definition, example)")
	}
	list, prefix := doc.Content[0], "categories"
	if list.Kind == yaml.MappingNode {
		var found *yaml.Node
		for i := 0; i+1 < len(list.Content); i += 2 {
			if list.Content[i].Value == "categories" {
				found = list.Content[i+1]
			} else {
				return nil, fail(list.Content[i].Line, list.Content[i].Value, "unknown key (a taxonomy file has \"categories\")")
			}
		}
		if found == nil {
			return nil, fail(list.Line, "categories", "missing (required)")
		}
		list = found
	}
	if list.Kind != yaml.SequenceNode {
		return nil, fail(list.Line, "", "want a list of categories, got %s", nodeKind(list))
	}
	if len(list.Content) == 0 {
		return nil, fail(list.Line, prefix, "no category")
	}
	var out []ErrorKind
	seen := map[string]int{}
	for i, item := range list.Content {
		at := fmt.Sprintf("%s[%d]", prefix, i)
		if item.Kind != yaml.MappingNode {
			return nil, fail(item.Line, at, "want an object (value, label, group, definition, example), got %s", nodeKind(item))
		}
		var c ErrorKind
		dst := map[string]*string{"value": &c.Value, "label": &c.Label, "group": &c.Group, "definition": &c.Definition, "example": &c.Example}
		keyLine := map[string]int{}
		for j := 0; j+1 < len(item.Content); j += 2 {
			k, v := item.Content[j], item.Content[j+1]
			p, ok := dst[k.Value]
			if !ok {
				return nil, fail(k.Line, at+"."+k.Value, "unknown key (known: value, label, group, definition, example)")
			}
			if first, dup := keyLine[k.Value]; dup {
				return nil, fail(k.Line, at+"."+k.Value, "duplicate key (first on line %d)", first)
			}
			keyLine[k.Value] = k.Line
			if v.Kind != yaml.ScalarNode || v.Tag != "!!str" && v.Tag != "!!null" {
				return nil, fail(v.Line, at+"."+k.Value, "want a string, got %s", nodeKind(v))
			}
			*p = strings.TrimSpace(v.Value)
		}
		for _, req := range []struct{ key, v string }{{"value", c.Value}, {"group", c.Group}, {"definition", c.Definition}} {
			if req.v == "" {
				return nil, fail(item.Line, at+"."+req.key, "missing (required)")
			}
		}
		for _, v := range []struct{ key, v string }{{"value", c.Value}, {"group", c.Group}} {
			if !isName(v.v) {
				return nil, fail(keyLine[v.key], at+"."+v.key, "%q: want lower-case letters, digits and underscores (e.g. misapplied_legal_test)", v.v)
			}
		}
		for _, v := range []struct{ key, v string }{{"label", c.Label}, {"definition", c.Definition}, {"example", c.Example}} {
			if strings.IndexFunc(v.v, func(r rune) bool { return unicode.IsControl(r) && r != '\n' }) >= 0 {
				return nil, fail(item.Line, at+"."+v.key, "has a control character")
			}
		}
		if !slices.Contains(groups, c.Group) {
			msg := fmt.Sprintf("category %q: unknown group %q (groups: %s)", c.Value, c.Group, strings.Join(groups, ", "))
			if near := suggest.Close(c.Group, groups, 3); len(near) > 0 {
				msg += fmt.Sprintf("; did you mean %q?", near[0])
			}
			return nil, fail(keyLine["group"], at+".group", "%s", msg)
		}
		if prev, dup := seen[c.Value]; dup {
			return nil, fail(item.Line, at+".value", "%q is also the value of categories[%d]", c.Value, prev)
		}
		seen[c.Value] = i
		if c.Label == "" {
			c.Label = c.Value
		}
		out = append(out, c)
	}
	return out, nil
}

func isName(s string) bool {
	if s == "" {
		return false
	}
	for _, r := range s {
		if !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '_') {
			return false
		}
	}
	return true
}

func nodeKind(n *yaml.Node) string {
	switch n.Kind {
	case yaml.SequenceNode:
		return "a list"
	case yaml.MappingNode:
		return "an object"
	case yaml.AliasNode:
		return "an alias"
	}
	switch n.Tag {
	case "!!int", "!!float":
		return "a number"
	case "!!bool":
		return "a boolean"
	case "!!null":
		return "null"
	}
	return "a string"
}
