package schema

import (
	"bytes"
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"gopkg.in/yaml.v3"

	"github.com/annotate-dev/annotate/internal/suggest"
)

// MaxFieldFile bounds a field's declaration file (its guidelines included).
const MaxFieldFile = 256 << 10

// The keys of a declaration file, in the order docs/fields.md gives them.
var (
	declKeys   = []string{"kind", "field", "question", "scale", "min", "max", "values", "asked_after", "asked_when", "required", "guidelines", "fr"}
	valueKeys  = []string{"value", "key", "label", "meaning"}
	frenchKeys = []string{"question", "values", "guidelines"}
	frValueKey = []string{"value", "label", "meaning"}
)

// ParseDeclaration reads a field's declaration file (YAML) and checks it
// against the schema in force: every error names the file, the line and the
// key, and a misspelt name gets the nearest known one. What it checks: the
// keys are known and given once; the kind is an annotated kind; the field's
// name is an identifier that no built-in field has; the scale is known and
// fits the values (closed scales: at least two values, a boolean two, text
// none; an interval scale has its bounds, and its values are numbers
// between them, by default every whole number from min to max); values are
// identifiers, given once, keys digits 1 to 9, given once (default 1, 2,
// 3…); asked_after is a field of the kind, and asked_when values of it;
// the guidelines are not empty; the French texts name values of the field.
// Whether the declaration may replace the field's stored one (labels it
// would orphan) is the store's to check (CheckChange).
func ParseDeclaration(file string, data []byte) (Declaration, error) {
	d := Declaration{File: file, Required: true, lines: map[string]int{}}
	fail := func(line int, key, format string, args ...any) error {
		return &FileError{File: file, Line: line, Field: key, Msg: fmt.Sprintf(format, args...)}
	}
	if !utf8.Valid(data) {
		return d, fail(0, "", "not UTF-8 text")
	}
	data = bytes.TrimPrefix(data, []byte("\ufeff"))
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return d, fail(yamlLine(err), "", "not a YAML file: %s", yamlMessage(err))
	}
	if doc.Kind != yaml.DocumentNode || len(doc.Content) == 0 {
		return d, fail(0, "", "empty: a field's declaration has kind, field, question, scale, values, guidelines")
	}
	top := doc.Content[0]
	if top.Kind != yaml.MappingNode {
		return d, fail(top.Line, "", "want keys (kind, field, question, scale, …), got %s", nodeKind(top))
	}
	d.lines[""] = top.Line
	// Past the file's shape, every error that does not hide another is
	// reported, in the order of the file's lines: a lead fixes them in
	// one go rather than one per run. A check that needs what an earlier
	// one refused (the values, a valid scale) is left out.
	var errs []error
	add := func(err error) bool {
		if err != nil {
			errs = append(errs, err)
		}
		return err == nil
	}
	keys, err := mapping(file, top, "", declKeys, d.lines)
	add(err)
	str := func(key string) string {
		v, err := scalar(file, keys[key], key, false)
		add(err)
		return v
	}
	d.Field, d.Question, d.AskedAfter, d.Guidelines = str("field"), str("question"), str("asked_after"), str("guidelines")
	kind, scale := str("kind"), str("scale")
	d.Kind, d.Scale = Kind(kind), Level(scale)
	for _, req := range []struct{ key, v string }{{"kind", kind}, {"field", d.Field}, {"question", d.Question}, {"scale", scale}, {"guidelines", d.Guidelines}} {
		if strings.TrimSpace(req.v) == "" {
			if _, given := keys[req.key]; given {
				add(fail(d.lines[req.key], req.key, "empty"))
			} else {
				add(fail(top.Line, req.key, "missing (required)"))
			}
		}
	}
	if n := keys["required"]; n != nil {
		if n.Kind != yaml.ScalarNode || n.Tag != "!!bool" {
			add(fail(n.Line, "required", "want true or false, got %s", describe(n)))
		}
		d.Required = n.Value == "true" || n.Value == "True" || n.Value == "TRUE"
	}
	namesOK := kind != "" && d.Field != "" && add(d.checkNames())
	valuesOK := scale != "" && add(d.readScale(keys)) && add(d.readValues(keys["values"]))
	if namesOK && valuesOK {
		add(d.readAskedWhen(keys["asked_when"]))
		add(d.readFrench(keys["fr"]))
	}
	if len(errs) == 0 {
		add(d.checkPlace())
	}
	return d, fileErrors(errs)
}

// fileErrors is errs as one error, in the order of their lines (nil for
// none; the error itself for one).
func fileErrors(errs []error) error {
	switch len(errs) {
	case 0:
		return nil
	case 1:
		return errs[0]
	}
	line := func(err error) int {
		var fe *FileError
		if errors.As(err, &fe) {
			return fe.Line
		}
		return 0
	}
	slices.SortStableFunc(errs, func(a, b error) int { return line(a) - line(b) })
	return errors.Join(errs...)
}

// mapping reads the keys of an object: each known (did you mean?) and
// given once; lines gets the line of each, under prefix. A key refused is
// left out of the map, and the error says every key refused.
func mapping(file string, n *yaml.Node, prefix string, known []string, lines map[string]int) (map[string]*yaml.Node, error) {
	out := map[string]*yaml.Node{}
	var errs []error
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		name := prefix + k.Value
		switch _, dup := out[k.Value]; {
		case k.Kind != yaml.ScalarNode || !slices.Contains(known, k.Value):
			msg := "unknown key" + suggest.Hint(k.Value, known) + " (known: " + strings.Join(known, ", ") + ")"
			errs = append(errs, &FileError{File: file, Line: k.Line, Field: name, Msg: msg})
		case dup:
			errs = append(errs, &FileError{File: file, Line: k.Line, Field: name, Msg: fmt.Sprintf("given twice (first on line %d)", lines[name])})
		case v.Kind == yaml.AliasNode || v.Anchor != "":
			errs = append(errs, &FileError{File: file, Line: v.Line, Field: name, Msg: "YAML anchors and aliases are not read here: write the text out"})
		default:
			out[k.Value] = v
			lines[name] = k.Line
		}
	}
	return out, fileErrors(errs)
}

// scalar reads a text value (nil: ""); number says a number is welcome (a
// value of an interval scale, a key).
func scalar(file string, n *yaml.Node, key string, number bool) (string, error) {
	if n == nil || n.Kind == yaml.ScalarNode && n.Tag == "!!null" {
		return "", nil
	}
	ok := n.Kind == yaml.ScalarNode && (n.Tag == "!!str" || number && (n.Tag == "!!int" || n.Tag == "!!float"))
	if !ok {
		return "", &FileError{File: file, Line: n.Line, Field: key, Msg: "want text, got " + describe(n)}
	}
	if strings.IndexFunc(n.Value, func(r rune) bool { return unicode.IsControl(r) && r != '\n' && r != '\t' || isBidi(r) }) >= 0 {
		return "", &FileError{File: file, Line: n.Line, Field: key, Msg: "has a control or bidirectional character"}
	}
	return strings.TrimSpace(n.Value), nil
}

// isBidi reports the characters that reorder text on a terminal.
func isBidi(r rune) bool {
	return r >= '\u202a' && r <= '\u202e' || r >= '\u2066' && r <= '\u2069' || r == '\u200e' || r == '\u200f' || r == '\u061c'
}

func describe(n *yaml.Node) string {
	if n.Kind == yaml.ScalarNode && n.Tag == "!!str" {
		return strconv.Quote(n.Value)
	}
	if n.Kind == yaml.ScalarNode {
		return nodeKind(n) + " (" + n.Value + ")"
	}
	return nodeKind(n)
}

// checkNames checks the kind and the field's name against the schema.
func (d *Declaration) checkNames() error {
	s := SpecOf(d.Kind)
	if s == nil || !s.Annotated {
		return d.fail("kind", "unknown kind %q%s (kinds with a screen: %s)", d.Kind, hintOf(string(d.Kind), KindNames()), strings.Join(KindNames(), ", "))
	}
	if !identifier.MatchString(d.Field) {
		return d.fail("field", "%q: a field's name is lower-case letters, digits and underscores, starting with a letter (e.g. citation_accuracy)", d.Field)
	}
	if f, ok := Lookup(d.Field); ok && f.Declared == 0 {
		return d.fail("field", "%s is a built-in field of %s: a declaration adds a field of its own (its guidelines change with annotate guidelines edit %s)", d.Field, f.Kind, d.Field)
	}
	if slices.Contains(GuidelineSections(), d.Field) {
		if f, ok := Lookup(d.Field); !ok || f.Declared == 0 {
			return d.fail("field", "%s names a step's guidelines: choose another name", d.Field)
		}
	}
	if strings.Contains(d.Question, "\n") {
		return d.fail("question", "one line: the field card shows it beside the field's name")
	}
	return nil
}

// readScale checks the scale's name and its bounds.
func (d *Declaration) readScale(keys map[string]*yaml.Node) error {
	names := make([]string, len(Levels))
	for i, l := range Levels {
		names[i] = string(l)
	}
	if !slices.Contains(Levels, d.Scale) {
		return d.fail("scale", "unknown scale %q%s (scales: %s)", d.Scale, hintOf(string(d.Scale), names), strings.Join(names, ", "))
	}
	for _, b := range []struct {
		key string
		dst **float64
	}{{"min", &d.Min}, {"max", &d.Max}} {
		n := keys[b.key]
		if n == nil {
			continue
		}
		if d.Scale != Interval {
			return d.fail(b.key, "only an interval scale has bounds (this one is %s)", d.Scale)
		}
		x, err := strconv.ParseFloat(n.Value, 64)
		if n.Kind != yaml.ScalarNode || (n.Tag != "!!int" && n.Tag != "!!float") || err != nil || math.IsInf(x, 0) || math.IsNaN(x) {
			return d.fail(b.key, "want a number, got %s", describe(n))
		}
		*b.dst = &x
	}
	if d.Scale == Interval {
		switch {
		case d.Min == nil:
			return d.fail("scale", "an interval scale has bounds: add min and max")
		case d.Max == nil:
			return d.fail("min", "an interval scale has bounds: add max beside min")
		case *d.Min >= *d.Max:
			return d.fail("max", "the upper bound %g is not above the lower bound %g", *d.Max, *d.Min)
		}
	}
	return nil
}

// readValues reads the values: a list of objects (value, key, label,
// meaning) or of plain values; an interval scale without values takes its
// whole numbers, a boolean one yes and no.
func (d *Declaration) readValues(n *yaml.Node) error {
	if n != nil && n.Kind != yaml.SequenceNode {
		return d.fail("values", "want a list of values, got %s", describe(n))
	}
	if n != nil && d.Scale == Text {
		return d.fail("values", "a text field has no values (its answer is free text)")
	}
	if n != nil {
		seen := map[string]int{}
		keyOf := map[string]string{}
		for i, item := range n.Content {
			at := fmt.Sprintf("values[%d]", i)
			d.lines[at] = item.Line
			v := DeclaredValue{Key: strconv.Itoa(i + 1)}
			switch item.Kind {
			case yaml.ScalarNode:
				s, err := scalar(d.File, item, at, true)
				if err != nil {
					return err
				}
				v.Value = s
			case yaml.MappingNode:
				keys, err := mapping(d.File, item, at+".", valueKeys, d.lines)
				if err != nil {
					return err
				}
				for _, k := range []struct {
					key string
					dst *string
				}{{"value", &v.Value}, {"key", &v.Key}, {"label", &v.Label}, {"meaning", &v.Meaning}} {
					if keys[k.key] == nil {
						continue
					}
					s, err := scalar(d.File, keys[k.key], at+"."+k.key, k.key == "value" || k.key == "key")
					if err != nil {
						return err
					}
					*k.dst = s
				}
				if keys["value"] == nil {
					return d.fail(at, "missing value (each value has value:, and may have key:, label:, meaning:)")
				}
				if strings.Contains(v.Label, "\n") {
					return d.fail(at+".label", "one line: the field card shows it beside the key")
				}
			default:
				return d.fail(at, "want a value or {value, key, label, meaning}, got %s", describe(item))
			}
			if err := d.checkValue(at, v.Value); err != nil {
				return err
			}
			if first, dup := seen[v.Value]; dup {
				return d.fail(at, "the value %s is given twice (first as values[%d])", v.Value, first)
			}
			seen[v.Value] = i
			if len(v.Key) != 1 || v.Key[0] < '1' || v.Key[0] > '9' {
				return d.fail(keyAt(d, at), "the key %q is not a digit 1 to 9 (the keys that pick an option)", v.Key)
			}
			if o, dup := keyOf[v.Key]; dup {
				return d.fail(keyAt(d, at), "the key %s picks %s already", v.Key, o)
			}
			keyOf[v.Key] = v.Value
			d.Values = append(d.Values, v)
		}
	}
	switch {
	case d.Scale == Interval && len(d.Values) == 0:
		return d.wholeNumbers()
	case d.Scale == Boolean && len(d.Values) == 0:
		d.Values = []DeclaredValue{{Value: "yes", Key: "1"}, {Value: "no", Key: "2"}}
	case d.Scale == Boolean && len(d.Values) != 2:
		return d.fail("values", "a boolean field has two values (yes, then no), not %d", len(d.Values))
	case d.Scale != Text && len(d.Values) < 2:
		return d.fail("values", "a %s field has at least two values, this one has %d", d.Scale, len(d.Values))
	case len(d.Values) > 9:
		return d.fail("values", "%d values: the keys 1 to 9 pick at most nine", len(d.Values))
	}
	if d.Scale == Interval {
		for i := 1; i < len(d.Values); i++ {
			a, _ := strconv.ParseFloat(d.Values[i-1].Value, 64)
			b, _ := strconv.ParseFloat(d.Values[i].Value, 64)
			if b <= a {
				return d.fail(fmt.Sprintf("values[%d]", i), "an interval scale's values go up: %s comes after %s", d.Values[i].Value, d.Values[i-1].Value)
			}
		}
	}
	return nil
}

// keyAt is where a value's key is, or the value itself when its key is
// the default.
func keyAt(d *Declaration, at string) string {
	if d.lines[at+".key"] > 0 {
		return at + ".key"
	}
	return at
}

// checkValue checks one value: an identifier, or on an interval scale a
// number within the bounds.
func (d *Declaration) checkValue(at, v string) error {
	if d.Scale != Interval {
		if !identifier.MatchString(v) {
			return d.fail(at, "%q: a value is lower-case letters, digits and underscores, starting with a letter (its words go in label:)", v)
		}
		return nil
	}
	x, err := strconv.ParseFloat(v, 64)
	if err != nil || math.IsInf(x, 0) || math.IsNaN(x) {
		return d.fail(at, "%q: an interval scale's values are numbers", v)
	}
	if x < *d.Min || x > *d.Max {
		return d.fail(at, "%s is outside the bounds %g to %g", v, *d.Min, *d.Max)
	}
	return nil
}

// wholeNumbers gives an interval scale without values its whole numbers
// from min to max.
func (d *Declaration) wholeNumbers() error {
	lo, hi := *d.Min, *d.Max
	if lo != math.Trunc(lo) || hi != math.Trunc(hi) {
		return d.fail("values", "bounds %g to %g are not whole numbers: list the values", lo, hi)
	}
	if hi-lo+1 > 9 {
		return d.fail("max", "%g to %g is %g points, and the keys 1 to 9 pick at most nine: list the values you mean", lo, hi, hi-lo+1)
	}
	for x, i := lo, 1; x <= hi; x, i = x+1, i+1 {
		d.Values = append(d.Values, DeclaredValue{Value: strconv.FormatFloat(x, 'f', -1, 64), Key: strconv.Itoa(i)})
	}
	return nil
}

// readAskedWhen reads the values of asked_after that ask the field.
func (d *Declaration) readAskedWhen(n *yaml.Node) error {
	if n == nil {
		return nil
	}
	if d.AskedAfter == "" {
		return d.fail("asked_when", "asked when a field has some values: say which field with asked_after")
	}
	var items []*yaml.Node
	switch n.Kind {
	case yaml.SequenceNode:
		items = n.Content
	case yaml.ScalarNode:
		items = []*yaml.Node{n}
	default:
		return d.fail("asked_when", "want a list of values of %s, got %s", d.AskedAfter, describe(n))
	}
	if len(items) == 0 {
		return d.fail("asked_when", "no value: leave asked_when out to ask the field whatever %s is", d.AskedAfter)
	}
	for i, it := range items {
		v, err := scalar(d.File, it, fmt.Sprintf("asked_when[%d]", i), true)
		if err != nil {
			return err
		}
		d.lines[fmt.Sprintf("asked_when[%d]", i)] = it.Line
		if slices.Contains(d.AskedWhen, v) {
			return d.fail(fmt.Sprintf("asked_when[%d]", i), "%s is given twice", v)
		}
		d.AskedWhen = append(d.AskedWhen, v)
	}
	return nil
}

// readFrench reads the French texts: the question, labels and meanings of
// values of the field, the guidelines.
func (d *Declaration) readFrench(n *yaml.Node) error {
	if n == nil {
		return nil
	}
	if n.Kind != yaml.MappingNode {
		return d.fail("fr", "want the French texts (question, values, guidelines), got %s", describe(n))
	}
	keys, err := mapping(d.File, n, "fr.", frenchKeys, d.lines)
	if err != nil {
		return err
	}
	fr := &FrenchTexts{}
	if fr.Question, err = scalar(d.File, keys["question"], "fr.question", false); err != nil {
		return err
	}
	if strings.Contains(fr.Question, "\n") {
		return d.fail("fr.question", "one line: the field card shows it beside the field's name")
	}
	if fr.Guidelines, err = scalar(d.File, keys["guidelines"], "fr.guidelines", false); err != nil {
		return err
	}
	if vs := keys["values"]; vs != nil {
		if vs.Kind != yaml.SequenceNode {
			return d.fail("fr.values", "want a list of {value, label, meaning}, got %s", describe(vs))
		}
		for i, item := range vs.Content {
			at := fmt.Sprintf("fr.values[%d]", i)
			d.lines[at] = item.Line
			if item.Kind != yaml.MappingNode {
				return d.fail(at, "want {value, label, meaning}, got %s", describe(item))
			}
			vk, err := mapping(d.File, item, at+".", frValueKey, d.lines)
			if err != nil {
				return err
			}
			var v DeclaredValue
			for _, k := range []struct {
				key string
				dst *string
			}{{"value", &v.Value}, {"label", &v.Label}, {"meaning", &v.Meaning}} {
				if *k.dst, err = scalar(d.File, vk[k.key], at+"."+k.key, k.key == "value"); err != nil {
					return err
				}
			}
			if !slices.Contains(d.ValueNames(), v.Value) {
				return d.fail(at, "%q is not a value of %s%s (its values: %s)", v.Value, d.Field, hintOf(v.Value, d.ValueNames()), strings.Join(d.ValueNames(), ", "))
			}
			if fr.valueOf(v.Value).Value != "" {
				return d.fail(at, "the French of %s is given twice", v.Value)
			}
			fr.Values = append(fr.Values, v)
		}
	}
	d.French = fr
	return nil
}

// checkPlace checks where the field is asked, then places it in a copy of
// the schema in force (the field's earlier version replaced) as the
// database will: anything the schema still refuses is said at the field.
func (d *Declaration) checkPlace() error {
	s := SpecOf(d.Kind)
	if d.AskedAfter != "" {
		if d.AskedAfter == d.Field {
			return d.fail("asked_after", "a field is not asked after itself")
		}
		var asked []string
		for _, f := range s.Fields {
			if !f.Marker && f.Name != d.Field {
				asked = append(asked, f.Name)
			}
		}
		after, ok := fieldOf(s, d.AskedAfter)
		if !ok || after.Marker || after.Name == d.Field {
			return d.fail("asked_after", "%q is not a field asked on %s%s (its fields: %s)", d.AskedAfter, d.Kind, hintOf(d.AskedAfter, asked), strings.Join(asked, ", "))
		}
		if len(d.AskedWhen) > 0 {
			if len(after.Values) == 0 || after.Multi {
				return d.fail("asked_when", "%s takes %s, not one of a list of values: leave asked_when out", after.Name, map[bool]string{true: "several values", false: "free text"}[after.Multi])
			}
			for i, v := range d.AskedWhen {
				if !slices.Contains(after.Values, v) {
					return d.fail(fmt.Sprintf("asked_when[%d]", i), "%q is not a value of %s%s (its values: %s)", v, after.Name, hintOf(v, after.Values), strings.Join(after.Values, ", "))
				}
			}
		}
		if after.Declared > 0 && dependsOn(s, after.Name, d.Field) {
			return d.fail("asked_after", "%s is asked after %s already: the two would wait for each other", after.Name, d.Field)
		}
	}
	decls := InForce()
	replaced := false
	for i := range decls {
		if decls[i].Field == d.Field {
			decls[i], replaced = *d, true
		}
	}
	if !replaced {
		decls = append(decls, *d)
	}
	build.Lock()
	_, err := rebuild(decls)
	build.Unlock()
	if err != nil {
		return d.fail("field", "%s", err.Error())
	}
	return nil
}

// dependsOn reports whether field waits, through asked_after, for on.
func dependsOn(s *Spec, field, on string) bool {
	for seen := 0; field != "" && seen < len(s.Fields); seen++ {
		f, ok := fieldOf(s, field)
		if !ok {
			return false
		}
		if f.after == on {
			return true
		}
		field = f.after
	}
	return false
}

// yamlLine is the line a YAML syntax error names, 0 when none.
func yamlLine(err error) int {
	msg := err.Error()
	if i := strings.Index(msg, "line "); i >= 0 {
		rest := msg[i+5:]
		j := strings.IndexFunc(rest, func(r rune) bool { return r < '0' || r > '9' })
		if j > 0 {
			n, _ := strconv.Atoi(rest[:j])
			return n
		}
	}
	return 0
}

// yamlMessage is a YAML syntax error without the parser's prefix and line.
func yamlMessage(err error) string {
	msg := strings.TrimPrefix(err.Error(), "yaml: ")
	if i := strings.Index(msg, ": "); i >= 0 && strings.HasPrefix(msg, "line ") {
		msg = msg[i+2:]
	}
	return msg
}
