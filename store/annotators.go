package store

import (
	"errors"

	"github.com/annotate-dev/annotate/internal/names"
)

// Annotators: the people (and imported label sets) whose labels the log
// holds, and the one way a name becomes an id.

// GoldAnnotator records a relevance gold set (qrels imported without
// --annotator, a release's gold citations): the reference `annotate ir`
// reads, whose labels count for nothing in the kept counts.
const GoldAnnotator = "gold"

// Annotator is a person (or an imported label set) that labels items.
type Annotator struct {
	ID    int64
	Name  string
	Human bool
}

// Annotators lists annotators in creation order.
func (s *Store) Annotators() ([]Annotator, error) {
	rows, err := s.db.Query("SELECT id, name, human FROM annotators ORDER BY id")
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []Annotator
	for rows.Next() {
		var a Annotator
		if err := rows.Scan(&a.ID, &a.Name, &a.Human); err != nil {
			return nil, err
		}
		out = append(out, a)
	}
	return out, rows.Err()
}

// lookupAnnotator is the id of the annotator of that name; false (id 0)
// when there is none, which most reads take as "no labels" rather than an
// error.
func lookupAnnotator(q querier, name string) (int64, bool, error) {
	var id int64
	err := q.QueryRow("SELECT id FROM annotators WHERE name=?", name).Scan(&id)
	if errors.Is(err, errNoRows) {
		return 0, false, nil
	}
	return id, err == nil, err
}

// knownAnnotator is lookupAnnotator for the reads that need the annotator
// to exist: an unknown name is ErrNotFound, naming it.
func knownAnnotator(q querier, name string) (int64, error) {
	id, ok, err := lookupAnnotator(q, name)
	if err == nil && !ok {
		return 0, notFound("annotator", name)
	}
	return id, err
}

// annotatorID returns the id of name, creating the annotator if needed.
func annotatorID(tx *wtx, name string) (int64, error) {
	if name == "" {
		return 0, errors.New("no annotator name (use --as NAME)")
	}
	if id, ok := tx.annotators[name]; ok {
		return id, nil
	}
	id, ok, err := lookupAnnotator(tx, name)
	if err != nil {
		return 0, err
	}
	if !ok {
		// The last guard of the rule of names: every path that creates an
		// annotator checks it first, naming where the name came from.
		if err := names.Check(name); err != nil {
			return 0, err
		}
		res, err := tx.Exec("INSERT INTO annotators(name, human, created_at) VALUES (?,?,?)", name, 1, now())
		if err != nil {
			return 0, err
		}
		if id, err = res.LastInsertId(); err != nil {
			return 0, err
		}
	}
	tx.annotators[name] = id
	return id, nil
}

// EnsureAnnotator creates the annotator if it does not exist yet.
func (s *Store) EnsureAnnotator(name string) error {
	return s.write(func(tx *wtx) error { _, err := annotatorID(tx, name); return err })
}

// AnnotatorNames lists the annotators the database knows, by name, as the
// import's transaction sees them (the rule of names checks new ones
// against them).
func (t *Tx) AnnotatorNames() ([]string, error) {
	var out []string
	err := eachRow(t.tx, "SELECT name FROM annotators ORDER BY id", nil, func(sc func(...any) error) error {
		var n string
		err := sc(&n)
		out = append(out, n)
		return err
	})
	return out, err
}
