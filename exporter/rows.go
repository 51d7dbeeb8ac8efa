package exporter

import (
	"database/sql"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/annotate-dev/annotate/schema"
	"github.com/annotate-dev/annotate/store"
)

// A published row is an ordered list of values described by a column table.
// The same table feeds the JSON Lines writer (one object per line, keys in
// table order), the CSV writer (nested values flattened) and the dataset
// card's field description, so the three cannot drift apart.

// Column types, as a reader of the dataset sees them.
const (
	tString   = "string"
	tInt      = "int"
	tFloat    = "float"
	tStrings  = "list of strings"
	tContexts = "list of {id: string, text: string}"
	tPreds    = "object: system -> string or null"
)

type column struct {
	key      string
	typ      string
	nullable bool // null is a value of this key; every other key is never null
	doc      string
}

// Values of a row, in the order of its columns: string, int, nil (null),
// json.RawMessage (already JSON), []string, or preds.
type row []any

// preds is the predictions object: one key per system present in the data,
// null when that system has no prediction for the claim.
type preds struct {
	systems []string
	values  []*string
}

var qaBase = []column{
	{"id", tString, false, "QA pair id"},
	{"source", tString, false, "legal source, e.g. GDPR or CIVIL"},
	{"language", tString, false, "language of the pair (ISO 639-1)"},
	{"jurisdiction", tString, false, "jurisdiction of the source (empty when not recorded)"},
	{"hop", tString, false, "`single` or `multi` (several context units)"},
	{"question", tString, false, "generated question"},
	{"answer", tString, false, "generated answer"},
	{"rationale", tString, false, "generator's rationale (empty when none)"},
	{"generated_category", tString, false, "category assigned by the generator (empty when none); the expert's is `category`"},
	{"contexts", tContexts, false, "the context unit(s) the pair was generated from, in order"},
	{"claim_ids", tStrings, false, "ids of the pair's claims in the claims config, in answer order"},
	{"annotator", tString, false, "whose labels this row carries: an annotator name, or `adjudicated`"},
}

var claimBase = []column{
	{"id", tString, false, "claim id"},
	{"qa_id", tString, false, "id of the QA pair whose answer the claim comes from"},
	{"source", tString, false, "legal source"},
	{"language", tString, false, "language (ISO 639-1)"},
	{"position", tInt, false, "order of the claim in its answer"},
	{"triplet", tStrings, true, "⟨subject, predicate, object⟩; null for a sub-sentence (text) claim"},
	{"text", tString, true, "sub-sentence claim; null for a triplet claim"},
	{"origin", tString, false, "`extracted` (by the claim extractor) or `annotator` (added by the expert because the extractor missed it)"},
	{"added_by", tString, true, "annotator who added the claim; null for extracted claims"},
	{"question", tString, false, "question of the QA pair"},
	{"answer", tString, false, "answer the claim was extracted from"},
	{"contexts", tContexts, false, "the pair's context unit(s) the claim is judged against"},
	{"predictions", tPreds, true, "system predictions (e.g. RefChecker's entailment/neutral/contradiction), one key per system present in the dataset, null when that system has no prediction; the whole object is null when the dataset has no predictions"},
	{"annotator", tString, false, "whose labels this row carries: an annotator name, or `adjudicated`"},
}

// fieldDocs says what a label means; the asked-when rule is the schema's (docs/metrics.md).
var fieldDocs = map[string]string{
	schema.QuestionValidity:    "does the question make sense (domain) and is it understandable (linguistic)",
	schema.InvalidReason:       "why the question is invalid; only for invalid questions",
	schema.Category:            "question category confirmed or corrected by the expert; only for valid questions",
	schema.Persona:             "who would ask the question; only for valid questions",
	schema.AnswerCorrectness:   "is the answer correct; only for valid questions",
	schema.MissedClaimsChecked: "the expert checked the answer for claims the extractor missed: `checked` (none missed) or `added` (see claims with origin `annotator`); null when not checked",
	schema.ClaimValidity:       "has the claim all required elements, is it coherent and meaningful",
	schema.Entailment:          "relation of the claim to its context unit(s); only for correct claims",
}

var notesColumn = column{"notes", tString, true, "the annotator's free-text note on the item (with `adjudicated`: every annotator's, one `name: note` per line); null when none"}

// labelColumns are the expert's fields of a kind from the label schema, so a
// field added there is exported without touching this file.
func labelColumns(k schema.Kind) []column {
	var out []column
	names := []string{}
	for _, f := range schema.Fields(k) {
		names = append(names, f.Name)
	}
	if k == schema.KindQA {
		names = append(names, schema.MissedClaimsChecked)
	}
	for _, n := range names {
		f, _ := schema.Lookup(n)
		doc := fieldDocs[n]
		typ := tString
		switch {
		case f.Multi:
			typ = tStrings
			doc += "; null when not labelled or not asked"
		case len(f.Values) == 0:
			doc += "; null when not labelled"
		case n != schema.MissedClaimsChecked:
			doc = fmt.Sprintf("%s: `%s`; null when not labelled or not asked", doc, strings.Join(f.Values, "`, `"))
		}
		out = append(out, column{n, typ, true, doc})
	}
	return out
}

func labelNames(cols []column) []string {
	out := make([]string, len(cols))
	for i, c := range cols {
		out[i] = c.key
	}
	return out
}

// layout is the column table of one config for one export.
type layout struct {
	kind      schema.Kind
	cols      []column
	labels    []column // the label part of cols
	notes     bool
	suggested bool // the suggested_by column, last (suggested.go)
}

func newLayout(k schema.Kind, notes bool) layout {
	base := qaBase
	switch x, ok := exportOf(k); {
	case k == schema.KindClaim:
		base = claimBase
	case ok && schema.SpecOf(k).Annotated:
		base = append(append([]column{}, x.base...), annotatorColumn)
	case ok: // shown, not annotated: no labels, no annotator
		base = x.base
	}
	l := layout{kind: k, labels: labelColumns(k), notes: notes}
	l.cols = append(append([]column{}, base...), l.labels...)
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
		if v, ok := counted[c.key]; ok && c.typ == tStrings {
			r = append(r, schema.DecodeMulti(v))
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

func (l layout) qaRow(q *store.ExportQA, who string) row {
	r := make(row, 0, len(l.cols))
	lang := q.Language
	if lang == "" {
		lang = q.SourceLanguage
	}
	r = append(r, q.ID, q.Source, lang, q.Jurisdiction, q.Hop, q.Question, q.Answer, q.Rationale, q.Category,
		q.ContextsJSON, q.ClaimIDs, who)
	r = l.labelValues(r, q.Labels, nil)
	return l.suggestedValue(l.noteValue(r, q.Note), q.Suggested)
}

func (l layout) claimRow(c *store.ExportClaim, systems []string, who string) row {
	r := make(row, 0, len(l.cols))
	var triplet, text any = []string{c.Triplet[0], c.Triplet[1], c.Triplet[2]}, nil
	if !c.IsTriplet() {
		triplet, text = nil, c.Text
	}
	var addedBy any
	if c.AddedBy != "" {
		addedBy = c.AddedBy
	}
	var p any // null when the dataset has no predictions at all
	if len(systems) > 0 {
		pv := preds{systems: systems, values: make([]*string, len(systems))}
		for i, v := range c.Preds {
			if v.Valid {
				pv.values[i] = &v.String
			}
		}
		p = pv
	}
	r = append(r, c.ID, c.QAID, c.Source, c.Language, c.Position, triplet, text, c.Origin, addedBy,
		c.Question, c.Answer, c.ContextsJSON, p, who)
	r = l.labelValues(r, c.Labels, c.PairLabels)
	return l.suggestedValue(l.noteValue(r, c.Note), c.Suggested)
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
		b = appendString(b, c.key)
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

const hexDigits = "0123456789abcdef"

// appendString writes s as a JSON string. The store holds valid UTF-8 (the
// importer refuses anything else), so only quotes, backslashes and control
// characters need escaping; U+2028/U+2029 are escaped too so a line stays
// one line for JavaScript readers.
func appendString(b []byte, s string) []byte {
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= 0x20 && c != '"' && c != '\\' && c != 0xe2 {
			continue
		}
		if c == 0xe2 { // possible U+2028 / U+2029 (e2 80 a8 / e2 80 a9)
			if i+2 < len(s) && s[i+1] == 0x80 && (s[i+2] == 0xa8 || s[i+2] == 0xa9) {
				b = append(b, s[start:i]...)
				b = append(b, `\u202`...)
				b = append(b, hexDigits[s[i+2]&0xf])
				i += 2
				start = i + 1
			}
			continue
		}
		b = append(b, s[start:i]...)
		switch c {
		case '"', '\\':
			b = append(b, '\\', c)
		case '\n':
			b = append(b, '\\', 'n')
		case '\r':
			b = append(b, '\\', 'r')
		case '\t':
			b = append(b, '\\', 't')
		default:
			b = append(b, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xf])
		}
		start = i + 1
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}
