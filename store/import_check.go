package store

// stagingCheck watches a write transaction while an import stages rows:
// the tests' proof (import_check_test.go) that staging and the import's
// fast answers (a new item, an item it remembers, a label key never
// written, predictions never put) change nothing but the speed. It runs
// every statement both ways in a savepoint, and asks the table what each
// fast answer answered without asking it. A Store a user opens has none:
// newCheck is set only by the tests, and the product's code path is the
// same with or without it.
type stagingCheck interface {
	// statement runs before statement q runs for real.
	statement(t *wtx, q string, args []any, read bool)
	// fast checks an answer given without asking the table: ask asks it,
	// with every staged row written, and says what is wrong; what names
	// the answer.
	fast(t *wtx, what func() string, ask func() (string, error))
	// err is the check's first failure: it fails the transaction.
	err() error
}

// checkErr is the failure of the transaction's staging check, if any.
func (t *wtx) checkErr() error {
	if t.check == nil {
		return nil
	}
	return t.check.err()
}

// newWtx is a write transaction of s, watched by the tests' check if any.
func (s *Store) newWtx(w *wtx) *wtx {
	w.store, w.annotators, w.stages = s, map[string]int64{}, newStages()
	if s.newCheck != nil {
		w.check = s.newCheck()
	}
	return w
}
