package importer

import (
	"slices"
)

// The containers of JSON records: a file that is one array of objects, and a
// document {"<key>":[objects…], …}. Records are read one at a time.

// eachArrayRecord reads a file that is one JSON array of objects.
func (f *fileData) eachArrayRecord(t *textReader, fn func(r *rec) error) error {
	n, err := t.eachElement(func(i int, raw []byte, at pos) error {
		m, err := element(f.name, i, raw, at)
		if err != nil {
			return err
		}
		return fn(newRec(recLoc(f.name, i), "", m))
	})
	if err != nil {
		return err
	}
	if n == 0 {
		return fileLoc(f.name).errf("", "empty array: nothing to import")
	}
	return t.atEnd()
}

// eachDocRecord reads a JSON document whose records are the array under the
// first of keys it has; what says the expected shape when none is there. The
// document's other keys go to other, with their raw values (valid only
// during the call).
func (f *fileData) eachDocRecord(t *textReader, keys []string, what string, other func(key string, raw []byte) error, fn func(r *rec) error) error {
	found := ""
	err := t.eachKey(func(key string) error {
		if found != "" || !slices.Contains(keys, key) {
			raw, _, err := t.value(-1)
			if err != nil {
				return err
			}
			return other(key, raw)
		}
		found = key
		if c, err := t.peekNonSpace(); err == nil && c != '[' {
			raw, _, err := t.value(-1)
			if err != nil {
				return err
			}
			return fileLoc(f.name).errf(key, "want an array, got %s", kind(raw))
		}
		n, err := t.eachElement(func(i int, raw []byte, at pos) error {
			m, err := element(f.name, i, raw, at)
			if err != nil {
				return err
			}
			return fn(newRec(recLoc(f.name, i), "", m))
		})
		if err == nil && n == 0 {
			err = fileLoc(f.name).errf(key, "empty array: nothing to import")
		}
		return err
	})
	if err != nil {
		return err
	}
	if found == "" {
		return fileLoc(f.name).errf(keys[0], "missing: %s", what)
	}
	return t.atEnd()
}
