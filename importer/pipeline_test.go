package importer

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/annotate-dev/annotate/store"
)

// TestFirstErrorInFileOrderWins: the parser runs ahead of the writer
// (pipeline.go), yet the error an import reports is the first one in the
// file's order, whether the parser or the writer finds it, thousands of
// records apart, and the database file is unchanged.
func TestFirstErrorInFileOrderWins(t *testing.T) {
	pair := func(n int, question string) string {
		return fmt.Sprintf(`{"id":"n%d","source":"GDPR","question":%q,"answer":"A.","contexts":[{"id":"p%d","text":"T."}],"claims":[{"triplet":["s","p","o"],"labels":{"jo":{"claim_validity":"correct"}}}]}`+"\n", n, question, n)
	}
	lines := func(n int, at map[int]string) string {
		var b strings.Builder
		for i := 1; i <= n; i++ {
			if l, ok := at[i]; ok {
				b.WriteString(l + "\n")
				continue
			}
			b.WriteString(pair(i, "Q?"))
		}
		return b.String()
	}
	dupOf := func(n int) string { return strings.TrimSuffix(pair(n, "Other?"), "\n") }
	cases := []struct {
		name, content, want string
	}{
		{"the writer's error first", lines(5000, map[int]string{10: dupOf(3), 4000: `{"id":`}),
			`FILE:10: field "id": duplicate id "n3" (first at line 3)`},
		{"the parser's error first", lines(5000, map[int]string{10: `{"id":"x","source":"GDPR"}`, 4000: dupOf(3)}),
			`FILE:10: field "question": missing (required)`},
		{"the parser's error past many records", lines(5000, map[int]string{4999: `{"id":`}),
			`FILE:4999: bad JSON`},
		{"the writer's error past many records", lines(5000, map[int]string{4999: dupOf(4998)}),
			`FILE:4999: field "id": duplicate id "n4998" (first at line 4998)`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			db := filepath.Join(dir, "t.db")
			s, err := store.Open(db)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := Import(s, []string{writeFile(t, dir, "seed.jsonl", seedPairs)}, Options{}); err != nil {
				t.Fatal(err)
			}
			s.Close()
			before := contentOf(t, db)
			p := writeFile(t, dir, "in.jsonl", c.content)
			s, err = store.Open(db)
			if err != nil {
				t.Fatal(err)
			}
			_, err = Import(s, []string{p}, Options{})
			s.Close()
			if want := strings.ReplaceAll(c.want, "FILE", p); err == nil || !strings.Contains(err.Error(), want) {
				t.Fatalf("error\n  %v\nwant it to contain\n  %s", err, want)
			}
			if contentOf(t, db) != before {
				t.Error("the database changed")
			}
		})
	}
}
