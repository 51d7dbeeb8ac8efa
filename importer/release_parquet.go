package importer

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/parquet-go/parquet-go"

	"github.com/annotate-dev/annotate/internal/parquetcheck"
)

// CanLegalRAGBench's data/documents.parquet (release.go): one document per
// row, which needs only citation and text. citation is the document's id
// (and its citation), text its text; when there, name its title,
// original_source its court, year its year, url its url,
// upstream_license its license; is_ground_truth, dataset_source and
// ground_truth_query_ids (a list, or the JSON text of one, as the
// benchmark's build script writes it) are kept with the document under
// those names, as is any other column. Rows are read one batch at a time
// from the file (the footer first, then the pages a batch needs): memory
// does not grow with the file. Errors name the row, counted from 1 like
// lines: "documents.parquet:12: field "year": …".

// The columns of documents.parquet (the release's data card): only
// releaseDocRequired must be there (the benchmark's indexing reads only
// those two), the others are read when they are.
var (
	releaseDocRequired = []string{"citation", "text"}
	releaseDocOptional = []string{"name", "original_source", "year", "url", "upstream_license", "is_ground_truth",
		"dataset_source", "ground_truth_query_ids"}
	releaseDocColumns = append(append([]string{}, releaseDocRequired...), releaseDocOptional...)
)

var parquetMagic = []byte("PAR1")

// openAt opens the input for random access, as Parquet is read.
func openAt(in *input) (io.ReaderAt, func() error, error) {
	if in.path == "" {
		return bytes.NewReader(in.data), func() error { return nil }, nil
	}
	rc, err := in.open()
	if err != nil {
		return nil, nil, err
	}
	f, ok := rc.(*os.File)
	if !ok {
		rc.Close()
		return nil, nil, fmt.Errorf("%s: cannot read this file at random places", in.name)
	}
	return f, f.Close, nil
}

// detectParquet tells a Parquet file by its magic bytes, then
// documents.parquet by its columns. ok: the file is Parquet (err says why
// it is refused, if it is).
func detectParquet(in *input) (format string, ok bool, err error) {
	ra, closeFn, err := openAt(in)
	if err != nil {
		return "", false, err
	}
	defer closeFn()
	head := make([]byte, len(parquetMagic))
	if n, _ := ra.ReadAt(head, 0); n < len(head) || !bytes.Equal(head, parquetMagic) {
		return "", false, nil
	}
	pf, err := openChecked(in.name, ra, in.size)
	if err != nil {
		return "", true, err
	}
	var names []string
	err = recovered(in.name, func() error {
		for _, fd := range pf.Schema().Fields() {
			names = append(names, fd.Name())
		}
		return nil
	})
	if err != nil {
		return "", true, err
	}
	has := func(n string) bool {
		for _, m := range names {
			if m == n {
				return true
			}
		}
		return false
	}
	if has("citation") && has("text") {
		return FormatReleaseDocuments, true, nil
	}
	return "", true, fileLoc(in.name).errf("", "cannot tell the format: a Parquet file with the columns %s; the only Parquet file annotate imports is %s",
		strings.Join(names, ", "), described[FormatReleaseDocuments])
}

// countingReaderAt counts the bytes read as progress.
type countingReaderAt struct {
	r    io.ReaderAt
	prog *progress
}

func (c countingReaderAt) ReadAt(p []byte, off int64) (int, error) {
	n, err := c.r.ReadAt(p, off)
	c.prog.add(int64(n))
	return n, err
}

// pqColumn is a top-level column of a Parquet file.
type pqColumn struct {
	name   string
	leaf   int // its leaf column's index
	list   bool
	maxDef int
	nested bool // a group of several leaves: not read
	leaves []int
}

// parquetColumns lists the top-level columns of s.
func parquetColumns(s *parquet.Schema) []pqColumn {
	var out []pqColumn
	for _, fd := range s.Fields() {
		c := pqColumn{name: fd.Name()}
		var walk func(n parquet.Node, path []string, repeated bool)
		walk = func(n parquet.Node, path []string, repeated bool) {
			repeated = repeated || n.Repeated()
			if n.Leaf() {
				lc, ok := s.Lookup(path...)
				if ok {
					c.leaves = append(c.leaves, lc.ColumnIndex)
					c.leaf, c.maxDef, c.list = lc.ColumnIndex, lc.MaxDefinitionLevel, repeated
				}
				return
			}
			for _, sub := range n.Fields() {
				walk(sub, append(clonePath(path), sub.Name()), repeated)
			}
		}
		walk(fd, []string{fd.Name()}, false)
		c.nested = len(c.leaves) != 1
		out = append(out, c)
	}
	return out
}

func clonePath(p []string) []string { return append([]string(nil), p...) }

// openParquet opens the Parquet file of an import (read at random places,
// its progress counted as it is read); close releases it.
func openParquet(f *fileData) (pf *parquet.File, close func() error, err error) {
	ra, closeFn, err := openAt(f.in)
	if err != nil {
		return nil, nil, err
	}
	pf, err = openChecked(f.name, countingReaderAt{ra, f.in.prog}, f.in.size)
	if err != nil {
		closeFn()
		return nil, nil, err
	}
	return pf, closeFn, nil
}

// openChecked gives the Parquet library a file only once every size it
// declares has been checked (internal/parquetcheck: against the file's
// real size and the limits of docs/formats.md), and never lets the
// library's panic end the import. The page index and bloom filters, which
// nothing here reads, are not opened.
func openChecked(name string, ra io.ReaderAt, size int64) (*parquet.File, error) {
	if err := parquetcheck.Check(ra, size, parquetcheck.Default); err != nil {
		var e *parquetcheck.Error
		if errors.As(err, &e) {
			return nil, fileLoc(name).errf("", "refused: %v", e)
		}
		return nil, fileLoc(name).errf("", "cannot read the Parquet file: %v", err)
	}
	var pf *parquet.File
	err := recovered(name, func() (err error) {
		pf, err = parquet.OpenFile(ra, size, parquet.SkipPageIndex(true), parquet.SkipBloomFilters(true), parquet.ReadBufferSize(256<<10))
		if err != nil {
			return fileLoc(name).errf("", "starts like a Parquet file but cannot be read as one: %v", err)
		}
		return nil
	})
	return pf, err
}

// recovered runs fn, which calls the Parquet library: a panic there (a
// file it cannot read) becomes a refusal naming the file, not the end of
// the process.
func recovered(name string, fn func() error) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fileLoc(name).errf("", "cannot read the Parquet file: the Parquet reader failed on it (%v)", r)
		}
	}()
	return fn()
}

// parseReleaseDocuments reads documents.parquet (t is not used: Parquet is
// read at random places).
func parseReleaseDocuments(f *fileData, _ *textReader) error {
	pf, closeFn, err := openParquet(f)
	if err != nil {
		return err
	}
	defer closeFn()
	at0 := fileLoc(f.name)
	var cols []pqColumn
	var groups []parquet.RowGroup
	if err := recovered(f.name, func() error {
		cols, groups = parquetColumns(pf.Schema()), pf.RowGroups()
		return nil
	}); err != nil {
		return err
	}
	byName := map[string]int{}
	for i, c := range cols {
		byName[c.name] = i
	}
	for _, want := range releaseDocColumns {
		i, ok := byName[want]
		if !ok && contains(releaseDocRequired, want) {
			var names []string
			for _, c := range cols {
				names = append(names, c.name)
			}
			return at0.errf(want, "missing column: documents.parquet needs the columns %s (and reads %s when there); this file has %s",
				strings.Join(releaseDocRequired, " and "), strings.Join(releaseDocOptional, ", "), strings.Join(names, ", "))
		}
		if ok && cols[i].nested {
			return at0.errf(want, "the column is a nested group of %d values per row, not one value or a list", len(cols[i].leaves))
		}
	}
	vals := make([][]parquet.Value, len(pf.Schema().Columns()))
	n := 0 // rows read
	err = f.eachRow(groups, func(row int, values parquet.Row, text func(parquet.Value) string) error {
		n = row
		for i := range vals {
			vals[i] = vals[i][:0]
		}
		for _, v := range values {
			if c := v.Column(); c >= 0 && c < len(vals) {
				vals[c] = append(vals[c], v)
			}
		}
		return f.releaseDocument(lineLoc(f.name, row), cols, vals, text)
	})
	if err != nil {
		return err
	}
	if n == 0 {
		return at0.errf("", "no rows: nothing to import")
	}
	return nil
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// one returns the single value of a column that is not a list; ok false
// when it is null.
func one(vs []parquet.Value) (parquet.Value, bool) {
	if len(vs) == 0 || vs[0].IsNull() {
		return parquet.Value{}, false
	}
	return vs[0], true
}

func pqKind(v parquet.Value) string {
	s := v.String()
	if len(s) > 40 {
		s = s[:40] + "…"
	}
	return fmt.Sprintf("%s %q", v.Kind(), s)
}

// pqString reads a string column.
func pqString(at loc, c pqColumn, vs []parquet.Value, required bool, text func(parquet.Value) string) (string, error) {
	if c.list {
		return "", at.errf(c.name, "want a string, got a list")
	}
	v, ok := one(vs)
	if !ok {
		if required {
			return "", at.errf(c.name, "missing (required): the value is null")
		}
		return "", nil
	}
	if v.Kind() != parquet.ByteArray {
		return "", at.errf(c.name, "want a string, got %s", pqKind(v))
	}
	b := v.ByteArray()
	if len(b) > maxCell {
		return "", at.errf(c.name, "%v", &tooBigCell{int64(len(b))})
	}
	if i := invalidUTF8(b); i >= 0 {
		return "", at.errf(c.name, "invalid UTF-8 at byte %d", i)
	}
	if required && len(b) == 0 {
		return "", at.errf(c.name, "empty (required)")
	}
	return text(v), nil
}

// pqYear reads the year: an integer, a float without a fraction (pandas
// writes a year column with gaps as float64; NaN is unknown), or digits.
func pqYear(at loc, c pqColumn, vs []parquet.Value) (int, error) {
	v, ok := one(vs)
	if c.list {
		return 0, at.errf(c.name, "want a year such as 2019, got a list")
	}
	if !ok {
		return 0, nil
	}
	var y int64
	switch v.Kind() {
	case parquet.Int32, parquet.Int64:
		y = v.Int64()
	case parquet.Float, parquet.Double:
		x := v.Double()
		if v.Kind() == parquet.Float {
			x = float64(v.Float())
		}
		if math.IsNaN(x) {
			return 0, nil
		}
		if x != math.Trunc(x) {
			return 0, at.errf(c.name, "want a year such as 2019, got %v", x)
		}
		y = int64(x)
	case parquet.ByteArray:
		s := strings.TrimSpace(string(v.ByteArray()))
		if s == "" {
			return 0, nil
		}
		var err error
		if y, err = strconv.ParseInt(s, 10, 64); err != nil {
			return 0, at.errf(c.name, "want a year such as 2019, got %q", s)
		}
	default:
		return 0, at.errf(c.name, "want a year such as 2019, got %s", pqKind(v))
	}
	if y < 0 || y > 9999 {
		return 0, at.errf(c.name, "want a year such as 2019, got %d", y)
	}
	return int(y), nil
}

// pqQueryIDs reads ground_truth_query_ids: a list of strings or integers,
// or the JSON text of one.
func pqQueryIDs(at loc, c pqColumn, vs []parquet.Value) ([]string, error) {
	ids := []string{}
	if !c.list {
		v, ok := one(vs)
		if !ok {
			return ids, nil
		}
		if v.Kind() != parquet.ByteArray {
			return nil, at.errf(c.name, "want a list of query ids (or its JSON text), got %s", pqKind(v))
		}
		s := strings.TrimSpace(string(v.ByteArray()))
		if s == "" {
			return ids, nil
		}
		var raw []json.RawMessage
		if err := json.Unmarshal([]byte(s), &raw); err != nil {
			return nil, at.errf(c.name, "want a list of query ids (or its JSON text), got %q", truncate(s, 40))
		}
		for i, e := range raw {
			var str string
			var n int64
			switch {
			case json.Unmarshal(e, &str) == nil:
			case json.Unmarshal(e, &n) == nil:
				str = strconv.FormatInt(n, 10)
			default:
				return nil, at.errf(fmt.Sprintf("%s[%d]", c.name, i), "want a query id (a string or an integer), got %s", kind(e))
			}
			ids = append(ids, str)
		}
		return ids, nil
	}
	for i, v := range vs {
		if v.DefinitionLevel() < c.maxDef {
			if i == 0 && len(vs) == 1 {
				break // a null or empty list
			}
			return nil, at.errf(fmt.Sprintf("%s[%d]", c.name, i), "want a query id, got null")
		}
		switch v.Kind() {
		case parquet.ByteArray:
			ids = append(ids, string(v.ByteArray()))
		case parquet.Int32, parquet.Int64:
			ids = append(ids, strconv.FormatInt(v.Int64(), 10))
		default:
			return nil, at.errf(fmt.Sprintf("%s[%d]", c.name, i), "want a query id (a string or an integer), got %s", pqKind(v))
		}
	}
	for i, id := range ids {
		if err := printable(at, fmt.Sprintf("%s[%d]", c.name, i), "the query id", id); err != nil {
			return nil, err
		}
	}
	return ids, nil
}

func truncate(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	return string([]rune(s)[:n]) + "…"
}

// pqAny reads a column kept as it is, as a JSON value.
func pqAny(at loc, c pqColumn, vs []parquet.Value) (any, error) {
	if !c.list {
		v, ok := one(vs)
		if !ok {
			return nil, nil
		}
		return pqScalar(at, c.name, v)
	}
	out := []any{}
	for i, v := range vs {
		if v.DefinitionLevel() < c.maxDef {
			if i == 0 && len(vs) == 1 {
				break
			}
			out = append(out, nil)
			continue
		}
		x, err := pqScalar(at, fmt.Sprintf("%s[%d]", c.name, i), v)
		if err != nil {
			return nil, err
		}
		out = append(out, x)
	}
	return out, nil
}

func pqScalar(at loc, field string, v parquet.Value) (any, error) {
	switch v.Kind() {
	case parquet.Boolean:
		return v.Boolean(), nil
	case parquet.Int32, parquet.Int64:
		return v.Int64(), nil
	case parquet.Float:
		x := float64(v.Float())
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return nil, nil
		}
		return x, nil
	case parquet.Double:
		x := v.Double()
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return nil, nil
		}
		return x, nil
	case parquet.ByteArray, parquet.FixedLenByteArray:
		b := v.ByteArray()
		if len(b) > maxCell {
			return nil, at.errf(field, "%v", &tooBigCell{int64(len(b))})
		}
		if i := invalidUTF8(b); i >= 0 {
			return nil, at.errf(field, "invalid UTF-8 at byte %d (binary columns are not kept)", i)
		}
		return string(b), nil
	}
	return v.String(), nil
}
