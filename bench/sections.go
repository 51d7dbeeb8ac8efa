package main

import (
	"errors"
	"os"
	"strings"
)

// The results file holds sections that one command writes and the others
// keep as they rewrite the rest (bench queues, bench restore), each between
// a start and an end marker.

// writeSection replaces the section from start to end of the file at path
// with section (or adds it at the end).
func writeSection(path, start, end, section string) error {
	old, err := os.ReadFile(path)
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return err
	}
	return os.WriteFile(path, []byte(withSection(string(old), start, end, section)), 0o644)
}

// withSection is text with its section from start to end replaced by
// section (added at the end when it has none).
func withSection(text, start, end, section string) string {
	if i := strings.Index(text, start); i >= 0 {
		if j := strings.Index(text[i:], end); j >= 0 {
			return text[:i] + section + strings.TrimPrefix(text[i+j+len(end):], "\n")
		}
	}
	if text != "" && !strings.HasSuffix(text, "\n\n") {
		text = strings.TrimRight(text, "\n") + "\n\n"
	}
	return text + section
}

// sectionOf is text's section from start to end, "" when it has none.
func sectionOf(text, start, end string) string {
	i := strings.Index(text, start)
	if i < 0 {
		return ""
	}
	j := strings.Index(text[i:], end)
	if j < 0 {
		return ""
	}
	return text[i:i+j+len(end)] + "\n"
}
