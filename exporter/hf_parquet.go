package exporter

import (
	"encoding/json"
	"fmt"
	"io"
	"reflect"
	"strings"

	"github.com/parquet-go/parquet-go"
)

// The Parquet data files of the hf folder (data/<config>/<split>.parquet).
// Each config's columns become a Go struct type built at run time (one
// field per column, with the parquet tags of its feature), so parquet-go
// derives the file's schema from the same column table the JSON Lines
// writer and the card use. Rows are written one at a time and flushed in
// row groups of parquetGroupRows, so memory does not grow with the data.
//
// Physical types: strings are BYTE_ARRAY (STRING), ints and class_label
// codes INT64, floats DOUBLE, lists the standard three-level LIST, contexts a LIST of
// {id, text}, predictions a group of optional strings, one per system.
// Nullable columns are OPTIONAL, every other one REQUIRED. The file also
// carries the features as `datasets` writes them (key "huggingface"), so
// the label names survive even where the card is not read.

const parquetGroupRows = 8192

// zstdFast compresses the pages: zstd at its fastest level (every reader
// of Parquet, pyarrow included, reads it), several times smaller than the
// JSON Lines and faster to write than zstd's default level; with a small
// window (hf_zstd.go).
var zstdFast pageCodec

type contextUnit struct {
	ID   string `parquet:"id" json:"id"`
	Text string `parquet:"text" json:"text"`
}

var (
	tyString   = reflect.TypeFor[string]()
	tyStringP  = reflect.TypeFor[*string]()
	tyInt      = reflect.TypeFor[int64]()
	tyIntP     = reflect.TypeFor[*int64]()
	tyFloat    = reflect.TypeFor[float64]()
	tyFloatP   = reflect.TypeFor[*float64]()
	tyBool     = reflect.TypeFor[bool]()
	tyStrings  = reflect.TypeFor[[]string]()
	tyContexts = reflect.TypeFor[[]contextUnit]()
)

// parquetRows writes the rows of one config.
type parquetRows struct {
	w      *parquet.Writer
	typ    reflect.Type
	cols   []Column
	feats  []feature
	val    reflect.Value // reused row value
	preds  reflect.Type  // the predictions struct, when there are systems
	config string
	// the last JSON value decoded per column, and what it gave
	lastRaw []json.RawMessage
	lastVal []reflect.Value
}

func newParquetRows(out io.Writer, config string, l layout, feats []feature, systems []string) (*parquetRows, error) {
	p := &parquetRows{cols: l.cols, config: config, feats: feats,
		lastRaw: make([]json.RawMessage, len(l.cols)), lastVal: make([]reflect.Value, len(l.cols))}
	fields := make([]reflect.StructField, len(l.cols))
	for i, c := range l.cols {
		f := feats[i]
		if strings.ContainsAny(c.Key, ",\"`") {
			return nil, fmt.Errorf("config %s: column %q: not a Parquet column name", config, c.Key)
		}
		tag := c.Key
		var t reflect.Type
		switch {
		case c.Type == tPreds && len(systems) > 0:
			var sf []reflect.StructField
			for j, s := range systems {
				if strings.ContainsAny(s, ",\"`") {
					return nil, fmt.Errorf("config %s: system %q: not a Parquet column name (no commas or quotes)", config, s)
				}
				sf = append(sf, reflect.StructField{Name: fmt.Sprintf("S%d", j), Type: tyStringP, Tag: reflect.StructTag(`parquet:"` + s + `,optional"`)})
			}
			p.preds = reflect.StructOf(sf)
			t, tag = reflect.PointerTo(p.preds), tag+",optional"
		case c.Type == tPreds:
			t, tag = tyStringP, tag+",optional"
		case f.dtype == "int64" || f.classes != nil:
			t = tyInt
			if c.Nullable {
				t, tag = tyIntP, tag+",optional"
			}
		case f.dtype == "bool":
			t = tyBool
		case f.dtype == "float64":
			t = tyFloat
			if c.Nullable {
				t, tag = tyFloatP, tag+",optional"
			}
		case f.dtype == "string":
			t = tyString
			if c.Nullable {
				t, tag = tyStringP, tag+",optional"
			}
		case c.Type == tContexts:
			t, tag = tyContexts, tag+",list"
		default: // a list of strings
			t, tag = tyStrings, tag+",list"
			if c.Nullable {
				tag += ",optional"
			}
		}
		fields[i] = reflect.StructField{Name: fmt.Sprintf("C%d", i), Type: t, Tag: reflect.StructTag(`parquet:"` + tag + `"`)}
	}
	p.typ = reflect.StructOf(fields)
	p.val = reflect.New(p.typ)
	hf, err := hfMetadata(l.cols, p.feats)
	if err != nil {
		return nil, err
	}
	sch := parquet.SchemaOf(p.val.Interface())
	opts := []parquet.WriterOption{sch, parquet.Compression(&zstdFast),
		parquet.MaxRowsPerRowGroup(parquetGroupRows), parquet.KeyValueMetadata("huggingface", hf)}
	// No min and max of a text column in the footer nor in its pages'
	// headers (pyarrow leaves out those of long values too): a long text
	// would be written there four times more, and read back whole on
	// import with the page (a footer over 16 MiB is refused).
	for _, path := range sch.Columns() {
		if leaf, ok := sch.Lookup(path...); ok && leaf.Node.Type().Kind() == parquet.ByteArray {
			opts = append(opts, parquet.SkipPageBounds(path...), parquet.SkipPageStatistics(path...))
		}
	}
	p.w = parquet.NewWriter(out, opts...)
	return p, nil
}

// write appends one row.
func (p *parquetRows) write(r row) error {
	v := p.val.Elem()
	v.SetZero()
	for i, c := range p.cols {
		f := v.Field(i)
		switch x := r[i].(type) {
		case nil: // null: the zero value of an optional field
		case string:
			if cl := p.feats[i].classes; cl != nil {
				code := classCode(cl, x)
				if code < 0 {
					return &outOfClass{c.Key}
				}
				setInt(f, int64(code))
			} else if f.Kind() == reflect.Pointer {
				f.Set(reflect.ValueOf(&x))
			} else {
				f.SetString(x)
			}
		case int:
			setInt(f, int64(x))
		case bool:
			f.SetBool(x)
		case float64:
			if f.Kind() == reflect.Pointer {
				f.Set(reflect.ValueOf(&x))
			} else {
				f.SetFloat(x)
			}
		case []string:
			f.Set(reflect.ValueOf(x))
		case json.RawMessage: // contexts or claim ids, as the store built them
			// The claims of a pair share its contexts: decoded once.
			if len(x) > 0 && len(p.lastRaw[i]) == len(x) && &p.lastRaw[i][0] == &x[0] {
				f.Set(p.lastVal[i])
				continue
			}
			ptr := reflect.New(f.Type())
			if err := json.Unmarshal(x, ptr.Interface()); err != nil {
				return fmt.Errorf("config %s: column %s: %w", p.config, c.Key, err)
			}
			f.Set(ptr.Elem())
			p.lastRaw[i], p.lastVal[i] = x, ptr.Elem()
		case preds:
			s := reflect.New(p.preds)
			for j := range x.systems {
				if x.values[j] != nil {
					s.Elem().Field(j).Set(reflect.ValueOf(x.values[j]))
				}
			}
			f.Set(s)
		default:
			return fmt.Errorf("config %s: column %s: no Parquet form for %T", p.config, c.Key, x)
		}
	}
	return p.w.Write(p.val.Interface())
}

func setInt(f reflect.Value, n int64) {
	if f.Kind() == reflect.Pointer {
		f.Set(reflect.ValueOf(&n))
		return
	}
	f.SetInt(n)
}

// close writes the footer (not closing the file underneath).
func (p *parquetRows) close() error { return p.w.Close() }

// hfMetadata is the features as `datasets` stores them in a Parquet file's
// "huggingface" metadata: {"info":{"features":{…}}}, columns in file order
// (datasets uses them only when they match the file's schema).
func hfMetadata(cols []Column, feats []feature) (string, error) {
	b := []byte(`{"info":{"features":{`)
	for i, c := range cols {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendString(b, c.Key)
		b = append(b, ':')
		b = feats[i].appendHF(b)
	}
	b = append(b, "}}}"...)
	if !json.Valid(b) {
		return "", fmt.Errorf("exporter: features metadata is not JSON: %s", b)
	}
	return string(b), nil
}

// appendHF writes the feature as `datasets` serialises it (Features.to_dict):
// a Value, a ClassLabel, a Python list (a JSON array of one feature) or a
// struct (an object of features).
func (f feature) appendHF(b []byte) []byte {
	switch {
	case f.dtype != "":
		return append(append(append(b, `{"dtype":"`...), f.dtype...), `","_type":"Value"}`...)
	case f.classes != nil:
		b = append(b, `{"names":`...)
		b = appendValue(b, f.classes)
		return append(b, `,"_type":"ClassLabel"}`...)
	case f.list != nil:
		return append(f.list.appendHF(append(b, '[')), ']')
	}
	b = append(b, '{')
	for i, s := range f.fields {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendString(b, s.name)
		b = append(b, ':')
		b = s.feature.appendHF(b)
	}
	return append(b, '}')
}
