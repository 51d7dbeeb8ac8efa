package report

import (
	"bytes"
	"encoding/json"
	"io"
	"math"
	"strings"
	"testing"

	"github.com/annotate-dev/annotate/store"
	"github.com/annotate-dev/annotate/store/storetest"
)

func openStore(t testing.TB) *store.Store { return storetest.Open(t) }

// builder is storetest's fixture builder; seed runs it.
type builder = storetest.Builder

func seed(t testing.TB, s *store.Store, fn func(b *builder)) { storetest.Seed(t, s, fn) }

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
