package importer

import (
	"crypto/sha256"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/annotate-dev/annotate/store"
	"github.com/annotate-dev/annotate/store/storetest"
)

func openDB(t testing.TB) *store.Store { return storetest.Open(t) }

func count(t testing.TB, s *store.Store, query string, args ...any) int {
	t.Helper()
	var n int
	if err := s.DB().QueryRow(query, args...).Scan(&n); err != nil {
		t.Fatalf("%s: %v", query, err)
	}
	return n
}

func labelsOf(t testing.TB, s *store.Store, annotator string) int {
	return count(t, s, `SELECT COUNT(*) FROM label_events e JOIN annotators a ON a.id=e.annotator_id WHERE a.name=?`, annotator)
}

func writeFile(t testing.TB, dir, name, content string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// testdata names a file of testdata/ (see testdata/LICENSE.md).
func testdata(name string) string { return filepath.Join("testdata", name) }

func fileHash(t testing.TB, p string) [32]byte {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return sha256.Sum256(b)
}

// contentOf is every row of every table of the database at p
// (store.Digest): an import that fails leaves it as it was, however many
// steps it committed and undid.
func contentOf(t testing.TB, p string) string {
	t.Helper()
	s, err := store.Open(p)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	d, err := s.Digest()
	if err != nil {
		t.Fatal(err)
	}
	return d
}

func mustImport(t testing.TB, s *store.Store, files []string, opt Options) Summary {
	t.Helper()
	sum, err := Import(s, files, opt)
	if err != nil {
		t.Fatal(err)
	}
	return sum
}

func current(t testing.TB, s *store.Store, annotator, ext string) map[string]string {
	t.Helper()
	ref, err := s.Resolve(ext)
	if err != nil {
		t.Fatal(err)
	}
	cur, err := s.CurrentLabels(annotator, ref.ItemID)
	if err != nil {
		t.Fatal(err)
	}
	return cur
}

const nativeGood = `{"id":"g1","source":"GDPR","language":"en","question":"What does Article 1 protect?","answer":"Natural persons.","category":"factual_recall","contexts":[{"id":"gdpr-p1","text":"This Regulation protects natural persons."}],"claims":[{"triplet":["Article 1","protects","natural persons"],"predictions":{"refchecker":"Entailment"}}]}
{"id":"g2","source":"GDPR","question":"What is personal data?","answer":"Information relating to an identified person.","contexts":[{"id":"gdpr-p4","text":"'personal data' means any information relating to an identified or identifiable natural person."},{"id":"gdpr-p5","text":"An identifiable natural person is one who can be identified."}]}
`

func readFile(t testing.TB, p string) []byte {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// collected is a sink that keeps every record a parser makes.
type collected struct {
	pairs  []*pairRec
	claims []*claimRec
	labels []*labelRec
	items  []*itemRec
}

func (c *collected) row(_ *fileData, r kindRow) error {
	switch r := r.(type) {
	case *pairRec:
		c.pairs = append(c.pairs, r)
	case *claimRec:
		c.claims = append(c.claims, r)
	default:
		return fmt.Errorf("collected: a record of type %T", r)
	}
	return nil
}
func (c *collected) label(_ *fileData, l *labelRec) error { c.labels = append(c.labels, l); return nil }
func (c *collected) item(_ *fileData, it *itemRec) error  { c.items = append(c.items, it); return nil }

// parseAll detects the format of data and parses it into records.
func parseAll(t testing.TB, name string, data []byte) *collected {
	t.Helper()
	in := bytesInput(name, data, nil)
	format, err := detect(in)
	if err != nil {
		t.Fatal(err)
	}
	out := &collected{}
	f := newFile(0, in, format, Options{}, out)
	r, err := in.reader()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	if err := parsers[format](f, r); err != nil {
		t.Fatal(err)
	}
	return out
}
