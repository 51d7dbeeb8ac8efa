package store

import (
	"database/sql"
	"errors"
	"fmt"

	"github.com/annotate-dev/annotate/guidelines"
)

// The guidelines in English and French under one version number: each
// version of a field holds both texts in force (text, text_fr) and says
// which it changed (changed: "en", "fr", or "" for both, version 1). An
// edit of one language is the next version of the field, the other text
// carried over, so that a label's version says which texts were in force
// when it was made, whatever language its annotator read.

// embeddedFrench is the French text annotate ships for a section ("" if
// it has none), as stored.
func embeddedFrench(field string) string {
	if text, ok := guidelines.EmbeddedIn(field, guidelines.French); ok {
		return normalText(text)
	}
	return ""
}

// fillFrench gives a French text to the versions that have none: those of
// a database older than the French guidelines, or restored from a backup
// made before them. Version 1 as shipped takes the French annotate ships
// (and is marked as the text of both languages); every later version the
// French of the version before it, which it did not change. Nothing is
// written when every version has its French.
func (s *Store) fillFrench() error {
	var missing bool
	if err := s.db.QueryRow("SELECT EXISTS (SELECT 1 FROM guideline_versions WHERE text_fr = '')").Scan(&missing); err != nil {
		return err
	}
	if !missing {
		return nil
	}
	return s.write(func(tx *wtx) error { return tx.fillFrench() })
}

func (tx *wtx) fillFrench() error {
	type row struct {
		field          string
		version        int
		fr, author, by string
	}
	var rows []row
	err := eachRow(tx, `SELECT field, version, text_fr, author, source FROM guideline_versions
		WHERE field IN (SELECT field FROM guideline_versions WHERE text_fr = '') ORDER BY field, version`, nil, func(sc func(...any) error) error {
		var r row
		err := sc(&r.field, &r.version, &r.fr, &r.author, &r.by)
		rows = append(rows, r)
		return err
	})
	if err != nil {
		return err
	}
	prev := map[string]string{} // the French in force before the row, by field
	for _, r := range rows {
		if r.fr != "" {
			prev[r.field] = r.fr
			continue
		}
		fr, changed := prev[r.field], "en"
		if r.version == 1 && r.author == SeedAuthor && len(r.by) > len("embedded ") && r.by[:len("embedded ")] == "embedded " {
			fr, changed = embeddedFrench(r.field), ""
		}
		if fr == "" {
			continue // a field annotate ships no French for
		}
		if _, err := tx.Exec("UPDATE guideline_versions SET text_fr = ?, changed = ? WHERE field = ? AND version = ?", fr, changed, r.field, r.version); err != nil {
			return err
		}
		prev[r.field] = fr
	}
	return nil
}

// TextIn is the version's text in a language ("fr": the French text, the
// English one when there is none; else the English).
func (v GuidelineVersion) TextIn(lang string) string {
	if lang == guidelines.French && v.TextFR != "" {
		return v.TextFR
	}
	return v.Text
}

// FrenchBehind reports whether the version's French text is older than
// its English one: the English changed after the French last did (read
// with CurrentGuidelines).
func (v GuidelineVersion) FrenchBehind() bool { return v.FrenchOf < v.EnglishOf }

// SetAnnotatorLang records the language an annotator reads annotate in
// ("en", "fr"; "" clears it: the config file and the locale decide),
// creating the annotator if new.
func (s *Store) SetAnnotatorLang(name, lang string) error {
	if lang != "" && lang != guidelines.English && lang != guidelines.French {
		return fmt.Errorf("language %q: want en or fr", lang)
	}
	return s.write(func(tx *wtx) error {
		id, err := annotatorID(tx, name)
		if err != nil {
			return err
		}
		_, err = tx.Exec("UPDATE annotators SET lang = ? WHERE id = ?", lang, id)
		return err
	})
}

// AnnotatorLang is an annotator's language preference, "" for none (or an
// annotator the database does not know).
func (s *Store) AnnotatorLang(name string) (string, error) {
	var lang string
	err := s.db.QueryRow("SELECT lang FROM annotators WHERE name = ?", name).Scan(&lang)
	if errors.Is(err, sql.ErrNoRows) {
		return "", nil
	}
	return lang, err
}
