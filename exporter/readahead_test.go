package exporter

import (
	"errors"
	"fmt"
	"iter"
	"math/rand/v2"
	"slices"
	"testing"
)

// numbers yields 0..n-1, then err if any; closed reports that the stream
// ran its cleanup (as the store's rows.Close does).
func numbers(n int, err error, closed *bool) iter.Seq2[*int, error] {
	return func(yield func(*int, error) bool) {
		defer func() { *closed = true }()
		for i := range n {
			v := i
			if !yield(&v, nil) {
				return
			}
		}
		if err != nil {
			yield(nil, err)
		}
	}
}

// collect ranges over seq, stopping after stopAfter values (-1: never).
func collect(seq iter.Seq2[*int, error], stopAfter int) (vals []int, err error) {
	for v, e := range seq {
		if e != nil {
			return vals, e
		}
		if len(vals) == stopAfter {
			break
		}
		vals = append(vals, *v)
	}
	return vals, nil
}

// Read ahead, a stream gives the same values, the same error at the same
// place, and is closed when the consumer stops early: over lengths around
// the batch sizes and random ones.
func TestReadAheadIsTheStream(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	lengths := []int{0, 1, aheadBatch - 1, aheadBatch, aheadBatch + 1, aheadBatch * aheadBatches, aheadBatch*(aheadBatches+3) + 7}
	for range 40 {
		lengths = append(lengths, r.IntN(5000))
	}
	boom := errors.New("row 17: bad value")
	for _, n := range lengths {
		for _, fail := range []error{nil, boom} {
			stopAt := -1
			if r.IntN(3) == 0 && n > 0 {
				stopAt = r.IntN(n)
			}
			t.Run(fmt.Sprint(n, fail != nil, stopAt), func(t *testing.T) {
				var closedPlain, closedAhead bool
				want, wantErr := collect(numbers(n, fail, &closedPlain), stopAt)
				got, gotErr := collect(readAhead(numbers(n, fail, &closedAhead)), stopAt)
				if !slices.Equal(got, want) {
					t.Fatalf("read ahead gave %d values, the stream %d", len(got), len(want))
				}
				if gotErr != wantErr {
					t.Fatalf("error %v, want %v", gotErr, wantErr)
				}
				if !closedAhead {
					t.Fatal("the stream was not closed when readAhead returned")
				}
			})
		}
	}
}
