package importer

import (
	"errors"
	"runtime"
	"runtime/debug"
)

// A file is parsed on a goroutine of its own while the records already
// parsed are written, in the file's order, on the import's goroutine: the
// JSON decoding, checks and hashing of a record overlap with the database
// work of the records before it. The writer sees the same records in the
// same order as if it parsed them itself, and the first error in the file's
// order wins: a parse error reaches the writer only after every record
// before it was written, and a write error stops the parser.

// queuedBatch bounds the records parsed ahead of the writer (with the
// channel's depth: a few thousand records, a few MiB).
const queuedBatch = 256

// queued is one parsed record: exactly one of its fields is set.
type queued struct {
	r  kindRow
	l  *labelRec
	it *itemRec
	// written is closed by the writer once the records before it are
	// written (afterBig).
	written chan struct{}
}

// recordQueue is the parser's sink: it hands records to the writer in
// batches.
type recordQueue struct {
	batch []queued
	out   chan []queued
	stop  chan struct{} // closed by the writer when it gives up
	err   error         // the parser's error, read after out is closed
}

func newRecordQueue() *recordQueue {
	return &recordQueue{batch: make([]queued, 0, queuedBatch), out: make(chan []queued, 8), stop: make(chan struct{})}
}

func (q *recordQueue) row(_ *fileData, r kindRow) error     { return q.push(queued{r: r}) }
func (q *recordQueue) label(_ *fileData, l *labelRec) error { return q.push(queued{l: l}) }
func (q *recordQueue) item(_ *fileData, it *itemRec) error  { return q.push(queued{it: it}) }

func (q *recordQueue) push(r queued) error {
	q.batch = append(q.batch, r)
	if len(q.batch) < queuedBatch {
		return nil
	}
	return q.send()
}

// errWriterStopped tells the parser the writer has failed: its error is the
// import's.
var errWriterStopped = errors.New("importer: the writer stopped")

// send hands the batch over.
func (q *recordQueue) send() error {
	if len(q.batch) == 0 {
		return nil
	}
	select {
	case q.out <- q.batch:
		q.batch = make([]queued, 0, queuedBatch)
		return nil
	case <-q.stop:
		return errWriterStopped
	}
}

// afterBig is called by the parser once it has handed on a record of size
// bytes over bigLine (a text of a few MiB, up to 16): it waits until the
// writer has written it before reading on. Queued records are otherwise
// counted, not weighed: thousands of big ones would wait in memory at
// once, and the next big record would be read while the database copies
// this one. Before the wait, the copies the parse made of a record over
// hugeRecord (its line, the pieces it was read in) are given back to the
// system: the collector would keep them until the heap doubled, beside
// the copies the database is about to make.
func (q *recordQueue) afterBig(size int64) error {
	if size > hugeRecord {
		giveBack()
	}
	written := make(chan struct{})
	q.batch = append(q.batch, queued{written: written})
	if err := q.send(); err != nil {
		return err
	}
	select {
	case <-written:
		return nil
	case <-q.stop:
		return errWriterStopped
	}
}

// giveBack returns the memory of what is no longer used to the system.
func giveBack() {
	runtime.GC() // buffers pooled by the Parquet library live one collection more
	debug.FreeOSMemory()
}

// hugeRecord is the size past which a record's copies are given back to
// the system before it is written (afterBig): a forced collection takes a
// few milliseconds, what writing a record of this size takes.
const hugeRecord = 4 << 20

// afterBig is recordQueue.afterBig for the readers of Parquet rows; f.out
// is the writer itself when the file is not read on a goroutine of its own.
func (f *fileData) afterBig(size int64) error {
	if q, ok := f.out.(*recordQueue); ok && size > bigLine {
		return q.afterBig(size)
	}
	return nil
}

// parseWhileWriting runs parse on its own goroutine and writes what it
// parses to out as it comes.
func parseWhileWriting(f *fileData, t *textReader, parse func(*fileData, *textReader) error, out sink) error {
	q := newRecordQueue()
	pf := *f // the parser's view of the file: same summary, records to q
	pf.out = q
	t.afterBig = q.afterBig
	go func() {
		err := parse(&pf, t)
		// The records before a parse error are written before it is told.
		if sendErr := q.send(); err == nil {
			err = sendErr
		}
		q.err = err
		close(q.out)
	}()
	for batch := range q.out {
		for _, r := range batch {
			var err error
			switch {
			case r.written != nil:
				close(r.written)
			case r.r != nil:
				err = out.row(f, r.r)
			case r.it != nil:
				err = out.item(f, r.it)
			default:
				err = out.label(f, r.l)
			}
			if err != nil {
				close(q.stop)
				for range q.out { // let the parser end before its file closes
				}
				return err
			}
		}
	}
	return q.err
}
