package schema

import (
	"fmt"
	"regexp"
	"slices"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
)

// The schema in force is one immutable table of the kinds and their fields,
// swapped whole (an atomic pointer) whenever what it is built from changes:
// the kinds registered by this build (Register, from the kinds' files), the
// error taxonomy in force (UseTaxonomy) and the fields a database declares
// (Hold, declared.go). A reader loads the table once per call, so no call
// sees half a change.
//
// Every field, built in or declared, is placed in its kind by one function,
// declare: a kind's file lists its fields in order and each is declared
// after the one before it; a lead's field (a YAML file) is declared after
// the field it names.

// table is one state of the schema.
type table struct {
	specs    map[Kind]*Spec
	sorted   []*Spec // queue order
	byName   map[string]fieldAt
	sections []string // GuidelineSections
	gen      uint64
}

// fieldAt says where a field is: Lookup reads it from its spec.
type fieldAt struct {
	spec *Spec
	i    int
}

var (
	current atomic.Pointer[table]
	// gens counts the tables built, so a cache of the schema's answers
	// (the importer's) knows when to forget them.
	gens atomic.Uint64
	// build holds what tables are built from; its lock orders the changes.
	build struct {
		sync.Mutex
		kinds    []Spec        // as registered, in registration order
		declared []Declaration // the fields of the databases that hold the schema (declared.go)
	}
)

// tab is the table in force.
func tab() *table {
	if t := current.Load(); t != nil {
		return t
	}
	return &table{specs: map[Kind]*Spec{}, byName: map[string]fieldAt{}}
}

// Generation numbers the schema in force: it changes whenever a field or a
// value does (a declaration, a taxonomy), for caches of its answers.
func Generation() uint64 { return tab().gen }

// Register adds a kind; each kind's own file calls it from init (a test may
// call it to add a kind of its own). A field the schema refuses is a bug of
// the build: it panics.
func Register(s Spec) {
	build.Lock()
	defer build.Unlock()
	for _, k := range build.kinds {
		if k.Kind == s.Kind {
			panic("schema: kind " + string(s.Kind) + " registered twice")
		}
	}
	build.kinds = append(build.kinds, s)
	t, err := rebuild(build.declared)
	if err != nil {
		panic("schema: " + err.Error())
	}
	current.Store(t)
}

// rebuild makes the table of the registered kinds, the taxonomy in force and
// the declared fields. An error is a declared field the kinds refuse.
func rebuild(declared []Declaration) (*table, error) {
	t := &table{specs: map[Kind]*Spec{}, byName: map[string]fieldAt{}, gen: gens.Add(1)}
	for _, k := range build.kinds {
		sp := k
		sp.Fields = make([]Field, 0, len(k.Fields))
		t.specs[sp.Kind] = &sp
		t.sorted = append(t.sorted, &sp)
	}
	sort.SliceStable(t.sorted, func(i, j int) bool { return t.sorted[i].Order < t.sorted[j].Order })
	for _, k := range build.kinds {
		sp := t.specs[k.Kind]
		after := ""
		for _, f := range k.Fields {
			f.Values = slices.Clone(f.Values)
			if sp.Kind == KindGenClaim && f.Name == ErrorCategory {
				f.Values = valuesOf(Taxonomy())
			}
			if err := t.declare(sp, f, after); err != nil {
				return nil, fmt.Errorf("kind %s: %w", sp.Kind, err)
			}
			after = f.Name
		}
	}
	for _, d := range declared {
		sp := t.specs[d.Kind]
		if sp == nil {
			return nil, fmt.Errorf("field %s is declared on kind %q, which this build does not have", d.Field, d.Kind)
		}
		if err := t.declare(sp, d.field(), d.AskedAfter); err != nil {
			return nil, err
		}
	}
	t.index()
	return t, nil
}

// identifier is the form of a field's name and of a value's: what the
// label log, the JSON and every export carry.
var identifier = regexp.MustCompile(`^[a-z][a-z0-9_]*$`)

// declare places a field in its kind: after the field named after (""
// for the end of the fields asked, before the markers), following the
// fields declared after that one already. It is the one way a field enters
// the schema, built in or declared, and refuses what would make it
// ambiguous: a name that is no identifier or is taken in the schema, a
// scale that does not fit the values, keys that are not distinct digits,
// a condition on a field not asked before it or on a value that field
// lacks.
func (t *table) declare(s *Spec, f Field, after string) error {
	f.Kind = s.Kind
	if !identifier.MatchString(f.Name) {
		return fmt.Errorf("field %q: a name is lower-case letters, digits and underscores, starting with a letter", f.Name)
	}
	for _, o := range t.sorted {
		if _, dup := fieldOf(o, f.Name); dup {
			if o == s {
				return fmt.Errorf("field %s: %s has a field of that name already", f.Name, s.Kind)
			}
			return fmt.Errorf("field %s: the kind %s has a field of that name already (a field's name is unique in the schema)", f.Name, o.Kind)
		}
	}
	if err := f.CheckScale(); err != nil {
		return err
	}
	if err := checkKeys(f); err != nil {
		return err
	}
	at := len(s.Fields)
	for i, g := range s.Fields {
		if g.Marker && !f.Marker {
			at = i
			break
		}
	}
	if after != "" {
		i := slices.IndexFunc(s.Fields, func(g Field) bool { return g.Name == after })
		if i < 0 {
			return fmt.Errorf("field %s: asked after %q, which is not a field of %s%s", f.Name, after, s.Kind, hintOf(after, fieldNamesOf(s)))
		}
		if s.Fields[i].Marker && !f.Marker {
			return fmt.Errorf("field %s: asked after %s, which is not asked field by field (the flow sets it)", f.Name, after)
		}
		at = i + 1
		for at < len(s.Fields) && s.Fields[at].after == after && s.Fields[at].Declared > 0 {
			at++
		}
		f.after = after
	}
	for _, c := range f.AskedIf {
		i := slices.IndexFunc(s.Fields[:at], func(g Field) bool { return g.Name == c.Field })
		if i < 0 {
			return fmt.Errorf("field %s: asked when %s has a value, but %s is not a field asked before it", f.Name, c.Field, c.Field)
		}
		for _, v := range c.Values {
			if g := s.Fields[i]; len(g.Values) > 0 && !slices.Contains(g.Values, v) {
				return fmt.Errorf("field %s: asked when %s is %q, which is not a value of %s%s (its values: %s)",
					f.Name, c.Field, v, c.Field, hintOf(v, g.Values), strings.Join(g.Values, ", "))
			}
		}
	}
	s.Fields = slices.Insert(s.Fields, at, f)
	return nil
}

// checkKeys says what is wrong with a field's keys: one per value, each a
// digit 1 to 9 (the keys that pick an option on every screen), distinct.
func checkKeys(f Field) error {
	if f.Keys == nil {
		if len(f.Values) > 9 && !f.Multi && !f.Marker && f.Declared > 0 {
			return fmt.Errorf("field %s: %d values, and the keys 1 to 9 pick at most nine", f.Name, len(f.Values))
		}
		return nil
	}
	if len(f.Keys) != len(f.Values) {
		return fmt.Errorf("field %s: %d keys for %d values", f.Name, len(f.Keys), len(f.Values))
	}
	seen := map[string]string{}
	for i, k := range f.Keys {
		if len(k) != 1 || k[0] < '1' || k[0] > '9' {
			return fmt.Errorf("field %s: value %s: the key %q is not a digit 1 to 9", f.Name, f.Values[i], k)
		}
		if o, dup := seen[k]; dup {
			return fmt.Errorf("field %s: the key %s picks both %s and %s", f.Name, k, o, f.Values[i])
		}
		seen[k] = f.Values[i]
	}
	return nil
}

// index fills what the table answers by name.
func (t *table) index() {
	for _, s := range t.sorted {
		for i, f := range s.Fields {
			if _, dup := t.byName[f.Name]; !dup {
				t.byName[f.Name] = fieldAt{s, i}
			}
		}
	}
	for _, s := range t.sorted {
		for _, f := range s.Fields {
			if !f.Marker {
				t.sections = append(t.sections, f.Name)
			}
		}
		t.sections = append(t.sections, s.Guidelines...)
	}
}

func fieldNamesOf(s *Spec) []string {
	var out []string
	for _, f := range s.Fields {
		out = append(out, f.Name)
	}
	return out
}
