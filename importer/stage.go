package importer

import (
	"encoding/binary"
	"errors"
	"sort"

	"github.com/annotate-dev/annotate/store"
)

// Records written after every QA pair of the import is in (copies of pairs,
// claims, labels) wait in the import's TEMP table (store.Tx.Stage), encoded
// here: a compact, private encoding read back by the same process in the
// same transaction, so it needs no version.

const (
	queueCopies = iota // secondary copies of QA pairs
	queueClaims
	queueItems // items of kinds of their own that need other items
	queueLabels
	nQueues
)

type encoder []byte

func (e *encoder) int(n int) { *e = binary.AppendVarint(*e, int64(n)) }

func (e *encoder) str(s string) {
	*e = binary.AppendUvarint(*e, uint64(len(s)))
	*e = append(*e, s...)
}

func (e *encoder) bool(b bool) {
	if b {
		e.int(1)
	} else {
		e.int(0)
	}
}

func (e *encoder) strMap(m map[string]string) {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	e.int(len(keys))
	for _, k := range keys {
		e.str(k)
		e.str(m[k])
	}
}

func (e *encoder) loc(file int, at loc) {
	e.int(file)
	e.int(at.line)
	e.int(at.record)
}

var errStaged = errors.New("importer: a staged record does not decode")

type decoder struct {
	b   []byte
	err error
}

func (d *decoder) int() int {
	n, k := binary.Varint(d.b)
	if k <= 0 {
		d.err = errStaged
		return 0
	}
	d.b = d.b[k:]
	return int(n)
}

func (d *decoder) str() string {
	n, k := binary.Uvarint(d.b)
	if k <= 0 || uint64(len(d.b)-k) < n {
		d.err = errStaged
		return ""
	}
	s := string(d.b[k : k+int(n)])
	d.b = d.b[k+int(n):]
	return s
}

func (d *decoder) bool() bool { return d.int() != 0 }

func (d *decoder) strMap() map[string]string {
	n := d.int()
	if n <= 0 || d.err != nil {
		return nil
	}
	m := make(map[string]string, n)
	for range n {
		k := d.str()
		m[k] = d.str()
	}
	return m
}

// loc reads a file index and a place in it; name is the file's name.
func (d *decoder) loc(names func(int) string) (int, loc) {
	file := d.int()
	line, record := d.int(), d.int()
	return file, loc{file: names(file), line: line, record: record}
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

func encodeClaim(file int, c *claimRec) []byte {
	var e encoder
	e.loc(file, c.at)
	for _, s := range []string{c.field, c.idField, c.pairField, c.hash, c.c.ID, c.c.QAID,
		c.c.Triplet[0], c.c.Triplet[1], c.c.Triplet[2], c.c.Text, c.c.Origin, c.c.AddedBy, c.c.Extractor} {
		e.str(s)
	}
	e.int(c.c.Position)
	e.strMap(c.c.Predictions)
	return e
}

func decodeClaim(b []byte, names func(int) string) (int, *claimRec, error) {
	d := decoder{b: b}
	c := &claimRec{}
	file, at := d.loc(names)
	c.at = at
	for _, s := range []*string{&c.field, &c.idField, &c.pairField, &c.hash, &c.c.ID, &c.c.QAID,
		&c.c.Triplet[0], &c.c.Triplet[1], &c.c.Triplet[2], &c.c.Text, &c.c.Origin, &c.c.AddedBy, &c.c.Extractor} {
		*s = d.str()
	}
	c.c.Position = d.int()
	c.c.Predictions = d.strMap()
	return file, c, d.err
}

func encodeLabel(file int, l *labelRec) []byte {
	var e encoder
	e.loc(file, l.at)
	for _, s := range []string{l.field, l.itemField, l.annotator, l.item, l.name, l.value} {
		e.str(s)
	}
	e.bool(l.adjudicate)
	e.bool(l.prediction)
	return e
}

func decodeLabel(b []byte, names func(int) string) (int, *labelRec, error) {
	d := decoder{b: b}
	l := &labelRec{}
	file, at := d.loc(names)
	l.at = at
	for _, s := range []*string{&l.field, &l.itemField, &l.annotator, &l.item, &l.name, &l.value} {
		*s = d.str()
	}
	l.adjudicate = d.bool()
	l.prediction = d.bool()
	return file, l, d.err
}
