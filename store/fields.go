package store

import (
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"

	"github.com/annotate-dev/annotate/guidelines"
	"github.com/annotate-dev/annotate/schema"
	"github.com/annotate-dev/annotate/tally"
)

// Declared fields (field_declarations, migration 0019): the fields a lead
// adds to a kind with a file. The database keeps every version; the newest
// of each is the schema's while the database is open (schema.Hold): it is
// put in force when the store opens, when a write or a read finds that
// another process declared a field since, and in the transaction that
// declares one, whose recount of the kept counts follows the new schema.
// The kept counts record the declarations they were counted under
// (keptVersion), so a database whose fields changed is recounted.

// DeclaredField is one version of a declared field.
type DeclaredField struct {
	Field     string   `json:"field"`
	Kind      string   `json:"kind"`
	Version   int      `json:"version"`
	Author    string   `json:"author"`
	CreatedAt string   `json:"created_at"`
	Source    string   `json:"source"`
	Changes   []string `json:"changes"`
	// GuidelinesVersion is the version of the field's guidelines this
	// declaration left in force.
	GuidelinesVersion int                `json:"guidelines_version"`
	Declaration       schema.Declaration `json:"-"`
	Text              string             `json:"-"` // the file as written
}

// declaredOf reads the newest declaration of every declared field, in the
// order the fields were first declared.
func declaredOf(q querier) ([]schema.Declaration, error) {
	var out []schema.Declaration
	err := eachRow(q, `SELECT d.declaration, d.version, d.guidelines_version FROM field_declarations d
		WHERE d.version = (SELECT MAX(version) FROM field_declarations WHERE field = d.field)
		ORDER BY (SELECT MIN(id) FROM field_declarations WHERE field = d.field)`, nil, func(sc func(...any) error) error {
		var js string
		var v, gv int
		if err := sc(&js, &v, &gv); err != nil {
			return err
		}
		var d schema.Declaration
		if err := json.Unmarshal([]byte(js), &d); err != nil {
			return fmt.Errorf("the declaration of a field (version %d) is not readable: %w", v, err)
		}
		d.Version, d.GuidelinesVersion = v, gv
		out = append(out, d)
		return nil
	})
	return out, err
}

// declaredStamp changes whenever a field is declared: versions are only
// ever added.
func declaredStamp(q querier) (int, error) {
	var n int
	err := q.QueryRow("SELECT count(*) FROM field_declarations").Scan(&n)
	return n, err
}

// holdDeclared puts the database's declared fields in force (at open).
func (s *Store) holdDeclared() error {
	decls, err := declaredOf(s.db)
	if err != nil {
		return err
	}
	stamp, err := declaredStamp(s.db)
	if err != nil {
		return err
	}
	h, err := schema.Hold(s.Path, decls)
	if err != nil {
		return err
	}
	s.fields = &declaredState{holding: h, decls: decls, stamp: stamp}
	return nil
}

// declaredState is what a store put in force of its declared fields.
type declaredState struct {
	mu      sync.Mutex // reads and writes look from several goroutines
	holding *schema.Holding
	decls   []schema.Declaration
	stamp   int
}

// syncDeclared puts in force what q sees of the declared fields when they
// changed since the store last looked (another process declared one).
func (s *Store) syncDeclared(q querier) error {
	st := s.fields
	if st == nil {
		return nil
	}
	stamp, err := declaredStamp(q)
	if err != nil {
		return err
	}
	st.mu.Lock()
	defer st.mu.Unlock()
	if stamp == st.stamp && st.holding.Current(st.decls) {
		return nil
	}
	decls, err := declaredOf(q)
	if err != nil {
		return err
	}
	if err := st.holding.Change(decls); err != nil {
		return err
	}
	st.decls, st.stamp = decls, stamp
	return nil
}

// syncDeclared puts in force the declared fields the transaction sees.
func (tx *wtx) syncDeclared() error {
	st := tx.store.fields
	if st == nil {
		return nil
	}
	st.mu.Lock()
	before := st.stamp
	st.mu.Unlock()
	if err := tx.store.syncDeclared(tx); err != nil {
		return err
	}
	st.mu.Lock()
	tx.declaredChanged = tx.declaredChanged || st.stamp != before
	st.mu.Unlock()
	return nil
}

// keptVersion names the rules the kept counts are counted by: the tally
// rules' version, and the declared fields (a field asked makes an item
// unfinished until it is answered).
func (s *Store) keptVersion() string {
	if s.fields == nil {
		return tally.Version
	}
	s.fields.mu.Lock()
	defer s.fields.mu.Unlock()
	if len(s.fields.decls) == 0 {
		return tally.Version
	}
	return tally.Version + "+" + schema.Digest(s.fields.decls)
}

// DeclareField records a declaration of a field read from a file (source,
// text as written) by author, a lead: the field's next version, or its
// first. A declaration that says what the current one says records
// nothing (changed false). One that would orphan stored labels is refused
// (schema.CheckChange). In the same transaction the field's guidelines get
// their next version when they changed, the field is put in force, and
// the kept counts are recounted with it.
func (s *Store) DeclareField(author, source, text string, d schema.Declaration) (DeclaredField, bool, error) {
	if strings.TrimSpace(author) == "" {
		return DeclaredField{}, false, errors.New("a declaration needs its author")
	}
	var out DeclaredField
	changed := false
	err := s.write(func(tx *wtx) error {
		decls, err := declaredOf(tx)
		if err != nil {
			return err
		}
		var old *schema.Declaration
		at := len(decls)
		for i := range decls {
			if decls[i].Field == d.Field {
				old, at = &decls[i], i
			}
		}
		var changes []string
		if old != nil {
			labels, err := labelsByValue(tx, d.Field)
			if err != nil {
				return err
			}
			if err := schema.CheckChange(*old, d, labels); err != nil {
				return err
			}
			if changes = schema.Changes(*old, d); len(changes) == 0 {
				out, err = tx.declaredVersion(d.Field, old.Version)
				return err
			}
			d.Version = old.Version + 1
			decls[at] = d
		} else {
			d.Version = 1
			changes = []string{"declared"}
			decls = append(decls, d)
			at = len(decls) - 1
		}
		js, err := json.Marshal(d)
		if err != nil {
			return err
		}
		ts := now()
		en, fr := guidelines.DeclaredSection(d), guidelines.DeclaredSectionFR(d)
		frText := &fr
		if fr == "" {
			frText = nil
		}
		if _, _, err := tx.addGuidelineVersion(d.Field, &en, frText, author, "fields add "+source, ts); err != nil {
			return err
		}
		var gv int
		if err := tx.QueryRow("SELECT MAX(version) FROM guideline_versions WHERE field=?", d.Field).Scan(&gv); err != nil {
			return err
		}
		d.GuidelinesVersion = gv
		decls[at] = d
		if _, err := tx.Exec(`INSERT INTO field_declarations(field,version,kind,declaration,source_text,source,changes,author,created_at,guidelines_version)
			VALUES (?,?,?,?,?,?,?,?,?,?)`, d.Field, d.Version, string(d.Kind), string(js), text, source, strings.Join(changes, "\n"), author, ts, gv); err != nil {
			return err
		}
		if err := tx.putDeclared(decls); err != nil {
			return err
		}
		if err := tx.recountAll(); err != nil {
			return err
		}
		changed = true
		out, err = tx.declaredVersion(d.Field, d.Version)
		return err
	})
	if err != nil {
		return DeclaredField{}, false, err
	}
	return out, changed, nil
}

// putDeclared puts a new set of declared fields in force within a write
// transaction; the write puts back the database's if it rolls back.
func (tx *wtx) putDeclared(decls []schema.Declaration) error {
	st := tx.store.fields
	if st == nil {
		return errors.New("the store holds no schema") // opened without Open
	}
	stamp, err := declaredStamp(tx)
	if err != nil {
		return err
	}
	st.mu.Lock()
	defer st.mu.Unlock()
	if err := st.holding.Change(decls); err != nil {
		return err
	}
	tx.declaredChanged = true
	st.decls, st.stamp = decls, stamp
	return nil
}

// restoreDeclared puts the database's declared fields back in force after
// a write that changed them rolled back.
func (s *Store) restoreDeclared() {
	if s.fields == nil {
		return
	}
	s.fields.mu.Lock()
	s.fields.stamp = -1 // read again
	s.fields.mu.Unlock()
	// An error leaves the stamp unknown: the next read or write looks again.
	_ = s.syncDeclared(s.db)
}

// labelsByValue counts a field's current labels by value (every
// annotator's and the lead's).
func labelsByValue(q querier, field string) (map[string]int, error) {
	out := map[string]int{}
	err := eachRow(q, "SELECT value, count(*) FROM current_labels WHERE field=? GROUP BY value", []any{field}, func(sc func(...any) error) error {
		var v string
		var n int
		err := sc(&v, &n)
		out[v] = n
		return err
	})
	return out, err
}

// DeclaredFields lists the newest version of every declared field, in the
// order they were first declared.
func (s *Store) DeclaredFields() ([]DeclaredField, error) { return s.fieldVersions("", true) }

// FieldHistory lists every version of one declared field ("": of every
// one), oldest first, field by field in the order they were declared.
func (s *Store) FieldHistory(field string) ([]DeclaredField, error) {
	return s.fieldVersions(field, false)
}

func (s *Store) fieldVersions(field string, newest bool) ([]DeclaredField, error) {
	var out []DeclaredField
	err := s.Read(func(rx *ReadTx) error {
		var err error
		out, err = fieldVersionsOf(rx.q, field, newest)
		return err
	})
	return out, err
}

func (tx *wtx) declaredVersion(field string, version int) (DeclaredField, error) {
	all, err := fieldVersionsOf(tx, field, false)
	if err != nil {
		return DeclaredField{}, err
	}
	for _, f := range all {
		if f.Version == version {
			return f, nil
		}
	}
	return DeclaredField{}, sql.ErrNoRows
}

func fieldVersionsOf(q querier, field string, newest bool) ([]DeclaredField, error) {
	var out []DeclaredField
	where := "(? = '' OR d.field = ?)"
	if newest {
		where += " AND d.version = (SELECT MAX(version) FROM field_declarations WHERE field = d.field)"
	}
	err := eachRow(q, `SELECT d.field, d.kind, d.version, d.author, d.created_at, d.source, d.changes, d.declaration, d.source_text, d.guidelines_version
		FROM field_declarations d WHERE `+where+`
		ORDER BY (SELECT MIN(id) FROM field_declarations WHERE field = d.field), d.version`, []any{field, field}, func(sc func(...any) error) error {
		var f DeclaredField
		var changes, js string
		if err := sc(&f.Field, &f.Kind, &f.Version, &f.Author, &f.CreatedAt, &f.Source, &changes, &js, &f.Text, &f.GuidelinesVersion); err != nil {
			return err
		}
		if err := json.Unmarshal([]byte(js), &f.Declaration); err != nil {
			return fmt.Errorf("the declaration of %s (version %d) is not readable: %w", f.Field, f.Version, err)
		}
		f.Declaration.Version = f.Version
		f.Changes = strings.Split(changes, "\n")
		out = append(out, f)
		return nil
	})
	return out, err
}
