package parquetcheck

import (
	"bytes"
	"encoding/binary"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/klauspost/compress/zstd"
	"github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/compress"
	"github.com/parquet-go/parquet-go/format"
)

// -update writes the hostile files into the repository's corpus
// (testdata/hostile/parquet), where the importer's corpus test reads them.
var update = flag.Bool("update", false, "write the hostile Parquet files into testdata/hostile/parquet")

// hostileFile is a file an attacker made and the refusal it must get.
type hostileFile struct {
	name string
	want string // in the error
	data []byte
}

func seedNamed(t testing.TB, name string) []byte {
	for _, s := range seeds {
		if s.name == name {
			return s.write(t)
		}
	}
	t.Fatalf("no seed %s", name)
	return nil
}

// column is the index of a leaf by name in doc's schema.
func column(name string) int {
	for i, p := range parquet.SchemaOf(doc{}).Columns() {
		if strings.Join(p, ".") == name || p[0] == name {
			return i
		}
	}
	panic(name)
}

// levelsLen is the length of a v1 page's definition levels (with their
// 4-byte length).
func levelsLen(body []byte) int { return 4 + int(binary.LittleEndian.Uint32(body)) }

func uvarint(v uint64) []byte { return binary.AppendUvarint(nil, v) }

func hostile(t testing.TB) []hostileFile {
	t.Helper()
	var out []hostileFile
	add := func(name, want string, data []byte) { out = append(out, hostileFile{name, want, data}) }
	edit := func(seedName string, fn func(c *crafted)) []byte {
		c := takeApart(t, seedNamed(t, seedName))
		fn(c)
		return c.bytes(t)
	}
	citation, text, ids := column("citation"), column("text"), column("ground_truth_query_ids")

	// What the issue found believed on main.
	add("dictionary-claims-2^30-values", `field "dictionary_page_header.num_values"`, edit("pyarrow-snappy-v1", func(c *crafted) {
		p := c.pages(t, 0, citation)[0]
		p.header.DictionaryPageHeader.V.NumValues = 1 << 30
		c.setPage(t, 0, citation, 0, p.header, p.body, false)
	}))
	for _, n := range []int32{1 << 30, 1<<31 - 1} {
		add("uncompressed-page-size-"+map[int32]string{1 << 30: "2^30", 1<<31 - 1: "2^31-1"}[n], `field "uncompressed_page_size"`, edit("zstd-v2", func(c *crafted) {
			p := c.pages(t, 0, text)[0]
			p.header.UncompressedPageSize = n
			c.setPage(t, 0, text, 0, p.header, p.body, false)
		}))
	}
	add("root-num-children-minus-3", `field "schema[0].num_children"`, edit("pyarrow-snappy-v1", func(c *crafted) {
		c.md.Schema[0].NumChildren.V = -3
	}))
	add("schema-300000-deep", `field "schema"`, deepSchema(t, 300_000))
	add("schema-10000-deep", `field "schema"`, deepSchema(t, 10_000))
	add("schema-40-deep", `groups nested over 32 deep`, deepSchema(t, 40))

	// Sizes of the footer and the column chunks.
	add("footer-length-beyond-the-file", `field "footer length"`, func() []byte {
		b := seedNamed(t, "zstd-v2")
		binary.LittleEndian.PutUint32(b[len(b)-8:], 0xfffffff0)
		return b
	}())
	add("column-chunk-offset-beyond-the-file", `field "data_page_offset"`, edit("zstd-v2", func(c *crafted) {
		c.md.RowGroups[0].Columns[text].MetaData.DataPageOffset = 1 << 40
	}))
	add("column-chunk-length-2^40", `field "total_compressed_size"`, edit("zstd-v2", func(c *crafted) {
		c.md.RowGroups[0].Columns[text].MetaData.TotalCompressedSize = 1 << 40
	}))
	add("file-num-rows-negative", `field "num_rows"`, edit("zstd-v2", func(c *crafted) { c.md.NumRows = -1 }))
	add("row-group-num-rows-2^40", `field "num_rows"`, edit("zstd-v2", func(c *crafted) { c.md.RowGroups[0].NumRows = 1 << 40 }))
	add("column-chunk-num-values-above-its-pages", `field "num_values"`, edit("zstd-v2", func(c *crafted) {
		c.md.RowGroups[1].Columns[ids].MetaData.NumValues += 1000
	}))
	add("fixed-length-column-of-2^30-bytes", `field "schema[1].type_length"`, edit("zstd-v2", func(c *crafted) {
		c.md.Schema[1].Type.V = format.FixedLenByteArray
		c.md.Schema[1].TypeLength.V, c.md.Schema[1].TypeLength.Valid = 1<<30, true
	}))
	add("20000-columns", `field "schema"`, func() []byte {
		c := takeApart(t, seedNamed(t, "zstd-v2"))
		c.md.RowGroups, c.md.NumRows = nil, 0
		c.md.Schema[0].NumChildren.V = 20_000
		for len(c.md.Schema) < 20_001 {
			c.md.Schema = append(c.md.Schema, c.md.Schema[1])
		}
		return c.bytes(t)
	}())

	// Page headers.
	add("data-page-claims-2^30-values", `field "num_values"`, edit("pyarrow-snappy-v1", func(c *crafted) {
		p := c.pages(t, 0, text)[0]
		p.header.DataPageHeader.V.NumValues = 1 << 30
		c.setPage(t, 0, text, 0, p.header, p.body, false)
	}))
	add("page-longer-than-its-column-chunk", `field "compressed_page_size"`, edit("pyarrow-snappy-v1", func(c *crafted) {
		p := c.pages(t, 0, text)[0]
		p.header.CompressedPageSize = 8 << 20
		c.setPage(t, 0, text, 0, p.header, p.body, true)
	}))

	// Page bodies: what the codec and the run-length headers declare.
	add("definition-levels-run-of-2^30", `field "definition levels"`, edit("gzip-v1", func(c *crafted) {
		p := c.pages(t, 0, text)[0]
		plain := gunzip(t, p.body)
		levels := append(uvarint(1<<31), 1) // an RLE run of 2^30 ones
		body := binary.LittleEndian.AppendUint32(nil, uint32(len(levels)))
		body = append(append(body, levels...), plain[levelsLen(plain):]...)
		p.header.UncompressedPageSize = int32(len(body))
		c.setPage(t, 0, text, 0, p.header, gzipped(t, body), false)
	}))
	add("dictionary-indices-run-of-2^30", `dictionary indices`, edit("gzip-v1", func(c *crafted) {
		pp := c.pages(t, 0, citation)
		p := pp[len(pp)-1]
		plain := gunzip(t, p.body)
		k := levelsLen(plain)
		body := append(append(append([]byte(nil), plain[:k]...), 4), append(uvarint(1<<31), 0)...)
		p.header.UncompressedPageSize = int32(len(body))
		c.setPage(t, 0, citation, len(pp)-1, p.header, gzipped(t, body), false)
	}))
	add("zstd-page-that-decompresses-to-30-MiB", `decompresses to`, edit("zstd-v2", func(c *crafted) {
		p := c.pages(t, 0, text)[0]
		h := p.header.DataPageHeaderV2.V
		k := int(h.DefinitionLevelsByteLength + h.RepetitionLevelsByteLength)
		enc, _ := zstd.NewWriter(nil)
		bomb := enc.EncodeAll(make([]byte, 30<<20), nil)
		c.setPage(t, 0, text, 0, p.header, append(append([]byte(nil), p.body[:k]...), bomb...), false)
	}))
	add("snappy-page-that-declares-1-GiB", `decompresses to`, edit("pyarrow-snappy-v1", func(c *crafted) {
		p := c.pages(t, 0, text)[0]
		body := append(uvarint(1<<30), p.body[len(uvarint(uint64(p.header.UncompressedPageSize))):]...)
		c.setPage(t, 0, text, 0, p.header, body, false)
	}))

	// Real pages, too many at once.
	add("three-columns-of-20-MiB-pages", `side by side`, func() []byte {
		// documents.parquet's columns, three of them holding a page of
		// 20 MiB each (zstd makes the file small).
		type wide struct {
			Citation string `parquet:"citation"`
			Name     string `parquet:"name"`
			Text     string `parquet:"text"`
			Court    string `parquet:"original_source"`
			Year     int64  `parquet:"year"`
			URL      string `parquet:"url"`
			License  string `parquet:"upstream_license"`
			Truth    bool   `parquet:"is_ground_truth"`
			Source   string `parquet:"dataset_source"`
			QueryIDs string `parquet:"ground_truth_query_ids"`
		}
		c := takeApart(t, write(t, []wide{{Citation: "a", Name: "b", Text: "c"}}, &parquet.Zstd, parquet.DataPageVersion(2)))
		big := make([]byte, 20<<20) // one PLAIN value of 20 MiB - 4 bytes
		binary.LittleEndian.PutUint32(big, uint32(len(big)-4))
		enc, _ := zstd.NewWriter(nil)
		body := enc.EncodeAll(big, nil)
		for col := 0; col < 3; col++ {
			p := c.pages(t, 0, col)[0]
			p.header.UncompressedPageSize = int32(len(big))
			p.header.DataPageHeaderV2.V.Encoding = format.Plain
			p.header.DataPageHeaderV2.V.DefinitionLevelsByteLength = 0
			p.header.DataPageHeaderV2.V.RepetitionLevelsByteLength = 0
			c.setPage(t, 0, col, 0, p.header, body, false)
		}
		return c.bytes(t)
	}())
	add("a-row-of-20000-list-elements", `list elements`, func() []byte {
		d := docs(1)
		for i := 0; i < 20_000; i++ {
			d[0].QueryIDs = append(d[0].QueryIDs, "q")
		}
		return write(t, d, &parquet.Snappy)
	}())
	return out
}

func write[T any](t testing.TB, rows []T, codec compress.Codec, opts ...parquet.WriterOption) []byte {
	t.Helper()
	var buf bytes.Buffer
	w := parquet.NewGenericWriter[T](&buf, append(opts, parquet.Compression(codec))...)
	if _, err := w.Write(rows); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func gunzip(t testing.TB, b []byte) []byte {
	t.Helper()
	out, err := parquet.Gzip.Decode(nil, b)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func gzipped(t testing.TB, b []byte) []byte {
	t.Helper()
	out, err := parquet.Gzip.Encode(nil, b)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// writeCorpus writes the files (-update).
func writeCorpus(t *testing.T, files []hostileFile) {
	dir := filepath.Join("..", "..", "testdata", "hostile", "parquet")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, h := range files {
		if err := os.WriteFile(filepath.Join(dir, h.name+".parquet"), h.data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}
