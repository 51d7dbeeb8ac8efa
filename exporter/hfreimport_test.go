package exporter

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/annotate-dev/annotate/demo"
	"github.com/annotate-dev/annotate/importer"
	"github.com/annotate-dev/annotate/report"
	"github.com/annotate-dev/annotate/schema"
	"github.com/annotate-dev/annotate/store"
)

// fullDemo is the demo (GDPR/civil QA pairs with jo's and sam's labels and
// two adjudications) plus the CanLegalRAGBench demo set (queries,
// documents with chunks, runs, graded gold qrels, answer tasks, generated
// answers and claims with judge verdicts) with relevance and generated
// claim judgments by jo and sam, and gold answers the lead reviewed.
func fullDemo(t *testing.T) *store.Store {
	t.Helper()
	s := demoStore(t)
	for _, f := range demo.Files()[1:] {
		if _, err := importer.ImportReader(s, f.Name, f.Data, importer.Options{Format: f.Format}); err != nil {
			t.Fatalf("%s: %v", f.Name, err)
		}
	}
	if err := demo.Setup(s); err != nil {
		t.Fatal(err)
	}
	l := &labeler{t: t, s: s, session: map[string]int64{}}
	l.set("jo", "ca-q01/ca-d01", schema.Relevance, schema.Relevant)
	l.set("jo", "ca-q02/ca-d02", schema.Relevance, schema.NotRelevant, schema.IrrelevanceReason, "different_issue")
	l.set("sam", "ca-q01/ca-d01", schema.Relevance, schema.NotRelevant, schema.IrrelevanceReason, "reversed_roles")
	l.set("jo", "gen-a-1-c1", schema.AccuracySupport, "supported", schema.Grounded, "grounded")
	l.set("sam", "gen-a-1-c1", schema.AccuracySupport, "not_supported", schema.Grounded, "grounded")
	// Gold answers: jo and sam answer, the lead accepts four (the queries
	// ir --definitions canlegalragbench then scores) and rejects one.
	var tasks []byte
	for _, q := range []string{"ca-q01", "ca-q02", "ca-q03", "ca-q05"} {
		tasks = fmt.Appendf(tasks, `{"kind":"answer_task","id":"%s/answer","query":"%s"}`+"\n", q, q)
	}
	if _, err := importer.ImportReader(s, "tasks.jsonl", tasks, importer.Options{}); err != nil {
		t.Fatal(err)
	}
	for _, a := range []struct {
		task, who, answer string
		cites             []string
		accept            bool
		reason            string
	}{
		{"ca-q01/answer", "jo", "The landlord must give 24 hours' written notice.", []string{"ca-d01"}, true, ""},
		{"ca-q02/answer", "sam", "Yes, the deposit is returned with interest.", []string{"ca-d02", "RTA s 106"}, true, ""},
		{"ca-q03/answer", "jo", "It depends.", nil, false, "incomplete"},
		{"ca-q05/answer", "jo", "Reasonable notice at common law.", []string{"ca-d05"}, true, ""},
		{"gen-q-1/answer", "sam", "Notice is required.", []string{"ca-d01"}, true, ""},
	} {
		id := l.id(a.task)
		if err := s.SubmitAnswer(a.who, id, a.answer, a.cites, 3000, l.sess(a.who)); err != nil {
			t.Fatal(err)
		}
		if err := s.ReviewAnswer("lead", id, a.who, a.accept, a.reason, store.AnswerReviewOptions{ActiveMs: 1000}); err != nil {
			t.Fatal(err)
		}
	}
	return s
}

// reports is what the reports say of a database, as their JSON: stats and
// gen for jo and sam, ir for jo (trec_eval's and CanLegalRAGBench's
// definitions), agreement.
func reports(t *testing.T, s *store.Store) map[string]string {
	t.Helper()
	out := map[string]string{}
	put := func(name string, v any, err error) {
		if err != nil {
			out[name] = "error: " + err.Error()
			return
		}
		b, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		// The hf folder publishes the labels that count: a label no longer
		// asked (the persona of a question judged invalid later) is not in
		// it, so the reports' not_asked tallies are left out of the
		// comparison (the native jsonl backup keeps them).
		var m any
		json.Unmarshal(b, &m)
		b, _ = json.Marshal(dropKey(m, "not_asked"))
		out[name] = string(b)
	}
	for _, who := range []string{"jo", "sam"} {
		sel := report.Selection{Annotator: who}
		st, err := report.Stats(s, sel)
		put("stats "+who, st, err)
		g, err := report.Gen(s, report.GenOptions{Selection: sel})
		put("gen "+who, g, err)
	}
	o := report.IROptions{K: 10, Selection: report.Selection{Annotator: "jo"}}
	ir, err := report.IR(s, o)
	put("ir jo trec_eval", ir, err)
	clrb, err := report.IRCLRB(s, o)
	put("ir jo canlegalragbench", clrb, err)
	ag, err := report.Agreement(s, report.AgreementOptions{})
	put("agreement", ag, err)
	// The run storage itself: each (run, query)'s ranking with its best
	// scores, and the chunk-level list with its chunk ids (the relevance
	// screen jumps to those; no report reads them).
	var lists []store.RunExport
	err = s.Read(func(rx *store.ReadTx) error {
		return rx.EachRunExport(func(l store.RunExport) error { lists = append(lists, l); return nil })
	})
	put("run lists", lists, err)
	return out
}

// Re-importing the hf folders of jo and sam (Parquet, then JSON Lines)
// into an empty database gives back every config: the reports' JSON is the
// same before and after.
func TestHFReimportRestoresEveryConfig(t *testing.T) {
	s := fullDemo(t)
	want := reports(t, s)
	for _, format := range []string{DataParquet, DataJSONL} {
		t.Run(format, func(t *testing.T) {
			var dirs []string
			for _, who := range []string{"jo", "sam"} {
				dir := filepath.Join(t.TempDir(), who)
				export(t, s, Options{Out: dir, Annotator: who, DataFormat: format})
				dirs = append(dirs, dir)
			}
			back := openStore(t)
			if _, err := importer.Import(back, dirs, importer.Options{}); err != nil {
				t.Fatal(err)
			}
			// The runs come back from the runs config, their chunk-level
			// lists with them (ir --definitions canlegalragbench reads
			// those): no run file is imported again. ir does not read the
			// relevance pool, so it is compared before the pool is cut;
			// stats counts the pool's items, so the rest is compared
			// after demo.Setup cuts it again (a lead's batch, not data).
			irs := reports(t, back)
			if err := demo.Setup(back); err != nil {
				t.Fatal(err)
			}
			got := reports(t, back)
			for name := range got {
				if strings.HasPrefix(name, "ir ") {
					got[name] = irs[name]
				}
			}
			for name, w := range want {
				if g := got[name]; g != w {
					i := 0
					for i < len(g) && i < len(w) && g[i] == w[i] {
						i++
					}
					from := max(0, i-300)
					t.Errorf("%s after re-import, from byte %d:\n got …%s\nwant …%s", name, from, g[from:min(len(g), i+200)], w[from:min(len(w), i+200)])
				}
			}
		})
	}
}

func dropKey(v any, key string) any {
	switch x := v.(type) {
	case map[string]any:
		delete(x, key)
		for k, e := range x {
			x[k] = dropKey(e, key)
		}
	case []any:
		for i, e := range x {
			x[i] = dropKey(e, key)
		}
	}
	return v
}

// A bad row of a config beyond qa and claims is refused with its file,
// line and field, and an unknown config folder is refused, not skipped;
// neither changes the database.
func TestHFReimportRefusesBadRows(t *testing.T) {
	s := fullDemo(t)
	dir := filepath.Join(t.TempDir(), "jo")
	export(t, s, Options{Out: dir, Annotator: "jo", DataFormat: DataJSONL})
	docs := filepath.Join(dir, "data", "documents", "test.jsonl")
	b, err := os.ReadFile(docs)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfter(string(b), "\n")
	span := regexp.MustCompile(`"chunk_spans":\["[0-9]+-[0-9]+"`)
	bad := 0
	for bad < len(lines) && !span.MatchString(lines[bad]) {
		bad++
	}
	if bad == len(lines) {
		t.Fatal("no document with chunks")
	}
	lines[bad] = span.ReplaceAllString(lines[bad], `"chunk_spans":["ten-20"`)
	os.WriteFile(docs, []byte(strings.Join(lines, "")), 0o644)
	back := openStore(t)
	_, err = importer.Import(back, []string{dir}, importer.Options{})
	if err == nil || !strings.Contains(err.Error(), fmt.Sprintf(`%s:%d: field "chunk_spans[0]": want start-end byte offsets, got "ten-20"`, docs, bad+1)) {
		t.Errorf("bad span: %v", err)
	}
	if ref, err := back.Resolve("ca-q01"); err == nil {
		t.Errorf("a refused import wrote query ca-q01 (%v)", ref)
	}
	os.WriteFile(docs, b, 0o644)

	// The runs config: a bad row is refused with its file, row and field
	// (WriteRuns' errors too: a chunk no document has), and the database
	// keeps no run, no query.
	runs := filepath.Join(dir, "data", "runs", "test.jsonl")
	rb, err := os.ReadFile(runs)
	if err != nil {
		t.Fatal(err)
	}
	rl := strings.SplitAfter(string(rb), "\n")
	const row = 5 // {"run":"bm25l","query_id":"ca-q01","rank":5,"document_id":"ca-d09","chunk_id":"ca-d09#held","score":23.2}
	if !strings.Contains(rl[row-1], `"rank":5,"document_id":"ca-d09","chunk_id":"ca-d09#held","score":23.2}`) {
		t.Fatalf("row %d of the runs config: %s", row, rl[row-1])
	}
	for _, c := range []struct{ from, to, want string }{
		{`"score":23.2`, `"score":"high"`, `field "score": want a finite number or null, got "high"`},
		{`"rank":5`, `"rank":-1`, `field "rank": want an integer from 0, got -1`},
		{`"rank":5`, `"rank":0`, `field "rank": 0 is a query the run retrieved nothing for: document_id, chunk_id and score must be null`},
		{`"document_id":"ca-d09",`, `"document_id":null,`, `field "document_id": missing (required from rank 1)`},
		{`"run":"bm25l",`, ``, `field "run": missing (required)`},
		{`"ca-d09#held"`, `"ca-d09#nowhere"`, `field "chunk_id": unknown document or chunk "ca-d09#nowhere"`},
		{`"query_id":"ca-q01"`, `"query_id":"ca-q99"`, `field "query_id": unknown query "ca-q99"`},
	} {
		lines := slices.Clone(rl)
		lines[row-1] = strings.Replace(lines[row-1], c.from, c.to, 1)
		os.WriteFile(runs, []byte(strings.Join(lines, "")), 0o644)
		_, err := importer.Import(back, []string{dir}, importer.Options{})
		if want := fmt.Sprintf("%s:%d: %s", runs, row, c.want); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v\nwant %s", c.to, err, want)
		}
		if ref, err := back.Resolve("ca-q01"); err == nil {
			t.Errorf("%s: a refused import wrote query ca-q01 (%v)", c.to, ref)
		}
		var n int
		back.Read(func(rx *store.ReadTx) error { ri, err := rx.Runs(); n = len(ri); return err })
		if n != 0 {
			t.Errorf("%s: a refused import wrote %d runs", c.to, n)
		}
	}
	os.WriteFile(runs, rb, 0o644)
	// Two folders with the same run, differing: refused, naming both.
	other := filepath.Join(t.TempDir(), "sam")
	export(t, s, Options{Out: other, Annotator: "sam", DataFormat: DataJSONL})
	otherRuns := filepath.Join(other, "data", "runs", "test.jsonl")
	ob, _ := os.ReadFile(otherRuns)
	os.WriteFile(otherRuns, []byte(strings.Replace(string(ob), `"score":23.2}`, `"score":23.3}`, 1)), 0o644)
	_, err = importer.Import(back, []string{dir, other}, importer.Options{})
	if want := fmt.Sprintf(`%s:1: field "run": run "bm25l" differs from the one in %s:1`, otherRuns, runs); err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("runs that differ: %v\nwant %s", err, want)
	}
	os.WriteFile(otherRuns, ob, 0o644)

	// The lead's review of an answer task: what it restores must be whole.
	answers := filepath.Join(dir, "data", "answers", "test.jsonl")
	ab, err := os.ReadFile(answers)
	if err != nil {
		t.Fatal(err)
	}
	al := strings.SplitAfter(string(ab), "\n")
	arow := slices.IndexFunc(al, func(l string) bool { return strings.Contains(l, `"id":"ca-q01/answer"`) }) + 1
	accepted := `"review":"accept","review_reason":null,"reviewed_by":"lead","gold_answer_accepted":"The landlord must give 24 hours' written notice."`
	if arow == 0 || !strings.Contains(al[arow-1], accepted) {
		t.Fatalf("no accepted review of ca-q01 in %s", answers)
	}
	for _, c := range []struct{ to, want string }{
		{`"review":"accept","review_reason":null,"reviewed_by":"lead","gold_answer_accepted":null`,
			`field "gold_answer_accepted": missing: an accepted answer is the gold answer`},
		{`"review":"reject","review_reason":null,"reviewed_by":"lead","gold_answer_accepted":null`,
			`field "review_reason": missing: a rejection gives its reason`},
		{`"review":null,"review_reason":null,"reviewed_by":"lead","gold_answer_accepted":null`,
			`field "reviewed_by": "lead" reviewed nothing: review is null`},
		{`"review":"maybe","review_reason":null,"reviewed_by":"lead","gold_answer_accepted":"x"`,
			`field "review": want accept or reject, got "maybe"`},
	} {
		lines := slices.Clone(al)
		lines[arow-1] = strings.Replace(lines[arow-1], accepted, c.to, 1)
		os.WriteFile(answers, []byte(strings.Join(lines, "")), 0o644)
		_, err := importer.Import(back, []string{dir}, importer.Options{})
		if want := fmt.Sprintf("%s:%d: %s", answers, arow, c.want); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v\nwant %s", c.to, err, want)
		}
		if ref, err := back.Resolve("ca-q01"); err == nil {
			t.Errorf("%s: a refused import wrote query ca-q01 (%v)", c.to, ref)
		}
	}
	os.WriteFile(answers, ab, 0o644)
	os.MkdirAll(filepath.Join(dir, "data", "extras"), 0o755)
	if _, err := importer.Import(back, []string{dir}, importer.Options{}); err == nil || !strings.Contains(err.Error(), `unknown config "extras"`) {
		t.Errorf("unknown config: %v", err)
	}
}
