package store_test

import (
	"bufio"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/annotate-dev/annotate/demo"
	"github.com/annotate-dev/annotate/importer"
	"github.com/annotate-dev/annotate/store"
)

// TestHostileImportsCommittedInStepsChangeNothing imports every file of
// the hostile corpus's import door (testdata/hostile/expect.tsv) into the
// demo's database with every chance to commit a step taken: a refusal that
// comes after some of an import's rows were committed must still leave
// every table as it was. (cmd/annotate's hostile test checks the refusals'
// words and places through the command, with the import's usual steps; the
// timing is the store's to change, so this half lives here.)
func TestHostileImportsCommittedInStepsChangeNothing(t *testing.T) {
	s, err := store.Open(filepath.Join(t.TempDir(), "demo.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	for _, f := range demo.Files() {
		if _, err := importer.ImportReader(s, f.Name, f.Data, importer.Options{Format: f.Format}); err != nil {
			t.Fatal(err)
		}
	}
	if err := demo.Setup(s); err != nil {
		t.Fatal(err)
	}
	defer store.SetImportSteps(0, 0)()

	corpus := filepath.Join("..", "testdata", "hostile")
	f, err := os.Open(filepath.Join(corpus, "expect.tsv"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	n := 0
	for sc.Scan() {
		cols := strings.Split(sc.Text(), "\t")
		if len(cols) != 4 || cols[0] != "import" {
			continue
		}
		var opt importer.Options
		switch flags := strings.Fields(cols[2]); {
		case cols[2] == "-":
		case len(flags) == 2 && flags[0] == "--format":
			opt.Format = flags[1]
		default:
			t.Fatalf("expect.tsv: the import of %s has flags this test does not know: %s", cols[1], cols[2])
		}
		path := filepath.Join(corpus, filepath.FromSlash(cols[1]))
		n++
		t.Run(filepath.Base(path), func(t *testing.T) {
			before := digest(t, s)
			_, err := importer.Import(s, []string{path}, opt)
			if err == nil {
				t.Fatal("accepted")
			}
			if !strings.Contains(err.Error(), path) {
				t.Errorf("the refusal does not name the file: %v", err)
			}
			if digest(t, s) != before {
				t.Errorf("the database changed")
			}
		})
	}
	if n < 40 {
		t.Fatalf("%d import files in expect.tsv; the corpus has more", n)
	}
}

func digest(t *testing.T, s *store.Store) string {
	t.Helper()
	d, err := store.ReadValue(s, (*store.ReadTx).Digest)
	if err != nil {
		t.Fatal(err)
	}
	return d
}
