package exporter

import (
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/annotate-dev/annotate/schema"
	"github.com/annotate-dev/annotate/store"
)

// prodigyObvious is the Prodigy export as it was before it streamed: what
// the tasks show of every item of the field's kind read first into a map
// by id, then the labels stream past it. TestProdigyStreamed holds the
// streamed export (prodigy) to its bytes.
func (e *exporter) prodigyObvious(dir string) error {
	fd, _ := schema.Lookup(e.o.Field)
	items, err := e.prodigyItemsObvious(fd.Kind)
	if err != nil {
		return err
	}
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
			opts[i] = map[string]string{"id": v, "text": v}
		}
		question = map[string]any{"options": opts}
		options, _ = json.Marshal(opts)
	}
	taskHashes := map[int32]int32{} // input hash -> task hash
	n, other := 0, 0
	var buf []byte
	e.prog.begin("labels", 0)
	err = each(e, e.snap.TimedLabels(fd.Name), func(l store.TimedLabel) error {
		answer, accept, ok := prodigyAnswer(fd, binary, l.Value)
		if !ok {
			other++
			return nil
		}
		it, ok := items[l.Item]
		if !ok {
			it = newProdigyItem(l.Item, fd.Kind, l.Item)
		}
		th, ok := taskHashes[it.input]
		if !ok {
			question["field"] = fd.Name
			b, _ := json.Marshal(question)
			th = murmur3(append([]byte(strconv.Itoa(int(it.input))), b...))
			taskHashes[it.input] = th
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
		buf = fmt.Appendf(buf, `,"_timestamp":%d,"_input_hash":%d,"_task_hash":%d`, at.Unix(), it.input, th)
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
	})
	if err := e.finish(f, err, &e.res.Labels, n); err != nil {
		return err
	}
	if other > 0 {
		e.res.Notes = append(e.res.Notes, fmt.Sprintf("%d labels of %s are none of its values (%s) and were left out",
			other, fd.Name, strings.Join(fd.Values, ", ")))
	}
	return nil
}

// prodigyItemsObvious reads what the tasks show of every item of kind k, by
// id: a claim's text and context, a pair's question, answer and context,
// else the kind's "text" column, else nothing (the tasks show the item's id).
func (e *exporter) prodigyItemsObvious(k schema.Kind) (map[string]prodigyItem, error) {
	x, ok := exportOf(k)
	if !ok {
		return nil, nil
	}
	switch k {
	case schema.KindClaim:
		items := map[string]prodigyItem{}
		for c, err := range e.snap.Claims(store.ExportOptions{}) {
			if err != nil {
				return nil, err
			}
			items[c.ID] = newProdigyItem(c.ID, schema.KindClaim, claimLine(c.Claim), c.QAID, string(c.ContextsJSON))
		}
		return items, nil
	case schema.KindQA:
		items := map[string]prodigyItem{}
		for q, err := range e.snap.QAs(store.ExportOptions{}) {
			if err != nil {
				return nil, err
			}
			items[q.ID] = newProdigyItem(q.ID, schema.KindQA, q.Question, q.Answer, string(q.ContextsJSON))
		}
		return items, nil
	}
	col := slices.IndexFunc(x.Columns(), func(c Column) bool { return c.Key == "text" && c.Type == TypeString })
	v, ok := x.(ItemValues)
	if col < 0 || !ok {
		return nil, nil
	}
	items := map[string]prodigyItem{}
	for it, err := range e.itemsOf(x, store.ExportOptions{}) {
		if err != nil {
			return nil, err
		}
		text, _ := v.Values(it.Item)[col].(string)
		items[it.Item.ExtID] = newProdigyItem(it.Item.ExtID, k, text)
	}
	return items, nil
}
