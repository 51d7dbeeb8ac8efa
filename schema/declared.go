package schema

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"

	"github.com/annotate-dev/annotate/internal/suggest"
)

// Declared fields: a field a lead adds to a kind with a file
// (`annotate fields add FILE.yaml`, declare_file.go reads it) instead of Go
// code. The database keeps every version of every declaration; the newest
// of each is put in force when the database is opened (Hold) and placed in
// its kind by the same function as the built-in fields (registry.go's
// declare), so every layer that walks the schema serves it.

// Declaration is one version of a declared field, as the database keeps it
// (JSON) and a file gives it (YAML), defaults filled in.
type Declaration struct {
	Kind     Kind   `json:"kind"`
	Field    string `json:"field"`
	Question string `json:"question"`
	Scale    Level  `json:"scale"`
	// Min and Max bound an interval scale (both given, or neither for the
	// other scales).
	Min *float64 `json:"min,omitempty"`
	Max *float64 `json:"max,omitempty"`
	// Values of a closed scale, in order (an ordinal scale's lowest
	// first); none for text.
	Values []DeclaredValue `json:"values,omitempty"`
	// AskedAfter is the field of the kind it is asked after ("": after the
	// kind's last field); AskedWhen the values of that field that ask it
	// (none: it is asked whatever the value).
	AskedAfter string   `json:"asked_after,omitempty"`
	AskedWhen  []string `json:"asked_when,omitempty"`
	Required   bool     `json:"required"`
	// Guidelines is the field's Markdown guidelines (their version 1, or
	// the next version when a new declaration changes them).
	Guidelines string       `json:"guidelines"`
	French     *FrenchTexts `json:"fr,omitempty"`

	// Version numbers the declarations of the field, from 1 (set by the
	// store).
	Version int `json:"-"`
	// GuidelinesVersion is the version of the field's guidelines the
	// declaration left in force (set by the store).
	GuidelinesVersion int `json:"-"`
	// File is where the declaration was read ("" from the database), and
	// lines the line of each of its keys ("values[1].key"), for errors.
	File  string         `json:"-"`
	lines map[string]int `json:"-"`
}

// DeclaredValue is one value of a declared field: its identifier (a number
// on an interval scale), the key that picks it, its label and what it
// means.
type DeclaredValue struct {
	Value   string `json:"value"`
	Key     string `json:"key"`
	Label   string `json:"label,omitempty"`
	Meaning string `json:"meaning,omitempty"`
}

// FrenchTexts are a declaration's texts in French: the question, each
// value's label and meaning (Labels and Meanings in the order of the
// field's values, "" where not given) and the guidelines. A text left out
// is shown in English.
type FrenchTexts struct {
	Question   string          `json:"question,omitempty"`
	Values     []DeclaredValue `json:"values,omitempty"` // value, label, meaning (no key)
	Guidelines string          `json:"guidelines,omitempty"`
}

// LabelOf is the French label of a value, "" when none is given.
func (fr *FrenchTexts) LabelOf(value string) string { return fr.valueOf(value).Label }

// MeaningOf is the French meaning of a value, "" when none is given.
func (fr *FrenchTexts) MeaningOf(value string) string { return fr.valueOf(value).Meaning }

func (fr *FrenchTexts) valueOf(value string) DeclaredValue {
	if fr == nil {
		return DeclaredValue{}
	}
	for _, v := range fr.Values {
		if v.Value == value {
			return v
		}
	}
	return DeclaredValue{}
}

// Line is the line of a key of the file the declaration was read from
// ("values[1].key"; "" the file's first key), 0 when unknown.
func (d Declaration) Line(key string) int { return d.lines[key] }

// fail is an error about a key of the declaration's file.
func (d Declaration) fail(key, format string, args ...any) error {
	line := d.lines[key]
	if line == 0 {
		line = d.lines[""]
	}
	return &FileError{File: d.File, Line: line, Field: key, Msg: fmt.Sprintf(format, args...)}
}

// ValueNames lists the declaration's values.
func (d Declaration) ValueNames() []string {
	out := make([]string, len(d.Values))
	for i, v := range d.Values {
		out[i] = v.Value
	}
	return out
}

// field is the schema's field the declaration makes.
func (d Declaration) field() Field {
	f := Field{Name: d.Field, Question: d.Question, Scale: Scale{Level: d.Scale}, Optional: !d.Required,
		Declared: max(d.Version, 1), DeclaredGuidelines: d.GuidelinesVersion, French: d.French}
	if d.Min != nil && d.Max != nil {
		f.Scale.Min, f.Scale.Max = *d.Min, *d.Max
	}
	keysGiven := false
	for i, v := range d.Values {
		f.Values = append(f.Values, v.Value)
		f.Keys = append(f.Keys, v.Key)
		f.Labels = append(f.Labels, v.Label)
		f.Meanings = append(f.Meanings, v.Meaning)
		keysGiven = keysGiven || v.Key != strconv.Itoa(i+1)
	}
	if !keysGiven {
		f.Keys = nil
	}
	f.TwoWay = d.Scale == Boolean
	if len(d.AskedWhen) > 0 {
		f.AskedIf = []Cond{{Field: d.AskedAfter, Values: slices.Clone(d.AskedWhen)}}
	}
	return f
}

// Digest names a set of declarations (their content and versions, in
// order): "" for none. The store keeps its kept counts under the rules'
// version and this digest, so a database whose declared fields changed is
// recounted.
func Digest(decls []Declaration) string {
	if len(decls) == 0 {
		return ""
	}
	h := sha256.New()
	for _, d := range decls {
		b, _ := json.Marshal(d)
		fmt.Fprintf(h, "%d %d %s\n", d.Version, d.GuidelinesVersion, b)
	}
	return hex.EncodeToString(h.Sum(nil))[:16]
}

// A process holds the schema of the databases it has open. The schema in
// force is process-wide (every package asks it by name), so the databases
// open at one time must declare the same fields: a database is put in
// force when it is opened (Hold) and taken out when it is closed
// (Holding.Release: with none open, the schema is the built-in one), and
// a database whose declared fields differ from those in force is refused
// while another database is open. The same database opened twice (the
// same file) shares its holding's changes: a declaration made through one
// handle, or read by one handle from another process's, puts the new set
// in force for both.

// Holding is one open database's hold on the schema in force.
type Holding struct {
	db  string
	key string
}

// holders are the open databases' holdings; inForce names the declarations
// in force (Digest), "" the built-in schema.
var (
	holders = map[*Holding]bool{}
	inForce string
)

// Hold puts the declared fields of the database at path db in force, for
// as long as it is open. An error says why they cannot be: another open
// database declares other fields, or a declaration no longer fits this
// build's schema (a built-in field took its name).
func Hold(db string, decls []Declaration) (*Holding, error) {
	build.Lock()
	defer build.Unlock()
	h := &Holding{db: db}
	if err := h.use(decls); err != nil {
		return nil, err
	}
	holders[h] = true
	return h, nil
}

// Change puts a new set of the holding database's declared fields in force
// (a field declared, or another process's declaration read).
func (h *Holding) Change(decls []Declaration) error {
	build.Lock()
	defer build.Unlock()
	return h.use(decls)
}

// Current reports whether decls are the declarations in force for the
// holding's database.
func (h *Holding) Current(decls []Declaration) bool {
	build.Lock()
	defer build.Unlock()
	return h.key == Digest(decls) && inForce == h.key
}

// use puts decls in force for h's database, if no other database open
// holds other ones; build is locked.
func (h *Holding) use(decls []Declaration) error {
	key := Digest(decls)
	for o := range holders {
		if o != h && o.db != h.db && o.key != key {
			return fmt.Errorf("another database open in this program (%s) declares other fields; close it first", o.db)
		}
	}
	if key != inForce {
		t, err := rebuild(decls)
		if err != nil {
			return fmt.Errorf("a declared field of the database no longer fits this build of annotate: %w", err)
		}
		current.Store(t)
		build.declared = slices.Clone(decls)
		inForce = key
	}
	h.key = key
	for o := range holders {
		if o.db == h.db {
			o.key = key
		}
	}
	return nil
}

// Release takes the holding's database out: with no database open, the
// schema is the built-in one again.
func (h *Holding) Release() {
	build.Lock()
	defer build.Unlock()
	if !holders[h] {
		return
	}
	delete(holders, h)
	if len(holders) > 0 || inForce == "" {
		return
	}
	t, err := rebuild(nil)
	if err != nil {
		panic("schema: " + err.Error()) // the built-in kinds were in force before
	}
	current.Store(t)
	build.declared, inForce = nil, ""
}

// InForce lists the declarations in force, in the order they were placed.
func InForce() []Declaration {
	build.Lock()
	defer build.Unlock()
	return slices.Clone(build.declared)
}

// hintOf is "; did you mean …?" for a name close to a known one, "" else.
func hintOf(typed string, known []string) string { return suggest.Hint(typed, known) }
