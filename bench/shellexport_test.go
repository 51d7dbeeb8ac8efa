package main

import (
	"database/sql"
	"path/filepath"
	"testing"

	"github.com/annotate-dev/annotate/store"
	_ "modernc.org/sqlite"
)

// The jsonl rival's json_object, rewritten by asBackupJSON, must write the
// bytes annotate's backup writes (store's BackupRows, the reference) for
// text that SQLite and the backup escape differently.
func TestAsBackupJSONWritesTheBackupsBytes(t *testing.T) {
	path := filepath.Join(t.TempDir(), "a.db")
	s, err := store.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	s.Close()
	db, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	texts := []string{
		"a<b>&c", "line\u2028sep\u2029end", `back\slash \b and \f as written`, "bs\x08 ff\x0c bell\x07 tab\t nl\n cr\r",
		`quote" and \\`, "é ü 日本", "del\x7f", "",
	}
	for i, x := range texts {
		if _, err := db.Exec("INSERT INTO sources(name, language, jurisdiction) VALUES (?, ?, ?)", "s"+string(rune('a'+i)), x, x+x); err != nil {
			t.Fatal(err)
		}
	}
	rows, err := db.Query(`SELECT ` + asBackupJSON(`json_object('id',"id",'name',"name",'language',"language",'jurisdiction',"jurisdiction")`) + ` FROM sources ORDER BY rowid`)
	if err != nil {
		t.Fatal(err)
	}
	var shell []string
	for rows.Next() {
		var j string
		if err := rows.Scan(&j); err != nil {
			t.Fatal(err)
		}
		shell = append(shell, j)
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	db.Close()

	s, err = store.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	var backup []string
	err = s.Read(func(rx *store.ReadTx) error {
		tables, err := rx.BackupTables()
		if err != nil {
			return err
		}
		for _, tb := range tables {
			if tb.Name != "sources" {
				continue
			}
			for b, err := range rx.BackupRows(tb) {
				if err != nil {
					return err
				}
				backup = append(backup, string(b))
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(backup) != len(texts) || len(shell) != len(texts) {
		t.Fatalf("rows: backup %d, rival %d, want %d", len(backup), len(shell), len(texts))
	}
	for i := range texts {
		if shell[i] != backup[i] {
			t.Errorf("text %q:\nrival  %s\nbackup %s", texts[i], shell[i], backup[i])
		}
	}
}
