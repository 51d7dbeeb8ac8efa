package store

import "math/bits"

// idSet is a set of item ids, one bit each: an import touches millions.
type idSet struct{ words []uint64 }

func (s *idSet) add(id int64) {
	w := int(id >> 6)
	if w >= len(s.words) {
		s.words = append(s.words, make([]uint64, w+1-len(s.words)+len(s.words)/4)...)
	}
	s.words[w] |= 1 << (id & 63)
}

func (s *idSet) has(id int64) bool {
	w := int(id >> 6)
	return id >= 0 && w < len(s.words) && s.words[w]&(1<<(id&63)) != 0
}

// each calls fn with the ids in increasing order, n at a time.
func (s *idSet) each(n int, fn func(ids []int64) error) error {
	buf := make([]int64, 0, n)
	for w, word := range s.words {
		for word != 0 {
			b := bits.TrailingZeros64(word)
			word &^= 1 << b
			buf = append(buf, int64(w)<<6|int64(b))
			if len(buf) == n {
				if err := fn(buf); err != nil {
					return err
				}
				buf = buf[:0]
			}
		}
	}
	if len(buf) > 0 {
		return fn(buf)
	}
	return nil
}

func (s *idSet) empty() bool {
	for _, w := range s.words {
		if w != 0 {
			return false
		}
	}
	return true
}
