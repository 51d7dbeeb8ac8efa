package store

import "time"

// CheckStaging puts s's write transactions under the staging check
// (import_check_test.go), for the tests of this folder that import through
// the importer (package store_test).
func CheckStaging(s *Store) *Store { return checkStaging(s) }

// SetImportSteps sets how long a step of an import works before it commits
// and how long it then pauses (a timing, not a choice of code: every import
// is written in steps), for the tests of this folder; the returned func
// puts the defaults back.
func SetImportSteps(step, yield time.Duration) (restore func()) {
	was, wasYield, wasIdle := importStep, importYield, importYieldIdle
	importStep, importYield, importYieldIdle = step, yield, min(yield, importYieldIdle)
	return func() { importStep, importYield, importYieldIdle = was, wasYield, wasIdle }
}

// Recount rebuilds the kept counts and done items from the labels: the
// obvious path the kept counts are compared with, and what rows a
// benchmark writes behind the store's back need. (Outside this folder,
// storetest.Recount does the same through Open.)
func (s *Store) Recount() error {
	return s.write(func(tx *wtx) error { return tx.recountAll() })
}
