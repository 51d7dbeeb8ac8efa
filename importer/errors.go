package importer

import (
	"fmt"
	"strings"
)

// InputError is a problem with an input file. Its message names the place so
// the user can open the file and fix it: "FILE:LINE: field "X": what is wrong"
// for JSON Lines, "FILE: record N: field "X": what is wrong" for JSON arrays
// (N counts the array's elements from 1, as lines and rows are counted).
type InputError struct {
	File   string
	Line   int    // 1-based line; 0 when unknown
	Record int    // 0-based index in a JSON array (shown counted from 1); -1 when not applicable
	Field  string // the field, e.g. "question" or "claims[2].triplet"; "" for the whole record
	Msg    string
	Err    error // the underlying error (store.ErrChanged, store.ErrUnknownPair, ...), for errors.Is
}

func (e *InputError) Error() string {
	var b strings.Builder
	b.WriteString(e.File)
	if e.Line > 0 {
		fmt.Fprintf(&b, ":%d", e.Line)
	}
	if e.Record >= 0 {
		fmt.Fprintf(&b, ": record %d", e.Record+1)
	}
	b.WriteString(": ")
	if e.Field != "" {
		fmt.Fprintf(&b, "field %q: ", e.Field)
	}
	b.WriteString(e.Msg)
	return b.String()
}

func (e *InputError) Unwrap() error { return e.Err }

// loc is where a record came from.
type loc struct {
	file   string
	line   int // JSONL
	record int // JSON arrays; -1 for JSONL
}

func lineLoc(file string, line int) loc { return loc{file: file, line: line, record: -1} }
func recLoc(file string, rec int) loc   { return loc{file: file, record: rec} }
func fileLoc(file string) loc           { return loc{file: file, record: -1} }

// errf builds an InputError at l about field.
func (l loc) errf(field, format string, args ...any) *InputError {
	return &InputError{File: l.file, Line: l.line, Record: l.record, Field: field, Msg: fmt.Sprintf(format, args...)}
}

// wrap turns a store error into an InputError at l, keeping it for errors.Is.
func (l loc) wrap(field string, err error) error {
	e := l.errf(field, "%v", err)
	e.Err = err
	return e
}

// String names the place for "also in ..." messages.
func (l loc) String() string {
	if l.line > 0 {
		return fmt.Sprintf("%s:%d", l.file, l.line)
	}
	if l.record >= 0 {
		return fmt.Sprintf("%s record %d", l.file, l.record+1)
	}
	return l.file
}
