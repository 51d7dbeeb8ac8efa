package exporter

import "github.com/annotate-dev/annotate/schema"

// appendLabelValue writes a label's value in labels.jsonl: a string, or, for
// a multi-valued field (error_category, citations), the JSON array it holds
// (docs/json.md: a multi-valued label is a JSON array).
func appendLabelValue(b []byte, field, value string) []byte {
	if f, ok := schema.Lookup(field); ok && f.Multi {
		return appendValue(b, schema.DecodeMulti(value))
	}
	return appendString(b, value)
}
