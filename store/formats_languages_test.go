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
	s.DB().QueryRow("SELECT files FROM import_formats WHERE format = 'native'").Scan(&files)
	if !slices.Equal(got, []string{"claimrag", "native", "ragchecker"}) || files != 2 {
		t.Errorf("formats %v, native files %d", got, files)
	}
}
