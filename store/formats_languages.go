package store

import (
	"database/sql"
	"fmt"
	"strings"

	"github.com/annotate-dev/annotate/schema"
)

// What the dataset card reads of the database besides the rows: the
// formats the data was imported from, and the languages the items declare.

// NoteFormats records that one file of each format was imported (the
// formats repeat once per file), in the import's transaction.
func (t *Tx) NoteFormats(formats []string) error {
	for _, f := range formats {
		if f == "" {
			continue
		}
		if _, err := t.tx.Exec(`INSERT INTO import_formats(format, files, first_at) VALUES (?, 1, ?)
			ON CONFLICT(format) DO UPDATE SET files = files + 1`, f, now()); err != nil {
			return err
		}
	}
	return nil
}

// ImportFormats lists the formats imported so far, in the order first met.
func (x *ReadTx) ImportFormats() ([]string, error) {
	var out []string
	err := eachRow(x.q, `SELECT format FROM import_formats ORDER BY first_at, format`, nil, func(sc func(...any) error) error {
		var f string
		if err := sc(&f); err != nil {
			return err
		}
		out = append(out, f)
		return nil
	})
	return out, err
}

// KindLanguage is how many items of a kind declare a language ("" : none).
type KindLanguage struct {
	Kind     string
	Language string // lower case; "" when the item, its source and its extra keys say none
	Items    int
}

// Languages counts the items of the kinds with a text of their own (QA
// pairs, queries, documents: those declaring a language rule, texts.go) by
// declared language: the item's own, else its source's.
func (x *ReadTx) Languages() ([]KindLanguage, error) {
	var parts []string
	var args []any
	for _, k := range schema.AllKinds() {
		t, ok := kinds.Get(k).(Languaged)
		if !ok {
			continue
		}
		parts = append(parts, `SELECT i.kind AS kind, LOWER(TRIM(COALESCE(NULLIF(`+fmt.Sprintf(t.LanguageSQL(), "i.id")+`, ''),
			NULLIF(s.language, ''), ''))) AS lang FROM items i LEFT JOIN sources s ON s.id = i.source_id WHERE i.kind = ?`)
		args = append(args, string(k))
	}
	var out []KindLanguage
	if len(parts) == 0 {
		return out, nil
	}
	err := eachRow(x.q, `SELECT kind, lang, COUNT(*) FROM (`+strings.Join(parts, " UNION ALL ")+`)
		GROUP BY kind, lang ORDER BY kind, lang`, args, func(sc func(...any) error) error {
		var k KindLanguage
		var lang sql.NullString
		if err := sc(&k.Kind, &lang, &k.Items); err != nil {
			return err
		}
		k.Language = strings.TrimSpace(lang.String)
		out = append(out, k)
		return nil
	})
	return out, err
}

// UndeclaredTexts returns the first n texts (up to 2,000 bytes each) of the
// items of kind (its declared sample: a pair's question and answer, a
// query's or document's text) that declare no language, neither their own
// nor their source's, so the card can tell their language from the words.
func (x *ReadTx) UndeclaredTexts(kind string, n int) ([]string, error) {
	t, ok := kinds.Get(schema.Kind(kind)).(Languaged)
	if !ok {
		return nil, nil
	}
	sample := fmt.Sprintf(t.SampleSQL(), "i.id")
	q := `SELECT substr(` + sample + `, 1, 2000) FROM items i LEFT JOIN sources s ON s.id = i.source_id
		WHERE i.kind = ? AND COALESCE(NULLIF(` + fmt.Sprintf(t.LanguageSQL(), "i.id") + `, ''), NULLIF(s.language, ''), '') = ''
		AND ` + sample + ` IS NOT NULL ORDER BY i.id LIMIT ?`
	var out []string
	err := eachRow(x.q, q, []any{kind, n}, func(sc func(...any) error) error {
		var s string
		if err := sc(&s); err != nil {
			return err
		}
		out = append(out, s)
		return nil
	})
	return out, err
}
