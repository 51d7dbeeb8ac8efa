package store

import (
	"database/sql"
	"errors"
	"fmt"
	"path/filepath"
)

// What the streaming importer needs from the store, beside Tx's Put methods
// (and the kinds' own reads inside an import: kind_qa_scratch.go, …).
// An import reads its files once and holds no map of every id in memory: the
// ids it has seen (with where) and the records it must write after all QA
// pairs are in (claims, labels, copies of pairs) live in TEMP tables of the
// import's own transaction, which SQLite keeps in a temporary file, not in
// the database. They go away with the transaction, committed or not.

// Seen is where an id was first met in the current import.
type Seen struct {
	Kind      string // the item's kind, or the caller's own word (e.g. "context")
	Hash      string // content hash
	File      int    // index of the file in the import
	Line      int    // 1-based line (JSON Lines), 0 when unknown
	Record    int    // 0-based record (JSON arrays), -1 when not applicable
	Secondary bool   // a copy that yields to a master copy (ClaimRAG-LAW claims files)
}

// BeginScratch creates the import's TEMP tables, empty.
func (t *Tx) BeginScratch() error {
	for _, q := range []string{
		`DROP TABLE IF EXISTS temp.import_seen`,
		`DROP TABLE IF EXISTS temp.import_stage`,
		`CREATE TEMP TABLE import_seen (space TEXT NOT NULL, ext_id TEXT NOT NULL, kind TEXT NOT NULL, hash TEXT NOT NULL,
			file INTEGER NOT NULL, line INTEGER NOT NULL, record INTEGER NOT NULL, secondary INTEGER NOT NULL,
			PRIMARY KEY (space, ext_id)) WITHOUT ROWID`,
		`CREATE TEMP TABLE import_stage (queue INTEGER NOT NULL, data BLOB NOT NULL)`,
		`CREATE INDEX temp.import_stage_queue ON import_stage(queue)`,
	} {
		if _, err := t.tx.Tx.Exec(q); err != nil { // DDL: not kept prepared
			return err
		}
	}
	return nil
}

// EndScratch drops the TEMP tables, so the pooled connection does not keep
// them after a committed import.
func (t *Tx) EndScratch() error {
	t.tx.discard(stageSeen) // rows of a table about to go
	for _, q := range []string{`DROP TABLE IF EXISTS temp.import_seen`, `DROP TABLE IF EXISTS temp.import_stage`} {
		if _, err := t.tx.Tx.Exec(q); err != nil {
			return err
		}
	}
	return nil
}

// See records extID (in a namespace: item ids and context ids are distinct)
// as met at s, unless it was met before: then it returns the earlier Seen and
// true, and records nothing.
func (t *Tx) See(space, extID string, s Seen) (Seen, bool, error) {
	if err := t.tx.step(); err != nil {
		return Seen{}, false, err
	}
	if err := t.tx.flush(stageSeen); err != nil {
		return Seen{}, false, err
	}
	res, err := t.tx.Exec(`INSERT INTO temp.import_seen(space,ext_id,kind,hash,file,line,record,secondary) VALUES (?,?,?,?,?,?,?,?)
		ON CONFLICT DO NOTHING`, space, extID, s.Kind, s.Hash, s.File, s.Line, s.Record, s.Secondary)
	if err != nil {
		return Seen{}, false, err
	}
	if n, _ := res.RowsAffected(); n == 1 {
		return Seen{}, false, nil
	}
	prev, err := t.Seen(space, extID)
	return prev, true, err
}

// Seen returns where extID was first met in this import.
func (t *Tx) Seen(space, extID string) (Seen, error) {
	var s Seen
	if err := t.tx.flush(stageSeen); err != nil {
		return s, err
	}
	err := t.tx.QueryRow(`SELECT kind, hash, file, line, record, secondary FROM temp.import_seen WHERE space=? AND ext_id=?`,
		space, extID).Scan(&s.Kind, &s.Hash, &s.File, &s.Line, &s.Record, &s.Secondary)
	if errors.Is(err, sql.ErrNoRows) {
		return s, notFound("id", extID)
	}
	return s, err
}

// Resee replaces where extID was met (a master copy taking over from a copy).
func (t *Tx) Resee(space, extID string, s Seen) error {
	if err := t.tx.flush(stageSeen); err != nil {
		return err
	}
	_, err := t.tx.Exec(`UPDATE temp.import_seen SET kind=?, hash=?, file=?, line=?, record=?, secondary=? WHERE space=? AND ext_id=?`,
		s.Kind, s.Hash, s.File, s.Line, s.Record, s.Secondary, space, extID)
	return err
}

// Stage keeps an encoded record in queue until EachStaged reads it back.
func (t *Tx) Stage(queue int, data []byte) error {
	if err := t.tx.step(); err != nil {
		return err
	}
	_, err := t.tx.Exec(`INSERT INTO temp.import_stage(queue, data) VALUES (?,?)`, queue, data)
	return err
}

// stagedChunk bounds what EachStaged holds at once.
const stagedChunk = 4 << 20

// EachStaged calls fn on every record of queue in the order staged. Records
// are read a few at a time, so fn may write to the database.
func (t *Tx) EachStaged(queue int, fn func(data []byte) error) error {
	var after int64
	for {
		rows, err := t.tx.Query(`SELECT rowid, data FROM temp.import_stage WHERE queue=? AND rowid>? ORDER BY rowid LIMIT 512`, queue, after)
		if err != nil {
			return err
		}
		var chunk [][]byte
		size := 0
		for rows.Next() && size < stagedChunk {
			var b []byte
			if err := rows.Scan(&after, &b); err != nil {
				rows.Close()
				return err
			}
			chunk = append(chunk, b)
			size += len(b)
		}
		err = rows.Err()
		rows.Close()
		if err != nil {
			return err
		}
		if len(chunk) == 0 {
			return nil
		}
		for _, b := range chunk {
			if err := fn(b); err != nil {
				return err
			}
		}
	}
}

// FillSourceLanguage gives a source without a language one.
func (t *Tx) FillSourceLanguage(name, language string) error {
	_, err := t.tx.Exec(`UPDATE sources SET language=? WHERE name=? AND language=''`, language, name)
	return err
}

func (t *Tx) storedPredictions(item int64) (map[string]string, error) {
	rows, err := t.tx.Query(`SELECT system, value FROM predictions WHERE item_id=?`, item)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out map[string]string
	for rows.Next() {
		var sys, v string
		if err := rows.Scan(&sys, &v); err != nil {
			return nil, err
		}
		if out == nil {
			out = map[string]string{}
		}
		out[sys] = v
	}
	return out, rows.Err()
}

// DBError is a failure of the database file or of the disk under it (read
// only, full, I/O error, locked, cannot be opened), as opposed to a problem
// with what is being written.
type DBError struct {
	Path string // the database file
	Code int    // SQLite (extended) result code
	Err  error
}

// SQLite primary result codes that say something about the database's
// environment (https://www.sqlite.org/rescode.html).
const (
	sqliteBusy     = 5
	sqliteLocked   = 6
	sqliteNoMem    = 7
	sqliteReadOnly = 8
	sqliteIOErr    = 10
	sqliteCorrupt  = 11
	sqliteFull     = 13
	sqliteCantOpen = 14
	sqliteNotADB   = 26
)

// ioErrNames names the extended I/O error codes a user may meet: the number
// alone ("disk I/O error (4874)") tells them nothing.
var ioErrNames = map[int]string{
	sqliteIOErr | 1<<8:  "reading failed",
	sqliteIOErr | 2<<8:  "a read came back short",
	sqliteIOErr | 3<<8:  "writing failed",
	sqliteIOErr | 4<<8:  "fsync failed",
	sqliteIOErr | 5<<8:  "fsync of the folder failed",
	sqliteIOErr | 6<<8:  "truncating failed",
	sqliteIOErr | 18<<8: "opening the -shm file failed",
	sqliteIOErr | 19<<8: "growing the -shm file failed",
	sqliteIOErr | 21<<8: "mapping the -shm file failed",
	sqliteIOErr | 24<<8: "memory-mapping the file failed",
}

func (e *DBError) Error() string {
	dir := filepath.Dir(e.Path)
	switch e.Code & 0xff {
	case sqliteReadOnly:
		return fmt.Sprintf("the database %s is read-only (%v): annotate needs to write the file and, beside it in %s, its -wal and -shm files; nothing was imported",
			e.Path, e.Err, dir)
	case sqliteFull:
		return fmt.Sprintf("the database %s could not grow: the disk (or the database's size limit) is full; nothing was imported: free space in %s and import again",
			e.Path, dir)
	case sqliteIOErr:
		what := ioErrNames[e.Code]
		if what == "" {
			what = "an I/O error"
		}
		return fmt.Sprintf("disk I/O error on the database %s (%s, SQLite code %d): the disk may be full or failing; nothing was imported: check the free space in %s and import again",
			e.Path, what, e.Code, dir)
	case sqliteCantOpen:
		return fmt.Sprintf("cannot open the database %s: its folder %s must exist and be writable", e.Path, dir)
	case sqliteBusy, sqliteLocked:
		return fmt.Sprintf("the database %s is locked by another process writing to it (waited 10 s); nothing was imported: try again when it is done", e.Path)
	case sqliteCorrupt, sqliteNotADB:
		return fmt.Sprintf("%s is not a usable annotate database (%v)", e.Path, e.Err)
	case sqliteNoMem:
		return fmt.Sprintf("out of memory while writing the database %s; nothing was imported", e.Path)
	}
	return fmt.Sprintf("database %s: %v", e.Path, e.Err)
}

func (e *DBError) Unwrap() error { return e.Err }

// ExplainError returns a *DBError when err carries a SQLite result code that
// blames the database or the disk (read-only, full, I/O, cannot open, busy,
// corrupt, out of memory), nil otherwise: constraint and other errors are
// about the data and stay with the caller.
func ExplainError(path string, err error) error {
	var de *DBError
	if errors.As(err, &de) {
		return de
	}
	var coded interface {
		error
		Code() int
	}
	if err == nil || !errors.As(err, &coded) {
		return nil
	}
	switch coded.Code() & 0xff {
	case sqliteBusy, sqliteLocked, sqliteNoMem, sqliteReadOnly, sqliteIOErr, sqliteCorrupt, sqliteFull, sqliteCantOpen, sqliteNotADB:
		// The SQLite error alone: where in the input it struck is beside
		// the point.
		return &DBError{Path: path, Code: coded.Code(), Err: coded}
	}
	return nil
}
