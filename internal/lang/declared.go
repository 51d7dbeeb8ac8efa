package lang

import "github.com/annotate-dev/annotate/schema"

// The texts of a field a lead declared (annotate fields add) come with the
// declaration, in English and, when it gives them, in French: they are not
// in the catalog. A French text the declaration leaves out is the English.

// Question is a declared field's question in the printer's language; ""
// for a built-in field (its question is a catalog key of its screen).
func (p *Printer) Question(f schema.Field) string {
	if p.French() && f.French != nil && f.French.Question != "" {
		return f.French.Question
	}
	return f.Question
}

// Words is a declared value's label in the printer's language, "" when the
// declaration gives none (the value is its own label).
func (p *Printer) Words(f schema.Field, value string) string {
	if p.French() && f.French != nil {
		if l := f.French.LabelOf(value); l != "" {
			return l
		}
	}
	if l := f.LabelOf(value); l != value {
		return l
	}
	return ""
}
