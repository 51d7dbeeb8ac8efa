package store

import (
	"errors"
	"strings"
	"testing"
)

// TestAnnotatorLookups: a name becomes an id once; an unknown name is "no
// such annotator" to lookupAnnotator and ErrNotFound, naming it, to
// knownAnnotator.
func TestAnnotatorLookups(t *testing.T) {
	s := openTemp(t)
	if err := s.EnsureAnnotator("jo"); err != nil {
		t.Fatal(err)
	}
	if err := s.EnsureAnnotator("jo"); err != nil {
		t.Fatal(err)
	}
	as, err := s.pooled().Annotators()
	if err != nil || len(as) != 1 || as[0].Name != "jo" {
		t.Fatalf("Annotators = %v, %v; want jo once", as, err)
	}
	id, ok, err := lookupAnnotator(s.db, "jo")
	if err != nil || !ok || id != as[0].ID {
		t.Errorf("lookupAnnotator(jo) = %d, %v, %v; want %d, true", id, ok, err, as[0].ID)
	}
	if id, ok, err := lookupAnnotator(s.db, "ann"); err != nil || ok || id != 0 {
		t.Errorf("lookupAnnotator(ann) = %d, %v, %v; want 0, false, nil", id, ok, err)
	}
	if _, err := knownAnnotator(s.db, "ann"); !errors.Is(err, ErrNotFound) || !strings.Contains(err.Error(), `"ann"`) {
		t.Errorf("knownAnnotator(ann) = %v; want ErrNotFound naming ann", err)
	}
	if err := s.EnsureAnnotator(""); err == nil {
		t.Error("an empty name was taken")
	}
}
