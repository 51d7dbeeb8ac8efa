package exporter

import (
	"encoding/json"
	"strings"
	"testing"
)

// The remembered cells are those of the array given, whatever came before:
// a pair's contexts repeated, another pair's, the first again, an empty
// array, a bad one (an error, and the next good one still right). The cells
// are written by hand from the rule: ids one a line, texts a blank line
// apart.
func TestCSVContextsCells(t *testing.T) {
	a := `[{"id":"ctx-0","text":"Paragraph 0."},{"id":"ctx-1","text":"Line\nbreak, \"quoted\"."}]`
	b := `[{"id":"p9","text":"Art. 9"}]`
	var m csvContexts
	for i, c := range []struct {
		raw, ids, texts string
		bad             bool
	}{
		{raw: a, ids: "ctx-0\nctx-1", texts: "Paragraph 0.\n\nLine\nbreak, \"quoted\"."},
		{raw: a, ids: "ctx-0\nctx-1", texts: "Paragraph 0.\n\nLine\nbreak, \"quoted\"."},
		{raw: b, ids: "p9", texts: "Art. 9"},
		{raw: a, ids: "ctx-0\nctx-1", texts: "Paragraph 0.\n\nLine\nbreak, \"quoted\"."},
		{raw: `[]`, ids: "", texts: ""},
		{raw: `[{"id":`, bad: true},
		{raw: b, ids: "p9", texts: "Art. 9"},
	} {
		ids, texts, err := m.cells(json.RawMessage(c.raw))
		if c.bad {
			if err == nil {
				t.Errorf("%d: %s: no error", i, c.raw)
			}
			continue
		}
		if err != nil || ids != c.ids || texts != c.texts {
			t.Errorf("%d: %q, %q, %v; want %q, %q", i, ids, texts, err, c.ids, c.texts)
		}
	}
}

// The plain reading gives encoding/json's cells (the reference) on every
// array it accepts, and accepts the arrays SQLite writes without escapes;
// escapes, invalid UTF-8 and other shapes go to encoding/json.
func TestPlainContextCellsIsJSON(t *testing.T) {
	for _, c := range []struct {
		raw    string
		accept bool
	}{
		{`[]`, true},
		{`[{"id":"ctx-0","text":"Paragraph 0."}]`, true},
		{`[{"id":"a","text":"x, y"},{"id":"b","text":"« loi » — é 🧑‍⚖️"},{"id":"","text":""}]`, true},
		{`[{"id":"a","text":"line\nbreak"}]`, false},
		{`[{"id":"a","text":"q\"uote"}]`, false},
		{`[{"id":"a","text":"bad ` + "\xff" + `"}]`, false},
		{`[{"id":"a","text":"x"},]`, false},
		{`[{"text":"x","id":"a"}]`, false},
		{`[ {"id":"a","text":"x"} ]`, false},
		{`[{"id":"a","text":"x","extra":"y"}]`, false},
	} {
		ids, texts, ok := plainContextCells(c.raw)
		if ok != c.accept {
			t.Errorf("%s: accepted %v, want %v", c.raw, ok, c.accept)
		}
		if !ok {
			continue
		}
		var ctx []struct{ ID, Text string }
		if err := json.Unmarshal([]byte(c.raw), &ctx); err != nil {
			t.Fatalf("%s: %v", c.raw, err)
		}
		var wantIDs, wantTexts []string
		for _, x := range ctx {
			wantIDs, wantTexts = append(wantIDs, x.ID), append(wantTexts, x.Text)
		}
		if ids != strings.Join(wantIDs, "\n") || texts != strings.Join(wantTexts, "\n\n") {
			t.Errorf("%s: %q %q, encoding/json %q %q", c.raw, ids, texts, wantIDs, wantTexts)
		}
	}
}
