package importer

import (
	"encoding/binary"
	"errors"
	"sort"
)

// Records that wait for what they need (an item for its parent, a label
// for its item) wait in the import's TEMP table (store.Tx.Stage), in a
// queue each, encoded here: a compact, private encoding read back by the
// same process in the same transaction, so it needs no version. A kind of
// records of its own takes queues of its own (newQueue, in its files).

// nQueues counts the queues taken so far.
var nQueues int

// newQueue takes a queue: called in the initialisation of package
// variables, before any import.
func newQueue() int {
	nQueues++
	return nQueues - 1
}

var (
	queueItems  = newQueue() // native items that need other items
	queueLabels = newQueue()
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
