// Command annotate is a terminal annotation and review workbench for legal RAG
// benchmarks. Each command lives in its own file and registers itself here.
package main

import (
	"errors"
	"fmt"
	"os"
)

func main() {
	os.Exit(run(os.Args[1:]))
}

// run executes the command line and returns the exit status, so tests can
// call it in-process (testscript).
func run(args []string) int {
	err := runSafely(args, os.Stdout, os.Stderr)
	var ex exitError
	switch {
	case err == nil:
		return 0
	case errors.As(err, &ex):
		return ex.code
	}
	return 1
}

// exitError ends the program with a status and no further message (the
// command printed its own).
type exitError struct{ code int }

func (e exitError) Error() string { return fmt.Sprintf("exit status %d", e.code) }
