package store

import (
	"fmt"

	"github.com/annotate-dev/annotate/schema"
	"github.com/annotate-dev/annotate/tally"
)

// checkKinds says which registration a kind of the schema lacks in the store
// (or in tally), so a kind added without one fails when the store opens,
// not at the first `batch create` or export that needs it.
func checkKinds() error {
	for _, k := range schema.AllKinds() {
		if kinds.Get(k) == nil {
			return fmt.Errorf("kind %s: not registered in the store (store.Register of its store.Kind, in its store/kind_*.go)", k)
		}
		if schema.SpecOf(k).Annotated && !tally.Registered(k) {
			return fmt.Errorf("kind %s: no counting rules (tally.Register of its tally.Kind, in its tally/kind_*.go)", k)
		}
	}
	return nil
}

// kindTables creates the tables of the kinds that declare their own
// (TableSchema) and are not in the file yet, then checks that every kind's
// Table is there, in one transaction after the migrations.
func (s *Store) kindTables() error {
	have := map[string]bool{}
	err := eachRow(s.db, "SELECT name FROM sqlite_schema WHERE type = 'table'", nil, func(sc func(...any) error) error {
		var n string
		if err := sc(&n); err != nil {
			return err
		}
		have[n] = true
		return nil
	})
	if err != nil {
		return err
	}
	var missing []TableSchema
	for _, k := range kinds.All() {
		if ts, ok := k.(TableSchema); ok && k.Table() != "" && !have[k.Table()] {
			missing = append(missing, ts)
			have[k.Table()] = true
		}
		if t := k.Table(); t != "" && !have[t] {
			return fmt.Errorf("kind %s: its table %s is in no migration (and the kind declares no TableSchema)", k.Kind(), t)
		}
	}
	if len(missing) == 0 {
		return nil
	}
	return s.write(func(tx *wtx) error {
		for _, ts := range missing {
			if _, err := tx.Tx.Exec(ts.TableSchema()); err != nil { // several statements: not prepared
				return fmt.Errorf("table of kind %s: %w", ts.(Kind).Kind(), err)
			}
		}
		return nil
	})
}
