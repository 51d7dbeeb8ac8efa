package importer

import (
	"os"
	"testing"

	"github.com/annotate-dev/annotate/store"
)

func TestZZProf(t *testing.T) {
	p := os.Getenv("PROF_FILE")
	if p == "" {
		t.Skip()
	}
	s, err := store.Open(t.TempDir() + "/a.db")
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if _, err := Import(s, []string{p}, Options{}); err != nil {
		t.Fatal(err)
	}
}
