package store

import (
	"bytes"
	"context"
	"database/sql"
	"database/sql/driver"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"iter"
	"math"
	"slices"
	"strconv"
	"strings"
)

// The restore of a lossless backup (backup.go): its tables written back in
// one transaction, each line checked against the manifest's columns.

// RestoreTable is one table of a backup being restored: its rows, one JSON
// object per line, in the order BackupRows wrote them.
type RestoreTable struct {
	Name string
	// Columns are those the manifest lists: every line has these keys.
	Columns []string
	// Lines may be ranged over more than once (the guidelines' table is
	// compared, then written: guidelines.go).
	Lines iter.Seq2[[]byte, error]
}

// RowError is a bad row of a backup: Row counts from 1 (the line of its
// file); Field is "" when the row as a whole is at fault.
type RowError struct {
	Table string
	Row   int
	Field string
	Msg   string
}

func (e *RowError) Error() string {
	at := e.Table
	if e.Row > 0 {
		at = fmt.Sprintf("%s row %d", e.Table, e.Row)
	}
	if e.Field != "" {
		at += ": " + e.Field
	}
	return at + ": " + e.Msg
}

// RestoreResult says what a restore did, table by table.
type RestoreResult struct {
	Added     map[string]int `json:"added"`     // rows written, by table
	Unchanged map[string]int `json:"unchanged"` // rows already there, identical
}

// NoOp is true when the database already held the whole backup.
func (r RestoreResult) NoOp() bool {
	for _, n := range r.Added {
		if n > 0 {
			return false
		}
	}
	return true
}

// Restore writes a backup taken from a database of schemaVersion in one
// transaction. Each table must be empty (its rows are written with their
// ids) or hold exactly the backup's rows (nothing to do); anything else is
// refused, and the database is left as it was. What it restores must be
// consistent (backup_check.go): the manifest's columns are the table's,
// every row has them, every reference finds its row, and the current
// labels are what the label log says. The kept counts and work totals are
// then recounted from the labels.
func (s *Store) Restore(tables []RestoreTable, schemaVersion int) (RestoreResult, error) {
	res := RestoreResult{Added: map[string]int{}, Unchanged: map[string]int{}}
	conn, err := s.restoreConn()
	if err != nil {
		return res, err
	}
	defer conn.release()
	err = s.writeOn(conn.Conn, func(tx *wtx) error {
		for _, p := range importPragmas {
			if _, err := tx.Tx.Exec(p); err != nil {
				return err
			}
		}
		triggers, err := dropTriggers(tx, restoreRebuilt...)
		if err != nil {
			return err
		}
		for _, rt := range tables {
			if backupSkipped[rt.Name] || strings.HasPrefix(rt.Name, "sqlite") {
				return &RowError{Table: rt.Name, Msg: "this table is not restored from a backup"}
			}
			t, err := tableInfo(tx, rt.Name)
			if err != nil {
				return &RowError{Table: rt.Name, Msg: "this database has no such table (a backup of a newer annotate?)"}
			}
			if err := t.useManifest(rt.Columns); err != nil {
				return err
			}
			var n int
			if err := tx.QueryRow("SELECT count(*) FROM " + quoteIdent(t.Name)).Scan(&n); err != nil {
				return err
			}
			if n > 0 && t.Name == guidelineTable {
				added, same, ok, err := restoreOverSeed(tx, t, rt.Lines)
				if err != nil {
					return err
				}
				if ok {
					if added > 0 {
						res.Added[t.Name] = added
					}
					if same > 0 {
						res.Unchanged[t.Name] = same
					}
					continue
				}
			}
			if n == 0 {
				added, err := restoreRows(tx, t, rt.Lines, bulkRows)
				if err != nil {
					return err
				}
				if added > 0 {
					res.Added[t.Name] = added
				}
				continue
			}
			same, err := sameRows(tx, t, rt.Lines)
			if err != nil {
				return err
			}
			if same > 0 {
				res.Unchanged[t.Name] = same
			}
		}
		if err := triggers.create(tx); err != nil {
			return err
		}
		if err := everyTable(tx, tables, schemaVersion); err != nil {
			return err
		}
		r := &restoring{tx: tx, lines: map[string]RestoreTable{}}
		for _, rt := range tables {
			r.lines[rt.Name] = rt
		}
		if err := r.foreignKeysHold(); err != nil {
			return err
		}
		if res.NoOp() {
			return nil
		}
		if err := r.labelLogHolds(); err != nil {
			return err
		}
		if res.Added["label_events"] > 0 {
			if err := rebuildLabelDays(tx); err != nil {
				return err
			}
		}
		if err := rebuildWorkKept(tx); err != nil {
			return err
		}
		return tx.recountAll()
	})
	if err != nil {
		return RestoreResult{}, err
	}
	return res, nil
}

// restoreConn is the connection a restore writes on: its foreign keys are
// off, so that SQLite does not look up each row's references as it is
// written (and, a child table being written before its parent, look for
// the children of each parent row); foreignKeysHold checks them all once,
// before the restore commits.
type restoreConn struct{ *sql.Conn }

func (s *Store) restoreConn() (*restoreConn, error) {
	c, err := s.db.Conn(context.Background())
	if err != nil {
		return nil, err
	}
	if _, err := c.ExecContext(context.Background(), "PRAGMA foreign_keys = OFF"); err != nil {
		c.Close()
		return nil, err
	}
	return &restoreConn{c}, nil
}

// release gives the connection back to the pool as the others are, or
// has the pool drop it.
func (c *restoreConn) release() {
	if _, err := c.ExecContext(context.Background(), "PRAGMA foreign_keys = ON"); err != nil {
		c.Raw(func(any) error { return driver.ErrBadConn })
	}
	c.Close()
}

// decodeRow reads one line into the table's columns; a column the line
// lacks takes its default (it is left out of the insert).
func decodeRow(t BackupTable, row int, line []byte) ([]string, []any, error) {
	bad := func(field, msg string, a ...any) error {
		return &RowError{Table: t.Name, Row: row, Field: field, Msg: fmt.Sprintf(msg, a...)}
	}
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(line, &raw); err != nil {
		return nil, nil, bad("", "not a JSON object: %v", err)
	}
	var cols []string
	var vals []any
	for i, c := range t.Columns {
		r, ok := raw[c]
		if !ok {
			if t.manifest != nil && slices.Contains(t.manifest, c) {
				return nil, nil, bad(c, "missing: the manifest lists the column, so every row gives it (null for none)")
			}
			continue
		}
		delete(raw, c)
		v, err := decodeValue(r)
		if err != nil {
			return nil, nil, bad(c, "%v", err)
		}
		if msg := checkType(v, t.types[i], t.notNull[i]); msg != "" {
			return nil, nil, bad(c, "%s", msg)
		}
		cols = append(cols, c)
		vals = append(vals, v)
	}
	if len(raw) > 0 {
		var extra []string
		for k := range raw {
			extra = append(extra, k)
		}
		slices.Sort(extra)
		return nil, nil, bad(extra[0], "no such column in table %s", t.Name)
	}
	if t.manifest != nil && len(cols) != len(t.manifest) {
		for _, c := range cols {
			if !slices.Contains(t.manifest, c) {
				return nil, nil, bad(c, "a column the manifest does not list for table %s", t.Name)
			}
		}
	}
	return cols, vals, nil
}

// checkType holds a value to its column's declared type (SQLite would
// convert or keep it silently).
func checkType(v any, typ string, notNull bool) string {
	want := ""
	switch x := v.(type) {
	case nil:
		if notNull {
			return "null, but the column needs a value"
		}
		return ""
	case int64:
		if typ == "TEXT" {
			want = "a string"
		}
	case float64:
		if typ == "TEXT" {
			want = "a string"
		} else if typ == "INTEGER" && x != math.Trunc(x) {
			want = "an integer"
		}
	case string:
		if typ == "INTEGER" {
			want = "an integer"
		} else if typ == "REAL" {
			want = "a number"
		}
	}
	if want == "" {
		return ""
	}
	return fmt.Sprintf("want %s for a column of type %s", want, typ)
}

func decodeValue(r json.RawMessage) (any, error) {
	r = bytes.TrimSpace(r)
	if len(r) == 0 {
		return nil, errors.New("no value")
	}
	switch r[0] {
	case 'n':
		return nil, nil
	case '"':
		var s string
		err := json.Unmarshal(r, &s)
		return s, err
	case '{':
		var blob struct {
			Base64 *string `json:"base64"`
		}
		if err := json.Unmarshal(r, &blob); err != nil || blob.Base64 == nil {
			return nil, errors.New(`an object is a blob, {"base64":"…"}`)
		}
		return base64.StdEncoding.DecodeString(*blob.Base64)
	case 't', 'f', '[':
		return nil, fmt.Errorf("want a number, a string or null, not %s", r)
	}
	s := string(r)
	if !strings.ContainsAny(s, ".eE") {
		n, err := strconv.ParseInt(s, 10, 64)
		if err != nil {
			return nil, fmt.Errorf("not an integer: %s", s)
		}
		return n, nil
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil {
		return nil, fmt.Errorf("not a number: %s", s)
	}
	return f, nil
}

// restoreRows writes a table's lines into it, empty: up to per rows a
// statement (the import's multi-row INSERT, import_staging.go; per 1 is
// one INSERT a line), in the order of the file. The first fault of the
// file is the one reported, as one INSERT a line would meet it: a line
// that does not read, or the end of the file, first writes the lines
// before it; a statement that fails writes its rows again one by one, to
// name the row at fault. TestRestoreRowsInBulkIsOneByOne holds per 256 to
// per 1.
func restoreRows(tx *wtx, t BackupTable, lines iter.Seq2[[]byte, error], per int) (int, error) {
	d, err := newLineDecoder(t)
	if err != nil {
		return 0, err
	}
	cols := len(d.cols)
	q := make([]string, cols)
	for i, c := range d.cols {
		q[i] = quoteIdent(c)
	}
	st := newStage(t.Name, "INSERT INTO "+quoteIdent(t.Name)+"("+strings.Join(q, ",")+") VALUES ", cols, "")
	per = max(1, min(per, maxBoundValues/cols))
	exec := func(q string, args []any) error {
		_, err := tx.Exec(q, args...)
		return err
	}
	args := make([]any, 0, per*cols)
	n := 0     // lines read
	first := 1 // the row of args[0]
	each := func() error {
		for i := 0; i < len(args); i += cols {
			if err := exec(st.sqlFor(1), args[i:i+cols]); err != nil {
				return &RowError{Table: t.Name, Row: first + i/cols, Field: constraintColumn(err, t.Name), Msg: err.Error()}
			}
		}
		return nil
	}
	write := func() error {
		if len(args) == per*cols {
			if err := exec(st.sqlFor(per), args); err != nil {
				// The statement wrote none of its rows.
				if rerr := each(); rerr != nil {
					return rerr
				}
				return err
			}
		} else if err := each(); err != nil {
			return err
		}
		clear(args)
		args, first = args[:0], n+1
		return nil
	}
	for line, err := range lines {
		if err == nil {
			n++
			args = args[:len(args)+cols]
			err = d.decode(n, line, args[len(args)-cols:])
			if err != nil {
				args = args[:len(args)-cols]
			}
		}
		if err != nil {
			if werr := write(); werr != nil {
				return 0, werr
			}
			return 0, err
		}
		if len(args) == per*cols {
			if err := write(); err != nil {
				return 0, err
			}
		}
	}
	if err := write(); err != nil {
		return 0, err
	}
	return n, nil
}

// maxBoundValues bounds the values of one statement (SQLite's limit is
// 32,766).
const maxBoundValues = 30000

// constraintColumn is the column SQLite names in a constraint error
// ("NOT NULL constraint failed: items.hash"), or "".
func constraintColumn(err error, table string) string {
	msg := err.Error()
	i := strings.Index(msg, "constraint failed: "+table+".")
	if i < 0 {
		return ""
	}
	c := msg[i+len("constraint failed: "+table+"."):]
	if j := strings.IndexAny(c, " ,)"); j >= 0 {
		c = c[:j]
	}
	return c
}

// sameRows checks that a table holding rows holds exactly the backup's.
func sameRows(tx *wtx, t BackupTable, lines iter.Seq2[[]byte, error]) (int, error) {
	next, stop := iter.Pull2(backupRows(tx, t))
	defer stop()
	differ := func(row int, what string) error {
		return &RowError{Table: t.Name, Row: row, Msg: what + "; a backup is restored into a new database, or one that holds the same content"}
	}
	n := 0
	var want []byte
	for line, err := range lines {
		if err != nil {
			return 0, err
		}
		n++
		cols, vals, err := decodeRow(t, n, line)
		if err != nil {
			return 0, err
		}
		have, herr, ok := next()
		if herr != nil {
			return 0, herr
		}
		if !ok {
			return 0, differ(n, "the database has fewer "+t.Name+" rows than the backup")
		}
		if len(cols) < len(t.Columns) {
			// Compare the columns the line has.
			var hv map[string]json.RawMessage
			if err := json.Unmarshal(have, &hv); err != nil {
				return 0, err
			}
			hvals := make([]any, len(cols))
			for i, c := range cols {
				if hvals[i], err = decodeValue(hv[c]); err != nil {
					return 0, err
				}
			}
			if have, err = appendBackupRow(nil, t.Name, cols, hvals); err != nil {
				return 0, err
			}
		}
		if want, err = appendBackupRow(want[:0], t.Name, cols, vals); err != nil {
			return 0, err
		}
		if !bytes.Equal(have, want) {
			return 0, differ(n, "the database holds another row here")
		}
	}
	if _, herr, ok := next(); herr != nil {
		return 0, herr
	} else if ok {
		return 0, differ(n+1, "the database has more "+t.Name+" rows than the backup")
	}
	return n, nil
}
