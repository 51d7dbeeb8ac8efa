package parquetcheck

import (
	"encoding/binary"
	"fmt"
)

// The delta encodings (parquet-go writes strings as DELTA_LENGTH_BYTE_ARRAY)
// declare a count of values in their header, which the library allocates
// for, and byte arrays the sum of their lengths, which it allocates too:
// both are held to the page.

const (
	encDeltaBinary = 5
	encDeltaLength = 6
	encDeltaBytes  = 7
)

// deltaStream walks a DELTA_BINARY_PACKED stream of at most n values and
// returns the bytes it takes; each, if not nil, gets every value (as the
// library decodes lengths: 32-bit, wrapping).
func deltaStream(data []byte, n int64, each func(v int32)) (int, error) {
	i := 0
	next := func(what string) (uint64, error) {
		u, w := binary.Uvarint(data[i:])
		if w <= 0 {
			return 0, fmt.Errorf("a bad %s in a delta header", what)
		}
		i += w
		return u, nil
	}
	block, err := next("block size")
	if err != nil {
		return 0, err
	}
	minis, err := next("miniblock count")
	if err != nil {
		return 0, err
	}
	total, err := next("value count")
	if err != nil {
		return 0, err
	}
	first, err := next("first value")
	if err != nil {
		return 0, err
	}
	if block == 0 || block%128 != 0 || block > 1<<16 || minis == 0 || block%minis != 0 || (block/minis)%32 != 0 {
		return 0, fmt.Errorf("a delta block of %d values in %d miniblocks", block, minis)
	}
	if total > uint64(n) {
		return 0, fmt.Errorf("a delta header declares %d values, in a page of %d", total, n)
	}
	if total == 0 {
		return i, nil
	}
	v := int32(int64(first>>1) ^ -int64(first&1))
	if each != nil {
		each(v)
	}
	perMini := int(block / minis)
	left := int64(total) - 1
	for left > 0 {
		md, w := binary.Uvarint(data[i:])
		if w <= 0 {
			return 0, fmt.Errorf("the page ends inside a delta block")
		}
		i += w
		minDelta := int32(int64(md>>1) ^ -int64(md&1))
		if int(minis) > len(data)-i {
			return 0, fmt.Errorf("the page ends inside a delta block")
		}
		widths := data[i : i+int(minis)]
		i += int(minis)
		for _, bw := range widths {
			if left <= 0 {
				break
			}
			if bw > 64 {
				return 0, fmt.Errorf("delta values of %d bits", bw)
			}
			size := perMini * int(bw) / 8
			if size > len(data)-i {
				return 0, fmt.Errorf("the page ends inside a delta miniblock")
			}
			if each != nil {
				k := min(int64(perMini), left)
				unpack(data[i:i+size], int(bw), k, func(d uint64, _ int64) {
					v += minDelta + int32(d)
					each(v)
				})
			}
			left -= int64(perMini)
			i += size
		}
	}
	return i, nil
}

// deltaLengths walks the lengths of DELTA_LENGTH_BYTE_ARRAY (or a prefix
// stream), refusing a negative one; it returns the bytes the stream takes
// and the lengths' sum.
func deltaLengths(data []byte, n int64, what string) (int, int64, error) {
	var sum int64
	neg := false
	k, err := deltaStream(data, n, func(v int32) {
		if v < 0 {
			neg = true
		}
		sum += int64(v)
	})
	if err != nil {
		return 0, 0, err
	}
	if neg {
		return 0, 0, fmt.Errorf("a negative %s", what)
	}
	return k, sum, nil
}

// deltaValues checks the values of a delta-encoded page: the counts its
// headers declare are the page's, and byte arrays fit in limit bytes.
func deltaValues(enc int32, values []byte, n int64, limit int64) error {
	switch enc {
	case encDeltaBinary:
		_, err := deltaStream(values, n, nil)
		return err
	case encDeltaLength:
		k, sum, err := deltaLengths(values, n, "length")
		if err != nil {
			return err
		}
		if sum > int64(len(values)-k) {
			return fmt.Errorf("lengths that add up to %d bytes, in a page of %d", sum, len(values))
		}
	case encDeltaBytes:
		k, prefixes, err := deltaLengths(values, n, "prefix length")
		if err != nil {
			return err
		}
		k2, suffixes, err := deltaLengths(values[k:], n, "suffix length")
		if err != nil {
			return err
		}
		if suffixes > int64(len(values)-k-k2) {
			return fmt.Errorf("suffixes that add up to %d bytes, in a page of %d", suffixes, len(values))
		}
		if prefixes+suffixes > limit {
			return fmt.Errorf("values that add up to %s, over the limit of %s a page", mib(prefixes+suffixes), mib(limit))
		}
	}
	return nil
}
