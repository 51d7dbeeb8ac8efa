package store

import (
	"errors"
	"slices"
	"testing"
)

// Formats are recorded once each, in the order first imported, with the
// number of files; a failed import records nothing (its transaction).
func TestImportFormats(t *testing.T) {
	s := openTemp(t)
	for _, fs := range [][]string{{"claimrag", "native"}, {"native", "ragchecker"}} {
		if err := s.Import(func(tx *Tx) error { return tx.NoteFormats(fs) }); err != nil {
			t.Fatal(err)
		}
	}
	failed := errors.New("the import failed")
	if err := s.Import(func(tx *Tx) error {
		if err := tx.NoteFormats([]string{"hf"}); err != nil {
			return err
		}
		return failed
	}); !errors.Is(err, failed) {
		t.Fatal(err)
	}
	var got []string
	var files int
	if err := s.Read(func(rx *ReadTx) error {
		var err error
		got, err = rx.ImportFormats()
		return err
	}); err != nil {
		t.Fatal(err)
	}
	s.db.QueryRow("SELECT files FROM import_formats WHERE format = 'native'").Scan(&files)
	if !slices.Equal(got, []string{"claimrag", "native", "ragchecker"}) || files != 2 {
		t.Errorf("formats %v, native files %d", got, files)
	}
}

// The languages the items declare, by the kinds' declared rules: a pair's
// own, a query's or document's "language" key, else the source's; and the
// texts of those that declare none. (Expected values counted by hand from
// the items below.)
func TestLanguagesAndUndeclaredTexts(t *testing.T) {
	s := openTemp(t)
	err := s.Import(func(tx *Tx) error {
		if _, err := tx.Source("fr-src", "FR", ""); err != nil {
			return err
		}
		for _, q := range []QAPair{
			{ID: "q1", Source: "fr-src", Question: "Quoi ?", Answer: "Ceci."},                  // fr (source)
			{ID: "q2", Source: "de-src", Language: "DE", Question: "Was?", Answer: "Das."},     // de (own)
			{ID: "q3", Source: "plain", Question: "What?", Answer: "That."},                    // none
			{ID: "q4", Source: "fr-src", Language: "en", Question: "Why?", Answer: "Because."}, // en (own over source)
		} {
			if _, _, err := tx.PutQA(q, "h-"+q.ID, "qa.jsonl", false); err != nil {
				return err
			}
		}
		for _, q := range []Query{
			{ID: "u1", Text: "Wie?", Extra: `{"language":"de"}`}, // de (key)
			{ID: "u2", Text: "How?", Extra: `{}`},                // none
		} {
			if _, _, err := tx.PutQuery(q, "h-"+q.ID, "queries.jsonl", false); err != nil {
				return err
			}
		}
		_, _, err := tx.PutDocument(Document{ID: "d1", Source: "fr-src", Title: "Loi", Text: "Article premier."}, "h-d1", "docs.jsonl", false) // fr (source)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	var langs []KindLanguage
	texts := map[string][]string{}
	if err := s.Read(func(rx *ReadTx) error {
		var err error
		if langs, err = rx.Languages(); err != nil {
			return err
		}
		for _, k := range []string{"qa", "query", "document", "claim"} {
			if texts[k], err = rx.UndeclaredTexts(k, 10); err != nil {
				return err
			}
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	want := []KindLanguage{{"document", "fr", 1}, {"qa", "", 1}, {"qa", "de", 1}, {"qa", "en", 1}, {"qa", "fr", 1}, {"query", "", 1}, {"query", "de", 1}}
	if !slices.Equal(langs, want) {
		t.Errorf("languages\n%v\nwant\n%v", langs, want)
	}
	if !slices.Equal(texts["qa"], []string{"What? That."}) || !slices.Equal(texts["query"], []string{"How?"}) || texts["document"] != nil || texts["claim"] != nil {
		t.Errorf("undeclared texts: %q", texts)
	}
}
