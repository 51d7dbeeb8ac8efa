package importer

import (
	"bytes"
	"encoding/binary"
	"errors"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/compress"

	"github.com/annotate-dev/annotate/store"
)

// The Parquet reader under attack: any bytes given as documents.parquet are
// imported or refused with an error naming the file; the Parquet library's
// panics never reach the caller, and nothing allocates what a file merely
// declares. FuzzParquet explores (go test -fuzz FuzzParquet ./importer/);
// TestParquetMutations runs a fixed set of deterministic mutations of the
// same seeds on every go test.

// parquetSeeds are documents.parquet as pandas writes it through pyarrow
// (snappy, data pages v1, dictionaries on repetitive columns) and as
// parquet-go writes it (zstd, pages v2, delta-encoded strings), and the
// other codecs a file may use.
func parquetSeeds(t testing.TB) [][]byte {
	t.Helper()
	var out [][]byte
	for _, c := range []struct {
		codec   compress.Codec
		version int
	}{{&parquet.Snappy, 1}, {&parquet.Zstd, 2}, {&parquet.Gzip, 1}, {&parquet.Uncompressed, 2}, {&parquet.Lz4Raw, 1}, {&parquet.Brotli, 2}} {
		var buf bytes.Buffer
		w := parquet.NewGenericWriter[releaseDoc](&buf, parquet.Compression(c.codec), parquet.DataPageVersion(c.version),
			parquet.MaxRowsPerRowGroup(2))
		if _, err := w.Write(releaseDocs); err != nil {
			t.Fatal(err)
		}
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
		out = append(out, buf.Bytes())
	}
	return out
}

// parquetBudget bounds what one hostile file may make the import allocate
// in all (peak memory is at most that).
const parquetBudget = 200 << 20

// importParquetBytes imports data as documents.parquet into s and checks
// the outcome: imported, or refused naming the file.
func importParquetBytes(t *testing.T, s *store.Store, dir string, data []byte) error {
	t.Helper()
	p := filepath.Join(dir, "documents.parquet")
	if err := os.WriteFile(p, data, 0o644); err != nil {
		t.Fatal(err)
	}
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	_, err := Import(s, []string{p}, Options{Format: FormatReleaseDocuments, Update: true})
	runtime.ReadMemStats(&after)
	if err != nil {
		var ie *InputError
		if !errors.As(err, &ie) || ie.File != p {
			t.Fatalf("a refusal that does not name the file: %v", err)
		}
	}
	if n := after.TotalAlloc - before.TotalAlloc; n > parquetBudget {
		t.Fatalf("the import allocated %d MiB (%v)", n>>20, err)
	}
	return err
}

func FuzzParquet(f *testing.F) {
	for _, b := range parquetSeeds(f) {
		f.Add(b)
	}
	s := openDB(f)
	dir := f.TempDir()
	f.Fuzz(func(t *testing.T, data []byte) { _ = importParquetBytes(t, s, dir, data) })
}

// mutate changes b as a fuzzer would, where an attacker aims: a byte of
// the footer (its sizes, counts and offsets) or of a page, set to an
// extreme or flipped, or a run of bytes overwritten with a huge varint.
func mutate(r *rand.Rand, b []byte) []byte {
	b = append([]byte(nil), b...)
	footer := int(binary.LittleEndian.Uint32(b[len(b)-8:]))
	lo := 4
	if footer > 0 && footer < len(b)-12 && r.IntN(3) > 0 {
		lo = len(b) - 8 - footer // in the footer, two times in three
	}
	at := lo + r.IntN(len(b)-8-lo)
	switch r.IntN(4) {
	case 0:
		b[at] ^= 1 << r.IntN(8)
	case 1:
		b[at] = []byte{0x00, 0x7f, 0x80, 0xff}[r.IntN(4)]
	case 2:
		huge := binary.AppendUvarint(nil, 1<<(20+r.IntN(43)))
		copy(b[at:], huge)
	default:
		b[at] = byte(r.IntN(256))
	}
	return b
}

func TestParquetMutations(t *testing.T) {
	seeds := parquetSeeds(t)
	s := openDB(t)
	dir := t.TempDir()
	r := rand.New(rand.NewPCG(27, 1))
	refused := 0
	for i := 0; i < 600; i++ {
		data := seeds[i%len(seeds)]
		for k := 1 + r.IntN(3); k > 0; k-- {
			data = mutate(r, data)
		}
		if importParquetBytes(t, s, dir, data) != nil {
			refused++
		}
	}
	// Most mutations must be refused: a check that lets everything through
	// would pass the test above only by luck.
	if refused < 300 {
		t.Errorf("only %d of 600 mutated files refused", refused)
	}
	t.Logf("%d of 600 mutated files refused", refused)
}

// A text cell over the limit of one value is refused naming its row and
// column; pages up to the page limit are read.
func TestParquetCellOverTheLimit(t *testing.T) {
	docs := []releaseDoc{releaseDocs[0], releaseDocs[1]}
	docs[1].Text = sp(strings.Repeat("x", maxCell+1))
	// Without min and max values of the text in the footer, as pyarrow
	// leaves out those of long values (parquet-go writes them whole).
	p := filepath.Join(t.TempDir(), "documents.parquet")
	var buf bytes.Buffer
	w := parquet.NewGenericWriter[releaseDoc](&buf, parquet.Compression(&parquet.Snappy), parquet.SkipPageBounds("text"))
	if _, err := w.Write(docs); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	s := openDB(t)
	_, err := Import(s, []string{p}, Options{})
	want := p + `:2: field "text": a value of 16.0 MiB, over the 16 MiB limit of one value`
	if err == nil || err.Error() != want {
		t.Fatalf("got %v\nwant %s", err, want)
	}
	if n := count(t, s, "SELECT count(*) FROM items"); n != 0 {
		t.Errorf("%d items written", n)
	}
}
