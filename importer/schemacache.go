package importer

import (
	"sync"

	"github.com/annotate-dev/annotate/schema"
)

// The schema's answers, remembered: an import asks them for every label and
// prediction (millions of times), and the schema does not change while the
// program runs. schema.Lookup sorts the kinds on every call and
// schema.Normalize builds a replacer.

var fields = sync.OnceValue(func() map[string]schema.Field {
	m := map[string]schema.Field{}
	for _, k := range schema.AllKinds() {
		for _, f := range schema.KindFields(k) {
			if _, ok := m[f.Name]; !ok { // the first kind that has it, as schema.Lookup
				m[f.Name] = f
			}
		}
	}
	return m
})

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
	m map[[2]string]normalized
}

// normalize is schema.Normalize.
func normalize(field, value string) (string, bool) {
	k := [2]string{field, value}
	norms.Lock()
	n, ok := norms.m[k]
	norms.Unlock()
	if ok {
		return n.v, n.known
	}
	v, known := schema.Normalize(field, value)
	norms.Lock()
	if norms.m == nil {
		norms.m = map[[2]string]normalized{}
	}
	if len(norms.m) < maxNormalized {
		norms.m[k] = normalized{v, known}
	}
	norms.Unlock()
	return v, known
}
