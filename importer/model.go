package importer

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	"github.com/annotate-dev/annotate/schema"
	"github.com/annotate-dev/annotate/store"
)

// Every format is parsed into these records first, all files of an
// invocation before the transaction opens, so a bad file is reported without
// touching the database and the transaction only writes.

type pairRec struct {
	at        loc
	field     string // the input key of the id, for errors
	q         store.QAPair
	hash      string
	secondary bool // a copy of a pair whose master is another file (ClaimRAG-LAW claims file)
	skip      bool // the same pair, identical, came earlier in this invocation
}

type claimRec struct {
	at    loc
	field string // names the claim in errors, e.g. "claims[2]"
	// pairField names the reference to the QA pair when it may be unknown
	// (a ClaimRAG-LAW claims record without the pair), "" otherwise.
	pairField string
	c         store.Claim
	hash      string
	skip      bool
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
}

// fileData is one parsed file.
type fileData struct {
	name   string
	format string
	opt    Options
	pairs  []*pairRec
	claims []*claimRec
	labels []*labelRec
	sum    *FileSummary
	ids    map[string]loc // ids of this file, to report duplicates
}

func newFile(name, format string, opt Options) *fileData {
	return &fileData{name: name, format: format, opt: opt, ids: map[string]loc{},
		sum: &FileSummary{File: name, Format: format}}
}

// claimID checks an item id is new in this file.
func (f *fileData) claimID(at loc, field, id string) error {
	if first, ok := f.ids[id]; ok {
		where := fmt.Sprintf("line %d", first.line)
		if first.line == 0 {
			where = fmt.Sprintf("record %d", first.record)
		}
		return at.errf(field, "duplicate id %q (first at %s)", id, where)
	}
	f.ids[id] = at
	return nil
}

func (f *fileData) addPair(at loc, field string, q store.QAPair, secondary bool) error {
	if err := f.claimID(at, field, q.ID); err != nil {
		return err
	}
	if q.Hop == "" {
		q.Hop = "single"
		if len(q.Contexts) > 1 {
			q.Hop = "multi"
		}
	}
	f.pairs = append(f.pairs, &pairRec{at: at, field: field, q: q, hash: qaHash(q), secondary: secondary})
	return nil
}

func (f *fileData) addClaim(at loc, field, pairField string, c store.Claim) error {
	if err := f.claimID(at, field+".id", c.ID); err != nil {
		return err
	}
	f.claims = append(f.claims, &claimRec{at: at, field: field, pairField: pairField, c: c, hash: claimHash(c)})
	return nil
}

// lastLabelsOn points the item of the labels added since n at itemField, for
// errors about an item that turns out not to exist.
func (f *fileData) lastLabelsOn(n int, itemField string) {
	for _, l := range f.labels[n:] {
		l.itemField = itemField
	}
}

// addLabel validates and normalises one label. An empty value is no decision
// and is skipped; an unknown value is kept verbatim and counted.
func (f *fileData) addLabel(at loc, field, annotator, item, name, value string, k schema.Kind) error {
	if err := schema.CheckField(name); err != nil {
		return at.errf(field, "%v", err)
	}
	if fd, _ := schema.Lookup(name); k != "" && fd.Kind != k {
		return at.errf(field, "%s is a field of %s, not of %s", name, kindName(fd.Kind), kindName(k))
	}
	if annotator == "" {
		return at.errf(field, "no annotator name")
	}
	v, known := schema.Normalize(name, value)
	if v == "" {
		return nil
	}
	if !known {
		f.sum.count(&f.sum.UnknownValues, name, v)
	}
	f.labels = append(f.labels, &labelRec{at: at, field: field, itemField: field, annotator: annotator, item: item, name: name, value: v})
	return nil
}

// prediction normalises a system's verdict like an entailment label.
func (f *fileData) prediction(system, value string) string {
	v, known := schema.Normalize(schema.Entailment, value)
	if !known && v != "" {
		f.sum.count(&f.sum.UnknownPredictions, system, v)
	}
	return v
}

func (f *fileData) unknownKeys(prefix string, keys []string) {
	for _, k := range keys {
		if f.sum.UnknownKeys == nil {
			f.sum.UnknownKeys = map[string]int{}
		}
		f.sum.UnknownKeys[prefix+k]++
	}
}

// labelsObject reads an item's own labels: {"annotator": {"field": "value"}}.
func (f *fileData) labelsObject(r *rec, key, item string, k schema.Kind) error {
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
			v, err := fields.str(name)
			if err != nil {
				return err
			}
			if err := f.addLabel(r.at, fields.path+name, who, item, name, v, k); err != nil {
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
	for i, f := range schema.AllFields() {
		if f.Name == name {
			return i
		}
	}
	return len(schema.AllFields())
}

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

func qaHash(q store.QAPair) string {
	ctx := make([][2]string, len(q.Contexts))
	for i, c := range q.Contexts {
		ctx[i] = [2]string{c.ID, c.Text}
	}
	return hash(struct {
		Kind, ID, Source, Language, Hop, Question, Answer, Rationale, Category string
		Contexts                                                               [][2]string
		Extra                                                                  string
	}{"qa", q.ID, q.Source, q.Language, q.Hop, q.Question, q.Answer, q.Rationale, q.Category, ctx, q.Extra})
}

func claimHash(c store.Claim) string {
	return hash(struct {
		Kind, ID, QAID      string
		Position            int
		Triplet             [3]string
		Text, Origin, Added string
		Predictions         map[string]string
	}{"claim", c.ID, c.QAID, c.Position, c.Triplet, c.Text, c.Origin, c.AddedBy, c.Predictions})
}

func hash(v any) string {
	b, _ := json.Marshal(v)
	sum := sha256.Sum256(append([]byte("annotate-item-v1\n"), b...))
	return hex.EncodeToString(sum[:])
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
