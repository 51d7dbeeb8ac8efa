// Package schema is the label schema of DESIGN.md: the item kinds, their fields,
// the values of each field and the "asked when" rule that decides which fields
// apply to an item given the labels it already has. Every other package (store,
// importer, TUI, reports, export) asks this one, so a new item kind is a new
// entry here plus a migration, not a rewrite.
package schema

import (
	"fmt"
	"strings"
)

// Kind is an item kind.
type Kind string

const (
	KindQA    Kind = "qa"
	KindClaim Kind = "claim"
)

// Kinds lists the kinds that have fields to annotate, in queue order.
var Kinds = []Kind{KindQA, KindClaim}

// Field names.
const (
	QuestionValidity    = "question_validity"
	InvalidReason       = "invalid_reason"
	Category            = "category"
	Persona             = "persona"
	AnswerCorrectness   = "answer_correctness"
	ClaimValidity       = "claim_validity"
	Entailment          = "entailment"
	MissedClaimsChecked = "missed_claims_checked"
	ClaimAdded          = "claim_added"
)

// Field describes one labelled field of a kind.
type Field struct {
	Name   string
	Kind   Kind
	Values []string // canonical values; key 1 picks Values[0]
	// AskedWhen reports whether the field applies, given the item's current
	// labels (field -> value). A field not asked is never counted.
	AskedWhen func(current map[string]string) bool
	// TwoWay fields answer y (Values[0]) / n (Values[1]).
	TwoWay bool
}

func always(map[string]string) bool { return true }

func is(field, value string) func(map[string]string) bool {
	return func(cur map[string]string) bool { return cur[field] == value }
}

var fields = []Field{
	{Name: QuestionValidity, Kind: KindQA, Values: []string{"valid", "invalid"}, AskedWhen: always, TwoWay: true},
	{Name: InvalidReason, Kind: KindQA, Values: []string{"domain", "linguistic", "both"}, AskedWhen: is(QuestionValidity, "invalid")},
	{Name: Category, Kind: KindQA, Values: []string{"general_legal_research", "factual_recall", "false_premise", "jurisdiction_time_specific"}, AskedWhen: is(QuestionValidity, "valid")},
	{Name: Persona, Kind: KindQA, Values: []string{"citizen", "civil_officer", "legal_expert"}, AskedWhen: is(QuestionValidity, "valid")},
	{Name: AnswerCorrectness, Kind: KindQA, Values: []string{"correct", "partially_correct", "incorrect"}, AskedWhen: is(QuestionValidity, "valid")},
	{Name: ClaimValidity, Kind: KindClaim, Values: []string{"correct", "incorrect"}, AskedWhen: always, TwoWay: true},
	{Name: Entailment, Kind: KindClaim, Values: []string{"entailment", "neutral", "contradiction"}, AskedWhen: is(ClaimValidity, "correct")},
}

// markerFields are answer-level markers stored as labels on a QA item but not
// asked on the QA screen: the claim flow sets them.
var markerFields = map[string]Field{
	MissedClaimsChecked: {Name: MissedClaimsChecked, Kind: KindQA, Values: []string{"checked", "added"}, AskedWhen: always},
	// An annotator-added claim stands while its claim_added label does, so undo
	// can take the addition back without deleting anything.
	ClaimAdded: {Name: ClaimAdded, Kind: KindClaim, Values: []string{"yes"}, AskedWhen: always},
}

// Fields returns the fields of a kind in the order they are asked.
func Fields(k Kind) []Field {
	var out []Field
	for _, f := range fields {
		if f.Kind == k {
			out = append(out, f)
		}
	}
	return out
}

// AllFields returns every asked field of every kind, in table order.
func AllFields() []Field { return append([]Field(nil), fields...) }

// Lookup finds a field (asked or marker) by name.
func Lookup(name string) (Field, bool) {
	for _, f := range fields {
		if f.Name == name {
			return f, true
		}
	}
	f, ok := markerFields[name]
	return f, ok
}

// FieldNames lists the names of the asked fields, for error messages and completion.
func FieldNames() []string {
	out := make([]string, len(fields))
	for i, f := range fields {
		out[i] = f.Name
	}
	return out
}

// Asked reports whether field applies to an item with the given current labels.
func Asked(field string, current map[string]string) bool {
	f, ok := Lookup(field)
	return ok && f.AskedWhen(current)
}

// NextField returns the first asked field of kind k that has no label yet, or
// "" when the item is complete.
func NextField(k Kind, current map[string]string) string {
	for _, f := range fields {
		if f.Kind == k && f.AskedWhen(current) && current[f.Name] == "" {
			return f.Name
		}
	}
	return ""
}

// Complete reports whether every asked field of the item has a label.
func Complete(k Kind, current map[string]string) bool { return NextField(k, current) == "" }

// Counted filters current labels down to the fields that are asked (and to
// markers), dropping e.g. a persona left over from when the question was valid.
func Counted(k Kind, current map[string]string) map[string]string {
	out := make(map[string]string, len(current))
	for name, v := range current {
		if f, ok := Lookup(name); ok && f.Kind == k && f.AskedWhen(current) {
			out[name] = v
		}
	}
	return out
}

// Normalize maps a label string to its canonical form: case-insensitive, with
// spaces and hyphens read as underscores ("Partially Correct" ->
// "partially_correct"). known is false when the result is not a value of the
// field; the value is then returned verbatim (trimmed) to be kept as is.
func Normalize(field, value string) (canonical string, known bool) {
	v := strings.TrimSpace(value)
	norm := strings.ToLower(strings.NewReplacer(" ", "_", "-", "_").Replace(v))
	f, ok := Lookup(field)
	if !ok {
		return v, false
	}
	for _, c := range f.Values {
		if c == norm {
			return c, true
		}
	}
	return v, false
}

// KnownValue reports whether value is a canonical value of field.
func KnownValue(field, value string) bool {
	f, ok := Lookup(field)
	if !ok {
		return false
	}
	for _, c := range f.Values {
		if c == value {
			return true
		}
	}
	return false
}

// CheckField returns an error naming the known fields when name is not one.
func CheckField(name string) error {
	if _, ok := Lookup(name); ok {
		return nil
	}
	return fmt.Errorf("unknown field %q (known: %s)", name, strings.Join(FieldNames(), ", "))
}
