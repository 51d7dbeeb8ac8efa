package importer

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/annotate-dev/annotate/demo"
	"github.com/annotate-dev/annotate/exporter"
	"github.com/annotate-dev/annotate/store"
)

// backupOfDemo exports the demo with jo's and sam's labels as a backup.
func backupOfDemo(t *testing.T) string {
	t.Helper()
	s := openDB(t)
	if _, err := ImportReader(s, "demo.jsonl", demo.JSONL(), Options{}); err != nil {
		t.Fatal(err)
	}
	mustImport(t, s, []string{filepath.Join("..", "docs", "example", "labels-jo.jsonl"), filepath.Join("..", "docs", "example", "labels-sam.jsonl")}, Options{})
	out := filepath.Join(t.TempDir(), "backup")
	if _, err := exporter.Export(context.Background(), s, exporter.Options{Format: "jsonl", Out: out}); err != nil {
		t.Fatal(err)
	}
	return out
}

// editLine replaces line n (from 1) of a backup's table file; "" deletes it.
func editLine(t *testing.T, dir, table string, n int, edit func(string) string) string {
	t.Helper()
	p := filepath.Join(dir, "tables", table+".jsonl")
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfter(string(b), "\n")
	line := strings.TrimSuffix(lines[n-1], "\n")
	if e := edit(line); e == "" {
		lines = append(lines[:n-1], lines[n:]...)
	} else {
		lines[n-1] = e + "\n"
	}
	if err := os.WriteFile(p, []byte(strings.Join(lines, "")), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func copyDir(t *testing.T, from string) string {
	t.Helper()
	to := filepath.Join(t.TempDir(), "copy")
	if err := os.CopyFS(to, os.DirFS(from)); err != nil {
		t.Fatal(err)
	}
	return to
}

// A malformed backup line stops the restore with FILE:LINE: field, and
// nothing is written: the demo's 32 QA pairs (label events come after items
// in name order, so the items were already inserted when the bad line is
// read) are not in the database afterwards.
func TestBackupBadLines(t *testing.T) {
	good := backupOfDemo(t)
	for _, c := range []struct {
		table string
		line  int
		edit  func(string) string
		want  string // after the file's path
	}{
		{"label_events", 2, func(string) string { return `{"id":` }, `:2: not a JSON object`},
		{"label_events", 3, func(l string) string { return strings.Replace(l, `"id":3,`, `"id":"three",`, 1) }, `:3: field "id": want an integer for a column of type INTEGER`},
		{"label_events", 4, func(l string) string { return strings.Replace(l, `"field":`, `"colour":"red","field":`, 1) }, `:4: field "colour": no such column in table label_events`},
		{"label_events", 5, func(l string) string {
			i := strings.Index(l, `"created_at":"`)
			j := strings.Index(l[i+14:], `"`)
			return l[:i] + `"created_at":null` + l[i+14+j+1:]
		}, `:5: field "created_at": null, but the column needs a value`},
		{"label_events", 6, func(l string) string { return strings.Replace(l, `"value":"`, `"value":7,"x_":"`, 1) }, `:6: field "value": want a string for a column of type TEXT`},
		{"label_events", 2, func(l string) string { return strings.Replace(l, `"id":2,`, `"id":1,`, 1) }, `:2: field "id": constraint failed: UNIQUE constraint failed: label_events.id`},
		{"label_events", 1, func(string) string { return "" }, `: 707 rows, the manifest says 708 (a truncated or edited file)`}, // 708 = the 354 lines of labels-jo.jsonl + the 354 of labels-sam.jsonl
		{"claims", 1, func(l string) string { return strings.Replace(l, `"item_id":`, `"item_id":9999`, 1) }, `claims.jsonl:1: field "item_id": 99992 refers to no row of items`},
	} {
		dir := copyDir(t, good)
		p := editLine(t, dir, c.table, c.line, c.edit)
		s := openDB(t)
		_, err := Import(s, []string{dir}, Options{})
		if c.table == "claims" {
			p = filepath.Join(dir, "tables", "claims.jsonl")
		}
		if err == nil || !strings.Contains(err.Error(), p) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s line %d: got %v\nwant %s%s", c.table, c.line, err, p, c.want)
		}
		if n := count(t, s, "SELECT COUNT(*) FROM items"); n != 0 {
			t.Errorf("%s line %d: %d items written", c.table, c.line, n)
		}
	}
}

// A backup goes into a new database or one holding the same content: into
// one holding other items it is refused, and the database is unchanged.
func TestBackupIntoAnotherDatabase(t *testing.T) {
	dir := backupOfDemo(t)
	db := filepath.Join(t.TempDir(), "other.db")
	s, err := store.Open(db)
	if err != nil {
		t.Fatal(err)
	}
	other := writeFile(t, t.TempDir(), "x.jsonl", `{"id":"x1","source":"GDPR","question":"Q?","answer":"A.","contexts":[{"id":"x-p1","text":"T."}]}`+"\n")
	mustImport(t, s, []string{other}, Options{})
	s.Close()
	before := fileHash(t, db)
	s, err = store.Open(db)
	if err != nil {
		t.Fatal(err)
	}
	_, err = Import(s, []string{dir}, Options{})
	s.Close()
	want := filepath.Join(dir, "tables", "context_units.jsonl") + `:1: the database holds another row here; a backup is restored into a new database, or one that holds the same content`
	if err == nil || err.Error() != want {
		t.Fatalf("got %v\nwant %s", err, want)
	}
	if fileHash(t, db) != before {
		t.Fatal("the database changed")
	}
	// With other files on the command line: refused before anything.
	s = openDB(t)
	if _, err := Import(s, []string{dir, other}, Options{}); err == nil || !strings.Contains(err.Error(), "a backup folder is imported alone") {
		t.Fatalf("with another file: %v", err)
	}
}
