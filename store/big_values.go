package store

import (
	"database/sql"
	"strconv"
)

// A value of several MiB (a document's text, up to the import's 16 MiB) is
// held by SQLite as it is written as the bound parameter (unless it is
// bound where it is: big_values_raw.go), the row's record, and its
// overflow pages in the page cache. At an import's cache of 16 MiB
// (importPragmas), pages the driver's allocator keeps in slots of twice
// their size, those pages alone held 30 MB of memory. While a statement
// with such a value runs, the cache is cut to bigValueCache (the pages
// past it are written to the WAL as they fill, as SQLite spills any
// transaction larger than its cache) and set back after. At 2 MiB it still
// held 3 MiB more than at 256 KiB, for no time measured.

// bigValue is the size of a string or a blob past which a statement runs
// with the small cache.
const bigValue = 4 << 20

// bigValueCache is the page cache while a big value is written, in KiB as
// PRAGMA cache_size takes it when negative.
const bigValueCache = -256

// exec runs st (prepared from q) with args, with a small page cache while
// one of them is big; an import's statement with a big value is run
// without the driver's copy of it (big_values_raw.go).
func (t *wtx) exec(q string, st *sql.Stmt, args []any) (sql.Result, error) {
	if !hasBigValue(args) {
		return st.Exec(args...)
	}
	var pages int
	if err := t.Tx.QueryRow("PRAGMA cache_size").Scan(&pages); err != nil {
		return nil, err
	}
	if _, err := t.Tx.Exec("PRAGMA cache_size = " + strconv.Itoa(bigValueCache)); err != nil {
		return nil, err
	}
	var res sql.Result
	var err error
	if bigValueNoCopy && t.steps != nil {
		res, err = execNoCopy(t.steps.conn, q, args)
	} else {
		res, err = st.Exec(args...)
	}
	if _, restoreErr := t.Tx.Exec("PRAGMA cache_size = " + strconv.Itoa(pages)); err == nil {
		err = restoreErr
	}
	return res, err
}

func hasBigValue(args []any) bool {
	for _, a := range args {
		switch v := a.(type) {
		case string:
			if len(v) > bigValue {
				return true
			}
		case []byte:
			if len(v) > bigValue {
				return true
			}
		}
	}
	return false
}
