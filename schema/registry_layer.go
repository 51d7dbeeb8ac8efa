package schema

import "reflect"

// Registry is one layer's list of its registered kinds (the store's, the
// importer's, a screen's…), in the order they register: each kind's file
// adds itself from init, and generic code looks a kind up here rather than
// naming it. The zero value is an empty list. It is filled at start-up and
// only read after, so it takes no lock.
type Registry[K interface{ Kind() Kind }] struct {
	list   []K
	byKind map[Kind]K
}

// Add registers k. A kind registered twice in a layer is a mistake of the
// program: it panics, naming the layer's interface.
func (r *Registry[K]) Add(k K) {
	if _, dup := r.byKind[k.Kind()]; dup {
		panic(reflect.TypeFor[K]().String() + ": kind " + string(k.Kind()) + " registered twice")
	}
	if r.byKind == nil {
		r.byKind = map[Kind]K{}
	}
	r.list = append(r.list, k)
	r.byKind[k.Kind()] = k
}

// Get is kind k's registration, or the zero K (nil) when k has none in
// this layer: Get(k).(Extension) asks for an optional behaviour in one step.
func (r *Registry[K]) Get(k Kind) K { return r.byKind[k] }

// Lookup is kind k's registration and whether it has one.
func (r *Registry[K]) Lookup(k Kind) (K, bool) {
	x, ok := r.byKind[k]
	return x, ok
}

// All are the registered kinds in the order they registered (shared: not
// to be changed).
func (r *Registry[K]) All() []K { return r.list }
