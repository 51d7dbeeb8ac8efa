package store

import (
	"database/sql"
	"fmt"
	"strings"
)

// The staging check: the proof that staging and the import's fast answers
// change nothing but the speed (the seam it watches through is
// import_check.go's stagingCheck).
//
// Under the check (a Store whose newCheck is newStagingCheck: checkStaging),
// every statement a write transaction runs while
// rows are staged is run twice first, inside a savepoint rolled back
// afterwards: once as it comes and then the staged rows written, once with
// the staged rows written first. Its answer (the rows it reads, or the
// rows it changes) and the whole database after it must be the same both
// ways; otherwise the statement depended on rows not yet written and the
// transaction fails with an error naming it. Every answer an import gives
// without asking the table (a new item, an item it remembers, a label key
// never written, predictions never put) is checked against the table the
// same way.
func checkStaging(s *Store) *Store {
	s.newCheck = func() stagingCheck { return &stagingChecker{} }
	return s
}

// stagingChecker is the check of one write transaction.
type stagingChecker struct {
	failed error // the first failure, which fails the transaction
	checks int   // the checks run
}

func (c *stagingChecker) err() error { return c.failed }

// checkBudget bounds the checks of one transaction: each digests the whole
// database, so the large imports of the memory tests would take hours; the
// first statements of every import are checked.
const checkBudget = 250

// errStaging is the error of a failed check.
type errStaging struct{ what string }

func (e *errStaging) Error() string { return "store: staging check: " + e.what }

// statement runs the check for statement q before it runs for real.
func (c *stagingChecker) statement(t *wtx, q string, args []any, read bool) {
	if !c.checking() || !t.staged() {
		return
	}
	c.checks++
	var first, second string
	err := t.savepoint(func() error {
		first = t.probe(q, args, read) + "\n"
		if err := t.writeCopies(); err != nil {
			return err
		}
		first += t.digest()
		return errRollback
	})
	if err == nil {
		err = t.savepoint(func() error {
			if err := t.writeCopies(); err != nil {
				return err
			}
			second = t.probe(q, args, read) + "\n" + t.digest()
			return errRollback
		})
	}
	switch {
	case err != nil:
		c.failed = err
	case first != second:
		c.failed = &errStaging{fmt.Sprintf("%q %v depends on staged rows not yet written:\n%s", q, args, firstDifference(first, second))}
	}
}

// fast checks an answer an import gave without asking the table: fn asks
// the table, with every staged row written, and says what is wrong; what
// names the answer.
func (c *stagingChecker) fast(t *wtx, what func() string, fn func() (string, error)) {
	if !c.checking() {
		return
	}
	c.checks++
	var wrong string
	err := t.savepoint(func() error {
		if err := t.writeCopies(); err != nil {
			return err
		}
		var err error
		wrong, err = fn()
		if err != nil {
			return err
		}
		return errRollback
	})
	switch {
	case err != nil:
		c.failed = err
	case wrong != "":
		c.failed = &errStaging{what() + ": " + wrong}
	}
}

func (c *stagingChecker) checking() bool {
	return c.failed == nil && c.checks < checkBudget
}

var errRollback = &errStaging{"rolled back"}

// savepoint runs fn inside a savepoint, rolled back whatever fn returns;
// fn returns errRollback when all went well.
func (t *wtx) savepoint(fn func() error) error {
	if _, err := t.Tx.Exec("SAVEPOINT staging_check"); err != nil {
		return err
	}
	err := fn()
	if _, rerr := t.Tx.Exec("ROLLBACK TO staging_check"); rerr != nil && err == errRollback {
		err = rerr
	}
	if _, rerr := t.Tx.Exec("RELEASE staging_check"); rerr != nil && err == errRollback {
		err = rerr
	}
	if err == errRollback {
		return nil
	}
	return err
}

// writeCopies writes every staged row, leaving the stages as they are.
func (t *wtx) writeCopies() error {
	for _, b := range t.stages {
		if b.rows > 0 {
			if err := t.writeRows(b, append([]any(nil), b.args...), b.rows); err != nil {
				return err
			}
		}
	}
	return nil
}

// probe runs q and describes what it did: the rows it read, or the rows it
// changed and the rowid it gave, or its error.
func (t *wtx) probe(q string, args []any, read bool) string {
	if !read {
		// The connection's last rowid is set to -1 first, so a rowid q did
		// not give (a DELETE's, an UPDATE's) does not count.
		if _, err := t.Tx.Exec("CREATE TEMP TABLE IF NOT EXISTS staging_check_rowid(x)"); err != nil {
			return "error: " + err.Error()
		}
		if _, err := t.Tx.Exec("INSERT INTO temp.staging_check_rowid(rowid) VALUES (-1)"); err != nil {
			return "error: " + err.Error()
		}
		res, err := t.Tx.Exec(q, args...)
		if err != nil {
			return "error: " + err.Error()
		}
		n, _ := res.RowsAffected()
		id, _ := res.LastInsertId()
		return fmt.Sprintf("changed %d, rowid %d", n, id)
	}
	rows, err := t.Tx.Query(q, args...)
	if err != nil {
		return "error: " + err.Error()
	}
	return dumpAll(rows)
}

// digest is every row of every table of the transaction's database, the
// TEMP tables included.
func (t *wtx) digest() string {
	var tables []string
	for _, schema := range []string{"main", "temp"} {
		rows, err := t.Tx.Query("SELECT name FROM " + schema + ".sqlite_master WHERE type='table' ORDER BY name")
		if err != nil {
			return "error: " + err.Error()
		}
		for rows.Next() {
			var name string
			rows.Scan(&name)
			tables = append(tables, schema+"."+name)
		}
		rows.Close()
	}
	var out strings.Builder
	for _, name := range tables {
		q := "SELECT * FROM " + name + " ORDER BY 1"
		if name == "main.import_undo" {
			// The journal follows the order rows are written in, which is
			// what staging changes: the same changes, in whatever order.
			q = "SELECT import_id, tbl, rid, upto, item, undo FROM main.import_undo ORDER BY 1, 2, 3, 4, 5, 6"
		}
		rows, err := t.Tx.Query(q)
		out.WriteString(name + "\n")
		if err != nil {
			out.WriteString("error: " + err.Error() + "\n")
			continue
		}
		out.WriteString(dumpAll(rows))
	}
	return out.String()
}

// dumpAll reads and closes rows, one line a row.
func dumpAll(rows *sql.Rows) string {
	defer rows.Close()
	cols, _ := rows.Columns()
	var out strings.Builder
	vals := make([]any, len(cols))
	ptrs := make([]any, len(cols))
	for i := range vals {
		ptrs[i] = &vals[i]
	}
	for rows.Next() {
		if err := rows.Scan(ptrs...); err != nil {
			return "error: " + err.Error()
		}
		for i, v := range vals {
			if i > 0 {
				out.WriteByte('|')
			}
			if b, ok := v.([]byte); ok {
				v = string(b)
			}
			fmt.Fprint(&out, v)
		}
		out.WriteByte('\n')
	}
	if err := rows.Err(); err != nil {
		out.WriteString("error: " + err.Error())
	}
	return out.String()
}

func firstDifference(a, b string) string {
	al, bl := strings.Split(a, "\n"), strings.Split(b, "\n")
	for i := range min(len(al), len(bl)) {
		if al[i] != bl[i] {
			return fmt.Sprintf("line %d: as it came: %s\nstaged rows written first: %s", i+1, al[i], bl[i])
		}
	}
	return fmt.Sprintf("%d lines against %d", len(al), len(bl))
}

// staged reports whether any row waits.
func (t *wtx) staged() bool {
	for _, b := range t.stages {
		if b.rows > 0 {
			return true
		}
	}
	return false
}
