package exporter

import (
	"errors"
	"fmt"
	"hash/fnv"
	"strings"
	"time"

	"github.com/annotate-dev/annotate/schema"
	"github.com/annotate-dev/annotate/store"
)

// Prodigy (--format prodigy --field FIELD): prodigy/FIELD.jsonl, one line
// per current label of a two-way field (valid/invalid, correct/incorrect,
// relevant/not_relevant, …), as Prodigy's binary annotation tasks:
//
//	{"text":…,"label":FIELD,"answer":"accept"|"reject","_annotator_id":NAME,
//	 "_timestamp":UNIX,"_input_hash":N,"_task_hash":N,"meta":{"annotate_id":ID,"field":FIELD}}
//
// accept is the field's first value, reject its second. The text is the
// one the field's kind gives its item (kindExport.prodigyTexts: the claim
// of a claim, the question of a QA pair), the item id otherwise. The hashes are FNV-1a
// of the text (input) and of text and field (task), as signed 32-bit
// integers like Prodigy's. An adjudicated label adds "annotate_role":"adjudicate".
// A label that is neither value (kept verbatim) is left out and counted.

func (e *exporter) prodigy(dir string) error {
	fd, _ := schema.Lookup(e.o.Field)
	var texts map[string]string // item -> the text its task shows
	if x, ok := exportOf(fd.Kind); ok && x.prodigyTexts != nil {
		var err error
		if texts, err = x.prodigyTexts(e.snap); err != nil {
			return err
		}
	}
	e.res.Field = fd.Name
	f, err := e.openFile(dir, "prodigy/"+fd.Name+".jsonl")
	if err != nil {
		return err
	}
	n, other := 0, 0
	var buf []byte
	e.prog.begin("labels", 0)
	err = each(e, e.snap.TimedLabels(fd.Name), func(l store.TimedLabel) error {
		answer := ""
		switch l.Value {
		case fd.Values[0]:
			answer = "accept"
		case fd.Values[1]:
			answer = "reject"
		default:
			other++
			return nil
		}
		t, ok := texts[l.Item]
		if !ok {
			t = l.Item
		}
		at, _ := time.Parse(time.RFC3339Nano, l.At)
		buf = append(buf[:0], `{"text":`...)
		buf = appendString(buf, t)
		buf = append(buf, `,"label":`...)
		buf = appendString(buf, fd.Name)
		buf = append(buf, `,"answer":`...)
		buf = appendString(buf, answer)
		buf = append(buf, `,"_annotator_id":`...)
		buf = appendString(buf, l.Annotator)
		buf = fmt.Appendf(buf, `,"_timestamp":%d,"_input_hash":%d,"_task_hash":%d`,
			at.Unix(), prodigyHash(t), prodigyHash(t+"\x00"+fd.Name))
		if l.Role == store.RoleAdjudicate {
			buf = append(buf, `,"annotate_role":"adjudicate"`...)
		}
		buf = append(buf, `,"meta":{"annotate_id":`...)
		buf = appendString(buf, l.Item)
		buf = append(buf, `,"field":`...)
		buf = appendString(buf, fd.Name)
		buf = append(buf, "}}\n"...)
		n++
		_, err := f.Write(buf)
		return err
	})
	if err := e.finish(f, err, &e.res.Labels, n); err != nil {
		return err
	}
	if other > 0 {
		e.res.Notes = append(e.res.Notes, fmt.Sprintf("%d labels of %s are neither %s nor %s and were left out",
			other, fd.Name, fd.Values[0], fd.Values[1]))
	}
	return nil
}

// prodigyHash is a signed 32-bit hash of s, the type of Prodigy's hashes.
func prodigyHash(s string) int32 {
	h := fnv.New32a()
	h.Write([]byte(s))
	return int32(h.Sum32())
}

// checkProdigyField checks --field: a two-way field.
func checkProdigyField(name string) error {
	if name == "" {
		return errors.New("--format prodigy needs --field FIELD (a two-way field: " + strings.Join(TwoWayFields(), ", ") + ")")
	}
	fd, ok := schema.Lookup(name)
	if !ok || !fd.TwoWay || len(fd.Values) != 2 {
		return fmt.Errorf("--field %q: Prodigy's accept/reject needs a two-way field: %s", name, strings.Join(TwoWayFields(), ", "))
	}
	return nil
}

// TwoWayFields lists the fields Prodigy's accept/reject can carry.
func TwoWayFields() []string {
	var out []string
	for _, f := range schema.AllFields() {
		if f.TwoWay && len(f.Values) == 2 {
			out = append(out, f.Name)
		}
	}
	return out
}
