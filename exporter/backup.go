package exporter

import (
	"encoding/json"
	"slices"
	"sync"

	"github.com/annotate-dev/annotate/store"
)

// The lossless backup (--format jsonl): backup.json, the manifest, then
// tables/<table>.jsonl, one file per table of the database, one row per
// line as a JSON object of its columns, in rowid (or primary key) order.
// Rows stream from one commit through buffered files: a row per reader is
// in memory at a time. `annotate import DIR` restores it (importer/backup.go).
//
// The tables are read on backupReaders connections at once, each a view of
// the same commit (store.Snapshots), largest table first: the files are
// independent, and the row reading (SQLite's and the driver's work) is
// most of the backup, so the second core halves its wall time. When the
// views could not all be opened (another connection writing), it is the
// same code on one view.

// backupReaders is how many views the backup asks for.
const backupReaders = 2

func (e *exporter) backup(dir string) error {
	tables, err := e.snap.BackupTables()
	if err != nil {
		return err
	}
	rows, err := e.backupTables(dir, tables)
	if err != nil {
		return err
	}
	m := store.BackupManifest{Format: store.BackupFormat, Version: store.BackupVersion, SchemaVersion: store.SchemaVersion()}
	e.res.Tables = map[string]int{}
	for i, t := range tables {
		e.res.Files = append(e.res.Files, backupFile(t))
		e.res.Tables[t.Name] = rows[i]
		m.Tables = append(m.Tables, store.BackupManifestRow{Name: t.Name, File: backupFile(t), Columns: t.Columns, Rows: rows[i]})
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

func backupFile(t store.BackupTable) string { return "tables/" + t.Name + ".jsonl" }

// backupTables writes every table's file, the views sharing the tables
// largest first, and returns the rows written per table (in tables' order).
// The first error stops the others at their next 1024 rows.
func (e *exporter) backupTables(dir string, tables []store.BackupTable) ([]int, error) {
	order := make([]int, len(tables))
	total := 0
	for i, t := range tables {
		order[i] = i
		total += t.Rows
	}
	// Largest first, by cells: a row costs about a value per column.
	cells := func(i int) int { return tables[i].Rows * len(tables[i].Columns) }
	slices.SortStableFunc(order, func(a, b int) int { return cells(b) - cells(a) })
	rows := make([]int, len(tables))
	var (
		mu   sync.Mutex // next, failed, and the progress line
		next int
		fail error
		wg   sync.WaitGroup
	)
	e.prog.begin("backup", total)
	take := func() (int, bool) {
		mu.Lock()
		defer mu.Unlock()
		if fail != nil || next == len(order) {
			return 0, false
		}
		next++
		return order[next-1], true
	}
	stopped := func(err error) bool {
		mu.Lock()
		defer mu.Unlock()
		if err != nil && fail == nil {
			fail = err
		}
		return fail != nil
	}
	advance := func(n int) {
		mu.Lock()
		e.prog.advance(n)
		mu.Unlock()
	}
	for _, v := range e.views {
		wg.Go(func() {
			for i, ok := take(); ok; i, ok = take() {
				n, err := e.backupTable(dir, v, tables[i], advance, func() bool { return stopped(nil) })
				rows[i] = n
				if stopped(err) {
					return
				}
			}
		})
	}
	wg.Wait()
	if fail != nil {
		return nil, fail
	}
	e.prog.end()
	return rows, nil
}

// backupTable writes one table's file from view v: its lines, then the
// file flushed and synced.
func (e *exporter) backupTable(dir string, v *store.ReadTx, t store.BackupTable, advance func(int), stopped func() bool) (int, error) {
	f, err := e.openFile(dir, backupFile(t))
	if err != nil {
		return 0, err
	}
	n := 0
	for line, err := range v.BackupRows(t) {
		if err == nil {
			if _, err = f.Write(line); err == nil {
				err = f.WriteByte('\n')
			}
		}
		if err != nil {
			f.Close()
			return n, err
		}
		if n++; n&1023 == 0 {
			advance(1024)
			if err := e.ctx.Err(); err != nil || stopped() {
				f.Close()
				return n, err
			}
		}
	}
	advance(n & 1023)
	if err := e.ctx.Err(); err != nil {
		f.Close()
		return n, err
	}
	return n, f.Close()
}
