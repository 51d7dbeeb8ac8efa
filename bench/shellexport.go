package main

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
)

// shellBackup writes, with the sqlite3 shell, every table file of
// annotate's backup (one json_object a row, in the backup's order: rowid,
// or the primary key of a table without rowid).
func (r *runner) shellBackup(db, tablesDir, out string) (measure, error) {
	if err := os.MkdirAll(out, 0o755); err != nil {
		return measure{}, err
	}
	entries, err := os.ReadDir(tablesDir)
	if err != nil {
		return measure{}, err
	}
	var script strings.Builder
	for _, e := range entries {
		table := strings.TrimSuffix(e.Name(), ".jsonl")
		cols, key, err := r.tableShape(db, table)
		if err != nil {
			return measure{}, err
		}
		var args []string
		for _, c := range cols {
			args = append(args, fmt.Sprintf(`'%s',"%s"`, c, c))
		}
		fmt.Fprintf(&script, ".output %s\nSELECT json_object(%s) FROM \"%s\" ORDER BY %s;\n",
			filepath.Join(out, e.Name()), strings.Join(args, ","), table, key)
	}
	sql := filepath.Join(r.work, "shell-backup.sql")
	if err := os.WriteFile(sql, []byte(script.String()), 0o644); err != nil {
		return measure{}, err
	}
	return r.timed("", sql, "", r.sqlite, db)
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
