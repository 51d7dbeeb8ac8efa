package main

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/csv"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/annotate-dev/annotate/exporter"
	"github.com/annotate-dev/annotate/importer"
	"github.com/annotate-dev/annotate/store"
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

// The csv rival's queries, run here through the same SQLite (modernc) on a
// file imported from the bench's fixture, give the records annotate's csv
// export writes: every cell of qa.csv and claims.csv, gates included (the
// fixture has invalid questions and answers judged partially correct or
// incorrect). The shell's .mode csv only quotes them otherwise.
func TestCSVRivalGivesTheExportsRecords(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "a.db")
	s, err := store.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	var data bytes.Buffer
	if _, err := generate(&data, 1000); err != nil {
		t.Fatal(err)
	}
	if _, err := importer.ImportReader(s, "items.jsonl", data.Bytes(), importer.Options{}); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "csv")
	if _, err := exporter.Export(context.Background(), s, exporter.Options{Format: "csv", Out: out, Annotator: "a1"}); err != nil {
		t.Fatal(err)
	}
	db, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var statements []string // the rival's script without the shell's dot commands: qa.csv's query, then claims.csv's
	for _, st := range strings.Split(csvRivalSQL("a1", []string{"refchecker"}, "OUT"), ";\n") {
		var lines []string
		for _, l := range strings.Split(st, "\n") {
			if !strings.HasPrefix(l, ".") {
				lines = append(lines, l)
			}
		}
		if q := strings.TrimSpace(strings.Join(lines, "\n")); q != "" {
			statements = append(statements, q)
		}
	}
	if len(statements) != 2 {
		t.Fatalf("%d statements in the rival's script, want 2", len(statements))
	}
	gated := 0
	for i, name := range []string{"qa.csv", "claims.csv"} {
		f, err := os.Open(filepath.Join(out, name))
		if err != nil {
			t.Fatal(err)
		}
		want, err := csv.NewReader(f).ReadAll()
		f.Close()
		if err != nil {
			t.Fatal(err)
		}
		got := queryRecords(t, db, statements[i])
		if len(got) != len(want) {
			t.Fatalf("%s: the rival %d records, annotate %d", name, len(got), len(want))
		}
		for r := range want {
			if !slices.Equal(got[r], want[r]) {
				t.Fatalf("%s record %d:\nrival    %q\nannotate %q", name, r+1, got[r], want[r])
			}
			if name == "qa.csv" && r > 0 {
				qv, ac := want[r][slices.Index(want[0], "question_validity")], want[r][slices.Index(want[0], "answer_correctness")]
				if qv == "invalid" || ac == "partially_correct" || ac == "incorrect" {
					gated++ // its claims ask nothing
				}
			}
		}
	}
	if gated == 0 {
		t.Error("no invalid question nor answer judged partially correct or incorrect: the fixture no longer tests the gates")
	}
}

// queryRecords runs a query and returns its header and rows as the csv
// reader gives them back (NULL an empty cell, CRLF inside a cell an LF).
func queryRecords(t *testing.T, db *sql.DB, q string) [][]string {
	t.Helper()
	rows, err := db.Query(q)
	if err != nil {
		t.Fatalf("%v\n%s", err, q)
	}
	defer rows.Close()
	cols, err := rows.Columns()
	if err != nil {
		t.Fatal(err)
	}
	out := [][]string{cols}
	vals := make([]sql.NullString, len(cols))
	ptrs := make([]any, len(cols))
	for i := range vals {
		ptrs[i] = &vals[i]
	}
	for rows.Next() {
		if err := rows.Scan(ptrs...); err != nil {
			t.Fatal(err)
		}
		rec := make([]string, len(cols))
		for i, v := range vals {
			rec[i] = strings.ReplaceAll(v.String, "\r\n", "\n")
		}
		out = append(out, rec)
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}
