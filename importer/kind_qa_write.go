package importer

import (
	"errors"
	"fmt"

	"github.com/annotate-dev/annotate/schema"
	"github.com/annotate-dev/annotate/store"
)

// The write path of a QA pair (kind_qa.go): its id checked against the ids
// met so far, its context units, its source and language, its RAGChecker
// result; a copy of a pair staged until every master copy is known.

// queueCopies holds the copies of pairs whose master is another file.
var queueCopies = newQueue()

// sourceState is what the import knows of a source's language.
type sourceState struct {
	language string
	// fill: a pair named the language after pairs without one were written.
	fill bool
}

func (p *pairRec) write(w *writer, f *fileData) error { return w.pair(f, p) }

func (w *writer) pair(f *fileData, p *pairRec) error {
	prev, met, err := w.tx.SeeFast("item", p.q.ID, w.seen(f, string(schema.KindQA), p.hash, p.at, p.secondary))
	if err != nil {
		return err
	}
	if met {
		switch {
		case prev.File == f.idx:
			return duplicate(p.at, p.idField, p.q.ID, prev)
		case prev.Kind != string(schema.KindQA):
			return p.at.errf(p.idField, "id %q is also %s at %s", p.q.ID, kindName(schema.Kind(prev.Kind)), w.where(prev))
		case p.secondary && !prev.Secondary:
			return nil // a copy yields to its master
		case p.secondary:
			// Another copy: settled once every master is known.
			return w.stage(queueCopies, encodePair(f.idx, p))
		case prev.Secondary:
			// A master after a copy: the master stands for the pair.
			if err := w.tx.Resee("item", p.q.ID, w.seen(f, string(schema.KindQA), p.hash, p.at, false)); err != nil {
				return err
			}
		case prev.Hash == p.hash:
			return nil // the same pair from another file of this import
		default:
			return p.at.errf(p.idField, "id %q is also at %s with different content", p.q.ID, w.where(prev))
		}
	}
	if p.secondary {
		return w.stage(queueCopies, encodePair(f.idx, p))
	}
	return w.writePair(f, p)
}

// writeCopy writes a copy of a pair (ClaimRAG-LAW claims file) unless a
// master copy came in this import, or an earlier copy did, or the database
// has the pair.
func (w *writer) writeCopy(f *fileData, p *pairRec) error {
	first, err := w.tx.Seen("item", p.q.ID)
	if err != nil {
		return err
	}
	if !first.Secondary {
		return nil // a master copy came after all
	}
	if first.File != f.idx || first.Line != p.at.line || first.Record != p.at.record {
		if first.Hash == p.hash {
			return nil
		}
		return p.at.errf(p.idField, "id %q is also at %s with different content", p.q.ID, w.where(first))
	}
	_, kind, err := w.tx.ItemID(p.q.ID)
	if err == nil && kind == string(schema.KindQA) {
		f.sum.QA.Unchanged++ // the master copy is in the database: keep it
		return nil
	}
	if err != nil && !errors.Is(err, store.ErrNotFound) {
		return err
	}
	return w.writePair(f, p)
}

// writePair writes one QA pair with its context units.
func (w *writer) writePair(f *fileData, p *pairRec) error {
	for i, c := range p.q.Contexts {
		prev, met, err := w.tx.SeeFast("context", c.ID, w.seen(f, "context", textHash(c.Text), p.at, false))
		if err != nil {
			return err
		}
		if met && prev.Hash != textHash(c.Text) {
			return p.at.errf(fmt.Sprintf("contexts[%d]", i), "context unit %q is also at %s with a different text", c.ID, w.where(prev))
		}
	}
	q := p.q
	if err := w.source(&q); err != nil {
		return err
	}
	id, res, err := w.tx.PutQA(q, p.hash, f.name, false)
	if errors.Is(err, store.ErrChanged) {
		res, err = w.changedPair(f, p, q)
	}
	if err != nil {
		field, err := splitField(err, p.idField)
		return storeErr(p.at, field, q.ID, err)
	}
	f.sum.QA.add(res)
	w.wrote(q.ID, schema.KindQA, id)
	if p.rag != nil {
		if err := w.tx.PutRAGResult(q.ID, *p.rag, w.opt.Update); err != nil {
			var ch *store.RAGChangedError
			if errors.As(err, &ch) {
				e := p.at.errf(ch.Key, "the result of %q is already in the database with other content (use --update to replace it)", q.ID)
				e.Err = err
				return e
			}
			return storeErr(p.at, p.idField, q.ID, err)
		}
	}
	return nil
}

// changedPair settles a pair whose hash differs from the stored one's: it is
// unchanged when every part the input says equals the stored pair (the
// hash also covers how the input said it: a native line without a language,
// an hf row without the extra keys), else replaced with --update.
func (w *writer) changedPair(f *fileData, p *pairRec, q store.QAPair) (store.PutResult, error) {
	old, err := w.tx.StoredQA(q.ID)
	if err != nil {
		return 0, err
	}
	if samePair(old, p.q, p.says) {
		return store.Unchanged, nil
	}
	if !w.opt.Update {
		return 0, store.ErrChanged
	}
	_, res, err := w.tx.PutQA(q, p.hash, f.name, true)
	return res, err
}

func samePair(old, q store.QAPair, s says) bool {
	if old.Source != q.Source || old.Hop != q.Hop || old.Question != q.Question || old.Answer != q.Answer ||
		old.Rationale != q.Rationale || old.Category != q.Category || len(old.Contexts) != len(q.Contexts) {
		return false
	}
	for i := range q.Contexts {
		if old.Contexts[i] != q.Contexts[i] {
			return false
		}
	}
	return (s&saysLanguage == 0 || old.Language == q.Language) &&
		(s&saysExtra == 0 || old.Extra == q.Extra) &&
		(s&saysPredictions == 0 || sameMap(old.Predictions, q.Predictions))
}

// source creates the pair's source with the language the pair gives (or the
// known default) the first time it is met, and gives a pair without a
// language its source's.
func (w *writer) source(q *store.QAPair) error {
	if w.sources == nil {
		w.sources = map[string]*sourceState{}
	}
	st, ok := w.sources[q.Source]
	switch {
	case !ok:
		d := sourceDefaults[q.Source]
		lang := q.Language
		if lang == "" && w.tx.SourceLanguage(q.Source) == "" {
			lang = d[0]
		}
		if _, err := w.tx.Source(q.Source, lang, d[1]); err != nil {
			return err
		}
		st = &sourceState{language: w.tx.SourceLanguage(q.Source)}
		w.sources[q.Source] = st
	case st.language == "" && q.Language != "":
		// The first pair to name the language of a source that had none:
		// the source takes it, and so do the pairs written without one.
		if err := w.tx.FillSourceLanguage(q.Source, q.Language); err != nil {
			return err
		}
		st.language, st.fill = q.Language, true
	}
	if q.Language == "" {
		q.Language = st.language
	}
	return nil
}

// fillLanguages gives the language a source took late to this import's
// pairs that were written without one.
func (w *writer) fillLanguages() error {
	for _, name := range sortedKeys(w.sources) {
		if st := w.sources[name]; st.fill {
			if err := w.tx.FillPairLanguages(name, st.language); err != nil {
				return err
			}
		}
	}
	return nil
}

func encodePair(file int, p *pairRec) []byte {
	var e encoder
	e.loc(file, p.at)
	e.str(p.idField)
	e.str(p.hash)
	e.bool(p.secondary)
	e.int(int(p.says))
	q := p.q
	for _, s := range []string{q.ID, q.Source, q.Language, q.Hop, q.Question, q.Answer, q.Rationale, q.Category, q.Extra} {
		e.str(s)
	}
	e.int(len(q.Contexts))
	for _, c := range q.Contexts {
		e.str(c.ID)
		e.str(c.Text)
	}
	e.strMap(q.Predictions)
	return e
}

func decodePair(b []byte, names func(int) string) (int, *pairRec, error) {
	d := decoder{b: b}
	p := &pairRec{}
	file, at := d.loc(names)
	p.at = at
	p.idField, p.hash, p.secondary, p.says = d.str(), d.str(), d.bool(), says(d.int())
	q := &p.q
	for _, s := range []*string{&q.ID, &q.Source, &q.Language, &q.Hop, &q.Question, &q.Answer, &q.Rationale, &q.Category, &q.Extra} {
		*s = d.str()
	}
	if n := d.int(); n > 0 && d.err == nil {
		q.Contexts = make([]store.Context, n)
		for i := range q.Contexts {
			q.Contexts[i] = store.Context{ID: d.str(), Text: d.str()}
		}
	}
	q.Predictions = d.strMap()
	return file, p, d.err
}

// writeStagedCopies writes the copies of pairs that waited for every master
// copy to be known.
func (w *writer) writeStagedCopies() error {
	w.prog.begin("copies of pairs", w.staged[queueCopies], false)
	return w.tx.EachStaged(queueCopies, func(b []byte) error {
		w.prog.add(1)
		file, p, err := decodePair(b, w.name)
		if err != nil {
			return err
		}
		return w.writeCopy(w.files[file], p)
	})
}
