package main

import (
	"errors"
	"os"
)

// The results file holds sections that one command writes and the others
// keep as they rewrite the rest (bench queues, bench restore, bench
// exports), each between a start and an end marker (withMarkedSection and
// markedSectionOf, exports.go).

// writeSection replaces the section from start to end of the file at path
// with section (or adds it at the end).
func writeSection(path, start, end, section string) error {
	old, err := os.ReadFile(path)
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return err
	}
	return os.WriteFile(path, []byte(withMarkedSection(string(old), start, end, section)), 0o644)
}
