package importer

// parseNative reads native JSONL (docs/formats.md, native): a line without
// "kind" is read by its kind's file (plainLiner: a QA pair with its context
// units, claims, predictions and labels), an item of another kind when the
// line says so ("kind":"query", kinds.go).
func parseNative(f *fileData, t *textReader) error {
	return t.eachLine(func(at loc, line []byte) error {
		m, err := object(at, line)
		if err != nil {
			return err
		}
		r := newRec(at, "", m)
		n, err := nativeLineOf(r)
		if err != nil {
			return err
		}
		if n != nil {
			return f.nativeItem(n, r, line)
		}
		return readPlain(f, r)
	})
}

// predictions reads {"system": "value"}.
func (f *fileData) predictions(r *rec, key string) (map[string]string, error) {
	obj, err := r.object(key)
	if err != nil || len(obj) == 0 {
		return nil, err
	}
	out := map[string]string{}
	for _, sys := range sortedKeys(obj) {
		var v string
		if decodeString(obj[sys], &v) != nil {
			return nil, r.errf(key+"."+sys, "want a string, got %s", kind(obj[sys]))
		}
		if v = f.prediction(sys, v); v != "" {
			out[sys] = v
		}
	}
	return out, nil
}

// readPlain reads a line without "kind" by its kind (plainLiner).
func readPlain(f *fileData, r *rec) error {
	_, p := plainKind()
	if p == nil {
		return r.errf("kind", "missing: every line names its kind")
	}
	return p.readPlain(f, r)
}
