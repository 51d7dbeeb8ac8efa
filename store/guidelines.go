package store

import (
	"cmp"
	"database/sql"
	"errors"
	"fmt"
	"iter"
	"slices"
	"strconv"
	"strings"

	"github.com/annotate-dev/annotate/guidelines"
)

// GuidelineVersion is one version of one field's guidelines: its English
// and French texts in force under one number (guidelines_lang.go).
type GuidelineVersion struct {
	Field     string `json:"field"`
	Version   int    `json:"version"`
	Author    string `json:"author"`
	CreatedAt string `json:"created_at"`
	Source    string `json:"source"` // "embedded …", "edit", "import FILE"
	// Lang is the language whose text this version changed: "en", "fr",
	// or "" for both (version 1, the text annotate ships).
	Lang   string `json:"lang"`
	Text   string `json:"-"` // the English text in force
	TextFR string `json:"-"` // the French text in force ("" none)
	// EnglishOf and FrenchOf are the versions that last changed each text
	// (read with CurrentGuidelines; 0 otherwise): a French text older
	// than the English one has FrenchOf < EnglishOf.
	EnglishOf, FrenchOf int `json:"-"`
}

// SeedAuthor is the author of version 1, the embedded text.
const SeedAuthor = "annotate"

// seedSource is the source of version 1: the embedded guidelines of the
// release that first opened the database.
func seedSource() string { return "embedded " + guidelines.Version }

// seedGuidelines writes version 1 of every field that has none yet: every
// field on a fresh or upgraded database, a new kind's fields after an
// upgrade. Nothing is written when every field has its versions.
func (s *Store) seedGuidelines() error {
	have := map[string]bool{}
	err := eachRow(s.db, "SELECT DISTINCT field FROM guideline_versions", nil, func(sc func(...any) error) error {
		var f string
		err := sc(&f)
		have[f] = true
		return err
	})
	if err != nil {
		return err
	}
	for _, f := range guidelines.Fields() {
		if _, ok := guidelines.Embedded(f); ok && !have[f] {
			if err := s.write(func(tx *wtx) error { return tx.seedMissing() }); err != nil {
				return err
			}
			break
		}
	}
	return s.fillFrench()
}

// seedMissing writes version 1, the embedded text, of every field that has
// no version in this transaction.
func (tx *wtx) seedMissing() error {
	ts := now()
	for _, f := range guidelines.Fields() {
		text, ok := guidelines.Embedded(f)
		if !ok {
			continue
		}
		// OR IGNORE: a field with versions keeps them (and another process
		// opening the same new file may have seeded it first).
		if _, err := tx.Exec(`INSERT OR IGNORE INTO guideline_versions(field,version,text,text_fr,changed,author,created_at,source)
			VALUES (?,1,?,?,'',?,?,?)`, f, normalText(text), embeddedFrench(f), SeedAuthor, ts, seedSource()); err != nil {
			return err
		}
	}
	return nil
}

// normalText is a section as stored: no trailing blank lines, one final
// newline, so that an editor's added newline is not a change.
func normalText(s string) string {
	return strings.TrimRight(strings.ReplaceAll(s, "\r\n", "\n"), " \t\n") + "\n"
}

// CurrentGuidelines returns the newest version of every field, by field.
func (rx *ReadTx) CurrentGuidelines() (map[string]GuidelineVersion, error) {
	out := map[string]GuidelineVersion{}
	err := eachRow(rx.q, `SELECT g.field, g.version, g.text, g.text_fr, g.changed, g.author, g.created_at, g.source,
			(SELECT MAX(version) FROM guideline_versions WHERE field = g.field AND changed IN ('', 'en')),
			(SELECT MAX(version) FROM guideline_versions WHERE field = g.field AND changed IN ('', 'fr'))
		FROM guideline_versions g
		WHERE g.version = (SELECT MAX(version) FROM guideline_versions WHERE field = g.field)`, nil, func(sc func(...any) error) error {
		var v GuidelineVersion
		var en, fr sql.NullInt64
		if err := sc(&v.Field, &v.Version, &v.Text, &v.TextFR, &v.Lang, &v.Author, &v.CreatedAt, &v.Source, &en, &fr); err != nil {
			return err
		}
		v.EnglishOf, v.FrenchOf = int(en.Int64), int(fr.Int64)
		out[v.Field] = v
		return nil
	})
	return out, err
}

// CurrentGuidelines returns the newest version of every field, by field.
func (s *Store) CurrentGuidelines() (map[string]GuidelineVersion, error) {
	var out map[string]GuidelineVersion
	err := s.Read(func(rx *ReadTx) error {
		var err error
		out, err = rx.CurrentGuidelines()
		return err
	})
	return out, err
}

// GuidelineHistory lists the versions of one field ("": of every field),
// oldest first, field by field in the order the fields are asked. The texts
// are left out.
func (s *Store) GuidelineHistory(field string) ([]GuidelineVersion, error) {
	byField := map[string][]GuidelineVersion{}
	var others []string
	err := eachRow(s.db, `SELECT field, version, author, created_at, source, changed FROM guideline_versions
		WHERE ? = '' OR field = ? ORDER BY field, version`, []any{field, field}, func(sc func(...any) error) error {
		var v GuidelineVersion
		if err := sc(&v.Field, &v.Version, &v.Author, &v.CreatedAt, &v.Source, &v.Lang); err != nil {
			return err
		}
		if byField[v.Field] == nil && !isGuidelineField(v.Field) {
			others = append(others, v.Field)
		}
		byField[v.Field] = append(byField[v.Field], v)
		return nil
	})
	if err != nil {
		return nil, err
	}
	var out []GuidelineVersion
	for _, f := range append(guidelines.Fields(), others...) {
		out = append(out, byField[f]...)
	}
	return out, nil
}

func isGuidelineField(f string) bool {
	_, err := guidelines.Lookup(f)
	return err == nil
}

// GuidelineText is a new text for a field's guidelines, in one language.
type GuidelineText struct {
	Field string
	Text  string
	Lang  string // "fr": the French text; "" or "en": the English one
}

// AddGuidelines records, in one transaction, a new version of each field
// whose text differs from its current version's text in that language, by
// author, noting where it came from (source). The new version keeps the
// other language's text in force. A text equal to the current one (up to
// trailing blank lines) adds nothing. It returns the versions added. An
// unknown field or language, or an empty text, is refused and nothing is
// written.
func (s *Store) AddGuidelines(author, source string, texts []GuidelineText) ([]GuidelineVersion, error) {
	if strings.TrimSpace(author) == "" {
		return nil, errors.New("guidelines: a version needs its author")
	}
	for _, t := range texts {
		if !isGuidelineField(t.Field) {
			return nil, fmt.Errorf("guidelines: unknown field %q", t.Field)
		}
		if strings.TrimSpace(t.Text) == "" {
			return nil, fmt.Errorf("guidelines of %s: the text is empty", t.Field)
		}
		if !guidelines.Written(t.Lang) {
			return nil, fmt.Errorf("guidelines of %s: no language %q (en or fr)", t.Field, t.Lang)
		}
	}
	var added []GuidelineVersion
	err := s.write(func(tx *wtx) error {
		ts := now()
		for _, t := range texts {
			en, fr := &t.Text, (*string)(nil)
			if t.Lang == guidelines.French {
				en, fr = nil, &t.Text
			}
			v, ok, err := tx.addGuidelineVersion(t.Field, en, fr, author, source, ts)
			if err != nil {
				return err
			}
			if ok {
				added = append(added, v)
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return added, nil
}

// addGuidelineVersion records the next version of a field's guidelines
// when a text given (en, fr; nil: kept) differs from the current one in its
// language (ok false: none does), made at the time given. The version
// keeps the other language's text in force and says which it changed
// ("en", "fr"; "" both).
func (tx *wtx) addGuidelineVersion(field string, en, fr *string, author, source, at string) (GuidelineVersion, bool, error) {
	var curEN, curFR sql.NullString
	var n int
	err := tx.QueryRow(`SELECT version, text, text_fr FROM guideline_versions WHERE field=? ORDER BY version DESC LIMIT 1`, field).Scan(&n, &curEN, &curFR)
	if err != nil && !errors.Is(err, sql.ErrNoRows) {
		return GuidelineVersion{}, false, err
	}
	v := GuidelineVersion{Field: field, Version: n + 1, Author: author, CreatedAt: at, Source: source, Text: curEN.String, TextFR: curFR.String}
	var changed []string
	if en != nil {
		if text := normalText(*en); !curEN.Valid || curEN.String != text {
			v.Text, changed = text, append(changed, guidelines.English)
		}
	}
	if fr != nil {
		if text := normalText(*fr); !curFR.Valid || curFR.String != text {
			v.TextFR, changed = text, append(changed, guidelines.French)
		}
	}
	switch len(changed) {
	case 0:
		return GuidelineVersion{}, false, nil
	case 1:
		v.Lang = changed[0]
	}
	if _, err := tx.Exec(`INSERT INTO guideline_versions(field,version,text,text_fr,changed,author,created_at,source) VALUES (?,?,?,?,?,?,?,?)`,
		v.Field, v.Version, v.Text, v.TextFR, v.Lang, v.Author, v.CreatedAt, v.Source); err != nil {
		return GuidelineVersion{}, false, err
	}
	if tx.guideVersions != nil {
		tx.guideVersions[v.Field] = strconv.Itoa(v.Version)
	}
	return v, true, nil
}

// guidelinesVersion is what a label of the field records: the number of
// its section's version in force in this transaction, as text ("" for a
// field with no section). Looked up once per field and transaction: an
// import writes thousands of labels of a few fields.
func (tx *wtx) guidelinesVersion(field string) (string, error) {
	sec, ok := guidelines.SectionOf(field)
	if !ok {
		return "", nil
	}
	if v, ok := tx.guideVersions[sec]; ok {
		return v, nil
	}
	var n sql.NullInt64
	if err := tx.QueryRow("SELECT MAX(version) FROM guideline_versions WHERE field=?", sec).Scan(&n); err != nil {
		return "", err
	}
	v := ""
	if n.Valid {
		v = strconv.FormatInt(n.Int64, 10)
	}
	if tx.guideVersions == nil {
		tx.guideVersions = map[string]string{}
	}
	tx.guideVersions[sec] = v
	return v, nil
}

// guidelineTable is the table of the guidelines' versions.
const guidelineTable = "guideline_versions"

// restoreOverSeed restores the backup's guidelines into a database that
// holds only its own seed (every database has version 1 from its first
// open, so the table is never empty): the seed gives way to the backup's
// versions. A backup holding exactly the table's rows (a second restore of
// the same backup) changes nothing. ok is false when the table holds a
// version of the lead's: the generic rule (identical rows, or refused)
// applies. The lines are read twice when they differ from the table.
func restoreOverSeed(tx *wtx, t BackupTable, lines iter.Seq2[[]byte, error]) (added, same int, ok bool, err error) {
	var n int
	err = tx.QueryRow("SELECT count(*) FROM guideline_versions WHERE version > 1 OR author <> ? OR source NOT LIKE 'embedded %'", SeedAuthor).Scan(&n)
	if err != nil || n > 0 {
		return 0, 0, false, err
	}
	same, err = sameRows(tx, t, lines)
	var rowErr *RowError
	switch {
	case err == nil:
		return 0, same, true, nil
	case !errors.As(err, &rowErr):
		return 0, 0, false, err
	}
	if _, err := tx.Exec("DELETE FROM guideline_versions"); err != nil {
		return 0, 0, false, err
	}
	if added, err = restoreRows(tx, t, lines, bulkRows); err != nil {
		return 0, 0, false, err
	}
	// A backup with no guidelines rows keeps this database's version 1; one
	// made before the French guidelines gets their French.
	if err := tx.seedMissing(); err != nil {
		return 0, 0, false, err
	}
	return added, 0, true, tx.fillFrench()
}

// LabelVersionKey is one annotator's current label of a field on an item.
type LabelVersionKey struct {
	Item, Annotator int64
}

// LabelGuidelineVersions gives the guidelines version each annotator's
// current label of the field (role annotate) was made under, as recorded:
// a number for labels made since the guidelines are in the database, the
// release's version for older ones, "" for none recorded.
func (rx *ReadTx) LabelGuidelineVersions(field string) (map[LabelVersionKey]string, error) {
	out := map[LabelVersionKey]string{}
	err := eachRow(rx.q, `SELECT l.item_id, l.annotator_id, e.guidelines_version FROM current_labels l
		JOIN label_events e ON e.id = l.event_id WHERE l.role = ? AND l.field = ?`, []any{RoleAnnotate, field}, func(sc func(...any) error) error {
		var k LabelVersionKey
		var v string
		if err := sc(&k.Item, &k.Annotator, &v); err != nil {
			return err
		}
		out[k] = v
		return nil
	})
	return out, err
}

// GuidelineVersions lists every version of one field, oldest first, in
// the read's snapshot, texts left out.
func (rx *ReadTx) GuidelineVersions(field string) ([]GuidelineVersion, error) {
	var out []GuidelineVersion
	err := eachRow(rx.q, `SELECT field, version, author, created_at, source FROM guideline_versions WHERE field = ? ORDER BY version`,
		[]any{field}, func(sc func(...any) error) error {
			var v GuidelineVersion
			err := sc(&v.Field, &v.Version, &v.Author, &v.CreatedAt, &v.Source)
			out = append(out, v)
			return err
		})
	return out, err
}

// GuidelineUse is how many current labels were made under one version of
// one field's guidelines, with the version's author and time when it is
// one of the database's (labels from before the guidelines were kept in
// the database carry the release's version, and no author).
type GuidelineUse struct {
	Field     string // the section: markers count under their step's
	Version   string // as recorded; "" none
	Author    string
	CreatedAt string
	Source    string
	Labels    int
}

// GuidelinesUsed lists the versions the current labels (every annotator's
// and the adjudications) were made under, field by field in the order the
// fields are asked, versions in order. Fields with no section (an imported
// grade) are left out.
func (s *Store) GuidelinesUsed() ([]GuidelineUse, error) {
	type key struct{ field, version string }
	counts := map[key]int{}
	err := eachRow(s.db, `SELECT l.field, e.guidelines_version, count(*) FROM current_labels l
		JOIN label_events e ON e.id = l.event_id GROUP BY l.field, e.guidelines_version`, nil, func(sc func(...any) error) error {
		var f, v string
		var n int
		if err := sc(&f, &v, &n); err != nil {
			return err
		}
		if sec, ok := guidelines.SectionOf(f); ok {
			counts[key{sec, v}] += n
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	known := map[key]GuidelineVersion{}
	err = eachRow(s.db, "SELECT field, version, author, created_at, source FROM guideline_versions", nil, func(sc func(...any) error) error {
		var v GuidelineVersion
		err := sc(&v.Field, &v.Version, &v.Author, &v.CreatedAt, &v.Source)
		known[key{v.Field, strconv.Itoa(v.Version)}] = v
		return err
	})
	if err != nil {
		return nil, err
	}
	var out []GuidelineUse
	for _, f := range guidelines.Fields() {
		var vs []string
		for k := range counts {
			if k.field == f {
				vs = append(vs, k.version)
			}
		}
		slices.SortFunc(vs, CompareVersions)
		for _, v := range vs {
			g := known[key{f, v}]
			out = append(out, GuidelineUse{Field: f, Version: v, Author: g.Author, CreatedAt: g.CreatedAt, Source: g.Source, Labels: counts[key{f, v}]})
		}
	}
	return out, nil
}

// CompareVersions orders recorded versions: numbered ones by number, then
// the releases' versions of older labels, then "" (not recorded).
func CompareVersions(a, b string) int {
	na, ea := strconv.Atoi(a)
	nb, eb := strconv.Atoi(b)
	switch {
	case ea == nil && eb == nil:
		return cmp.Compare(na, nb)
	case ea == nil:
		return -1
	case eb == nil:
		return 1
	case a == "" || b == "":
		return -cmp.Compare(a, b)
	}
	return cmp.Compare(a, b)
}
