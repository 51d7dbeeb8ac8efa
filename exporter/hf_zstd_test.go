package exporter

import (
	"bytes"
	"math/rand/v2"
	"testing"

	"github.com/parquet-go/parquet-go/compress/zstd"
)

// The page codec writes the bytes parquet-go's zstd codec at the same level
// writes, for pages up to its window: text that repeats (as a column of
// contexts does), incompressible bytes, and sizes around zstd's block size
// (128 KiB) and the writer's page buffer (256 KiB); and reads them back.
func TestPageCodecIsParquetGos(t *testing.T) {
	theirs := &zstd.Codec{Level: zstd.SpeedFastest}
	var ours pageCodec
	r := rand.New(rand.NewPCG(31, 5))
	words := []string{"the controller ", "shall ", "personal data ", "processing ", "lawfully, ", "Article 5 ", "§ ", "données "}
	for _, size := range []int{0, 1, 100, 4 << 10, 128<<10 - 1, 128 << 10, 128<<10 + 1, 200 << 10, 256 << 10, 300 << 10, pageWindow - 1, pageWindow} {
		for _, random := range []bool{false, true} {
			src := make([]byte, 0, size)
			for len(src) < size {
				if random {
					src = append(src, byte(r.Uint32()))
				} else {
					src = append(src, words[r.IntN(len(words))]...)
				}
			}
			src = src[:size]
			want, err := theirs.Encode(nil, src)
			if err != nil {
				t.Fatal(err)
			}
			got, err := ours.Encode(make([]byte, 0, 10), src)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got, want) {
				t.Errorf("%d bytes (random %v): %d bytes compressed, parquet-go's codec %d", size, random, len(got), len(want))
			}
			back, err := ours.Decode(nil, got)
			if err != nil || !bytes.Equal(back, src) {
				t.Errorf("%d bytes (random %v): read back %d bytes, %v", size, random, len(back), err)
			}
		}
	}
}
