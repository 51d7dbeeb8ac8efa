package store

import (
	"database/sql"
	"strings"
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
// pairs, queries, documents) by declared language: the pair's, the
// "language" key kept with a query or document, else its source's.
func (x *ReadTx) Languages() ([]KindLanguage, error) {
	var out []KindLanguage
	err := eachRow(x.q, `SELECT i.kind, LOWER(TRIM(COALESCE(NULLIF(q.language, ''),
			CASE WHEN json_valid(qu.extra) THEN NULLIF(json_extract(qu.extra, '$.language'), '') END,
			CASE WHEN json_valid(d.extra) THEN NULLIF(json_extract(d.extra, '$.language'), '') END,
			NULLIF(s.language, ''), ''))) AS lang, COUNT(*)
		FROM items i LEFT JOIN sources s ON s.id = i.source_id
		LEFT JOIN qa_pairs q ON q.item_id = i.id
		LEFT JOIN queries qu ON qu.item_id = i.id
		LEFT JOIN documents d ON d.item_id = i.id
		WHERE i.kind IN ('qa', 'query', 'document')
		GROUP BY i.kind, lang ORDER BY i.kind, lang`, nil, func(sc func(...any) error) error {
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
// items of kind (qa: the question; query; document) that declare no
// language, so the card can tell their language from the words.
func (x *ReadTx) UndeclaredTexts(kind string, n int) ([]string, error) {
	var q string
	switch kind {
	case "qa":
		q = `SELECT substr(p.question || ' ' || p.answer, 1, 2000) FROM qa_pairs p JOIN items i ON i.id = p.item_id
			LEFT JOIN sources s ON s.id = i.source_id WHERE p.language = '' AND COALESCE(s.language, '') = '' ORDER BY i.id LIMIT ?`
	case "query":
		q = `SELECT substr(qu.text, 1, 2000) FROM queries qu JOIN items i ON i.id = qu.item_id LEFT JOIN sources s ON s.id = i.source_id
			WHERE COALESCE(s.language, '') = '' AND NOT (json_valid(qu.extra) AND COALESCE(json_extract(qu.extra, '$.language'), '') <> '')
			ORDER BY i.id LIMIT ?`
	case "document":
		q = `SELECT substr(d.text, 1, 2000) FROM documents d JOIN items i ON i.id = d.item_id LEFT JOIN sources s ON s.id = i.source_id
			WHERE COALESCE(s.language, '') = '' AND NOT (json_valid(d.extra) AND COALESCE(json_extract(d.extra, '$.language'), '') <> '')
			ORDER BY i.id LIMIT ?`
	default:
		return nil, nil
	}
	var out []string
	err := eachRow(x.q, q, []any{n}, func(sc func(...any) error) error {
		var s string
		if err := sc(&s); err != nil {
			return err
		}
		out = append(out, s)
		return nil
	})
	return out, err
}
