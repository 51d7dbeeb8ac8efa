package store

import "github.com/annotate-dev/annotate/schema"

// The error taxonomy in force is kept in the database, so that every
// command and every annotator's screen (over SSH too) uses the one the lead
// chose with --taxonomy; an empty table means the default.

// Taxonomy reads the stored taxonomy (nil: the default is in force).
func (rx *ReadTx) Taxonomy() ([]schema.ErrorKind, error) {
	var out []schema.ErrorKind
	err := eachRow(rx.q, "SELECT value, label, grp, definition, example FROM error_taxonomy ORDER BY position", nil,
		func(sc func(...any) error) error {
			var c schema.ErrorKind
			err := sc(&c.Value, &c.Label, &c.Group, &c.Definition, &c.Example)
			out = append(out, c)
			return err
		})
	return out, err
}

// SetTaxonomy replaces the stored taxonomy (nil: back to the default) and
// reports how many error_category labels hold a value it lacks (kept as
// they are, and left out of the reports' categories).
func (s *Store) SetTaxonomy(cats []schema.ErrorKind) (outside map[string]int, err error) {
	outside = map[string]int{}
	err = s.write(func(tx *wtx) error {
		if _, err := tx.Exec("DELETE FROM error_taxonomy"); err != nil {
			return err
		}
		known := map[string]bool{}
		for i, c := range cats {
			known[c.Value] = true
			if _, err := tx.Exec("INSERT INTO error_taxonomy(position, value, label, grp, definition, example) VALUES (?,?,?,?,?,?)",
				i+1, c.Value, c.Label, c.Group, c.Definition, c.Example); err != nil {
				return err
			}
		}
		if len(cats) == 0 {
			for _, c := range schema.DefaultTaxonomy() {
				known[c.Value] = true
			}
		}
		return eachRow(tx, "SELECT value FROM current_labels WHERE field=?", []any{schema.ErrorCategory}, func(sc func(...any) error) error {
			var v string
			if err := sc(&v); err != nil {
				return err
			}
			for _, e := range schema.DecodeMulti(v) {
				if !known[e] {
					outside[e]++
				}
			}
			return nil
		})
	})
	return outside, err
}
