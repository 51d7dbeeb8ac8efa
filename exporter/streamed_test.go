package exporter

import (
	"context"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/annotate-dev/annotate/importer"
	"github.com/annotate-dev/annotate/schema"
	"github.com/annotate-dev/annotate/store"
	"github.com/annotate-dev/annotate/store/storetest"
)

// The Label Studio and Prodigy exports stream (a batch of items or labels
// at a time, each batch reading the rest by item id); the tests below hold
// them to the obvious path they replaced (labelstudio_obvious_test.go,
// prodigy_obvious_test.go), byte for byte, on the demo with every kind and
// on a generated store several batches long whose claim stream is not in
// item order (added claims sit inside their pair's).

// streamStore is a store several batches long: 420 QA pairs with zero to
// five claims and the predictions of up to three systems (RefChecker's
// words outside the classes among them), 300 queries, three annotators'
// labels on random items (now and then a value outside the field's), the
// lead's adjudications, claims added to 40 pairs after every pair was
// imported, and one added claim whose addition was undone (labelled by
// another annotator before: it is no standing claim).
func streamStore(t *testing.T) *store.Store {
	t.Helper()
	s := openStore(t)
	r := rand.New(rand.NewPCG(31, 3))
	pick := func(f schema.Field) string {
		if r.IntN(25) == 0 {
			return "Maybe"
		}
		if len(f.Values) == 0 {
			return fmt.Sprintf("free text %d", r.IntN(1000))
		}
		if f.Multi {
			return schema.EncodeMulti([]string{f.Values[r.IntN(len(f.Values))]})
		}
		return f.Values[r.IntN(len(f.Values))]
	}
	label := func(b *storetest.Builder, item string, k schema.Kind) {
		for _, who := range []string{"a1", "a2", "a3"} {
			if r.IntN(3) == 0 {
				continue
			}
			for _, f := range schema.KindFields(k) {
				if r.IntN(4) > 0 {
					b.Label(who, item, f.Name, pick(f))
				}
			}
		}
		if r.IntN(6) == 0 {
			f := schema.KindFields(k)[0]
			b.Adjudicate("lead", item, f.Name, pick(f))
		}
	}
	verdicts := []string{"entailment", "neutral", "contradiction", "Abstain"}
	var pairs []string
	storetest.Seed(t, s, func(b *storetest.Builder) {
		for q := range 420 {
			id := fmt.Sprintf("p%03d", q)
			pairs = append(pairs, id)
			b.QA(id, []string{"GDPR", "CIVIL"}[q%2], "en", "factual_recall")
			label(b, id, schema.KindQA)
			for c := range r.IntN(6) {
				preds := map[string]string{}
				for _, sys := range []string{"refchecker", "judge", "rc2"} {
					if r.IntN(2) == 0 {
						preds[sys] = verdicts[r.IntN(len(verdicts))]
					}
				}
				cid := fmt.Sprintf("%s-c%d", id, c+1)
				b.Claim(id, cid, preds)
				label(b, cid, schema.KindClaim)
			}
		}
		for q := range 300 {
			id := fmt.Sprintf("q%03d", q)
			b.Query(store.Query{ID: id, Text: "query " + id, Jurisdiction: "ON"})
			label(b, id, schema.KindQuery)
		}
		for i := range 40 {
			cid := fmt.Sprintf("added-%02d", i)
			b.Added(pairs[r.IntN(len(pairs))], cid, "a2")
			label(b, cid, schema.KindClaim)
		}
	})
	l := &labeler{t: t, s: s, session: map[string]int64{}}
	c, err := s.AddMissedClaim("a1", l.id("p007"), [3]string{"an addition", "taken", "back"}, l.sess("a1"))
	if err != nil {
		t.Fatal(err)
	}
	l.set("a3", c.ID, schema.ClaimValidity, "correct", schema.Entailment, "neutral")
	if _, _, err := s.Undo("a1"); err != nil {
		t.Fatal(err)
	}
	return s
}

// sameExports exports o twice, through the format's writer and through
// obvious, and fails unless both write the same files, byte for byte, and
// report the same.
func sameExports(t *testing.T, s *store.Store, o Options, obvious func(*exporter, string) error) {
	t.Helper()
	dir := t.TempDir()
	o.Out = filepath.Join(dir, "streamed")
	got := export(t, s, o)
	o.Out = filepath.Join(dir, "obvious")
	want, err := exportBy(context.Background(), s, o, obvious)
	if err != nil {
		t.Fatal(err)
	}
	got.Dir, want.Dir = "", ""
	if !reflect.DeepEqual(got, want) {
		t.Errorf("%s %s: streamed export reports\n%+v\nthe obvious one\n%+v", o.Format, o.Field, got, want)
	}
	files := func(root string) map[string]string {
		out := map[string]string{}
		err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return err
			}
			b, err := os.ReadFile(p)
			rel, _ := filepath.Rel(root, p)
			out[rel] = string(b)
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
		return out
	}
	a, b := files(filepath.Join(dir, "streamed")), files(filepath.Join(dir, "obvious"))
	if len(a) == 0 || !reflect.DeepEqual(a, b) {
		for name := range b {
			if a[name] != b[name] {
				t.Errorf("%s %s: %s differs from the obvious export's (%d bytes against %d)", o.Format, o.Field, name, len(a[name]), len(b[name]))
			}
		}
		t.Errorf("%s %s: %d files, the obvious export %d", o.Format, o.Field, len(a), len(b))
	}
}

func TestLabelStudioStreamed(t *testing.T) {
	emails := filepath.Join(t.TempDir(), "emails.txt")
	os.WriteFile(emails, []byte("jo jo@firm.example\na2 a2@firm.example\n"), 0o644)
	for name, s := range map[string]*store.Store{"every kind": everyKindStore(t), "generated": streamStore(t)} {
		t.Run(name, func(t *testing.T) {
			sameExports(t, s, Options{Format: "label-studio"}, (*exporter).labelStudioObvious)
			sameExports(t, s, Options{Format: "label-studio", EmailMap: emails}, (*exporter).labelStudioObvious)
		})
	}
}

func TestProdigyStreamed(t *testing.T) {
	for name, s := range map[string]*store.Store{"every kind": everyKindStore(t), "generated": streamStore(t)} {
		t.Run(name, func(t *testing.T) {
			for _, f := range ProdigyFields() {
				sameExports(t, s, Options{Format: "prodigy", Field: f}, (*exporter).prodigyObvious)
			}
		})
	}
}

// retrievalStore is relevanceFixture's queries and documents with runs and
// qrels of many lines: three runs ranking up to 30 of the documents for
// each query, the gold qrels (grades 0 to 2) and jo's judgments of random
// pairs, so that every case of the merge occurs (a relevant document the
// gold set lacks or holds not relevant, a gold document jo judged not
// relevant, pairs only one side judged).
func retrievalStore(t *testing.T) *store.Store {
	t.Helper()
	s := openStore(t)
	r := rand.New(rand.NewPCG(31, 4))
	var items, runs, gold, jo strings.Builder
	for q := range 40 {
		fmt.Fprintf(&items, `{"kind":"query","id":"q%02d","text":"query %d","jurisdiction":"ON"}`+"\n", q, q)
	}
	for d := range 120 {
		fmt.Fprintf(&items, `{"kind":"document","id":"d%03d","title":"case %d","text":"text of %d"}`+"\n", d, d, d)
	}
	for _, run := range []string{"gamma", "alpha", "beta"} {
		for q := range 40 {
			start := r.IntN(120)
			for k := range r.IntN(31) {
				fmt.Fprintf(&runs, "q%02d Q0 d%03d %d %d %s\n", q, (start+7*k)%120, k+1, 40-k, run)
			}
		}
	}
	for q := range 40 {
		for d := range 120 {
			if r.IntN(12) == 0 {
				fmt.Fprintf(&gold, "q%02d 0 d%03d %d\n", q, d, r.IntN(3))
			}
			if r.IntN(10) == 0 {
				fmt.Fprintf(&jo, "q%02d 0 d%03d %d\n", q, d, r.IntN(3))
			}
		}
	}
	for _, f := range []struct {
		name, data string
		o          importer.Options
	}{
		{"items.jsonl", items.String(), importer.Options{}},
		{"runs.trec", runs.String(), importer.Options{Format: importer.FormatTRECRun}},
		{"gold.qrels", gold.String(), importer.Options{Format: importer.FormatQrels}},
		{"jo.qrels", jo.String(), importer.Options{Format: importer.FormatQrels, Annotator: "jo"}},
	} {
		if _, err := importer.ImportReader(s, f.name, []byte(f.data), f.o); err != nil {
			t.Fatal(err)
		}
	}
	return s
}

func TestTRECStreamed(t *testing.T) {
	for name, s := range map[string]*store.Store{"relevance": relevanceFixture(t), "every kind": everyKindStore(t), "generated": retrievalStore(t)} {
		t.Run(name, func(t *testing.T) {
			sameExports(t, s, Options{Format: "trec", Annotator: "jo"}, (*exporter).trecObvious)
			sameExports(t, s, Options{Format: "trec"}, (*exporter).trecObvious)
			// The qrels configs of the hf folder read the same stream.
			snap, err := s.Snapshot()
			if err != nil {
				t.Fatal(err)
			}
			defer snap.Close()
			e := &exporter{snap: snap, labels: store.LabelSet{Annotator: "jo"}}
			for _, after := range []bool{false, true} {
				want, err := e.qrelsObvious(after)
				if err != nil {
					t.Fatal(err)
				}
				var got []qrel
				if err := e.eachQrel(after, func(q qrel) error {
					got = append(got, q)
					return nil
				}); err != nil {
					t.Fatal(err)
				}
				if !reflect.DeepEqual(got, want) {
					t.Errorf("qrels (after %v): the stream has %d, the obvious read %d:\n%v\n%v", after, len(got), len(want), got, want)
				}
			}
		})
	}
}
