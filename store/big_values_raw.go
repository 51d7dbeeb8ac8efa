package store

import (
	"database/sql"
	"database/sql/driver"
	"errors"
	"fmt"
	"reflect"
	"runtime"
	"time"
	"unsafe"

	"modernc.org/libc"
	sqlite3 "modernc.org/sqlite/lib"
)

// A statement with a big value, written without the driver's copy of it.
//
// The driver copies every bound string or blob into memory of its own
// before SQLite reads it, and SQLite then builds the row's record from that
// copy: a 16 MiB text was held three times at once (the importer's string,
// the driver's copy, the record). Bound from the string itself, it is held
// twice. So an import's statement with a value over bigValue is prepared,
// bound and run here, on the import's connection and inside its
// transaction, through SQLite's own calls: the big values are bound where
// they are (SQLITE_STATIC, pinned until the statement is done), the others
// copied by SQLite as it binds them (SQLITE_TRANSIENT). What is stored is
// what the driver would store: the same types, the same bytes
// (TestBigValueWriteIsTheDriversWrite).
//
// Reaching SQLite's handle takes the driver's connection apart: its fields
// db (the sqlite3 handle) and tls (the thread state SQLite's calls take).
// They are found by name and type, and a driver without them is an error
// naming it (and fails TestDriverHandleIsReachable), never a guess.
//
// A build with the race detector checks that no pointer into Go's memory
// is computed from a number, which is how SQLite's code (translated to Go)
// reads a bound value: it binds through the driver (bigValueNoCopy).

// rawResult is what database/sql's Result says of the statement.
type rawResult struct{ id, changes int64 }

func (r rawResult) LastInsertId() (int64, error) { return r.id, nil }
func (r rawResult) RowsAffected() (int64, error) { return r.changes, nil }

// rawError is SQLite's error of a statement run here, with its code as the
// driver's errors give it (IsBusy reads it).
type rawError struct {
	msg  string
	code int
}

func (e *rawError) Error() string { return e.msg }
func (e *rawError) Code() int     { return e.code }

// errDriverLayout is a driver whose connection is not as this build
// expects (a new version of modernc.org/sqlite).
var errDriverLayout = errors.New("the SQLite driver's connection has no sqlite3 handle where this build expects it (fields db and tls of modernc.org/sqlite's conn)")

var (
	uintptrType = reflect.TypeFor[uintptr]()
	tlsType     = reflect.TypeFor[*libc.TLS]()
)

// driverHandle returns the sqlite3 handle and thread state of the
// driver's connection dc (what sql.Conn.Raw gives).
func driverHandle(dc any) (db uintptr, tls *libc.TLS, err error) {
	v := reflect.ValueOf(dc)
	if v.Kind() != reflect.Pointer || v.IsNil() || v.Elem().Kind() != reflect.Struct {
		return 0, nil, fmt.Errorf("%w: got %T", errDriverLayout, dc)
	}
	t := v.Elem().Type()
	dbField, okDB := t.FieldByName("db")
	tlsField, okTLS := t.FieldByName("tls")
	if t.PkgPath() != "modernc.org/sqlite" || t.Name() != "conn" ||
		!okDB || dbField.Type != uintptrType || len(dbField.Index) != 1 ||
		!okTLS || tlsField.Type != tlsType || len(tlsField.Index) != 1 {
		return 0, nil, fmt.Errorf("%w: got %s", errDriverLayout, t)
	}
	p := v.UnsafePointer()
	db = *(*uintptr)(unsafe.Add(p, dbField.Offset))
	tls = *(**libc.TLS)(unsafe.Add(p, tlsField.Offset))
	if db == 0 || tls == nil {
		return 0, nil, fmt.Errorf("%w: the connection is closed", errDriverLayout)
	}
	return db, tls, nil
}

// execNoCopy runs q with args on conn, inside the transaction open on it,
// binding the values over bigValue without a copy.
func execNoCopy(conn *sql.Conn, q string, args []any) (sql.Result, error) {
	values := make([]driver.Value, len(args))
	for i, a := range args { // as database/sql converts them for the driver
		v, err := driver.DefaultParameterConverter.ConvertValue(a)
		if err != nil {
			return nil, fmt.Errorf("argument %d: %w", i+1, err)
		}
		if _, isTime := v.(time.Time); isTime {
			// The driver writes a time in a format of its own: not a
			// value an import binds.
			return nil, fmt.Errorf("argument %d: a time is not bound without the driver", i+1)
		}
		values[i] = v
	}
	var res sql.Result
	err := conn.Raw(func(dc any) error {
		db, tls, err := driverHandle(dc)
		if err != nil {
			return err
		}
		if sqlite3.Xsqlite3_get_autocommit(tls, db) != 0 {
			return errors.New("a value over 4 MiB is written only inside the import's transaction")
		}
		res, err = runNoCopy(tls, db, q, values)
		return err
	})
	return res, err
}

// runNoCopy prepares, binds and steps q on db, and finalizes it.
func runNoCopy(tls *libc.TLS, db uintptr, q string, values []driver.Value) (sql.Result, error) {
	zSQL, err := libc.CString(q)
	if err != nil {
		return nil, err
	}
	defer libc.Xfree(tls, zSQL)
	var pins runtime.Pinner
	defer pins.Unpin()
	stmt := new(uintptr) // where prepare puts the statement
	pins.Pin(stmt)
	if rc := sqlite3.Xsqlite3_prepare_v2(tls, db, zSQL, -1, uintptr(unsafe.Pointer(stmt)), 0); rc != sqlite3.SQLITE_OK {
		return nil, sqliteError(tls, db, rc)
	}
	return stepNoCopy(tls, db, *stmt, values, &pins)
}

// stepNoCopy binds values to stmt, steps it to its end and finalizes it.
func stepNoCopy(tls *libc.TLS, db, stmt uintptr, values []driver.Value, pins *runtime.Pinner) (sql.Result, error) {
	defer sqlite3.Xsqlite3_finalize(tls, stmt)
	if n := int(sqlite3.Xsqlite3_bind_parameter_count(tls, stmt)); n != len(values) {
		return nil, fmt.Errorf("the statement takes %d values, %d given", n, len(values))
	}
	for i, v := range values {
		if rc := bindNoCopy(tls, stmt, int32(i+1), v, pins); rc != sqlite3.SQLITE_OK {
			return nil, sqliteError(tls, db, rc)
		}
	}
	for {
		switch rc := sqlite3.Xsqlite3_step(tls, stmt); rc {
		case sqlite3.SQLITE_ROW:
			continue
		case sqlite3.SQLITE_DONE:
			runtime.KeepAlive(values)
			return rawResult{
				id:      int64(sqlite3.Xsqlite3_last_insert_rowid(tls, db)),
				changes: int64(sqlite3.Xsqlite3_changes64(tls, db)),
			}, nil
		default:
			return nil, sqliteError(tls, db, rc)
		}
	}
}

// The destructors SQLite's bind calls take: none (the value stays where it
// is until the statement is done) or a copy made at once.
const (
	sqliteStatic    uintptr = 0
	sqliteTransient         = ^uintptr(0)
)

// emptyValue is where an empty string or blob is bound from (SQLite takes
// a null pointer for NULL).
var emptyValue byte

// bindNoCopy binds v to parameter i as the driver would (conn.bind of
// modernc.org/sqlite), from v's own memory.
func bindNoCopy(tls *libc.TLS, stmt uintptr, i int32, v driver.Value, pins *runtime.Pinner) int32 {
	// from returns where b's bytes are, and what SQLite does with them.
	from := func(b *byte, n int) (uintptr, uintptr) {
		if n == 0 {
			return uintptr(unsafe.Pointer(&emptyValue)), sqliteTransient
		}
		if n <= bigValue {
			return uintptr(unsafe.Pointer(b)), sqliteTransient
		}
		pins.Pin(b)
		return uintptr(unsafe.Pointer(b)), sqliteStatic
	}
	switch x := v.(type) {
	case nil:
		return sqlite3.Xsqlite3_bind_null(tls, stmt, i)
	case int64:
		return sqlite3.Xsqlite3_bind_int64(tls, stmt, i, x)
	case float64:
		return sqlite3.Xsqlite3_bind_double(tls, stmt, i, x)
	case bool:
		var n int32
		if x {
			n = 1
		}
		return sqlite3.Xsqlite3_bind_int(tls, stmt, i, n)
	case string:
		p, destructor := from(unsafe.StringData(x), len(x))
		return sqlite3.Xsqlite3_bind_text(tls, stmt, i, p, int32(len(x)), destructor)
	case []byte:
		if x == nil {
			return sqlite3.Xsqlite3_bind_null(tls, stmt, i)
		}
		p, destructor := from(unsafe.SliceData(x), len(x))
		return sqlite3.Xsqlite3_bind_blob(tls, stmt, i, p, int32(len(x)), destructor)
	}
	return sqlite3.SQLITE_MISUSE // not a driver.Value (execNoCopy converted them)
}

// sqliteError is SQLite's error rc on db, as the driver words it.
func sqliteError(tls *libc.TLS, db uintptr, rc int32) error {
	msg := libc.GoString(sqlite3.Xsqlite3_errstr(tls, rc))
	if detail := libc.GoString(sqlite3.Xsqlite3_errmsg(tls, db)); detail != "" && detail != msg {
		msg += ": " + detail
	}
	busy := ""
	if rc == sqlite3.SQLITE_BUSY {
		busy = " (SQLITE_BUSY)"
	}
	return &rawError{msg: fmt.Sprintf("%s (%d)%s", msg, rc, busy), code: int(rc)}
}
