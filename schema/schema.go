// Package schema is the label schema (docs/formats.md, docs/metrics.md): the item kinds, their fields,
// the values of each field and the "asked when" rule that decides which fields
// apply to an item given the labels it already has. Every other package (store,
// importer, TUI, reports, export) asks this one.
//
// Kinds are data: each kind is described once, in a file of its own (qa.go,
// claim.go, ...), and registered here; generic code walks the registry and
// never names a kind.
package schema

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/annotate-dev/annotate/internal/suggest"
)

// Kind is an item kind.
type Kind string

// Field describes one labelled field of a kind.
type Field struct {
	Name   string
	Kind   Kind
	Values []string // canonical values; key 1 picks Values[0]; none: free text
	// AskedIf lists conditions on the item's earlier fields; the field is
	// asked when any holds (none: always). Only counted labels are read, so
	// a field whose condition was asked for and later dropped is not asked.
	AskedIf []Cond
	// TwoWay fields answer y (Values[0]) / n (Values[1]).
	TwoWay bool
	// Marker fields are set by a step of the flow (not asked field by field)
	// and never make an item incomplete.
	Marker bool
	// Multi fields hold several values, as a JSON array (error categories).
	Multi bool
	// Synonyms maps other spellings (already lower-cased, with spaces,
	// hyphens and slashes as underscores) to a canonical value: the papers'
	// and tools' own words.
	Synonyms map[string]string
	// Role is who answers the field: "" an annotator, RoleLead the lead
	// reviewing other people's work.
	Role string
	// Scale is the level of measurement of the values (scale.go): the
	// zero Scale is nominal (text without values); an ordinal field ranks
	// its Values in their order.
	Scale Scale

	// Question is what the field card asks ("Is the answer correct?").
	Question string
	// Keys are the keys that pick each value, in the order of Values (a
	// digit 1 to 9); nil: 1, 2, 3… in that order.
	Keys []string
	// Labels and Meanings say each value in words, in the order of Values
	// (the field card, the guidelines, the dataset card); nil or "": the
	// value is its own label.
	Labels, Meanings []string
	// Optional fields are asked in their place but never leave an item
	// unfinished (a declaration's required: false).
	Optional bool
	// Declared is the version of the lead's declaration the field comes
	// from (annotate fields add, declared.go); 0 for a field built in.
	Declared int
	// DeclaredGuidelines is the version of a declared field's guidelines
	// its declaration left in force (the dataset card names it).
	DeclaredGuidelines int
	// French holds the declaration's texts in French, nil when it gave
	// none (built-in fields are translated by the program's catalog).
	French *FrenchTexts
	// after is the field it was declared after (registry.go's declare).
	after string
}

// KeyOf is the key that picks the i-th value.
func (f Field) KeyOf(i int) string {
	if i < len(f.Keys) {
		return f.Keys[i]
	}
	return strconv.Itoa(i + 1)
}

// ValueOfKey is the value the n-th option key (1 to 9) picks.
func (f Field) ValueOfKey(n int) (string, bool) {
	k := strconv.Itoa(n)
	for i, v := range f.Values {
		if f.KeyOf(i) == k {
			return v, true
		}
	}
	return "", false
}

// LabelOf is a value in words: its declared label, else the value.
func (f Field) LabelOf(value string) string {
	if i := slices.Index(f.Values, value); i >= 0 && i < len(f.Labels) && f.Labels[i] != "" {
		return f.Labels[i]
	}
	return value
}

// MeaningOf is what a value means, as declared ("" : not said).
func (f Field) MeaningOf(value string) string {
	if i := slices.Index(f.Values, value); i >= 0 && i < len(f.Meanings) {
		return f.Meanings[i]
	}
	return ""
}

// RoleLead marks fields only the lead answers (e.g. the review of a gold answer).
const RoleLead = "lead"

// Cond holds when the field has one of the values.
type Cond struct {
	Field  string
	Values []string
}

func (c Cond) holds(labels map[string]string) bool {
	v, ok := labels[c.Field]
	return ok && slices.Contains(c.Values, v)
}

// Spec describes a kind.
type Spec struct {
	Kind  Kind
	Order int    // queue order among kinds (QA pairs before claims)
	Title string // plural, for screens and reports: "QA pairs"
	Noun  string // one of them, in running text: "QA pair", "query"
	// Parent is the kind of the item's parent (a claim's QA pair), "" none.
	Parent Kind
	// Fields in the order they are asked, then markers.
	Fields []Field
	// UnlessParent: the item asks nothing when one of these holds on the
	// parent's counted labels by the same rater (ClaimRAG-LAW §A.3: claims
	// are validated only for answers judged correct).
	UnlessParent []Cond
	// OnlyOnceParent: the item is asked of a rater only once one of these
	// holds on the parent's counted labels by that rater (a claim once its
	// answer was judged correct), unless the parent is not under review
	// (imported as given, or the item is in a batch that asks at once).
	OnlyOnceParent []Cond
	// Annotated kinds have queues, batches and screens; others (documents)
	// are only shown.
	Annotated bool
	// Guidelines are the guidelines sections of the kind's own steps
	// beyond its fields (the claim's missed_claims), asked after them.
	Guidelines []string
}

// GuidelineSections lists the guidelines sections of every kind, in the
// order they are asked: each kind's fields, then its own steps. The store
// asks for them with every label it writes.
func GuidelineSections() []string { return slices.Clone(tab().sections) }

// Kinds lists the annotated kinds in queue order.
func Kinds() []Kind {
	var out []Kind
	for _, s := range specs() {
		if s.Annotated {
			out = append(out, s.Kind)
		}
	}
	return out
}

// AllKinds lists every kind, annotated or not, in order.
func AllKinds() []Kind {
	var out []Kind
	for _, s := range specs() {
		out = append(out, s.Kind)
	}
	return out
}

// specs are the kinds in queue order (read-only).
func specs() []*Spec { return tab().sorted }

// SpecOf returns a kind's description, nil for an unknown kind (read-only:
// the schema in force, which a declaration replaces whole).
func SpecOf(k Kind) *Spec { return tab().specs[k] }

// KindNames lists the annotated kinds' names, for flags and messages.
func KindNames() []string {
	var out []string
	for _, k := range Kinds() {
		out = append(out, string(k))
	}
	return out
}

// Children lists the kinds whose parent is k.
func Children(k Kind) []Kind {
	var out []Kind
	for _, s := range specs() {
		if s.Parent == k && k != "" {
			out = append(out, s.Kind)
		}
	}
	return out
}

// Fields returns the asked fields of a kind in the order they are asked.
func Fields(k Kind) []Field {
	s := SpecOf(k)
	if s == nil {
		return nil
	}
	var out []Field
	for _, f := range s.Fields {
		if !f.Marker {
			out = append(out, f)
		}
	}
	return out
}

// AllFields returns every asked field of every kind, in kind then table order.
func AllFields() []Field {
	var out []Field
	for _, s := range specs() {
		out = append(out, Fields(s.Kind)...)
	}
	return out
}

// KindFields returns every field of a kind, markers included, in order.
func KindFields(k Kind) []Field {
	if s := SpecOf(k); s != nil {
		return slices.Clone(s.Fields)
	}
	return nil
}

// Lookup finds a field (asked or marker) by name (a field's name is unique
// in the schema).
func Lookup(name string) (Field, bool) {
	at, ok := tab().byName[name]
	if !ok {
		return Field{}, false
	}
	return at.spec.Fields[at.i], true
}

// FieldNames lists the names of the asked fields, for error messages and completion.
func FieldNames() []string {
	var out []string
	for _, f := range AllFields() {
		out = append(out, f.Name)
	}
	return out
}

// AgreementFieldNames lists the fields `annotate agreement` reports: every
// asked field, and the markers whose agreement is measured (Compared: a
// graded pool's relevance_grade), in kind then table order.
func AgreementFieldNames() []string {
	var out []string
	for _, s := range specs() {
		for _, f := range s.Fields {
			if !f.Marker || f.Compared() {
				out = append(out, f.Name)
			}
		}
	}
	return out
}

// Counted applies the asked-when rule to one rater's current labels on an
// item (and on its parent, nil when the kind has none or it is unknown): it
// keeps the labels of fields that are asked, dropping e.g. a persona left
// over from when the question was valid, and every field of a claim whose
// answer was judged incorrect. Markers always count.
func Counted(k Kind, item, parent map[string]string) map[string]string {
	return ParentOf(k, parent).CountedItem(item)
}

// countedBy keeps the item's labels the asked-when rule counts, for a kind
// (nil: none) and whether its parent gates it.
func countedBy(s *Spec, item map[string]string, gated bool) map[string]string {
	out := make(map[string]string, len(item))
	if s == nil {
		return out
	}
	for _, f := range s.Fields {
		v, ok := item[f.Name]
		if !ok {
			continue
		}
		if f.Marker || (!gated && askedGiven(f, out)) {
			out[f.Name] = v
		}
	}
	return out
}

// askedGiven evaluates a field's own condition on the counted labels of the
// fields before it.
func askedGiven(f Field, counted map[string]string) bool {
	if len(f.AskedIf) == 0 {
		return true
	}
	for _, c := range f.AskedIf {
		if c.holds(counted) {
			return true
		}
	}
	return false
}

// ParentGate reports why an item of kind k asks nothing given its parent's
// labels ("answer_correctness=incorrect"), "" when it is asked.
func ParentGate(k Kind, parent map[string]string) string { return ParentOf(k, parent).Gate }

// WaitsForParent reports whether items of kind k are asked of a rater
// only once the rater's labels on their parent allow it (OnlyOnceParent).
func WaitsForParent(k Kind) bool {
	s := SpecOf(k)
	return s != nil && len(s.OnlyOnceParent) > 0
}

// Offered reports whether an item of kind k is asked of a rater whose labels
// on its parent are parent; atOnce when the parent is not under review for
// this rater (imported as given, or a batch that asks at once). When it is
// not, why: the parent gate ("answer_correctness=incorrect") or the
// condition still waited for ("answer_correctness unlabelled").
func Offered(k Kind, parent map[string]string, atOnce bool) (bool, string) {
	return ParentOf(k, parent).Offered(atOnce)
}

// NotAskedReason says why a label of field on the item is not counted:
// "answer_correctness=incorrect" (the parent gate), "claim_validity=incorrect"
// (the field's own condition), "claim_validity unlabelled"; "" when it counts.
func NotAskedReason(k Kind, field string, item, parent map[string]string) string {
	return ParentOf(k, parent).NotAskedReason(field, item)
}

func fieldOf(s *Spec, name string) (Field, bool) {
	for _, f := range s.Fields {
		if f.Name == name {
			return f, true
		}
	}
	return Field{}, false
}

// NextFieldOf returns the first asked field of kind k that has no label yet
// by this rater, or "" when the item is complete. parent holds the rater's
// labels on the parent item (nil when none).
func NextFieldOf(k Kind, item, parent map[string]string, role string) string {
	return ParentOf(k, parent).NextField(item, role)
}

// NextToAsk is the field a screen asks next of an annotator: NextField,
// where an optional field comes in its place unless passed says the
// annotator passed it on this visit.
func NextToAsk(k Kind, item map[string]string, passed func(field string) bool) string {
	if passed == nil {
		passed = func(string) bool { return false }
	}
	return ParentOf(k, nil).next(item, "", passed)
}

// NextField is NextFieldOf for an annotator, without the parent's labels.
func NextField(k Kind, item map[string]string) string { return NextFieldOf(k, item, nil, "") }

// Complete reports whether every field asked of the annotator has a label.
func Complete(k Kind, item map[string]string) bool { return NextField(k, item) == "" }

// Asked reports whether field applies to an item with the given labels.
func Asked(field string, item, parent map[string]string) bool {
	f, ok := Lookup(field)
	if !ok {
		return false
	}
	_, counts := Counted(f.Kind, withField(item, field), parent)[field]
	return counts
}

func withField(m map[string]string, field string) map[string]string {
	if _, ok := m[field]; ok {
		return m
	}
	c := make(map[string]string, len(m)+1)
	for k, v := range m {
		c[k] = v
	}
	c[field] = "\x00probe"
	return c
}

// Normalize maps a label string to its canonical form: case-insensitive, with
// spaces, hyphens and slashes read as underscores ("Partially Correct" ->
// "partially_correct", "Jurisdiction/time-specific" ->
// "jurisdiction_time_specific"), and the field's synonyms ("entailed" ->
// "entailment"). known is false when the result is not a value of the field;
// the value is then returned verbatim (trimmed) to be kept as is.
func Normalize(field, value string) (canonical string, known bool) {
	v := strings.TrimSpace(value)
	f, ok := Lookup(field)
	if !ok {
		return v, false
	}
	return NormalizeFor(f, v)
}

// underscores reads spaces, hyphens and slashes as underscores (a Replacer
// is safe to share, and building one a label cost more than the rest).
var underscores = strings.NewReplacer(" ", "_", "-", "_", "/", "_")

// NormalizeFor is Normalize for a field already looked up.
func NormalizeFor(f Field, value string) (string, bool) {
	if f.Multi {
		return normalizeMulti(f, value)
	}
	v := strings.TrimSpace(value)
	if len(f.Values) == 0 {
		return v, true // free text (gold_answer): any text is a value
	}
	norm := strings.ToLower(underscores.Replace(v))
	for strings.Contains(norm, "__") {
		norm = strings.ReplaceAll(norm, "__", "_")
	}
	if slices.Contains(f.Values, norm) {
		return norm, true
	}
	if c, ok := f.Synonyms[norm]; ok {
		return c, true
	}
	if f.Level() == Interval {
		// A number is its value whatever its spelling: 4, 4.0 and 4e0 are
		// the declared "4" (a label file may write it as a JSON number).
		if x, err := strconv.ParseFloat(v, 64); err == nil {
			for _, d := range f.Values {
				if y, err := strconv.ParseFloat(d, 64); err == nil && x == y {
					return d, true
				}
			}
		}
	}
	return v, false
}

// KnownValue reports whether value is a canonical value of field.
func KnownValue(field, value string) bool {
	f, ok := Lookup(field)
	return ok && slices.Contains(f.Values, value)
}

// CheckField returns an error naming the known fields when name is not one.
func CheckField(name string) error {
	if _, ok := Lookup(name); ok {
		return nil
	}
	return fmt.Errorf("unknown field %q%s (known: %s)", name, suggest.Hint(name, FieldNames()), strings.Join(FieldNames(), ", "))
}

// AskedWhen evaluates the field's own condition on an item's labels (not
// the parent gate of its kind: see Counted).
func (f Field) AskedWhen(labels map[string]string) bool { return askedGiven(f, labels) }

// Count says n items of a kind in words: "1 query", "3 queries".
func Count(k Kind, n int) string {
	s := SpecOf(k)
	if s == nil {
		return fmt.Sprintf("%d %s", n, k)
	}
	if n == 1 {
		return fmt.Sprintf("%d %s", n, s.Noun)
	}
	title := s.Title
	if title != "" && !strings.HasPrefix(title, "QA") {
		title = strings.ToLower(title[:1]) + title[1:]
	}
	return fmt.Sprintf("%d %s", n, title)
}
