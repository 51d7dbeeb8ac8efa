package importer

import (
	"encoding/json"
	"strconv"

	"github.com/annotate-dev/annotate/schema"
)

// labelValue reads the value of a label of field at key: a string, a
// number for an interval field (a 1–5 rating, as label files may write it:
// schema.Normalize matches 4.0 to the declared 4), or, for a multi-valued
// field (error_category, citations), a JSON array of strings as label
// files hold them (docs/json.md); the array is passed on as its JSON text,
// which schema.Normalize reads.
func (r *rec) labelValue(key, field string) (string, error) {
	if s, ok := r.text(key); ok {
		return s, nil
	}
	v := r.get(key)
	if v == nil {
		return "", nil
	}
	var s string
	if json.Unmarshal(v, &s) == nil {
		return s, nil
	}
	var n json.Number
	if f, ok := lookupField(field); ok && f.Level() == schema.Interval && json.Unmarshal(v, &n) == nil {
		return n.String(), nil
	}
	var list []json.RawMessage
	if json.Unmarshal(v, &list) != nil {
		return "", r.errf(key, "want a string (or, for %s, an array of strings; for an interval field, a number), got %s", multiFields(), kind(v))
	}
	out := make([]string, len(list))
	for i, e := range list {
		if json.Unmarshal(e, &out[i]) != nil {
			return "", r.errf(key+"["+strconv.Itoa(i)+"]", "want a string, got %s", kind(e))
		}
	}
	return schema.EncodeMulti(out), nil
}

// multiFields names the multi-valued fields, for messages.
func multiFields() string {
	s := ""
	for _, f := range schema.AllFields() {
		if f.Multi {
			if s != "" {
				s += " and "
			}
			s += f.Name
		}
	}
	return s
}
