package importer

import (
	"errors"
	"fmt"
	"strings"

	"github.com/annotate-dev/annotate/schema"
	"github.com/annotate-dev/annotate/store"
)

// The writing side of an import (see run): what each record does to the
// database, the ids met so far, and what waits for the end.

// writer is the sink of every file of an import (see fileData).
type writer struct {
	tx      *store.Tx
	opt     Options
	prog    *progress
	files   []*fileData
	sources map[string]*sourceState
	staged  [nQueues]int64
	runs    map[string]runSeen   // runs met so far (trec.go); nil: none
	hfRuns  map[string]hfRunSeen // runs met in hf runs configs (hf_runs.go)
	// lastItem caches the item last written or labelled: an item's labels
	// come together, right after it.
	lastItem struct {
		ext, kind string
		id        int64
	}
}

// sourceState is what the import knows of a source's language.
type sourceState struct {
	language string
	// fill: a pair named the language after pairs without one were written.
	fill bool
}

func (w *writer) name(i int) string { return w.files[i].name }

// where names the place an id was met, for "also at" messages.
func (w *writer) where(s store.Seen) string {
	return loc{file: w.files[s.File].name, line: s.Line, record: s.Record}.String()
}

func (w *writer) seen(f *fileData, kind, hash string, at loc, secondary bool) store.Seen {
	return store.Seen{Kind: kind, Hash: hash, File: f.idx, Line: at.line, Record: at.record, Secondary: secondary}
}

// read parses one file, writing its QA pairs and staging the rest.
func (w *writer) read(f *fileData) error {
	t, err := f.in.reader()
	if err != nil {
		return err
	}
	defer t.Close()
	if f.format == FormatTRECRun || f.format == FormatCLRBRun || f.format == FormatHF && hfConfigOf(f.name) == "runs" {
		// A run's lines are staged on the writer itself, not written as
		// records: it is read on the import's goroutine.
		return parsers[f.format](f, t)
	}
	return parseWhileWriting(f, t, parsers[f.format], w)
}

// duplicate is the error for an id met twice in one file.
func duplicate(at loc, field, id string, first store.Seen) error {
	where := fmt.Sprintf("line %d", first.Line)
	if first.Line == 0 {
		where = fmt.Sprintf("record %d", first.Record)
	}
	return at.errf(field, "duplicate id %q (first at %s)", id, where)
}

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

func (w *writer) claim(f *fileData, c *claimRec) error {
	prev, met, err := w.tx.SeeFast("item", c.c.ID, w.seen(f, string(schema.KindClaim), c.hash, c.at, false))
	if err != nil {
		return err
	}
	if met {
		switch {
		case prev.File == f.idx:
			return duplicate(c.at, c.idField, c.c.ID, prev)
		case prev.Kind != string(schema.KindClaim):
			return c.at.errf(c.idField, "id %q is also %s at %s", c.c.ID, kindName(schema.Kind(prev.Kind)), w.where(prev))
		case prev.Hash == c.hash:
			return nil // the same claim from another file of this import
		default:
			return c.at.errf(c.idField, "id %q is also at %s with different content", c.c.ID, w.where(prev))
		}
	}
	// Written now when its pair is in and no claim waits before it (the
	// claims keep the files' order); else it waits for every pair.
	if w.staged[queueClaims] == 0 {
		if err := w.writeClaim(f, c); !errors.Is(err, store.ErrUnknownPair) {
			return err
		}
	}
	return w.stage(queueClaims, encodeClaim(f.idx, c))
}

func (w *writer) label(f *fileData, l *labelRec) error {
	// As claims: now when its item is in and no label waits before it.
	if w.staged[queueLabels] == 0 {
		if err := w.writeLabel(f, l); !errors.Is(err, store.ErrUnknownPair) {
			return err
		}
	}
	return w.stage(queueLabels, encodeLabel(f.idx, l))
}

func (w *writer) stage(queue int, data []byte) error {
	w.staged[queue]++
	return w.tx.Stage(queue, data)
}

// writeStaged writes what waited for every QA pair to be in: the copies of
// pairs, then the claims, then the labels.
func (w *writer) writeStaged() error {
	w.prog.begin("copies of pairs", w.staged[queueCopies], false)
	err := w.tx.EachStaged(queueCopies, func(b []byte) error {
		w.prog.add(1)
		file, p, err := decodePair(b, w.name)
		if err != nil {
			return err
		}
		return w.writeCopy(w.files[file], p)
	})
	if err != nil {
		return err
	}
	if err := w.writeStagedItems(); err != nil {
		return err
	}
	w.prog.begin("claims", w.staged[queueClaims], false)
	err = w.tx.EachStaged(queueClaims, func(b []byte) error {
		w.prog.add(1)
		file, c, err := decodeClaim(b, w.name)
		if err != nil {
			return err
		}
		return w.writeClaim(w.files[file], c)
	})
	if err != nil {
		return err
	}
	w.prog.begin("labels", w.staged[queueLabels], false)
	return w.tx.EachStaged(queueLabels, func(b []byte) error {
		w.prog.add(1)
		file, l, err := decodeLabel(b, w.name)
		if err != nil {
			return err
		}
		return w.writeLabel(w.files[file], l)
	})
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

func sameMap(a, b map[string]string) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if w, ok := b[k]; !ok || w != v {
			return false
		}
	}
	return true
}

// source creates the pair's source with the language the pair gives (or the
// known default) the first time it is met, and gives a pair without a
// language its source's.
func (w *writer) source(q *store.QAPair) error {
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

func (w *writer) writeClaim(f *fileData, c *claimRec) error {
	id, res, err := w.tx.PutClaim(c.c, c.hash, f.name, false)
	if errors.Is(err, store.ErrChanged) {
		res, err = w.changedClaim(f, c)
	}
	if errors.Is(err, store.ErrUnknownPair) {
		field := c.pairField
		if field == "" {
			field = c.field
		}
		e := c.at.errf(field, "unknown QA pair %q: it is neither in the database nor in this import", c.c.QAID)
		e.Err = err
		return e
	}
	if err != nil {
		return storeErr(c.at, c.idField, c.c.ID, err)
	}
	f.sum.Claims.add(res)
	w.wrote(c.c.ID, schema.KindClaim, id)
	return nil
}

// wrote remembers the item just written: its labels come next.
func (w *writer) wrote(ext string, k schema.Kind, id int64) {
	if id != 0 {
		w.lastItem.ext, w.lastItem.kind, w.lastItem.id = ext, string(k), id
	}
}

// changedClaim is changedPair for claims: a claim's input says everything
// about it, but an absent origin means "extracted".
func (w *writer) changedClaim(f *fileData, c *claimRec) (store.PutResult, error) {
	old, err := w.tx.StoredClaim(c.c.ID)
	if err != nil {
		return 0, err
	}
	in := c.c
	if in.Origin == "" {
		in.Origin = store.OriginExtracted
	}
	if old.QAID == in.QAID && old.Position == in.Position && old.Triplet == in.Triplet && old.Text == in.Text &&
		old.Origin == in.Origin && old.AddedBy == in.AddedBy && sameMap(old.Predictions, in.Predictions) &&
		// A claim stored before extractors were kept has none: not a change.
		(old.Extractor == "" || old.Extractor == in.Extractor) {
		return store.Unchanged, nil
	}
	if !w.opt.Update {
		return 0, store.ErrChanged
	}
	_, res, err := w.tx.PutClaim(c.c, c.hash, f.name, true)
	return res, err
}

func (w *writer) writeLabel(f *fileData, l *labelRec) error {
	id, err := w.labelItem(l)
	if err != nil {
		return err
	}
	if l.prediction {
		if _, err := w.tx.AddPrediction(id, l.annotator, l.name, l.value); err != nil {
			return l.at.wrap(l.field, err)
		}
		return nil
	}
	added, err := w.tx.PutLabel(store.Label{Annotator: l.annotator, ItemID: id, Field: l.name, Value: l.value,
		GuidelinesVersion: w.opt.GuidelinesVersion, Adjudicate: l.adjudicate, SuggestedBy: l.suggestedBy})
	if err != nil {
		return l.at.wrap(l.field, err)
	}
	if added {
		f.sum.LabelsAdded++
	} else {
		f.sum.LabelsUnchanged++
	}
	return nil
}

// labelItem resolves the item of a label: one in the database (this
// import's are in by now) whose kind has the label's field.
func (w *writer) labelItem(l *labelRec) (int64, error) {
	last := &w.lastItem
	if last.ext != l.item || last.id == 0 {
		id, kind, err := w.tx.ItemID(l.item)
		if errors.Is(err, store.ErrNotFound) {
			e := l.at.errf(l.itemField, "unknown item %q: it is neither in the database nor in this import", l.item)
			e.Err = store.ErrUnknownPair
			return 0, e
		}
		if err != nil {
			return 0, err
		}
		last.ext, last.kind, last.id = l.item, kind, id
	}
	if fd, _ := lookupField(l.name); last.kind != string(fd.Kind) {
		return 0, l.at.errf(l.field, "%s is a field of %s, but %q is %s", l.name, kindName(fd.Kind), l.item, kindName(schema.Kind(last.kind)))
	}
	return last.id, nil
}

// splitField takes the "contexts[i]: " prefix of a store error as the field
// it is about; other errors are about the id.
func splitField(err error, idField string) (string, error) {
	msg := err.Error()
	if i := strings.Index(msg, "]: "); strings.HasPrefix(msg, "contexts[") && i > 0 {
		return msg[:i+1], &contextError{msg[i+3:], err}
	}
	return idField, err
}

// contextError is a store error about a context unit, its prefix taken off
// for the message, the original kept for errors.Is/As.
type contextError struct {
	msg string
	err error
}

func (e *contextError) Error() string { return e.msg }
func (e *contextError) Unwrap() error { return e.err }

// storeErr places a store error in the input and says which id it is about.
func storeErr(at loc, field, id string, err error) error {
	if errors.Is(err, store.ErrChanged) {
		e := at.errf(field, "item %q is already in the database with different content (use --update to replace it)", id)
		e.Err = err
		return e
	}
	return at.wrap(field, err)
}
