package exporter

import (
	"database/sql"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"

	"github.com/annotate-dev/annotate/internal/jsontext"
	"github.com/annotate-dev/annotate/schema"
)

// A published row is an ordered list of values described by a column table.
// The same table feeds the JSON Lines writer (one object per line, keys in
// table order), the CSV writer (nested values flattened) and the dataset
// card's field description, so the three cannot drift apart.

// Column types, as a reader of the dataset sees them: the exported ones are
// those a kind's own columns may have; a list of contexts and the
// predictions object are the exporter's.
const (
	TypeString  = "string"
	TypeInt     = "int"
	TypeFloat   = "float"
	TypeBool    = "bool"
	TypeStrings = "list of strings"
	tContexts   = "list of {id: string, text: string}"
	tPreds      = "object: system -> string or null"
)

// Column is a column of a config: its key (the JSON key, the CSV header),
// its type (TypeString…), whether null is one of its values, and what the
// card says of it.
type Column struct {
	Key      string
	Type     string
	Nullable bool // null is a value of this key; every other key is never null
	Doc      string
}

// Values of a row, in the order of its columns: string, int, bool, nil (null),
// json.RawMessage (already JSON), []string, or preds.
type row []any

// preds is the predictions object: one key per system present in the data,
// null when that system has no prediction for the claim.
type preds struct {
	systems []string
	values  []*string
}

// fieldDocs says what a label means; the asked-when rule is the schema's (docs/metrics.md).
var fieldDocs = map[string]string{} // filled by the kinds' files

var notesColumn = Column{"notes", TypeString, true, "the annotator's free-text note on the item (with `adjudicated`: every annotator's, one `name: note` per line); null when none"}

// markersOf are the marker fields kind k publishes as label columns.
func markersOf(k schema.Kind) []string {
	x, _ := exportOf(k)
	if m, ok := x.(markerFields); ok {
		return m.markers()
	}
	return nil
}

// labelColumns are the expert's fields of a kind from the label schema, so a
// field added there is exported without touching this file.
func labelColumns(k schema.Kind) []Column {
	var out []Column
	names := []string{}
	for _, f := range schema.Fields(k) {
		names = append(names, f.Name)
	}
	markers := markersOf(k)
	names = append(names, markers...)
	for _, n := range names {
		f, _ := schema.Lookup(n)
		doc := fieldDocs[n]
		if f.Declared > 0 {
			doc = declaredDoc(f)
		}
		typ := TypeString
		switch {
		case f.Level() == schema.Interval:
			typ = numberType(f)
			doc += "; null when not labelled or not asked"
		case f.Multi:
			typ = TypeStrings
			doc += "; null when not labelled or not asked"
		case len(f.Values) == 0:
			doc += "; null when not labelled"
		default: // the card's type column lists a closed field's values (card.go, fields)
			if !slices.Contains(markers, n) { // a marker's doc says when it is null
				doc += "; null when not labelled or not asked"
			}
		}
		out = append(out, Column{n, typ, true, doc})
	}
	return out
}

func labelNames(cols []Column) []string {
	out := make([]string, len(cols))
	for i, c := range cols {
		out[i] = c.Key
	}
	return out
}

// layout is the column table of one config for one export.
type layout struct {
	kind      schema.Kind
	cols      []Column
	labels    []Column // the label part of cols
	notes     bool
	suggested bool // the suggested_by column, last (suggested.go)
}

func newLayout(k schema.Kind, notes bool) layout {
	var base []Column
	switch x, ok := exportOf(k); {
	case ok && schema.SpecOf(k).Annotated:
		base = append(append([]Column{}, x.Columns()...), annotatorColumn)
	case ok: // shown, not annotated: no labels, no annotator
		base = x.Columns()
	}
	l := layout{kind: k, labels: labelColumns(k), notes: notes}
	l.cols = append(append([]Column{}, base...), l.labels...)
	if notes {
		l.cols = append(l.cols, notesColumn)
	}
	return l
}

// labelOffset is the index of the first label column.
func (l layout) labelOffset() int {
	n := len(l.cols) - len(l.labels)
	if l.notes {
		n--
	}
	return n
}

// labelValues applies the asked-when rule (a persona of an invalid question
// is null even if an older label exists) and returns one value per label column.
func (l layout) labelValues(r row, current, parent map[string]string) row {
	counted := schema.Counted(l.kind, current, parent)
	for _, c := range l.labels {
		if v, ok := counted[c.Key]; ok && c.Type == TypeStrings {
			r = append(r, schema.DecodeMulti(v))
		} else if ok && (c.Type == TypeInt || c.Type == TypeFloat) {
			r = append(r, numberOf(c.Type, v))
		} else if ok {
			r = append(r, v)
		} else {
			r = append(r, nil)
		}
	}
	return r
}

func (l layout) noteValue(r row, n sql.NullString) row {
	if !l.notes {
		return r
	}
	if n.Valid {
		return append(r, n.String)
	}
	return append(r, nil)
}

// appendJSON writes a row as one JSON object, keys in column order. It is
// hand-written because it runs a million times on a large export and the
// values are few and simple.
func (l layout) appendJSON(b []byte, r row) []byte {
	b = append(b, '{')
	for i, c := range l.cols {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendString(b, c.Key)
		b = append(b, ':')
		b = appendValue(b, r[i])
	}
	return append(b, '}', '\n')
}

func appendValue(b []byte, v any) []byte {
	switch v := v.(type) {
	case nil:
		return append(b, "null"...)
	case string:
		return appendString(b, v)
	case bool:
		return strconv.AppendBool(b, v)
	case int:
		return fmt.Appendf(b, "%d", v)
	case float64:
		return strconv.AppendFloat(b, v, 'g', -1, 64)
	case json.RawMessage:
		return append(b, v...)
	case []string:
		b = append(b, '[')
		for i, s := range v {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendString(b, s)
		}
		return append(b, ']')
	case preds:
		b = append(b, '{')
		for i, sys := range v.systems {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendString(b, sys)
			b = append(b, ':')
			if v.values[i] == nil {
				b = append(b, "null"...)
			} else {
				b = appendString(b, *v.values[i])
			}
		}
		return append(b, '}')
	}
	panic(fmt.Sprintf("exporter: no JSON form for %T", v))
}

// appendString writes s as a JSON string, as an encoding/json Encoder
// without HTML escapes writes it (U+2028/U+2029 escaped, so a line stays one
// line for JavaScript readers).
func appendString(b []byte, s string) []byte { return jsontext.AppendStringNoHTML(b, s) }

// Values of a row: a string or null when empty, a list never null.

func orNull(s string) any {
	if s == "" {
		return nil
	}
	return s
}

func listOrNull(l []string, ok bool) any {
	if !ok {
		return nil
	}
	return nonNil(l)
}

func nonNil(l []string) []string {
	if l == nil {
		return []string{}
	}
	return slices.Clone(l)
}
