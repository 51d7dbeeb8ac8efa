package importer

import (
	"bytes"
	"encoding/json"
	"sort"
	"strconv"
	"strings"
)

// rec is one JSON object being read. Its getters check types and name the
// field in errors; the keys it was asked about are remembered so the rest can
// be reported as unknown and kept.
type rec struct {
	at   loc
	path string // prefix of field names, e.g. "claims[2]."
	m    map[string]json.RawMessage
	used map[string]bool
	// texts are string values read without JSON: a Parquet cell over
	// hugeRecord, whose string is its page's own bytes (parquet_rows.go),
	// is not encoded only to be decoded again. Their keys are in m too,
	// with no JSON until something asks for it (raw).
	texts map[string]string
}

// raw is the JSON of key's value; a text's is made when first asked for.
func (r *rec) raw(key string) (json.RawMessage, bool) {
	v, ok := r.m[key]
	if s, isText := r.texts[key]; isText && v == nil {
		v, _ = json.Marshal(s)
		r.m[key] = v
	}
	return v, ok
}

// text is the string of key's value when it is one of texts.
func (r *rec) text(key string) (string, bool) {
	s, ok := r.texts[key]
	if ok {
		r.used[key] = true
	}
	return s, ok
}

// record is r's JSON object.
func (r *rec) record() ([]byte, error) {
	for key := range r.texts {
		r.raw(key)
	}
	return json.Marshal(r.m) // keys sorted, values compacted
}

func newRec(at loc, path string, m map[string]json.RawMessage) *rec {
	return &rec{at: at, path: path, m: m, used: map[string]bool{}}
}

// sub reads raw (the value of field) as a nested object.
func (r *rec) sub(field string, raw json.RawMessage) (*rec, error) {
	m, err := r.decodeObject(field, raw)
	if err != nil {
		return nil, err
	}
	return newRec(r.at, r.path+field+".", m), nil
}

// decodeObject reads raw, the value of field, as an object whose keys are
// each given once.
func (r *rec) decodeObject(field string, raw json.RawMessage) (map[string]json.RawMessage, error) {
	m, dup, dupAt, err := decodeObject(raw)
	switch {
	case err != nil || m == nil:
		return nil, r.errf(field, "want an object, got %s", kind(raw))
	case dupAt >= 0:
		return nil, r.errf(field+"."+dup, "%s", duplicateKey)
	}
	return m, nil
}

func (r *rec) errf(field, format string, args ...any) error {
	return r.at.errf(r.path+field, format, args...)
}

// get returns the raw value of key, nil when absent or null.
func (r *rec) get(key string) json.RawMessage {
	r.used[key] = true
	v, ok := r.raw(key)
	if !ok || bytes.Equal(bytes.TrimSpace(v), []byte("null")) {
		return nil
	}
	return v
}

func (r *rec) has(key string) bool {
	if _, ok := r.text(key); ok {
		return true
	}
	return r.get(key) != nil
}

// str returns an optional string ("" when absent).
func (r *rec) str(key string) (string, error) {
	if s, ok := r.text(key); ok {
		return s, nil
	}
	v := r.get(key)
	if v == nil {
		return "", nil
	}
	var s string
	if err := decodeString(v, &s); err != nil {
		return "", r.errf(key, "want a string, got %s", kind(v))
	}
	return s, nil
}

// boolean returns an optional true or false (false when absent).
func (r *rec) boolean(key string) (bool, error) {
	v := r.get(key)
	if v == nil {
		return false, nil
	}
	switch string(bytes.TrimSpace(v)) {
	case "true":
		return true, nil
	case "false":
		return false, nil
	}
	return false, r.errf(key, "want true or false, got %s", kind(v))
}

// need returns a required, non-empty string.
func (r *rec) need(key string) (string, error) {
	if !r.has(key) {
		return "", r.errf(key, "missing (required)")
	}
	s, err := r.str(key)
	if err == nil && s == "" {
		err = r.errf(key, "empty (required)")
	}
	return s, err
}

// id returns an optional identifier ("" when absent): a string with
// something besides spaces. A number is refused, not turned into a string:
// 1, 1.0 and 01 would name one item or three.
func (r *rec) id(key string) (string, error) {
	v := r.get(key)
	if v == nil {
		return "", nil
	}
	var s string
	if decodeString(v, &s) != nil {
		return "", r.errf(key, "want a string, got %s (write the id in quotes)", kind(v))
	}
	return s, r.blank(key, s)
}

// numberedID is id for the formats whose published files number their
// records (ClaimRAG-LAW's query_id and claim_id): an integer is read as its
// decimal digits, as those files mean it.
func (r *rec) numberedID(key string) (string, error) {
	v := r.get(key)
	if v == nil {
		return "", nil
	}
	var n int64
	if kind(v) == "a number" {
		if json.Unmarshal(v, &n) != nil {
			return "", r.errf(key, "want a string or an integer, got %s", v)
		}
		return strconv.FormatInt(n, 10), nil
	}
	var s string
	if decodeString(v, &s) != nil {
		return "", r.errf(key, "want a string or an integer, got %s", kind(v))
	}
	return s, r.blank(key, s)
}

// blank refuses an id of nothing but spaces.
func (r *rec) blank(key, s string) error {
	if s != "" && strings.TrimSpace(s) == "" {
		return r.errf(key, "blank (only spaces): want an id")
	}
	return nil
}

func (r *rec) needID(key string) (string, error) {
	return r.required(key, r.id)
}

func (r *rec) needNumberedID(key string) (string, error) {
	return r.required(key, r.numberedID)
}

func (r *rec) required(key string, read func(string) (string, error)) (string, error) {
	s, err := read(key)
	if err == nil && s == "" {
		if r.get(key) == nil {
			return "", r.errf(key, "missing (required)")
		}
		err = r.errf(key, "empty (required)")
	}
	return s, err
}

// array returns an optional array (nil when absent).
func (r *rec) array(key string) ([]json.RawMessage, error) {
	v := r.get(key)
	if v == nil {
		return nil, nil
	}
	out, ok := splitArray(v)
	if !ok {
		if err := json.Unmarshal(v, &out); err != nil {
			return nil, r.errf(key, "want an array, got %s", kind(v))
		}
	}
	return out, nil
}

// object returns an optional object (nil when absent).
func (r *rec) object(key string) (map[string]json.RawMessage, error) {
	v := r.get(key)
	if v == nil {
		return nil, nil
	}
	return r.decodeObject(key, v)
}

// strings reads a value that is one string or an array of strings, as
// several formats allow for contexts ("reference", "relevant_chunk").
func (r *rec) strings(key string) ([]string, error) {
	v := r.get(key)
	if v == nil {
		return nil, nil
	}
	var one string
	if decodeString(v, &one) == nil {
		return []string{one}, nil
	}
	many, ok := splitArray(v)
	if !ok && json.Unmarshal(v, &many) != nil {
		return nil, r.errf(key, "want a string or an array of strings, got %s", kind(v))
	}
	out := make([]string, len(many))
	for i, e := range many {
		if decodeString(e, &out[i]) != nil {
			return nil, r.errf(key+"["+strconv.Itoa(i)+"]", "want a string, got %s", kind(e))
		}
	}
	return out, nil
}

// unknown returns the keys nobody asked about, sorted, and those keys as a
// compact JSON object (keys sorted) to keep with the item.
func (r *rec) unknown() ([]string, string) {
	rest := map[string]json.RawMessage{}
	var keys []string
	for k := range r.m {
		if !r.used[k] {
			rest[k], _ = r.raw(k)
			keys = append(keys, k)
		}
	}
	if len(keys) == 0 {
		return nil, ""
	}
	sort.Strings(keys)
	b, _ := json.Marshal(rest) // map keys are sorted and RawMessage compacted: canonical
	return keys, string(b)
}

// triplet reads [subject, predicate, object].
func triplet(r *rec, field string, raw json.RawMessage) ([3]string, error) {
	parts, ok := splitArray(raw)
	if !ok {
		if err := json.Unmarshal(raw, &parts); err != nil {
			return [3]string{}, r.errf(field, "want an array of 3 strings (subject, predicate, object), got %s", kind(raw))
		}
	}
	if len(parts) != 3 {
		return [3]string{}, r.errf(field, "want 3 strings (subject, predicate, object), got %d elements", len(parts))
	}
	var t [3]string
	for i, p := range parts {
		if decodeString(p, &t[i]) != nil {
			return t, r.errf(field+"["+strconv.Itoa(i)+"]", "want a string, got %s", kind(p))
		}
	}
	return t, nil
}
