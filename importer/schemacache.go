package importer

import (
	"sync"
	"sync/atomic"

	"github.com/annotate-dev/annotate/schema"
)

// The schema's answers, remembered: an import asks them for every label and
// prediction (millions of times). schema.Lookup sorts the kinds on every
// call and schema.Normalize builds a replacer. The schema changes when a
// database with declared fields is opened or a taxonomy is put in force
// (a server or a test opens several): what is remembered is of one
// schema.Generation, and forgotten at the next.

// fieldsOf is the fields of one generation of the schema, by name.
type fieldsOf struct {
	gen uint64
	m   map[string]schema.Field
}

var fieldsCache atomic.Pointer[fieldsOf]

// fields is every field of the schema in force, by name.
func fields() map[string]schema.Field {
	gen := schema.Generation() // before reading: a change meanwhile is a generation later
	if c := fieldsCache.Load(); c != nil && c.gen == gen {
		return c.m
	}
	m := map[string]schema.Field{}
	for _, k := range schema.AllKinds() {
		for _, f := range schema.KindFields(k) {
			if _, ok := m[f.Name]; !ok { // the first kind that has it, as schema.Lookup
				m[f.Name] = f
			}
		}
	}
	fieldsCache.Store(&fieldsOf{gen: gen, m: m})
	return m
}

// lookupField is schema.Lookup.
func lookupField(name string) (schema.Field, bool) {
	f, ok := fields()[name]
	return f, ok
}

// checkField is schema.CheckField.
func checkField(name string) error {
	if _, ok := fields()[name]; ok {
		return nil
	}
	return schema.CheckField(name)
}

// maxNormalized bounds the remembered values (free text would grow it).
const maxNormalized = 4096

type normalized struct {
	v     string
	known bool
}

var norms struct {
	sync.Mutex
	gen uint64 // the schema's generation m holds answers of
	m   map[[2]string]normalized
}

// normalize is schema.Normalize.
func normalize(field, value string) (string, bool) {
	k := [2]string{field, value}
	gen := schema.Generation()
	norms.Lock()
	n, ok := norms.m[k]
	ok = ok && norms.gen == gen
	norms.Unlock()
	if ok {
		return n.v, n.known
	}
	v, known := schema.Normalize(field, value)
	norms.Lock()
	if norms.m == nil || norms.gen != gen {
		norms.m, norms.gen = map[[2]string]normalized{}, gen
	}
	if len(norms.m) < maxNormalized {
		norms.m[k] = normalized{v, known}
	}
	norms.Unlock()
	return v, known
}
