package store

import (
	"encoding/base64"
	"errors"
	"fmt"
	"iter"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/annotate-dev/annotate/internal/jsontext"
)

// The lossless backup (`annotate export --format jsonl`): every table of the
// database, row by row, each row one JSON object of its columns. Nothing is
// interpreted, so whatever a report reads (label events with their times,
// sessions, retractions, batches, notes, runs, rates, the taxonomy, RAGChecker
// matrices…) comes back as it was, with the same ids. The kept counts and
// done items are derived from the labels: they are left out and recounted on
// restore, by this build's rules.

// backupSkipped are the tables a backup leaves out: derived, or the file's own.
// label_days is rebuilt from the restored label log (backup_load.go).
// screen_leases and writers say who uses this file now, import_undo what an
// import in progress changed.
var backupSkipped = map[string]bool{"kept_counts": true, "done_items": true, "meta": true, "label_days": true,
	"screen_leases": true, "writers": true, "import_undo": true}

// BackupFormat names the manifest's format; BackupVersion its version.
const (
	BackupFormat  = "annotate-backup"
	BackupVersion = 1
)

// BackupManifest is backup.json.
type BackupManifest struct {
	Format        string              `json:"format"`
	Version       int                 `json:"version"`
	SchemaVersion int                 `json:"schema_version"`
	Tables        []BackupManifestRow `json:"tables"`
}

// BackupManifestRow is one table of the manifest.
type BackupManifestRow struct {
	Name    string   `json:"name"`
	File    string   `json:"file"`
	Columns []string `json:"columns"`
	Rows    int      `json:"rows"`
}

// BackupTable is one table of a backup.
type BackupTable struct {
	Name     string   `json:"name"`
	Columns  []string `json:"columns"`
	Rows     int      `json:"rows"`
	key      []string // ORDER BY
	types    []string // declared types, upper case
	notNull  []bool
	dflt     []bool   // has a default
	manifest []string // restoring: the columns the backup's manifest lists, every line's keys
	alias    string   // a rowid table's INTEGER PRIMARY KEY, if it has one
}

// ErrImportInBackup refuses a backup of a view that holds part of an
// import: its journal (import_undo), which a backup leaves out, is what
// would take those rows back.
var ErrImportInBackup = errors.New("an import was in progress as the backup began: back up once it is done")

// BackupTables lists the tables a backup holds, by name, with their row
// counts. The commands wait for an import to be done before they read; an
// import that began in between is refused (ErrImportInBackup).
func (rx *ReadTx) BackupTables() ([]BackupTable, error) {
	var journalled bool
	if err := rx.q.QueryRow("SELECT EXISTS (SELECT 1 FROM import_undo)").Scan(&journalled); err != nil {
		return nil, err
	}
	if journalled {
		return nil, ErrImportInBackup
	}
	var names []string
	err := eachRow(rx.q, "SELECT name FROM sqlite_schema WHERE type='table' AND name NOT LIKE 'sqlite%' ORDER BY name", nil, func(sc func(...any) error) error {
		var n string
		if err := sc(&n); err != nil {
			return err
		}
		if !backupSkipped[n] {
			names = append(names, n)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	out := make([]BackupTable, 0, len(names))
	for _, n := range names {
		t, err := tableInfo(rx.q, n)
		if err != nil {
			return nil, err
		}
		if err := rx.q.QueryRow("SELECT count(*) FROM " + quoteIdent(n)).Scan(&t.Rows); err != nil {
			return nil, err
		}
		out = append(out, t)
	}
	return out, nil
}

// tableInfo reads a table's columns and the order its rows are written in
// (rowid, else the primary key).
func tableInfo(q querier, name string) (BackupTable, error) {
	t := BackupTable{Name: name}
	type pkcol struct {
		n    int
		name string
	}
	var pk []pkcol
	err := eachRow(q, "SELECT name, pk, upper(type), \"notnull\", dflt_value IS NOT NULL FROM pragma_table_info(?) ORDER BY cid", []any{name}, func(sc func(...any) error) error {
		var c, typ string
		var p, nn int
		var dflt bool
		if err := sc(&c, &p, &typ, &nn, &dflt); err != nil {
			return err
		}
		t.Columns = append(t.Columns, c)
		t.types = append(t.types, typ)
		t.notNull = append(t.notNull, nn != 0 || p > 0 && typ == "INTEGER")
		t.dflt = append(t.dflt, dflt || p > 0 && typ == "INTEGER")
		if p > 0 {
			pk = append(pk, pkcol{p, c})
			if typ == "INTEGER" {
				t.alias = c
			}
		}
		return nil
	})
	if err != nil {
		return t, err
	}
	if len(t.Columns) == 0 {
		return t, fmt.Errorf("no table %s in this database", name)
	}
	var wr int
	if err := q.QueryRow("SELECT wr FROM pragma_table_list WHERE name=? AND schema='main'", name).Scan(&wr); err != nil {
		return t, err
	}
	if wr == 0 {
		t.key = []string{"rowid"}
		if len(pk) != 1 {
			t.alias = ""
		}
	} else {
		t.alias = ""
		slices.SortFunc(pk, func(a, b pkcol) int { return a.n - b.n })
		for _, c := range pk {
			t.key = append(t.key, quoteIdent(c.name))
		}
	}
	return t, nil
}

func quoteIdent(s string) string { return `"` + strings.ReplaceAll(s, `"`, `""`) + `"` }

func (t BackupTable) selectSQL() string {
	cols := make([]string, len(t.Columns))
	for i, c := range t.Columns {
		cols[i] = quoteIdent(c)
	}
	return "SELECT " + strings.Join(cols, ", ") + " FROM " + quoteIdent(t.Name) + " ORDER BY " + strings.Join(t.key, ", ")
}

// BackupRows streams a table's rows as JSON objects (no newline), in rowid
// or primary key order; one row is in memory at a time.
func (rx *ReadTx) BackupRows(t BackupTable) iter.Seq2[[]byte, error] {
	return backupRows(rx.q, t)
}

func backupRows(q querier, t BackupTable) iter.Seq2[[]byte, error] {
	return func(yield func([]byte, error) bool) {
		if t.key == nil {
			var err error
			if t, err = tableInfo(q, t.Name); err != nil {
				yield(nil, err)
				return
			}
		}
		skip, done := packedBackupRows(q, t, yield)
		if !done {
			plainBackupRows(q, t, skip, yield)
		}
	}
}

// plainBackupRows reads the rows one Go value a column, from row skip on
// (0: all): the obvious read, which the packed one (backup_packed.go) must
// equal and hands over to.
func plainBackupRows(q querier, t BackupTable, skip int, yield func([]byte, error) bool) {
	query := t.selectSQL()
	if skip > 0 {
		query += " LIMIT -1 OFFSET " + strconv.Itoa(skip)
	}
	rows, err := q.Query(query)
	if err != nil {
		yield(nil, err)
		return
	}
	defer rows.Close()
	vals := make([]any, len(t.Columns))
	ptrs := make([]any, len(vals))
	for i := range vals {
		ptrs[i] = &vals[i]
	}
	var buf []byte
	for rows.Next() {
		if err := rows.Scan(ptrs...); err != nil {
			yield(nil, err)
			return
		}
		buf = buf[:0]
		if buf, err = appendBackupRow(buf, t.Name, t.Columns, vals); err != nil {
			yield(nil, err)
			return
		}
		if !yield(buf, nil) {
			return
		}
	}
	if err := rows.Err(); err != nil {
		yield(nil, err)
	}
}

// appendBackupRow writes {"col":value,…}: integers and reals as JSON
// numbers, text as strings, NULL as null, a blob as {"base64":"…"}.
func appendBackupRow(b []byte, table string, cols []string, vals []any) ([]byte, error) {
	b = append(b, '{')
	for i, c := range cols {
		if i > 0 {
			b = append(b, ',')
		}
		b = jsontext.AppendString(b, c)
		b = append(b, ':')
		var err error
		if b, err = appendBackupValue(b, vals[i]); err != nil {
			return nil, fmt.Errorf("%s.%s: %w", table, c, err)
		}
	}
	return append(b, '}'), nil
}

func appendBackupValue(b []byte, v any) ([]byte, error) {
	switch x := v.(type) {
	case nil:
		return append(b, "null"...), nil
	case int64:
		return strconv.AppendInt(b, x, 10), nil
	case float64:
		if math.IsInf(x, 0) || math.IsNaN(x) {
			return nil, fmt.Errorf("the real %v has no JSON form", x)
		}
		if x == math.Trunc(x) && math.Abs(x) < 1e15 {
			// A whole real keeps its ".0": it goes back as a real.
			return strconv.AppendFloat(b, x, 'f', 1, 64), nil
		}
		return strconv.AppendFloat(b, x, 'g', -1, 64), nil
	case string:
		return jsontext.AppendString(b, x), nil
	case []byte:
		b = append(b, `{"base64":"`...)
		b = base64.StdEncoding.AppendEncode(b, x)
		return append(b, `"}`...), nil
	case bool:
		if x {
			return append(b, '1'), nil
		}
		return append(b, '0'), nil
	}
	return nil, fmt.Errorf("unexpected value of type %T", v)
}
