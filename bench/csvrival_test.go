package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func writeFiles(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// What encoding/csv (UseCRLF) writes and what the sqlite3 shell's .mode csv
// writes for the same rows: the shell quotes a field with a space, and both
// write a line break inside a field as CRLF.
const (
	goCSV    = "id,question,claim_ids\r\nq-1,Is it valid?,\"q-1-c1\r\nq-1-c2\"\r\nq-2,\"Yes, it is\",\r\n"
	shellCSV = "id,question,claim_ids\r\nq-1,\"Is it valid?\",\"q-1-c1\r\nq-1-c2\"\r\nq-2,\"Yes, it is\",\"\"\r\n"
)

func TestSameCSV(t *testing.T) {
	mine := writeFiles(t, map[string]string{"qa.csv": goCSV, "claims.csv": "id\r\nc\r\n"})
	same := writeFiles(t, map[string]string{"qa.csv": shellCSV, "claims.csv": "id\r\nc\r\n"})
	if got := sameCSV(mine, same); got != "same header and records (2 files, 3 rows); same bytes in 1 of 2 files (the shell quotes otherwise: see how the exports are measured)" {
		t.Errorf("same records: got %q", got)
	}
	other := writeFiles(t, map[string]string{"qa.csv": strings.Replace(shellCSV, "q-1-c2", "q-1-c3", 1), "claims.csv": "id\r\nc\r\n"})
	if got := sameCSV(mine, other); !strings.HasPrefix(got, `NO: qa.csv record 2: annotate "q-1|Is it valid?|q-1-c1\nq-1-c2", the shell "q-1|Is it valid?|q-1-c1\nq-1-c3"`) {
		t.Errorf("a cell differs: got %q", got)
	}
	fewer := writeFiles(t, map[string]string{"qa.csv": "id,question,claim_ids\r\n", "claims.csv": "id\r\nc\r\n"})
	if got := sameCSV(mine, fewer); got != "NO: qa.csv: annotate 3 records, the shell 1" {
		t.Errorf("rows missing: got %q", got)
	}
	extra := writeFiles(t, map[string]string{"qa.csv": goCSV, "relevance.csv": "id\r\n"})
	if got := sameCSV(extra, same); got != "NO: the shell has no rival query for relevance.csv" {
		t.Errorf("a file without a rival: got %q", got)
	}
}
