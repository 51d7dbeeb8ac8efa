package main

import (
	"encoding/json"
	"github.com/annotate-dev/annotate/store/storetest"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/annotate-dev/annotate/store"
)

// A backup restores only what is consistent: each table of a real backup
// (the rich database of backup_test.go), tampered with one way, is refused
// with its file, line and field, and the database the restore would have
// made is not left behind. The derived tables (kept counts, done items,
// work totals) are not in the backup: TestBackupRestoresEveryReport shows
// them rebuilt exactly.

// tamper is one change to a backup and the refusal it must get.
type tamper struct {
	name string
	edit func(t *testing.T, dir string, m *store.BackupManifest) // edits the folder; the manifest is written after
	want string                                                  // in the error, after the folder's path
	file bool                                                    // about a whole file: no line or field to name
}

func readManifest(t *testing.T, dir string) store.BackupManifest {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, "backup.json"))
	if err != nil {
		t.Fatal(err)
	}
	var m store.BackupManifest
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	return m
}

func writeManifest(t *testing.T, dir string, m store.BackupManifest) {
	t.Helper()
	b, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "backup.json"), b, 0o644); err != nil {
		t.Fatal(err)
	}
}

// editRow rewrites line n (from 1) of a table's file as a JSON object.
func editRow(t *testing.T, dir, table string, n int, edit func(row map[string]json.RawMessage)) {
	t.Helper()
	p := filepath.Join(dir, "tables", table+".jsonl")
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(string(b), "\n"), "\n")
	row := map[string]json.RawMessage{}
	if err := json.Unmarshal([]byte(lines[n-1]), &row); err != nil {
		t.Fatal(err)
	}
	edit(row)
	nb, err := json.Marshal(row)
	if err != nil {
		t.Fatal(err)
	}
	lines[n-1] = string(nb)
	if err := os.WriteFile(p, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
}

// rowWhere is the line (from 1) of a table's file whose row matches.
func rowWhere(t *testing.T, dir, table string, match func(row map[string]any) bool) int {
	t.Helper()
	n := firstRowWhere(t, dir, table, match)
	if n == 0 {
		t.Fatalf("no row of %s matches", table)
	}
	return n
}

// firstRowWhere is rowWhere, 0 when no row matches.
func firstRowWhere(t *testing.T, dir, table string, match func(row map[string]any) bool) int {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, "tables", table+".jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	for i, l := range strings.Split(strings.TrimSuffix(string(b), "\n"), "\n") {
		var row map[string]any
		if err := json.Unmarshal([]byte(l), &row); err != nil {
			t.Fatal(err)
		}
		if match(row) {
			return i + 1
		}
	}
	return 0
}

// foreignKeys are the columns of each table that refer to another's rows,
// as the schema declares them.
func foreignKeys(t *testing.T, db string) map[string][]string {
	t.Helper()
	s, err := store.Open(db)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	rows, err := storetest.DB(t, s).Query(`SELECT m.name, f."from" FROM sqlite_schema m, pragma_foreign_key_list(m.name) f WHERE m.type='table' ORDER BY m.name, f.id`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	out := map[string][]string{}
	for rows.Next() {
		var tb, col string
		if err := rows.Scan(&tb, &col); err != nil {
			t.Fatal(err)
		}
		out[tb] = append(out[tb], col)
	}
	return out
}

func TestTamperedBackupIsRefused(t *testing.T) {
	db := seedRichDB(t)
	good := filepath.Join(t.TempDir(), "backup")
	if out, err := execute(t, "--db", db, "export", "--format", "jsonl", "--out", good); err != nil {
		t.Fatalf("export: %v\n%s", err, out)
	}
	m := readManifest(t, good)
	fks := foreignKeys(t, db)

	var cases []tamper
	// Every table, one way: a reference to a row no table holds where the
	// table has one (a foreign key), else a line that leaves out a column
	// of the manifest.
	for _, tb := range m.Tables {
		if tb.Rows == 0 {
			continue
		}
		name := tb.Name
		refCol, line := "", 0
		for _, c := range fks[name] {
			if line = firstRowWhere(t, good, name, func(row map[string]any) bool { return row[c] != nil }); line > 0 {
				refCol = c
				break
			}
		}
		if refCol != "" {
			cases = append(cases, tamper{name + ": a reference to nothing", func(t *testing.T, dir string, _ *store.BackupManifest) {
				editRow(t, dir, name, line, func(row map[string]json.RawMessage) { row[refCol] = json.RawMessage("987654321") })
			}, "tables/" + name + ".jsonl:" + itoa(line) + `: field "` + refCol + `": 987654321 refers to no row of `, false})
			continue
		}
		col := tb.Columns[len(tb.Columns)-1]
		cases = append(cases, tamper{name + ": a line without a column", func(t *testing.T, dir string, _ *store.BackupManifest) {
			editRow(t, dir, name, 1, func(row map[string]json.RawMessage) { delete(row, col) })
		}, "tables/" + name + ".jsonl:1: field \"" + col + "\": missing: the manifest lists the column", false})
	}

	// What the issue found restored silently.
	cur := rowWhere(t, good, "current_labels", func(row map[string]any) bool { return row["role"] == "annotate" })
	cases = append(cases,
		tamper{"current_labels: a value the log never gave", func(t *testing.T, dir string, _ *store.BackupManifest) {
			editRow(t, dir, "current_labels", cur, func(row map[string]json.RawMessage) { row["value"] = json.RawMessage(`"bogus_value"`) })
		}, "tables/current_labels.jsonl:" + itoa(cur) + `: field "value": "bogus_value", but its event in the label log`, false},
	)
	// The event of that current label, changed: log and current labels disagree.
	var curEvent float64
	rowWhere(t, good, "current_labels", func(row map[string]any) bool {
		if row["role"] == "annotate" {
			curEvent = row["event_id"].(float64)
			return true
		}
		return false
	})
	ev := rowWhere(t, good, "label_events", func(row map[string]any) bool { return row["id"] == curEvent })
	cases = append(cases,
		tamper{"label_events: the value of a current label's event", func(t *testing.T, dir string, _ *store.BackupManifest) {
			editRow(t, dir, "label_events", ev, func(row map[string]json.RawMessage) { row["value"] = json.RawMessage(`"neutral_ish"`) })
		}, `tables/current_labels.jsonl:` + itoa(cur) + `: field "value": `, false},
		tamper{"label_events: a decision without a value", func(t *testing.T, dir string, _ *store.BackupManifest) {
			editRow(t, dir, "label_events", ev, func(row map[string]json.RawMessage) { row["value"] = json.RawMessage(`null`) })
		}, `tables/label_events.jsonl:` + itoa(ev) + `: field "value": missing: a label event holds its value`, false},
		tamper{"label_events: an undo of a later event", func(t *testing.T, dir string, _ *store.BackupManifest) {
			undo := rowWhere(t, dir, "label_events", func(row map[string]any) bool { return row["retracts"] != nil })
			editRow(t, dir, "label_events", undo, func(row map[string]json.RawMessage) { row["retracts"] = json.RawMessage(itoa(int(curEvent))) })
		}, `: field "retracts": an undo of event `, false},
	)

	// The folder and its manifest.
	cases = append(cases,
		tamper{"a table file that is a symbolic link", func(t *testing.T, dir string, _ *store.BackupManifest) {
			p := filepath.Join(dir, "tables", "notes.jsonl")
			os.Remove(p)
			if err := os.Symlink("/etc/passwd", p); err != nil {
				t.Fatal(err)
			}
		}, `tables/notes.jsonl: a symbolic link (to /etc/passwd)`, true},
		tamper{"a tables folder that is a symbolic link", func(t *testing.T, dir string, _ *store.BackupManifest) {
			elsewhere := filepath.Join(t.TempDir(), "tables")
			if err := os.Rename(filepath.Join(dir, "tables"), elsewhere); err != nil {
				t.Fatal(err)
			}
			if err := os.Symlink(elsewhere, filepath.Join(dir, "tables")); err != nil {
				t.Fatal(err)
			}
		}, `/tables: a symbolic link`, true},
		tamper{"a file outside the folder", func(t *testing.T, dir string, m *store.BackupManifest) {
			m.Tables[0].File = "../" + m.Tables[0].File
		}, `backup.json: field "tables[0].file": "../tables/`, false},
		tamper{"a table left out of the manifest", func(t *testing.T, dir string, m *store.BackupManifest) {
			for i, tb := range m.Tables {
				if tb.Name == "items" {
					m.Tables = append(m.Tables[:i], m.Tables[i+1:]...)
					return
				}
			}
		}, `backup.json: field "tables": the backup has no file of table items`, false},
		tamper{"a column the table does not have", func(t *testing.T, dir string, m *store.BackupManifest) {
			m.Tables[0].Columns = append(m.Tables[0].Columns, "colour")
		}, `field "colour": the manifest lists a column the table does not have`, false},
		tamper{"a column left out of the manifest", func(t *testing.T, dir string, m *store.BackupManifest) {
			for i, tb := range m.Tables {
				if tb.Name == "label_events" {
					m.Tables[i].Columns = slicesWithout(tb.Columns, "field")
				}
			}
		}, `field "field": the manifest leaves out a column that needs a value`, false},
		tamper{"a line with a column the manifest does not list", func(t *testing.T, dir string, m *store.BackupManifest) {
			for i, tb := range m.Tables {
				if tb.Name == "label_events" {
					m.Tables[i].Columns = slicesWithout(tb.Columns, "active_ms")
				}
			}
		}, `tables/label_events.jsonl:1: field "active_ms": a column the manifest does not list`, false},
	)

	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "backup")
			if err := os.CopyFS(dir, os.DirFS(good)); err != nil {
				t.Fatal(err)
			}
			mm := readManifest(t, dir)
			c.edit(t, dir, &mm)
			writeManifest(t, dir, mm)
			fresh := filepath.Join(t.TempDir(), "fresh.db")
			_, err := execute(t, "--db", fresh, "import", dir)
			if err == nil || !strings.Contains(err.Error(), dir) || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("got %v\nwant %s…%s", err, dir, c.want)
			}
			if !c.file && !locationRe.MatchString(err.Error()) {
				t.Errorf("the refusal names no file and line or field: %v", err)
			}
			if _, err := os.Lstat(fresh); !os.IsNotExist(err) {
				t.Errorf("the database was left behind: %v", err)
			}
		})
	}
}

// locationRe: FILE:LINE or FILE: field "X".
var locationRe = regexp.MustCompile(`\S+(:\d+|: field "[^"]+")`)

func slicesWithout(s []string, x string) []string {
	var out []string
	for _, v := range s {
		if v != x {
			out = append(out, v)
		}
	}
	return out
}

func itoa(n int) string { return strconv.Itoa(n) }
