package parquetcheck

import (
	"bytes"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/compress"
)

// doc is a row shaped as pandas writes CanLegalRAGBench's documents.parquet
// through pyarrow: optional strings (dictionary-encoded where repetitive),
// a float year with gaps, a boolean and a list of query ids.
type doc struct {
	Citation *string  `parquet:"citation,optional,dict"`
	Name     *string  `parquet:"name,optional"`
	Court    *string  `parquet:"original_source,optional,dict"`
	Year     *float64 `parquet:"year,optional"`
	Text     *string  `parquet:"text,optional"`
	URL      *string  `parquet:"url,optional"`
	License  *string  `parquet:"upstream_license,optional,dict"`
	Truth    *bool    `parquet:"is_ground_truth,optional"`
	Source   *string  `parquet:"dataset_source,optional,dict"`
	QueryIDs []string `parquet:"ground_truth_query_ids,list"`
}

func sp(s string) *string { return &s }

func docs(n int) []doc {
	out := make([]doc, n)
	for i := range out {
		y := float64(2000 + i%20)
		tr := i%3 == 0
		out[i] = doc{Citation: sp(fmt.Sprintf("2019 SCC %d", i+1)), Name: sp("R v. Someone"), Court: sp("SCC"),
			Text: sp(strings.Repeat("The court held that the appeal is allowed. ", i%7+1)), Truth: &tr,
			URL: sp("https://www.canlii.org/en/ca/scc/doc/2019/"), License: sp("unofficial reproduction"), Source: sp("caseway")}
		if i%4 != 0 {
			out[i].Year = &y
		}
		for k := 0; k < i%3; k++ {
			out[i].QueryIDs = append(out[i].QueryIDs, "q"+strings.Repeat("7", k+1))
		}
	}
	return out
}

// seed is one way of writing the same rows.
type seed struct {
	name    string
	codec   compress.Codec
	version int // data page version
	rows    int // per row group
}

var seeds = []seed{
	{"pyarrow-snappy-v1", &parquet.Snappy, 1, 50},
	{"zstd-v2", &parquet.Zstd, 2, 64},
	{"gzip-v1", &parquet.Gzip, 1, 30},
	{"none-v2", &parquet.Uncompressed, 2, 1000},
	{"lz4-v1", &parquet.Lz4Raw, 1, 40},
	{"brotli-v2", &parquet.Brotli, 2, 25},
}

// Seed writes 120 documents as s says.
func (s seed) write(t testing.TB) []byte {
	t.Helper()
	var buf bytes.Buffer
	w := parquet.NewGenericWriter[doc](&buf, parquet.Compression(s.codec), parquet.DataPageVersion(s.version),
		parquet.MaxRowsPerRowGroup(int64(s.rows)), parquet.PageBufferSize(512))
	if _, err := w.Write(docs(120)); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func TestRealFilesPass(t *testing.T) {
	for _, s := range seeds {
		b := s.write(t)
		if err := Check(bytes.NewReader(b), int64(len(b)), Default); err != nil {
			t.Errorf("%s: %v", s.name, err)
		}
	}
}

// A hostile file is refused naming where.
func TestDeclaredSizesAreChecked(t *testing.T) {
	lim := Default
	files := hostile(t)
	if *update {
		writeCorpus(t, files)
	}
	for _, c := range files {
		err := Check(bytes.NewReader(c.data), int64(len(c.data)), lim)
		var e *Error
		if !errors.As(err, &e) {
			t.Errorf("%s: want a refusal, got %v", c.name, err)
			continue
		}
		if !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v\nwant it to say %q", c.name, err, c.want)
		}
	}
}
