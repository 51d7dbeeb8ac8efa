package importer

import (
	"os"
	"os/exec"
	"testing"

	"github.com/annotate-dev/annotate/store"
)

func TestZZProf(t *testing.T) {
	if os.Getenv("ZZPROF") == "" {
		t.Skip()
	}
	exec.Command("cp", "/tmp/h26busy/base-orig.db", "/tmp/h26busy/p.db").Run()
	os.Remove("/tmp/h26busy/p.db-wal")
	s, err := store.Open("/tmp/h26busy/p.db")
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if _, err := Import(s, []string{"/tmp/h26busy/labels.jsonl"}, Options{}); err != nil {
		t.Fatal(err)
	}
}
