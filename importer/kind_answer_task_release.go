package importer

import (
	"bytes"
	"encoding/json"
	"fmt"

	"github.com/annotate-dev/annotate/schema"
	"github.com/annotate-dev/annotate/store"

	"github.com/annotate-dev/annotate/internal/pytext"
)

// CanLegalRAGBench's reference answers (release.go): a query's answer in
// queries.json is the accepted gold answer of its answer task.

// releaseReference reads a query's reference answer as the benchmark's
// is_query_usable and its judge read it, str(q.get("answer",
// q.get("user_answer", ""))): "answer" when the key is there, even empty or
// null ("user_answer", the annotation tool's name, is read only without
// it), and a value that is not a string is its Python text (null "None",
// true "True", 0 "0"); an array or an object is refused. key is the key
// read ("" for none).
func (f *fileData) releaseReference(r *rec) (key, answer string, err error) {
	key = "answer"
	raw, ok := r.m[key]
	if !ok {
		key = "user_answer"
		if raw, ok = r.m[key]; !ok {
			return "", "", nil
		}
	}
	s, ok := pytext.Str(raw)
	if !ok {
		return "", "", r.errf(key, "want a string, got %s (the benchmark reads a null, a number, true or false as its Python text)", kind(raw))
	}
	r.get(key)
	if key == "answer" && r.has("user_answer") { // the benchmark never reads it then
		if pytext.Blank(s) {
			f.sum.quirk(`"answer" is empty and "user_answer" is not: the benchmark reads "answer" (no reference answer: the query is not usable), never "user_answer"`)
		}
	}
	if bytes.Equal(bytes.TrimSpace(raw), []byte("null")) {
		f.sum.quirk(fmt.Sprintf(`%q is null: read as the reference answer "None", as the benchmark's str() reads it (the query is usable)`, key))
	}
	return key, s, nil
}

// releaseAnswer makes the reference answer of a query the accepted gold
// answer of who: the answer task, who's answer and citations, and who's
// acceptance (adjudicated labels, as the lead's review writes them).
func (f *fileData) releaseAnswer(at loc, key, who, query, answer string, cites []string) error {
	id := store.AnswerTaskID(query)
	line, _ := json.Marshal(map[string]string{"kind": string(schema.KindAnswerTask), "id": id, "query": query})
	it := &itemRec{at: at, idField: "query_id", kind: schema.KindAnswerTask, id: id, hash: store.AnswerTaskHash(query),
		needs: []need{{"query_id", query}}, line: line,
		put: func(tx *store.Tx, hash, file string, update bool) (int64, store.PutResult, error) {
			return tx.PutAnswerTask(store.AnswerTask{ID: id, QueryID: query}, hash, file, update)
		}}
	if err := f.out.item(f, it); err != nil {
		return err
	}
	labels := []labelRec{{name: schema.GoldAnswer, value: answer, field: key}}
	if len(cites) > 0 {
		labels = append(labels, labelRec{name: schema.Citations, value: schema.EncodeMulti(cites), field: releaseCitations})
	}
	n := len(labels)
	labels = append(labels, labelRec{name: schema.AnswerReview, value: "accept", field: key, adjudicate: true})
	for _, l := range labels[:n] {
		l.adjudicate = true
		labels = append(labels, l)
	}
	for _, l := range labels {
		l.at, l.itemField, l.annotator, l.item = at, "query_id", who, id
		if err := f.addLabel(l, schema.KindAnswerTask); err != nil {
			return err
		}
	}
	return nil
}
