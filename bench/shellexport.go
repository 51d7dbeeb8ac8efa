package main

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
)

// shellBackup writes, with the sqlite3 shell, every table file that
// annotate's backup in backupDir wrote (its manifest, backup.json), one
// json_object a row in the backup's order (rowid, or the primary key of a
// table without rowid). The queries come from the schema of db, not from a
// list kept here: a table added by a migration gets its rival query
// without an edit, and a manifest table the schema lacks, or whose columns
// differ from the schema's, is an error. left are the schema's tables the
// backup leaves out (derived ones), for the results to show.
func (r *runner) shellBackup(db, backupDir, out string) (m measure, left []string, err error) {
	if err := os.MkdirAll(out, 0o755); err != nil {
		return m, nil, err
	}
	b, err := os.ReadFile(filepath.Join(backupDir, "backup.json"))
	if err != nil {
		return m, nil, err
	}
	var manifest struct {
		Tables []struct {
			Name, File string
			Columns    []string
		}
	}
	if err := json.Unmarshal(b, &manifest); err != nil {
		return m, nil, fmt.Errorf("%s: %w", filepath.Join(backupDir, "backup.json"), err)
	}
	names, err := r.run(nil, r.sqlite, db, "SELECT name FROM sqlite_schema WHERE type='table' AND name NOT LIKE 'sqlite%' ORDER BY name")
	if err != nil {
		return m, nil, err
	}
	inBackup := map[string]bool{}
	var script strings.Builder
	for _, t := range manifest.Tables {
		cols, key, err := r.tableShape(db, t.Name)
		if err != nil {
			return m, nil, err
		}
		if len(cols) == 0 {
			return m, nil, fmt.Errorf("annotate's backup writes table %s, which the schema of %s does not have: no rival query", t.Name, db)
		}
		if !slices.Equal(cols, t.Columns) {
			return m, nil, fmt.Errorf("annotate's backup writes table %s with columns %v, the schema has %v", t.Name, t.Columns, cols)
		}
		inBackup[t.Name] = true
		var args []string
		for _, c := range cols {
			args = append(args, fmt.Sprintf(`'%s',"%s"`, c, c))
		}
		fmt.Fprintf(&script, ".output %s\nSELECT %s FROM \"%s\" ORDER BY %s;\n",
			filepath.Join(out, filepath.Base(t.File)), asBackupJSON("json_object("+strings.Join(args, ",")+")"), t.Name, key)
	}
	for _, n := range strings.Fields(string(names)) {
		if !inBackup[n] {
			left = append(left, n)
		}
	}
	sql := filepath.Join(r.work, "shell-backup.sql")
	if err := os.WriteFile(sql, []byte(script.String()), 0o644); err != nil {
		return m, nil, err
	}
	m, err = r.timed("", sql, "", r.sqlite, db)
	return m, left, err
}

// asBackupJSON rewrites, in the JSON text json_object writes, what
// annotate's backup writes otherwise (internal/jsontext, as encoding/json
// does). It is SQL, run by the sqlite3 shell the bench measures annotate
// against, so no Go function can do it. It escapes <, > and & (\u003c,
// \u003e, \u0026) and the line and paragraph separators U+2028 and U+2029,
// which SQLite leaves as they are, and writes a backspace and a form feed
// as \u0008 and \u000c where SQLite writes \b and \f. Outside strings a json_object has only its column names, which
// hold none of these. An escaped backslash (\\) is set aside as char(1)
// while \b and \f are rewritten, so that \\b stays a backslash and a b:
// the JSON text holds no raw control character, so char(1) is free.
func asBackupJSON(expr string) string {
	for _, c := range []struct{ from, to string }{
		{"'<'", `'\u003c'`}, {"'>'", `'\u003e'`}, {"'&'", `'\u0026'`},
		{"char(8232)", `'\u2028'`}, {"char(8233)", `'\u2029'`},
		{`'\\'`, "char(1)"}, {`'\b'`, `'\u0008'`}, {`'\f'`, `'\u000c'`}, {"char(1)", `'\\'`},
	} {
		expr = "replace(" + expr + ", " + c.from + ", " + c.to + ")"
	}
	return expr
}

// tableShape: a table's columns and the order of its backup.
func (r *runner) tableShape(db, table string) ([]string, string, error) {
	out, err := exec.Command(r.sqlite, db, fmt.Sprintf(
		`SELECT name, pk FROM pragma_table_info('%s') ORDER BY cid; SELECT '#', wr FROM pragma_table_list WHERE name='%s' AND schema='main';`, table, table)).Output()
	if err != nil {
		return nil, "", fmt.Errorf("%s: %v", table, err)
	}
	var cols []string
	pk := map[int]string{}
	key := "rowid"
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		if line == "" {
			continue
		}
		name, n, _ := strings.Cut(line, "|")
		k, _ := strconv.Atoi(n)
		if name == "#" {
			if k == 1 {
				var ks []string
				for i := 1; i <= len(pk); i++ {
					ks = append(ks, `"`+pk[i]+`"`)
				}
				key = strings.Join(ks, ", ")
			}
			continue
		}
		cols = append(cols, name)
		if k > 0 {
			pk[k] = name
		}
	}
	return cols, key, nil
}

// sameFiles compares the files of the first folder with those of the
// others: "yes (N files)" or what differs.
func sameFiles(dirs ...string) string {
	sums := func(dir string) map[string]string {
		out := map[string]string{}
		filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
			if err == nil && !d.IsDir() {
				b, _ := os.ReadFile(path)
				h := sha256.Sum256(b)
				rel, _ := filepath.Rel(dir, path)
				out[rel] = hex.EncodeToString(h[:])
			}
			return nil
		})
		return out
	}
	want := sums(dirs[0])
	for _, d := range dirs[1:] {
		got := sums(d)
		for name, h := range want {
			if got[name] != h {
				return "NO: " + name + " differs in " + filepath.Base(filepath.Dir(d)) + "/" + filepath.Base(d)
			}
		}
		if len(got) != len(want) {
			return fmt.Sprintf("NO: %d files against %d", len(got), len(want))
		}
	}
	return fmt.Sprintf("yes (%d files)", len(want))
}
