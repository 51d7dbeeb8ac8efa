package importer

import (
	"crypto/sha256"
	"encoding/hex"
	"sort"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"github.com/annotate-dev/annotate/internal/names"
	"github.com/annotate-dev/annotate/schema"
	"github.com/annotate-dev/annotate/store"
)

// Every format is parsed, one record at a time, into these records, which
// go to a sink: the import in progress (import.go), or a test's list.

type labelRec struct {
	at        loc
	field     string // names the label in errors
	itemField string // names the item reference in errors
	annotator string
	// who names where the annotator's name was read, in errors (the key
	// "annotator", "labels", "completed_by"…); "": field.
	who   string
	item  string // ext id
	name  string // label field
	value string // normalised, or verbatim when unknown
	// adjudicate marks a lead's final label (labels JSONL "role":"adjudicate").
	adjudicate bool
	// suggestedBy names the system whose prediction was preselected when
	// the label was made (labels JSONL "suggested_by"); "": blind.
	suggestedBy string
	// prediction: annotator is a system and value its prediction (Label
	// Studio's predictions), kept beside the system's others.
	prediction bool
}

// whoField names where the annotator's name was read.
func (l *labelRec) whoField() string {
	if l.who != "" {
		return l.who
	}
	return l.field
}

// kindRow is a record of a kind of records of its own (kinds_rows.go: a QA
// pair, a claim); its kind's file says what the import does with it.
type kindRow interface {
	write(w *writer, f *fileData) error
}

// sink takes the records of a file as they are parsed.
type sink interface {
	row(f *fileData, r kindRow) error
	label(f *fileData, l *labelRec) error
	item(f *fileData, it *itemRec) error
}

// fileData is one file being parsed.
type fileData struct {
	idx    int // in the import
	in     *input
	name   string
	format string
	opt    Options
	sum    *FileSummary
	out    sink
	// pendingRAG is the RAGChecker result of the pair addRAGPair adds.
	pendingRAG *store.RAGResult
}

func newFile(idx int, in *input, format string, opt Options, out sink) *fileData {
	return &fileData{idx: idx, in: in, name: in.name, format: format, opt: opt, out: out,
		sum: &FileSummary{File: in.name, Format: format}}
}

// printable refuses an id or a name with a control character, which would
// reach the terminal through every report (docs/formats.md).
func printable(at loc, field, what, s string) error {
	for i, r := range s {
		if unicode.IsControl(r) || isBidiControl(r) || r == '\u2028' || r == '\u2029' {
			return at.errf(field, "%s %q has the control character %U at character %d: ids and names must be printable",
				what, s, r, utf8.RuneCountInString(s[:i])+1)
		}
	}
	return nil
}

// isBidiControl reports the characters that reorder text on a terminal.
func isBidiControl(r rune) bool {
	return (r >= '\u202a' && r <= '\u202e') || (r >= '\u2066' && r <= '\u2069') || r == '\u061c'
}

// addLabel validates and normalises one label of kind k ("" for any). An
// empty value is no decision and is skipped; an unknown value is kept
// verbatim and counted.
func (f *fileData) addLabel(l labelRec, k schema.Kind) error {
	if err := checkField(l.name); err != nil {
		return l.at.errf(l.field, "%v", err)
	}
	if fd, _ := lookupField(l.name); k != "" && fd.Kind != k {
		return l.at.errf(l.field, "%s is a field of %s, not of %s", l.name, kindName(fd.Kind), kindName(k))
	}
	if l.annotator == "" {
		return l.at.errf(l.whoField(), "no annotator name")
	}
	if !l.prediction { // a prediction's "annotator" is a system
		if err := names.Check(l.annotator); err != nil {
			return l.at.errf(l.whoField(), "the annotator's name: %v", err)
		}
	}
	if err := printable(l.at, l.itemField, "the item id", l.item); err != nil {
		return err
	}
	v, known := normalize(l.name, l.value)
	if v == "" {
		return nil
	}
	if !known {
		f.sum.count(&f.sum.UnknownValues, l.name, v)
	}
	l.value = v
	return f.out.label(f, &l)
}

func (f *fileData) unknownKeys(prefix string, keys []string) {
	for _, k := range keys {
		f.sum.countKey(prefix + k)
	}
}

// itemRest reads what a native item's line holds beyond its own fields:
// the labels under "labels" (annotator -> field -> value, of kind k, on the
// item of that id), "kind", and unknown keys, counted for the summary and
// returned as JSON to keep with the item.
func (f *fileData) itemRest(r *rec, id string, k schema.Kind) (extra string, err error) {
	labels := r.has("labels")
	r.get("kind")
	keys, extra := r.unknown()
	f.unknownKeys("", keys)
	if labels {
		err = f.labelsObject(r, "labels", id, "id", k)
	}
	return extra, err
}

// labelsObject reads an item's own labels: {"annotator": {"field": "value"}}.
func (f *fileData) labelsObject(r *rec, key, item, itemField string, k schema.Kind) error {
	obj, err := r.object(key)
	if err != nil || obj == nil {
		return err
	}
	for _, who := range sortedKeys(obj) {
		fields, err := r.sub(key+"."+who, obj[who])
		if err != nil {
			return err
		}
		names := sortedKeys(fields.m)
		sort.SliceStable(names, func(i, j int) bool { return fieldOrder(names[i]) < fieldOrder(names[j]) })
		for _, name := range names {
			v, err := fields.labelValue(name, name)
			if err != nil {
				return err
			}
			l := labelRec{at: r.at, field: fields.path + name, itemField: itemField, annotator: who, who: key + "." + who, item: item, name: name, value: v}
			if err := f.addLabel(l, k); err != nil {
				return err
			}
		}
	}
	return nil
}

// fieldOrder sorts labels in the order the TUI asks them, so the imported
// event log reads like an annotation session.
func fieldOrder(name string) int {
	orderOnce.Do(func() {
		order = map[string]int{}
		for i, f := range schema.AllFields() {
			order[f.Name] = i
		}
	})
	if i, ok := order[name]; ok {
		return i
	}
	return len(order)
}

var (
	orderOnce sync.Once
	order     map[string]int
)

func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// The content hash covers what the item is, not its labels: re-importing an
// identical item is a no-op, a changed one needs --update. JSON of a struct
// (fixed field order) and of maps (sorted keys) is a canonical encoding.
// Predictions of a pair are left out when it has none, so the hashes of
// pairs imported before pairs had predictions stay the same.

func hash(v any) string {
	h := sha256.New()
	h.Write([]byte("annotate-item-v1\n"))
	writeJSON(h, v)
	return hex.EncodeToString(h.Sum(nil))
}

// textHash identifies a context unit's text in the ids seen by an import.
func textHash(s string) string {
	h := sha256.New()
	writeString(h, s)
	return hex.EncodeToString(h.Sum(nil)[:16])
}

// baseName is a file name without directory and extension: the prefix of ids
// of formats that number their records per file.
func baseName(name string) string {
	name = name[strings.LastIndexAny(name, `/\`)+1:]
	if i := strings.LastIndexByte(name, '.'); i > 0 {
		name = name[:i]
	}
	return name
}
