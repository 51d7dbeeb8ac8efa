package lang

import (
	"errors"
	"fmt"
	"strings"
)

// Error is an error an annotator may read, held as a catalog message and
// its arguments so that it is said in the reader's language when it is
// printed (Say), not when it is made: the commands make their errors
// before they know whose screen they reach. Its Error is the English.
type Error struct {
	format string
	args   []any
}

// Errorf makes an Error of a catalog message; an argument that is an
// error (%w wraps it, as fmt.Errorf does) is said in the reader's language
// too when it is one of these.
func Errorf(format string, args ...any) error {
	return &Error{format: format, args: args}
}

func (e *Error) Error() string { return e.in(nil) }

// Unwrap gives the errors among the arguments, for errors.Is and As.
func (e *Error) Unwrap() []error {
	var out []error
	for _, a := range e.args {
		if err, ok := a.(error); ok {
			out = append(out, err)
		}
	}
	return out
}

// in says the error in p's language, its error arguments too.
func (e *Error) in(p *Printer) string {
	args := make([]any, len(e.args))
	for i, a := range e.args {
		switch v := a.(type) {
		case error:
			a = Say(p, v)
		case Sayer:
			a = v.SayIn(p)
		}
		args[i] = a
	}
	// The catalog holds the message under its key as written, %w and all,
	// and says it with %v (build).
	return p.Sprintf(e.format, args...)
}

// Sayer is an error that says itself in a reader's language (an error
// type of its own, with fields a caller reads).
type Sayer interface {
	SayIn(p *Printer) string
}

// Say is an error as p's reader reads it: an Error or a Sayer in p's
// language, an error wrapping one (fmt.Errorf's %w) with the wrapped part
// in p's language, any other error as it says itself.
func Say(p *Printer, err error) string {
	var e *Error
	if errors.As(err, &e) && e == err {
		return e.in(p)
	}
	if s, ok := err.(Sayer); ok {
		return s.SayIn(p)
	}
	if w, ok := err.(interface{ Unwrap() error }); ok && w.Unwrap() != nil {
		// fmt.Errorf("context: %w", err): the context stays as written, the
		// wrapped error is said in p's language.
		inner := w.Unwrap()
		if msg, found := strings.CutSuffix(err.Error(), inner.Error()); found {
			return msg + Say(p, inner)
		}
	}
	return fmt.Sprint(err)
}

// OrList is a list of names said with "or" in the reader's language ("a,
// b or c"; "a, b ou c"), an argument of Errorf.
type OrList []string

// SayIn joins the list in p's language.
func (o OrList) SayIn(p *Printer) string {
	if len(o) <= 1 {
		return strings.Join(o, "")
	}
	return p.Sprintf("%s or %s", strings.Join(o[:len(o)-1], ", "), o[len(o)-1])
}

func (o OrList) String() string { return o.SayIn(nil) }

// Count is a number of things said in the reader's language ("3 claims",
// "3 propositions"), an argument of Errorf: key is the catalog's entry,
// its form chosen by n.
func Count(key string, n int) Sayer { return counted{key, n} }

type counted struct {
	key string
	n   int
}

func (c counted) SayIn(p *Printer) string { return p.Sprintf(c.key, c.n) }

func (c counted) String() string { return c.SayIn(nil) }

// Phrase is a message held for the reader's language, an argument of
// Errorf: key is a catalog key marked where it is written (Key), as for
// Text.
func Phrase(key string, args ...any) Sayer { return phrase{key, args} }

type phrase struct {
	key  string
	args []any
}

func (p phrase) SayIn(l *Printer) string { return l.Sprintf(p.key, p.args...) }

func (p phrase) String() string { return p.SayIn(nil) }
