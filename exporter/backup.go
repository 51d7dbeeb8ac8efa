package exporter

import (
	"encoding/json"

	"github.com/annotate-dev/annotate/store"
)

// The lossless backup (--format jsonl): backup.json, the manifest, then
// tables/<table>.jsonl, one file per table of the database, one row per
// line as a JSON object of its columns, in rowid (or primary key) order.
// Rows stream from one snapshot through a buffered file: one row is in
// memory at a time. `annotate import DIR` restores it (importer/backup.go).

func (e *exporter) backup(dir string) error {
	tables, err := e.snap.BackupTables()
	if err != nil {
		return err
	}
	m := store.BackupManifest{Format: store.BackupFormat, Version: store.BackupVersion, SchemaVersion: store.SchemaVersion()}
	e.res.Tables = map[string]int{}
	for _, t := range tables {
		rel := "tables/" + t.Name + ".jsonl"
		f, err := e.openFile(dir, rel)
		if err != nil {
			return err
		}
		n := 0
		e.prog.begin(t.Name, t.Rows)
		err = each(e, e.snap.BackupRows(t), func(line []byte) error {
			n++
			if _, err := f.Write(line); err != nil {
				return err
			}
			_, err := f.Write([]byte{'\n'})
			return err
		})
		var count int
		if err := e.finish(f, err, &count, n); err != nil {
			return err
		}
		e.res.Tables[t.Name] = n
		m.Tables = append(m.Tables, store.BackupManifestRow{Name: t.Name, File: rel, Columns: t.Columns, Rows: n})
	}
	f, err := e.openFile(dir, "backup.json")
	if err != nil {
		return err
	}
	b, err := json.MarshalIndent(m, "", "  ")
	if err == nil {
		_, err = f.Write(append(b, '\n'))
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return err
	}
	e.res.Files = append(e.res.Files, "backup.json")
	return nil
}
