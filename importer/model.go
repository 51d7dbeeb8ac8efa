package importer

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"github.com/annotate-dev/annotate/schema"
	"github.com/annotate-dev/annotate/store"
)

// Every format is parsed, one record at a time, into these records, which
// go to a sink: the import in progress (import.go), or a test's list.

type pairRec struct {
	at        loc
	idField   string // the input key of the id, for errors
	q         store.QAPair
	hash      string
	secondary bool // a copy of a pair whose master is another file (ClaimRAG-LAW claims file)
	// says marks what the input says of the pair beyond its hash: a key it
	// does not carry (an hf row has no extra keys; a native line may leave
	// the language to its source) is no difference from the stored pair.
	says says
	// rag is the RAGChecker result whose response the pair is (refchecker.go).
	rag *store.RAGResult
}

// says is a set of the optional parts of a QA pair an input carries.
type says uint8

const (
	saysLanguage says = 1 << iota
	saysExtra
	saysPredictions
)

type claimRec struct {
	at      loc
	field   string // names the claim in errors, e.g. "claims[2]"
	idField string // names its id: "claims[2].id", "id", or the claim itself when the id is derived
	// pairField names the reference to the QA pair when it may be unknown
	// (a ClaimRAG-LAW claims record without the pair, an hf claim row).
	pairField string
	c         store.Claim
	hash      string
}

type labelRec struct {
	at        loc
	field     string // names the label in errors
	itemField string // names the item reference in errors
	annotator string
	item      string // ext id
	name      string // label field
	value     string // normalised, or verbatim when unknown
	// adjudicate marks a lead's final label (labels JSONL "role":"adjudicate").
	adjudicate bool
	// suggestedBy names the system whose prediction was preselected when
	// the label was made (labels JSONL "suggested_by"); "": blind.
	suggestedBy string
	// prediction: annotator is a system and value its prediction (Label
	// Studio's predictions), kept beside the system's others.
	prediction bool
}

// sink takes the records of a file as they are parsed.
type sink interface {
	pair(f *fileData, p *pairRec) error
	claim(f *fileData, c *claimRec) error
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

func (f *fileData) addPair(at loc, idField string, q store.QAPair, secondary bool, s says) error {
	if err := printable(at, idField, "the id", q.ID); err != nil {
		return err
	}
	if err := printable(at, "source", "the source name", q.Source); err != nil {
		return err
	}
	for i, c := range q.Contexts {
		if err := printable(at, fmt.Sprintf("contexts[%d].id", i), "the context id", c.ID); err != nil {
			return err
		}
	}
	for sys := range q.Predictions {
		if err := printable(at, "predictions", "the system name", sys); err != nil {
			return err
		}
	}
	if q.Hop == "" {
		q.Hop = "single"
		if len(q.Contexts) > 1 {
			q.Hop = "multi"
		}
	}
	return f.out.pair(f, &pairRec{at: at, idField: idField, q: q, hash: qaHash(q), secondary: secondary, says: s, rag: f.pendingRAG})
}

// addRAGPair adds the QA pair of a RAGChecker result's response with the
// result's matrices, recorded once the pair is written.
func (f *fileData) addRAGPair(at loc, idField string, q store.QAPair, res *store.RAGResult) error {
	f.pendingRAG = res
	defer func() { f.pendingRAG = nil }()
	return f.addPair(at, idField, q, false, saysExtra)
}

func (f *fileData) addClaim(at loc, field, idField, pairField string, c store.Claim) error {
	if err := printable(at, idField, "the id", c.ID); err != nil {
		return err
	}
	if err := printable(at, "added_by", "the annotator name", c.AddedBy); err != nil {
		return err
	}
	for sys := range c.Predictions {
		if err := printable(at, field+".predictions", "the system name", sys); err != nil {
			return err
		}
	}
	return f.out.claim(f, &claimRec{at: at, field: field, idField: idField, pairField: pairField, c: c, hash: claimHash(c)})
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
		return l.at.errf(l.field, "no annotator name")
	}
	if err := printable(l.at, l.field, "the annotator name", l.annotator); err != nil {
		return err
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

// prediction normalises a system's verdict like an entailment label.
func (f *fileData) prediction(system, value string) string {
	v, known := normalize(schema.Entailment, value)
	if !known && v != "" {
		f.sum.count(&f.sum.UnknownPredictions, system, v)
	}
	return v
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
			v, err := fields.labelValue(name)
			if err != nil {
				return err
			}
			l := labelRec{at: r.at, field: fields.path + name, itemField: itemField, annotator: who, item: item, name: name, value: v}
			if err := f.addLabel(l, k); err != nil {
				return err
			}
		}
	}
	return nil
}

func kindName(k schema.Kind) string {
	if k == schema.KindQA {
		return "a QA pair"
	}
	return "a " + string(k)
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

func qaHash(q store.QAPair) string {
	ctx := make([][2]string, len(q.Contexts))
	for i, c := range q.Contexts {
		ctx[i] = [2]string{c.ID, c.Text}
	}
	return hash(struct {
		Kind, ID, Source, Language, Hop, Question, Answer, Rationale, Category string
		Contexts                                                               [][2]string
		Extra                                                                  string
		Predictions                                                            map[string]string `json:",omitempty"`
	}{"qa", q.ID, q.Source, q.Language, q.Hop, q.Question, q.Answer, q.Rationale, q.Category, ctx, q.Extra, q.Predictions})
}

func claimHash(c store.Claim) string {
	return hash(struct {
		Kind, ID, QAID      string
		Position            int
		Triplet             [3]string
		Text, Origin, Added string
		Predictions         map[string]string
		Extractor           string `json:",omitempty"`
	}{"claim", c.ID, c.QAID, c.Position, c.Triplet, c.Text, c.Origin, c.AddedBy, c.Predictions, c.Extractor})
}

func hash(v any) string {
	b, _ := json.Marshal(v)
	sum := sha256.Sum256(append([]byte("annotate-item-v1\n"), b...))
	return hex.EncodeToString(sum[:])
}

// textHash identifies a context unit's text in the ids seen by an import.
func textHash(s string) string {
	sum := sha256.Sum256([]byte(s))
	return hex.EncodeToString(sum[:16])
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
