package exporter

import (
	"fmt"
	"strings"

	"github.com/annotate-dev/annotate/schema"
)

// The typed side of the Hugging Face folder: each column's feature (the
// `datasets` type the card declares and the Parquet files store), and the
// card's `configs` and `dataset_info` blocks built from them.
//
// A closed-value label column (a field of the label schema with a fixed
// list of values, one value per item) is a class_label whose names are the
// schema's values in schema order. Parquet stores it as an int64 code (the
// index in that list), as `datasets` itself stores a ClassLabel; a JSON
// Lines file keeps the value's name, which `datasets` encodes to the same
// code when it casts the file to the declared features. A column has one
// feature in every config it appears in (TestFeaturesOneTypePerColumn).

// feature is a column's `datasets` type.
type feature struct {
	dtype   string    // "string", "int64"; "" for a class_label, a list or a struct
	classes []string  // class_label names, in code order
	list    *feature  // a list of this feature
	fields  []fieldOf // a struct
}

type fieldOf struct {
	name string
	feature
}

var (
	fString = feature{dtype: "string"}
	fInt    = feature{dtype: "int64"}
	fFloat  = feature{dtype: "float64"}
	fBool   = feature{dtype: "bool"}
)

// classColumns maps a column that holds a label under another name to the
// field whose values it takes.
var classColumns = map[string]string{
	"review":        schema.AnswerReview,
	"review_reason": schema.RejectReason,
}

// classesOf is the class_label names of a string column, nil when the
// column is not a closed-value label.
func classesOf(c Column) []string {
	if c.Type != TypeString {
		return nil
	}
	name := c.Key
	if n, ok := classColumns[name]; ok {
		name = n
	}
	f, ok := schema.Lookup(name)
	if !ok || f.Multi || len(f.Values) == 0 {
		return nil
	}
	return f.Values
}

// featureOf is the feature of a column; systems are the prediction keys.
func featureOf(c Column, systems []string) feature {
	switch c.Type {
	case TypeInt:
		return fInt
	case TypeFloat:
		return fFloat
	case TypeBool:
		return fBool
	case TypeStrings:
		return feature{list: &fString}
	case tContexts:
		return feature{list: &feature{fields: []fieldOf{{"id", fString}, {"text", fString}}}}
	case tPreds:
		if len(systems) == 0 {
			return fString // always null: the dataset has no predictions
		}
		f := feature{}
		for _, s := range systems {
			f.fields = append(f.fields, fieldOf{s, fString})
		}
		return f
	}
	if cl := classesOf(c); cl != nil {
		return feature{classes: cl}
	}
	return fString
}

// features are the features of a config's columns. A label column holding
// a value outside the schema (kept verbatim on import) is a plain string.
func (c *hfConfig) features(systems []string) []feature {
	fs := make([]feature, len(c.layout.cols))
	for i, col := range c.layout.cols {
		fs[i] = featureOf(col, systems)
		if fs[i].classes != nil && c.plain[col.Key] {
			fs[i] = fString
		}
	}
	return fs
}

// outOfClass is a value outside a class_label column's names: the config
// is written again with that column a plain string.
type outOfClass struct{ column string }

func (e *outOfClass) Error() string { return "column " + e.column + ": a value outside its classes" }

// classCode is the code of a class_label value, -1 when it is not one.
func classCode(classes []string, v string) int {
	for i, n := range classes {
		if n == v {
			return i
		}
	}
	return -1
}

// yaml writes the feature's YAML (as the Hub's dataset cards write it) at
// the given indent, after a `- name: …` line.
func (f feature) yaml(b *strings.Builder, indent string) {
	q := yamlString
	switch {
	case f.dtype != "":
		fmt.Fprintf(b, "%sdtype: %s\n", indent, f.dtype)
	case f.classes != nil:
		fmt.Fprintf(b, "%sdtype:\n%s  class_label:\n%s    names:\n", indent, indent, indent)
		for i, n := range f.classes {
			fmt.Fprintf(b, "%s      '%d': %s\n", indent, i, q(n))
		}
	case f.list != nil && f.list.dtype != "":
		fmt.Fprintf(b, "%slist: %s\n", indent, f.list.dtype)
	case f.list != nil:
		fmt.Fprintf(b, "%slist:\n", indent)
		for _, s := range f.list.fields {
			fmt.Fprintf(b, "%s- name: %s\n", indent, q(s.name))
			s.feature.yaml(b, indent+"  ")
		}
	default:
		fmt.Fprintf(b, "%sstruct:\n", indent)
		for _, s := range f.fields {
			fmt.Fprintf(b, "%s- name: %s\n", indent, q(s.name))
			s.feature.yaml(b, indent+"  ")
		}
	}
}

// hfYAML writes the card's `configs` (each config's data file per split,
// the first one the default) and `dataset_info` (each config's features
// and split sizes).
func hfYAML(b *strings.Builder, configs []*hfConfig, split string, systems []string) {
	q := yamlString
	b.WriteString("configs:\n")
	for i, x := range configs {
		fmt.Fprintf(b, "- config_name: %s\n", x.name)
		if i == 0 {
			b.WriteString("  default: true\n")
		}
		fmt.Fprintf(b, "  data_files:\n  - split: %s\n    path: %s\n", split, q(x.path))
	}
	// Declared features keep every column's type fixed even where a whole
	// block of rows is null (pyarrow infers types block by block), and
	// give the label columns their class names.
	b.WriteString("dataset_info:\n")
	for _, x := range configs {
		fmt.Fprintf(b, "- config_name: %s\n  features:\n", x.name)
		fs := x.features(systems)
		for i, col := range x.layout.cols {
			fmt.Fprintf(b, "  - name: %s\n", q(col.Key))
			fs[i].yaml(b, "    ")
		}
		fmt.Fprintf(b, "  splits:\n  - name: %s\n    num_examples: %d\n", split, x.rows)
	}
}
