package exporter

import "iter"

// readAhead runs seq on a goroutine of its own, a few batches of values
// ahead of the consumer: the store's reading of rows (SQLite's and the
// driver's work, more than half of a large csv, jsonl or hf export) on one
// core, the rows' formatting and writing on the other. The values, their
// order and the first error are seq's own (TestReadAheadIsTheStream).
//
// Only for a stream that allocates every value it yields (the store's
// ExportClaim and ExportQA streams): the consumer holds values the
// producer has moved past. Memory stays flat: at most aheadBatches+2
// batches are in flight. When the consumer stops early, the producer is
// told to stop at its next batch and waited for, so seq's rows are closed
// before readAhead returns.
func readAhead[T any](seq iter.Seq2[T, error]) iter.Seq2[T, error] {
	return func(yield func(T, error) bool) {
		type batch struct {
			vals []T
			err  error
		}
		ch := make(chan batch, aheadBatches)
		stop, done := make(chan struct{}), make(chan struct{})
		go func() {
			defer close(done)
			defer close(ch)
			send := func(b batch) bool {
				select {
				case ch <- b:
					return true
				case <-stop:
					return false
				}
			}
			b := make([]T, 0, aheadBatch)
			for v, err := range seq {
				if err != nil {
					send(batch{vals: b, err: err})
					return
				}
				if b = append(b, v); len(b) == aheadBatch {
					if !send(batch{vals: b}) {
						return
					}
					b = make([]T, 0, aheadBatch)
				}
			}
			send(batch{vals: b})
		}()
		defer func() {
			close(stop)
			for range ch {
			}
			<-done
		}()
		for b := range ch {
			for _, v := range b.vals {
				if !yield(v, nil) {
					return
				}
			}
			if b.err != nil {
				var zero T
				yield(zero, b.err)
				return
			}
		}
	}
}

// A batch amortises the channel's cost over many rows; a few batches keep
// both cores busy through the unevenness of rows.
const (
	aheadBatch   = 256
	aheadBatches = 4
)
