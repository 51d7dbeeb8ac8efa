package lang

import (
	"strconv"
	"sync"
	"time"

	"golang.org/x/text/language"
	"golang.org/x/text/message"

	"github.com/annotate-dev/annotate/guidelines"
	"github.com/annotate-dev/annotate/schema"
)

// Printer says messages in one language. A nil *Printer speaks English, so
// that a screen built without one (a test, a widget drawn alone) still
// reads.
type Printer struct {
	code string
	p    *message.Printer
}

// The tags the catalog's messages are printed under. English is en-US's
// POSIX variant: English plurals, and numbers written as fmt writes them
// (12345, 0.5: no digit grouping), so that an English screen reads as it
// always has. French is fr: plurals by French rules (0 and 1 are singular),
// a decimal comma and a no-break space between thousands (12,5; 1 234).
var (
	englishTag = language.MustParse("en-US-u-va-posix")
	frenchTag  = language.French
)

var (
	printersOnce sync.Once
	printers     map[string]*Printer
)

// New returns the printer of a language code (English for a code it does
// not know). Printers are shared: a message.Printer holds no state between
// calls.
func New(code string) *Printer {
	printersOnce.Do(func() {
		cat := build()
		printers = map[string]*Printer{
			English: {code: English, p: message.NewPrinter(englishTag, message.Catalog(cat))},
			French:  {code: French, p: message.NewPrinter(frenchTag, message.Catalog(cat))},
		}
	})
	if p, ok := printers[code]; ok {
		return p
	}
	return printers[English]
}

func (p *Printer) or() *Printer {
	if p == nil {
		return New(English)
	}
	return p
}

// Code is the printer's language, "en" or "fr".
func (p *Printer) Code() string { return p.or().code }

// French reports whether the printer speaks French.
func (p *Printer) French() bool { return p.or().code == French }

// Sprintf says a message of the catalog, its key the English text with its
// placeholders, formatting the arguments by the language's rules (the
// plural form a number selects, the decimal comma). A key the catalog does
// not hold is printed as it is: the tests of this package find every key
// the code uses and fail on one the catalog lacks.
func (p *Printer) Sprintf(key string, args ...any) string {
	return p.or().p.Sprintf(key, args...)
}

// Text says a message whose key the code holds in a variable, marked where
// it is written with Key.
func (p *Printer) Text(key string) string { return p.or().p.Sprintf(key) }

// Key marks a catalog key written into a table or a variable, to be said
// later by Text: the tests find the keys the code uses by these marks and
// by the literal keys of Sprintf.
func Key(s string) string { return s }

// Field is the label of a field: in English its name (the identifier
// stored in the database), in French a French label.
func (p *Printer) Field(name string) string {
	if l, ok := fieldLabels[name]; ok && p.French() {
		return l
	}
	return name
}

// Value is the label of one value of a field: in English the value itself
// (the stored identifier), in French a French label; an error category's
// is the taxonomy's label (a lead's own category as the lead wrote it).
func (p *Printer) Value(field, value string) string {
	if !p.French() {
		return value
	}
	if field == schema.ErrorCategory {
		for _, c := range guidelines.TaxonomyIn(French) {
			if c.Value == value && c.Label != "" {
				return c.Label
			}
		}
	}
	if l, ok := valueLabels[field+"="+value]; ok {
		return l
	}
	return value
}

// frenchMonths are the months as French abbreviates them.
var frenchMonths = [...]string{"janv.", "févr.", "mars", "avr.", "mai", "juin", "juil.", "août", "sept.", "oct.", "nov.", "déc."}

// DayTime writes a moment of the last days as "2 Jan 15:04:05" ("2 janv.
// 15:04:05" in French).
func (p *Printer) DayTime(t time.Time) string {
	if p.French() {
		return strconv.Itoa(t.Day()) + " " + frenchMonths[t.Month()-1] + " " + t.Format("15:04:05")
	}
	return t.Format("2 Jan 15:04:05")
}
