package report

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"strings"
	"testing"

	"github.com/annotate-dev/annotate/store"
	"github.com/annotate-dev/annotate/store/storetest"
)

func openStore(t testing.TB) *store.Store { return storetest.Open(t) }

// builder seeds a store through the import transaction, as the importer
// does; it keeps the first error so a failing seed says where.
type builder struct {
	tx  *store.Tx
	err error
	ids map[string]int64
}

func seed(t testing.TB, s *store.Store, fn func(b *builder)) {
	t.Helper()
	err := s.Import(func(tx *store.Tx) error {
		b := &builder{tx: tx, ids: map[string]int64{}}
		fn(b)
		return b.err
	})
	if err != nil {
		t.Fatal(err)
	}
}

func (b *builder) fail(err error, what string) {
	if err != nil && b.err == nil {
		b.err = fmt.Errorf("%s: %w", what, err)
	}
}

// qa adds a QA pair of a source (its language: lower-case source name's
// first two letters are not guessed, pass it) with a generated category.
func (b *builder) qa(id, source, lang, category string) {
	q := store.QAPair{ID: id, Source: source, Language: lang, Question: "Q " + id + "?", Answer: "A " + id + ".",
		Category: category, Contexts: []store.Context{{ID: "ctx-" + id, Text: "context of " + id}}}
	item, _, err := b.tx.PutQA(q, "h-"+id, "test", false)
	b.fail(err, "qa "+id)
	b.ids[id] = item
}

// claim adds an extracted claim with optional predictions (system=value).
func (b *builder) claim(qa, id string, preds map[string]string) {
	c := store.Claim{ID: id, QAID: qa, Triplet: [3]string{"s " + id, "p", "o"}, Predictions: preds}
	item, _, err := b.tx.PutClaim(c, "h-"+id, "test", false)
	b.fail(err, "claim "+id)
	b.ids[id] = item
}

// added adds a claim the annotator added to an answer, with its claim_added label.
func (b *builder) added(qa, id, who string) {
	c := store.Claim{ID: id, QAID: qa, Triplet: [3]string{"s " + id, "p", "o"}, Origin: store.OriginAnnotator, AddedBy: who}
	item, _, err := b.tx.PutClaim(c, "h-"+id, "test", false)
	b.fail(err, "added claim "+id)
	b.ids[id] = item
	b.label(who, id, "claim_added", "yes")
}

func (b *builder) label(who, item, field, value string) {
	id, ok := b.ids[item]
	if !ok {
		b.fail(fmt.Errorf("unknown item"), item)
		return
	}
	_, err := b.tx.PutLabel(store.Label{Annotator: who, ItemID: id, Field: field, Value: value})
	b.fail(err, fmt.Sprintf("label %s %s %s=%s", who, item, field, value))
}

func (b *builder) adjudicate(who, item, field, value string) {
	_, err := b.tx.PutLabel(store.Label{Annotator: who, ItemID: b.ids[item], Field: field, Value: value, Adjudicate: true})
	b.fail(err, "adjudicate "+item)
}

// labels sets several fields of one item: "field=value" pairs.
func (b *builder) labels(who, item string, kv ...string) {
	for _, p := range kv {
		f, v, _ := strings.Cut(p, "=")
		b.label(who, item, f, v)
	}
}

// near checks a statistic; a nil one (nothing to count) is never near.
func near[T float64 | *float64](t *testing.T, name string, value T, want, tol float64) {
	t.Helper()
	var got float64
	switch v := any(value).(type) {
	case float64:
		got = v
	case *float64:
		if v == nil {
			t.Errorf("%s = null, want %.10g", name, want)
			return
		}
		got = *v
	}
	if math.IsNaN(got) || math.Abs(got-want) > tol {
		t.Errorf("%s = %.10g, want %.10g (±%g)", name, got, want, tol)
	}
}

// render returns a report's text output: render(t, rep.WriteText).
func render(t *testing.T, write func(io.Writer) error) string {
	t.Helper()
	var buf bytes.Buffer
	if err := write(&buf); err != nil {
		t.Fatal(err)
	}
	return buf.String()
}

// lineFields finds the first line starting with prefix (after indentation)
// and returns its whitespace-separated fields after the prefix.
func lineFields(t *testing.T, out, prefix string) []string {
	t.Helper()
	for _, line := range strings.Split(out, "\n") {
		if rest, ok := strings.CutPrefix(strings.TrimSpace(line), prefix); ok {
			return strings.Fields(rest)
		}
	}
	t.Fatalf("no line starting with %q in\n%s", prefix, out)
	return nil
}

// jsonMap round-trips a report through encoding/json.
func jsonMap(t *testing.T, v any) map[string]any {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	return m
}
