package exporter

import (
	"sync"

	"github.com/klauspost/compress/zstd"
	"github.com/parquet-go/parquet-go/format"
)

// pageCodec compresses the Parquet pages: zstd at its fastest level, with
// the options of parquet-go's own zstd codec, but a window of 1 MiB where
// zstd's default is 8 MiB, and one encoder kept for the export. zstd's
// encoder holds a history twice its window (16 MiB at the default, a
// third of the heap of a million-claim export), and parquet-go's codec
// keeps its encoders in a pool that the garbage collector empties, so a
// new 16 MiB history was made again and again. A page is at most a few
// hundred KiB (the writer's page buffer, 256 KiB): the window reaches no
// further back than the page's start either way, and the bytes written are
// the same (TestPageCodecIsParquetGos).
type pageCodec struct {
	once sync.Once
	mu   sync.Mutex
	enc  *zstd.Encoder
	dec  *zstd.Decoder
	err  error
}

// pageWindow is the encoder's window; pages up to it compress to the same
// bytes as with zstd's default window.
const pageWindow = 1 << 20

func (c *pageCodec) String() string                            { return "ZSTD" }
func (c *pageCodec) CompressionCodec() format.CompressionCodec { return format.Zstd }

func (c *pageCodec) init() {
	c.enc, c.err = zstd.NewWriter(nil, zstd.WithEncoderConcurrency(1), zstd.WithEncoderLevel(zstd.SpeedFastest),
		zstd.WithZeroFrames(true), zstd.WithEncoderCRC(false), zstd.WithWindowSize(pageWindow), zstd.WithLowerEncoderMem(true))
	if c.err == nil {
		c.dec, c.err = zstd.NewReader(nil, zstd.WithDecoderConcurrency(1))
	}
}

func (c *pageCodec) Encode(dst, src []byte) ([]byte, error) {
	c.once.Do(c.init)
	if c.err != nil {
		return dst, c.err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.enc.EncodeAll(src, dst[:0]), nil
}

func (c *pageCodec) Decode(dst, src []byte) ([]byte, error) {
	c.once.Do(c.init)
	if c.err != nil {
		return dst, c.err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.dec.DecodeAll(src, dst[:0])
}
