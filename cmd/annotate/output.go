package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/annotate-dev/annotate/internal/lang"
	"github.com/annotate-dev/annotate/internal/textsafe"
	"github.com/charmbracelet/x/term"
)

// The output layer: everything a command prints goes through cmd.OutOrStdout()
// and cmd.ErrOrStderr(), which are textsafe writers, so a data string (an
// annotator name, an item id, a source name, a note) never reaches the
// terminal raw, whatever command prints it and however. Text output shows a
// control character as a visible picture (ESC as ␛, BEL as ␇; C1 controls and
// bidi overrides as �). JSON output (--json) keeps the same values: its
// control characters, C1 ones included, are written as \u escapes, so a
// program reading it gets the data back exactly (see textsafe.Writer).
// Error messages are written through the same writer. The screens (TUI) draw
// on the terminal themselves and sanitise with the same rules.

// runSafely runs the command line with stdout and stderr behind the
// sanitiser; an error is printed on stderr as "annotate: MESSAGE" (unless it
// is an exitError, whose command printed its own) and returned.
func runSafely(args []string, stdout, stderr io.Writer) error {
	root, g := newRoot()
	out := &textsafe.Writer{W: stdout, JSON: func() bool { return g.json }}
	errOut := &textsafe.Writer{W: stderr}
	root.SetOut(out)
	root.SetErr(errOut)
	// cobra's completion command takes its writer when it is made: make it
	// now, behind the sanitiser, and guard its group against typos too.
	root.InitDefaultCompletionCmd()
	rejectUnknownCommands(root)
	root.SetArgs(args)
	err := root.Execute()
	if err != nil && !errors.As(err, new(exitError)) {
		for _, e := range errorLines(err) {
			fmt.Fprintln(errOut, "annotate:", oneLine(lang.Say(g.errorPrinter(), e)))
		}
	}
	out.Flush()
	errOut.Flush()
	return err
}

// errorLines are the errors err joins (errors.Join: every mistake of a
// declaration file, an import refused and its undoing), each printed on a
// line of its own; any other error is one line. A join is told by its text,
// its parts' texts a line each: an error that wraps several (fmt.Errorf
// with two %w) says them in a message of its own, which stays whole.
func errorLines(err error) []error {
	j, ok := err.(interface{ Unwrap() []error })
	if !ok {
		return []error{err}
	}
	parts := j.Unwrap()
	texts := make([]string, len(parts))
	for i, e := range parts {
		texts[i] = e.Error()
	}
	if strings.Join(texts, "\n") != err.Error() {
		return []error{err}
	}
	var out []error
	for _, e := range parts {
		out = append(out, errorLines(e)...)
	}
	return out
}

// terminalOf returns the terminal behind an output writer, or nil when the
// output is piped or redirected. Only drawing that prints no data string
// (the export's progress bar: "\r", a bar, counts, "ESC[K") may use it.
func terminalOf(w io.Writer) *os.File {
	if s, ok := w.(*textsafe.Writer); ok {
		w = s.W
	}
	if f, ok := w.(*os.File); ok && term.IsTerminal(f.Fd()) {
		return f
	}
	return nil
}

// rawTerminal is the terminal itself, for the annotation screens only: Bubble
// Tea draws with escape sequences of its own (and the window title is saved
// and restored through it), while every data string it shows has gone
// through the screens' own sanitiser (tui/internal/ui, the same rules).
func rawTerminal() *os.File { return os.Stdout }
