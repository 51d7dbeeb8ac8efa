package exporter

import (
	"encoding/json"
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
