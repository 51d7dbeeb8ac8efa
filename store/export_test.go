package store

// CheckStaging puts s's write transactions under the staging check
// (import_check_test.go), for the tests of this folder that import through
// the importer (package store_test).
func CheckStaging(s *Store) *Store { return checkStaging(s) }
