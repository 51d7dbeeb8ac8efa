package exporter

import (
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"math/bits"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/annotate-dev/annotate/schema"
	"github.com/annotate-dev/annotate/store"
)

// Prodigy (--format prodigy --field FIELD): prodigy/FIELD.jsonl, one line
// per current label of a closed field, as the annotations Prodigy stores:
//
//   - a two-way field (valid/invalid, correct/incorrect, relevant/…) is a
//     binary task, "label":FIELD with "answer" "accept" (the field's first
//     value) or "reject" (its second);
//   - any other closed field (entailment, persona, category, error
//     categories…) is a choice task: "options" (one {"id","text"} per value
//     of the field), "accept" (the ids chosen: one, or several for a
//     multi-valued field, "config":{"choice_style":"multiple"}) and
//     "answer":"accept".
//
// Every line has "text" (what the kind shows of its item:
// prodigyTasks), "_session_id" and "_annotator_id" as Prodigy's
// named sessions write them, "FIELD-NAME" (the dataset is the field),
// "_timestamp", the hashes, and "meta" {"annotate_id","field","annotator"}.
// An adjudicated label adds "annotate_role":"adjudicate". A label that is
// none of the field's values (kept verbatim) is left out and counted.
//
// Hashes follow Prodigy's conventions (set_hashes): _input_hash is of the
// task's input, _task_hash of the input hash and the question asked about
// it. Prodigy's default input is the text alone, which would make distinct
// items with the same text (150 claims "the controller | must | notify")
// one input, and Prodigy would show and keep only one of them; so the input
// here is what distinguishes the item: its id, its kind, its text and its
// context (a claim's pair and that pair's context units; a pair's answer
// and context units). The question is the field and the label or options.
// Both are MurmurHash3 (x86, 32 bits, seed 0: the function of Prodigy's
// hashes, signed) of the JSON of those values with sorted keys. Prodigy
// keeps hashes a task already has unless asked to rehash.

// prodigyItem is what a Prodigy task shows of an item, and its input hash.
type prodigyItem struct {
	text  string
	input int32
}

// newProdigyItem hashes an item's input: its id and kind, the text shown,
// and the context that tells it from another item with the same text.
func newProdigyItem(id string, k schema.Kind, text string, context ...string) prodigyItem {
	b, _ := json.Marshal(map[string]any{"annotate_id": id, "kind": string(k), "text": text, "context": context})
	return prodigyItem{text: text, input: murmur3(b)}
}

// prodigyTaskHash is the task hash of a question about an input: question
// is the JSON of the question with its field (prodigyQuestion).
func prodigyTaskHash(input int32, question []byte) int32 {
	return murmur3(append(strconv.AppendInt(nil, int64(input), 10), question...))
}

// prodigyQuestion is the JSON of the question asked about every input: the
// field and its label (binary) or options, keys sorted.
func prodigyQuestion(fd schema.Field, question map[string]any) []byte {
	q := maps.Clone(question)
	q["field"] = fd.Name
	b, _ := json.Marshal(q)
	return b
}

// prodigyBatch is how many labels share one read of their items: the labels
// stream past in item order, and each batch reads what its tasks show.
const prodigyBatch = 512

func (e *exporter) prodigy(dir string) error {
	fd, _ := schema.Lookup(e.o.Field)
	e.res.Field = fd.Name
	f, err := e.openFile(dir, "prodigy/"+fd.Name+".jsonl")
	if err != nil {
		return err
	}
	binary := prodigyBinary(fd)
	// The question, the same on every line: the label, or the options.
	var question map[string]any
	var options []byte
	if binary {
		question = map[string]any{"label": fd.Name}
	} else {
		opts := make([]map[string]string, len(fd.Values))
		for i, v := range fd.Values {
			opts[i] = map[string]string{"id": v, "text": fd.LabelOf(v)} // a declared value's label
		}
		question = map[string]any{"options": opts}
		options, _ = json.Marshal(opts)
	}
	asked := prodigyQuestion(fd, question)
	n, other := 0, 0
	var buf []byte
	line := func(l store.TimedLabel, it prodigyItem) error {
		answer, accept, ok := prodigyAnswer(fd, binary, l.Value)
		if !ok {
			other++
			return nil
		}
		at, _ := time.Parse(time.RFC3339Nano, l.At)
		session := fd.Name + "-" + l.Annotator
		buf = append(buf[:0], `{"text":`...)
		buf = appendString(buf, it.text)
		if binary {
			buf = append(buf, `,"label":`...)
			buf = appendString(buf, fd.Name)
		} else {
			buf = append(buf, `,"options":`...)
			buf = append(buf, options...)
			buf = append(buf, `,"accept":`...)
			buf = appendValue(buf, accept)
			if fd.Multi {
				buf = append(buf, `,"config":{"choice_style":"multiple"}`...)
			}
		}
		buf = append(buf, `,"answer":`...)
		buf = appendString(buf, answer)
		buf = append(buf, `,"_session_id":`...)
		buf = appendString(buf, session)
		buf = append(buf, `,"_annotator_id":`...)
		buf = appendString(buf, session)
		buf = fmt.Appendf(buf, `,"_timestamp":%d,"_input_hash":%d,"_task_hash":%d`, at.Unix(), it.input, prodigyTaskHash(it.input, asked))
		if l.Role == store.RoleAdjudicate {
			buf = append(buf, `,"annotate_role":"adjudicate"`...)
		}
		buf = append(buf, `,"meta":{"annotate_id":`...)
		buf = appendString(buf, l.Item)
		buf = append(buf, `,"field":`...)
		buf = appendString(buf, fd.Name)
		buf = append(buf, `,"annotator":`...)
		buf = appendString(buf, l.Annotator)
		buf = append(buf, "}}\n"...)
		n++
		_, err := f.Write(buf)
		return err
	}
	var batch []store.TimedLabel
	flush := func() error {
		var ids []int64
		for i, l := range batch {
			if i == 0 || l.ItemID != batch[i-1].ItemID {
				ids = append(ids, l.ItemID)
			}
		}
		items, err := e.prodigyItemsOf(fd.Kind, ids)
		if err != nil {
			return err
		}
		for _, l := range batch {
			it, ok := items[l.ItemID]
			if !ok {
				it = newProdigyItem(l.Item, fd.Kind, l.Item)
			}
			if err := line(l, it); err != nil {
				return err
			}
		}
		batch = batch[:0]
		return nil
	}
	e.prog.begin("labels", 0)
	err = each(e, e.snap.TimedLabels(fd.Name), func(l store.TimedLabel) error {
		if batch = append(batch, l); len(batch) < prodigyBatch {
			return nil
		}
		return flush()
	})
	if err == nil && len(batch) > 0 {
		err = flush()
	}
	if err := e.finish(f, err, &e.res.Labels, n); err != nil {
		return err
	}
	if other > 0 {
		e.res.Notes = append(e.res.Notes, fmt.Sprintf("%d labels of %s are none of its values (%s) and were left out",
			other, fd.Name, strings.Join(fd.Values, ", ")))
	}
	return nil
}

// prodigyItemsOf reads what the tasks show of the items among ids (a
// batch) of kind k, by item id: the kind's own prodigyItems, else its
// "text" column (a query's, a generated claim's), else nothing (the tasks
// show the item's id).
func (e *exporter) prodigyItemsOf(k schema.Kind, ids []int64) (map[int64]prodigyItem, error) {
	x, ok := exportOf(k)
	if !ok {
		return nil, nil
	}
	if p, ok := x.(prodigyTasks); ok {
		return p.prodigyItems(e.snap, ids)
	}
	col := slices.IndexFunc(x.Columns(), func(c Column) bool { return c.Key == "text" && c.Type == TypeString })
	v, ok := x.(ItemValues)
	if col < 0 || !ok {
		return nil, nil
	}
	its, err := e.snap.ItemsByID(k, ids)
	if err != nil {
		return nil, err
	}
	items := make(map[int64]prodigyItem, len(its))
	for id, it := range its {
		text, _ := v.Values(it)[col].(string)
		items[id] = newProdigyItem(it.ExtID, k, text)
	}
	return items, nil
}

// prodigyBinary: the field is a yes/no question (accept/reject).
func prodigyBinary(fd schema.Field) bool { return fd.TwoWay && len(fd.Values) == 2 && !fd.Multi }

// prodigyAnswer is a label's answer and, for a choice task, the options
// chosen; ok is false for a value outside the field's.
func prodigyAnswer(fd schema.Field, binary bool, value string) (answer string, accept []string, ok bool) {
	if binary {
		switch value {
		case fd.Values[0]:
			return "accept", nil, true
		case fd.Values[1]:
			return "reject", nil, true
		}
		return "", nil, false
	}
	accept = []string{value}
	if fd.Multi {
		accept = schema.DecodeMulti(value)
	}
	for _, v := range accept {
		if !slices.Contains(fd.Values, v) {
			return "", nil, false
		}
	}
	return "accept", accept, true
}

// murmur3 is MurmurHash3_x86_32 with seed 0, as a signed 32-bit integer:
// the hash Prodigy's hashes are (the murmurhash package).
func murmur3(data []byte) int32 {
	const c1, c2 = 0xcc9e2d51, 0x1b873593
	var h uint32
	n := len(data) / 4
	for i := range n {
		k := uint32(data[4*i]) | uint32(data[4*i+1])<<8 | uint32(data[4*i+2])<<16 | uint32(data[4*i+3])<<24
		k *= c1
		k = bits.RotateLeft32(k, 15)
		k *= c2
		h ^= k
		h = bits.RotateLeft32(h, 13)
		h = h*5 + 0xe6546b64
	}
	var k uint32
	tail := data[4*n:]
	switch len(tail) {
	case 3:
		k ^= uint32(tail[2]) << 16
		fallthrough
	case 2:
		k ^= uint32(tail[1]) << 8
		fallthrough
	case 1:
		k ^= uint32(tail[0])
		k *= c1
		k = bits.RotateLeft32(k, 15)
		k *= c2
		h ^= k
	}
	h ^= uint32(len(data))
	h ^= h >> 16
	h *= 0x85ebca6b
	h ^= h >> 13
	h *= 0xc2b2ae35
	h ^= h >> 16
	return int32(h)
}

// checkProdigyField checks --field: a field with a closed list of values.
func checkProdigyField(name string) error {
	if name == "" {
		return errors.New("--format prodigy needs --field FIELD (a field with a closed list of values: " + strings.Join(ProdigyFields(), ", ") + ")")
	}
	fd, ok := schema.Lookup(name)
	if !ok || len(fd.Values) == 0 {
		return fmt.Errorf("--field %q: Prodigy's tasks need a field with a closed list of values: %s", name, strings.Join(ProdigyFields(), ", "))
	}
	return nil
}

// ProdigyFields lists the fields --format prodigy takes: every closed field
// (two-way ones as binary tasks, the others as choice tasks).
func ProdigyFields() []string {
	var out []string
	for _, f := range schema.AllFields() {
		if len(f.Values) > 0 {
			out = append(out, f.Name)
		}
	}
	return out
}
