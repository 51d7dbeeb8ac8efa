package main

import (
	"bufio"
	"crypto/sha256"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/annotate-dev/annotate/server"
	"github.com/annotate-dev/annotate/store"
)

// The hostile-file corpus (testdata/hostile, listed with what each must get
// in testdata/hostile/expect.tsv): every file is refused through the door
// it comes in by (import, the config file, a taxonomy, a guidelines file,
// authorized_keys) with a message that names the file and the place in it,
// and the database is left byte for byte as it was. Files too big to keep
// in the repository are made here (generated, below) and held to the same.

// hostileCase is one file, its door and what its refusal must say after
// the file's name.
type hostileCase struct {
	door, path string
	flags      []string
	want       string
}

// located: after the file's name, a line (":12", "line 12"), a record, or
// a field (the Parquet checks name the row group, column and field; a
// config or taxonomy key is its field).
var located = regexp.MustCompile(`^(:\d+|: line \d+|: record \d+|.*field "[^"]+"|.*key "[^"]+"|.*line \d+)`)

func readExpectations(t *testing.T, corpus string) []hostileCase {
	t.Helper()
	f, err := os.Open(filepath.Join(corpus, "expect.tsv"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []hostileCase
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		l := sc.Text()
		if strings.TrimSpace(l) == "" || strings.HasPrefix(l, "#") {
			continue
		}
		cols := strings.Split(l, "\t")
		if len(cols) != 4 {
			t.Fatalf("expect.tsv:%d: want 4 columns separated by tabs, got %d", n, len(cols))
		}
		c := hostileCase{door: cols[0], path: filepath.Join(corpus, filepath.FromSlash(cols[1])), want: cols[3]}
		if cols[2] != "-" {
			c.flags = strings.Fields(cols[2])
		}
		out = append(out, c)
	}
	return out
}

// generated are the corpus's big files, made in dir.
func generated(t *testing.T, dir string) []hostileCase {
	t.Helper()
	write := func(name, content string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	big := strings.Repeat("a", 17<<20)
	key := "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIPvFWql7RE75vO7ICfxyhXBbCAw8kGInSL6mF/7VbJOR"
	return []hostileCase{
		{door: "import", path: write("native-17-MiB-answer.jsonl", `{"id":"h-1","source":"GDPR","question":"Q?","answer":"`+big+`","contexts":[]}`+"\n"),
			want: `:1: field "answer": record is 17.0 MiB, over the 16 MiB limit`},
		{door: "import", path: write("refchecker-17-MiB-response.json", `[{"response":"`+big+`","reference":"r","claims":[],"ys":[]}]`),
			want: `:1: record 1: field "response": record is 17.0 MiB`},
		{door: "guidelines", path: write("guidelines-5-MiB-section.md", "## entailment — Entailment\n\n"+strings.Repeat("word ", 1<<20)+"\n"),
			want: `:1: field "entailment": the file is 5.0 MiB, over the 4 MiB limit of a guidelines file`},
		{door: "keys", path: write("authorized_keys-10-MB-line", key+" jo\n"+strings.Repeat("A", 10<<20)+"\n"),
			want: `:2: the line is longer than 1 MiB`},
	}
}

// hashDB is the database's bytes with its WAL's.
func hashDB(t *testing.T, db string) [32]byte {
	t.Helper()
	// The tables' rows, not the file's bytes: an import refused after one
	// of its steps committed is undone row by row (store.Import), which
	// leaves every table as it was but not every page of the file.
	s, err := store.Open(db)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	d, err := store.ReadValue(s, (*store.ReadTx).Digest)
	if err != nil {
		t.Fatal(err)
	}
	return sha256.Sum256([]byte(d))
}

func TestHostileFilesAreRefusedWhereTheyFail(t *testing.T) {
	corpus := filepath.Join("..", "..", "testdata", "hostile")
	db := filepath.Join(t.TempDir(), "demo.db")
	s, err := seedDemo(db)
	if err != nil {
		t.Fatal(err)
	}
	s.Close()
	if out, err := execute(t, "--db", db, "annotator", "set", "lead", "--role", "lead"); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	// The same imports with a step committed at every chance: the store's
	// TestHostileImportsCommittedInStepsChangeNothing.
	cases := readExpectations(t, corpus)
	listed := map[string]bool{}
	for _, c := range cases {
		listed[c.path] = true
	}
	// Every file of the corpus has its expectation (a folder's files, the
	// folder's).
	filepath.WalkDir(corpus, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || p == filepath.Join(corpus, "expect.tsv") || p == filepath.Join(corpus, "README.md") {
			return err
		}
		for q := p; q != corpus && q != "."; q = filepath.Dir(q) {
			if listed[q] {
				return nil
			}
		}
		t.Errorf("%s is in the corpus but not in expect.tsv", p)
		return nil
	})
	cases = append(cases, generated(t, t.TempDir())...)
	for _, c := range cases {
		t.Run(c.door+" "+filepath.Base(c.path), func(t *testing.T) {
			before := hashDB(t, db)
			var err error
			switch c.door {
			case "import":
				_, err = execute(t, append(append([]string{"--db", db, "import"}, c.flags...), c.path)...)
			case "config":
				t.Setenv("ANNOTATE_CONFIG", c.path)
				_, err = execute(t, "--db", db, "stats")
			case "taxonomy":
				_, err = execute(t, "--db", db, "--taxonomy", c.path, "stats")
			case "guidelines":
				_, err = execute(t, "--db", db, "--as", "lead", "guidelines", "import", c.path)
			case "keys":
				_, err = server.ParseAuthorizedKeys(c.path, nil)
			default:
				t.Fatalf("no door %q", c.door)
			}
			if err == nil {
				t.Fatalf("accepted")
			}
			msg := err.Error()
			i := strings.Index(msg, c.path)
			if i < 0 {
				t.Fatalf("the refusal does not name the file: %s", msg)
			}
			if !strings.Contains(msg[i+len(c.path):], c.want) {
				t.Errorf("%s\nwant after the file: %s", msg, c.want)
			}
			if !located.MatchString(msg[i+len(c.path):]) {
				t.Errorf("the refusal names no place in the file: %s", msg)
			}
			if hashDB(t, db) != before {
				t.Errorf("the database changed")
			}
		})
	}
}
