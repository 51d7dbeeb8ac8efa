package importer

import (
	"encoding"
	"encoding/json"
	"io"
	"reflect"
	"slices"
	"strconv"
	"sync"
	"unicode/utf8"
)

// An item's content hash is the SHA-256 of a value as json.Marshal writes
// it. Marshalling a document of 16 MiB held its JSON whole (and up to twice
// that while the encoder's buffer grew) only to hash it: writeJSON writes
// the same bytes to the hash as they are made, through a buffer of 32 KiB.
// It takes the types the hashes are made of (structs of strings, integers,
// booleans, arrays, slices, maps with string keys, pointers); for any other
// type (a float, an interface, a Marshaler, a struct with an embedded
// field or a tag option it does not know) it hands the whole value to
// json.Marshal. TestWriteJSONIsMarshal holds it to json.Marshal.

// writeJSON writes json.Marshal(v) to w.
func writeJSON(w io.Writer, v any) error {
	rv := reflect.ValueOf(v)
	if !rv.IsValid() || !plainJSON(rv.Type()) {
		b, err := json.Marshal(v)
		if err != nil {
			return err
		}
		_, err = w.Write(b)
		return err
	}
	return withJSONWriter(w, func(e *jsonWriter) { e.value(rv) })
}

// writeString writes s to w as it is, a piece at a time (w.Write([]byte(s))
// would copy it whole first).
func writeString(w io.Writer, s string) error {
	return withJSONWriter(w, func(e *jsonWriter) { e.raw(s) })
}

func withJSONWriter(w io.Writer, fn func(*jsonWriter)) error {
	e := jsonWriters.Get().(*jsonWriter)
	defer jsonWriters.Put(e)
	e.w, e.buf, e.err = w, e.buf[:0], nil
	fn(e)
	e.flush()
	e.w = nil
	return e.err
}

var jsonWriters = sync.Pool{New: func() any { return &jsonWriter{buf: make([]byte, 0, jsonBuffer)} }}

// jsonBuffer is the size of the pieces written.
const jsonBuffer = 32 << 10

type jsonWriter struct {
	w   io.Writer
	buf []byte
	err error
}

func (e *jsonWriter) flush() {
	if len(e.buf) > 0 && e.err == nil {
		_, e.err = e.w.Write(e.buf)
	}
	e.buf = e.buf[:0]
}

// room flushes the buffer when it is full.
func (e *jsonWriter) room() {
	if len(e.buf) >= jsonBuffer {
		e.flush()
	}
}

// raw appends s, a piece at a time.
func (e *jsonWriter) raw(s string) {
	for len(s) > 0 {
		n := min(len(s), max(jsonBuffer-len(e.buf), 0))
		if n == 0 {
			e.flush()
			continue
		}
		e.buf = append(e.buf, s[:n]...)
		s = s[n:]
	}
}

func (e *jsonWriter) value(v reflect.Value) {
	e.room()
	switch v.Kind() {
	case reflect.String:
		e.string(v.String())
	case reflect.Bool:
		e.buf = strconv.AppendBool(e.buf, v.Bool())
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		e.buf = strconv.AppendInt(e.buf, v.Int(), 10)
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		e.buf = strconv.AppendUint(e.buf, v.Uint(), 10)
	case reflect.Pointer:
		if v.IsNil() {
			e.buf = append(e.buf, "null"...)
			return
		}
		e.value(v.Elem())
	case reflect.Slice:
		if v.IsNil() {
			e.buf = append(e.buf, "null"...)
			return
		}
		e.array(v)
	case reflect.Array:
		e.array(v)
	case reflect.Map:
		e.object(v)
	case reflect.Struct:
		e.buf = append(e.buf, '{')
		first := true
		for _, f := range structFields(v.Type()) {
			fv := v.Field(f.index)
			if f.omitEmpty && emptyJSON(fv) {
				continue
			}
			if !first {
				e.buf = append(e.buf, ',')
			}
			first = false
			e.buf = append(e.buf, f.key...)
			e.value(fv)
		}
		e.buf = append(e.buf, '}')
	}
}

func (e *jsonWriter) array(v reflect.Value) {
	e.buf = append(e.buf, '[')
	for i := range v.Len() {
		if i > 0 {
			e.buf = append(e.buf, ',')
		}
		e.value(v.Index(i))
	}
	e.buf = append(e.buf, ']')
}

// object writes a map as encoding/json does: keys sorted.
func (e *jsonWriter) object(v reflect.Value) {
	if v.IsNil() {
		e.buf = append(e.buf, "null"...)
		return
	}
	keys := v.MapKeys()
	slices.SortFunc(keys, func(a, b reflect.Value) int {
		switch {
		case a.String() < b.String():
			return -1
		case a.String() > b.String():
			return 1
		}
		return 0
	})
	e.buf = append(e.buf, '{')
	for i, k := range keys {
		if i > 0 {
			e.buf = append(e.buf, ',')
		}
		e.string(k.String())
		e.buf = append(e.buf, ':')
		e.value(v.MapIndex(k))
	}
	e.buf = append(e.buf, '}')
}

// string writes s quoted as encoding/json quotes it (HTML characters,
// U+2028 and U+2029 escaped, invalid UTF-8 as U+FFFD).
func (e *jsonWriter) string(s string) {
	e.buf = append(e.buf, '"')
	start := 0
	for i := 0; i < len(s); {
		if i-start >= jsonBuffer {
			e.raw(s[start:i])
			start = i
		}
		b := s[i]
		if b < utf8.RuneSelf {
			if b >= 0x20 && b != '"' && b != '\\' && b != '<' && b != '>' && b != '&' {
				i++
				continue
			}
			e.raw(s[start:i])
			switch b {
			case '\\', '"':
				e.buf = append(e.buf, '\\', b)
			case '\b':
				e.buf = append(e.buf, `\b`...)
			case '\f':
				e.buf = append(e.buf, `\f`...)
			case '\n':
				e.buf = append(e.buf, `\n`...)
			case '\r':
				e.buf = append(e.buf, `\r`...)
			case '\t':
				e.buf = append(e.buf, `\t`...)
			default:
				e.buf = append(e.buf, '\\', 'u', '0', '0', hexDigits[b>>4], hexDigits[b&0xF])
			}
			i++
			start = i
			continue
		}
		c, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case c == utf8.RuneError && size == 1:
			e.raw(s[start:i])
			e.buf = append(e.buf, `\ufffd`...)
		case c == '\u2028' || c == '\u2029':
			e.raw(s[start:i])
			e.buf = append(e.buf, '\\', 'u', '2', '0', '2', hexDigits[c&0xF])
		default:
			i += size
			continue
		}
		i += size
		start = i
	}
	e.raw(s[start:])
	e.buf = append(e.buf, '"')
}

const hexDigits = "0123456789abcdef"

// emptyJSON is encoding/json's test for omitempty.
func emptyJSON(v reflect.Value) bool {
	switch v.Kind() {
	case reflect.Array, reflect.Map, reflect.Slice, reflect.String:
		return v.Len() == 0
	case reflect.Bool, reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr,
		reflect.Pointer:
		return v.IsZero()
	}
	return false
}

// jsonField is a struct field as encoding/json writes it.
type jsonField struct {
	index     int
	key       string // the quoted name and the colon
	omitEmpty bool
}

// jsonPlans holds, per type, whether writeJSON writes it itself and the
// fields of a struct type.
var (
	jsonPlans sync.Map // reflect.Type -> jsonPlan
	plansMu   sync.Mutex
)

type jsonPlan struct {
	plain  bool
	fields []jsonField
}

func structFields(t reflect.Type) []jsonField {
	p, _ := jsonPlans.Load(t) // stored by plainJSON, which saw t first
	return p.(jsonPlan).fields
}

// plainJSON reports whether writeJSON writes values of t itself.
func plainJSON(t reflect.Type) bool {
	if p, ok := jsonPlans.Load(t); ok {
		return p.(jsonPlan).plain
	}
	plansMu.Lock()
	defer plansMu.Unlock()
	ok := plainType(t, map[reflect.Type]bool{})
	if !ok || t.Kind() != reflect.Struct { // a plain struct's plan is stored with its fields
		jsonPlans.Store(t, jsonPlan{plain: ok})
	}
	return ok
}

var (
	marshalerType     = reflect.TypeFor[json.Marshaler]()
	textMarshalerType = reflect.TypeFor[encoding.TextMarshaler]()
)

// plainType checks t and the types inside it, noting the fields of its
// structs; visiting holds the types being checked (a type that holds
// itself is left to encoding/json).
func plainType(t reflect.Type, visiting map[reflect.Type]bool) bool {
	if visiting[t] {
		return false
	}
	visiting[t] = true
	defer delete(visiting, t)
	if t.Implements(marshalerType) || t.Implements(textMarshalerType) ||
		reflect.PointerTo(t).Implements(marshalerType) || reflect.PointerTo(t).Implements(textMarshalerType) {
		return false
	}
	switch t.Kind() {
	case reflect.String, reflect.Bool,
		reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return true
	case reflect.Pointer, reflect.Array:
		return plainType(t.Elem(), visiting)
	case reflect.Slice:
		// []byte is written in base64.
		return t.Elem().Kind() != reflect.Uint8 && plainType(t.Elem(), visiting)
	case reflect.Map:
		return t.Key().Kind() == reflect.String && plainType(t.Elem(), visiting)
	case reflect.Struct:
		return plainStruct(t, visiting)
	}
	return false
}

func plainStruct(t reflect.Type, visiting map[reflect.Type]bool) bool {
	var fields []jsonField
	names := map[string]bool{}
	for i := range t.NumField() {
		sf := t.Field(i)
		if sf.Anonymous {
			return false // promoted fields: left to encoding/json
		}
		if !sf.IsExported() {
			continue
		}
		tag := sf.Tag.Get("json")
		if tag == "-" {
			continue
		}
		name, opts, _ := cutComma(tag)
		switch opts {
		case "", "omitempty":
		default:
			return false
		}
		if name == "" {
			name = sf.Name
		} else if !plainName(name) {
			return false
		}
		if names[name] {
			return false // encoding/json drops both
		}
		names[name] = true
		if !plainType(sf.Type, visiting) {
			return false
		}
		key, _ := json.Marshal(name)
		fields = append(fields, jsonField{index: i, key: string(key) + ":", omitEmpty: opts == "omitempty"})
	}
	jsonPlans.Store(t, jsonPlan{plain: true, fields: fields})
	return true
}

func cutComma(tag string) (string, string, bool) {
	for i := 0; i < len(tag); i++ {
		if tag[i] == ',' {
			return tag[:i], tag[i+1:], true
		}
	}
	return tag, "", false
}

// plainName is a tag name encoding/json takes as it is.
func plainName(s string) bool {
	for _, c := range s {
		if !(c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9') {
			return false
		}
	}
	return true
}
