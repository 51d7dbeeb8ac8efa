package importer

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/annotate-dev/annotate/store"
)

func TestRefCheckerHumanAnnotations(t *testing.T) {
	files := []string{shared(t, "dolly_gpt4_answers.json"), shared(t, "msmarco_gpt4_answers.json"), shared(t, "nq_gpt4_answers.json")}
	s := openDB(t)
	sum := mustImport(t, s, files, Options{})
	if n := count(t, s, "SELECT COUNT(*) FROM items WHERE kind='qa'"); n != 300 {
		t.Fatalf("QA pairs: %d, want 300", n)
	}
	if n := count(t, s, "SELECT COUNT(*) FROM items WHERE kind='claim'"); n != 1082 {
		t.Fatalf("claims: %d, want 1082 (432+350+300)", n)
	}
	if n := labelsOf(t, s, HumanAnnotator); n != 1082 {
		t.Fatalf("labels of %s: %d, want 1082", HumanAnnotator, n)
	}
	if n := count(t, s, "SELECT COUNT(*) FROM label_events WHERE field<>'entailment'"); n != 0 {
		t.Fatalf("%d labels of other fields, want only entailment", n)
	}
	if tot := sum.Total(); tot.QA.Added != 300 || tot.Claims.Added != 1082 || tot.LabelsAdded != 1082 || sum.NoOp() {
		t.Fatalf("summary %+v", tot)
	}
	if !strings.Contains(sum.String(), "dolly_gpt4_answers.json (refchecker-human): 100 QA pairs added; 432 claims added; 432 labels added") {
		t.Fatalf("summary text:\n%s", sum)
	}
	// Ids carry the file's base name; the first triplet of 12646 is entailed.
	if got := current(t, s, HumanAnnotator, "dolly_gpt4_answers/12646-c1"); got["entailment"] != "entailment" {
		t.Fatalf("labels of dolly_gpt4_answers/12646-c1: %v", got)
	}
	if n := count(t, s, "SELECT COUNT(*) FROM sources WHERE name IN ('dolly_gpt4_answers','msmarco_gpt4_answers','nq_gpt4_answers')"); n != 3 {
		t.Fatalf("sources: %d", n)
	}

	events := count(t, s, "SELECT COUNT(*) FROM label_events")
	again := mustImport(t, s, files, Options{})
	t.Log("\n" + sum.String() + "\n" + again.String())
	if !again.NoOp() {
		t.Fatalf("re-import changed something: %+v", again.Total())
	}
	want := "nothing changed: all 300 QA pairs, 1082 claims and 1082 labels are already in the database"
	if !strings.HasPrefix(again.String(), want) {
		t.Fatalf("re-import summary:\n%s\nwant %q", again, want)
	}
	if n := count(t, s, "SELECT COUNT(*) FROM label_events"); n != events {
		t.Fatalf("label events %d -> %d on re-import", events, n)
	}
}

func TestRefCheckerIDsDoNotCollide(t *testing.T) {
	src, err := os.ReadFile(shared(t, "refchecker_example_in.json"))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	a := writeFile(t, dir, "run_a.json", string(src))
	b := writeFile(t, filepath.Join(dir, "other"), "run_b.json", string(src))
	s := openDB(t)
	mustImport(t, s, []string{a, b}, Options{})
	if n := count(t, s, "SELECT COUNT(*) FROM items WHERE kind='qa'"); n != 6 {
		t.Fatalf("QA pairs %d, want 6: same record numbers in two files must not collide", n)
	}
	for _, id := range []string{"run_a/0", "run_b/0", "run_b/2"} {
		if _, err := s.Resolve(id); err != nil {
			t.Errorf("%s: %v", id, err)
		}
	}
}

func TestRefCheckerChecker(t *testing.T) {
	s := openDB(t)
	sum := mustImport(t, s, []string{shared(t, "refchecker_example_in.json")}, Options{})
	if f := sum.Files[0]; f.Format != FormatChecker || f.QA.Added != 3 || f.Claims.Added != 0 {
		t.Fatalf("summary %+v", f)
	}
	ref, _ := s.Resolve("refchecker_example_in/1")
	q, err := s.QA(ref.ItemID)
	if err != nil || q.Question != "who sang i ran all the way home" || len(q.Contexts) != 1 || !strings.HasPrefix(q.Contexts[0].Text, "The Impalas") {
		t.Fatalf("QA %+v %v", q, err)
	}

	// Checker output with claims and verdicts (a verdict may be a list).
	p := writeFile(t, t.TempDir(), "checked.json", `[
 {"question":"Who wrote it?","response":"Paul Stookey wrote it in 1967.","reference":["It is a 1967 song.","Written by Paul Stookey."],
  "claims":[["song","written by","Paul Stookey"],["song","released in","1967"],"It is a folk song."],
  "ys":[["Entailment","Neutral"],"contradiction","Unsure"]}]`)
	sum = mustImport(t, s, []string{p}, Options{})
	if f := sum.Files[0]; f.QA.Added != 1 || f.Claims.Added != 3 {
		t.Fatalf("summary %+v", f)
	}
	rows := map[string]string{}
	r, err := s.DB().Query(`SELECT i.ext_id, p.value FROM predictions p JOIN items i ON i.id=p.item_id WHERE p.system='refchecker'`)
	if err != nil {
		t.Fatal(err)
	}
	for r.Next() {
		var id, v string
		r.Scan(&id, &v)
		rows[id] = v
	}
	r.Close()
	if rows["checked/0-c1"] != "entailment" || rows["checked/0-c2"] != "contradiction" || rows["checked/0-c3"] != "Unsure" {
		t.Fatalf("predictions %v", rows)
	}
	if !strings.Contains(sum.String(), `1 prediction of refchecker has unknown value "Unsure"`) {
		t.Fatalf("want a warning about Unsure:\n%s", sum)
	}
	ref, _ = s.Resolve("checked/0")
	if q, _ := s.QA(ref.ItemID); len(q.Contexts) != 2 || q.Hop != "multi" {
		t.Fatalf("two references are two context units: %+v", q)
	}
	c, _ := s.Resolve("checked/0-c3")
	if cl, _ := s.Claim(c.ItemID); cl.Text != "It is a folk song." {
		t.Fatalf("text claim %+v", cl)
	}
}

func TestRAGChecker(t *testing.T) {
	s := openDB(t)
	sum := mustImport(t, s, []string{shared(t, "ragchecker_checking_outputs.json")}, Options{})
	f := sum.Files[0]
	if f.Format != FormatRAGChecker || f.QA.Added != 2 || f.Claims.Added != 16 || len(f.UnknownKeys) != 0 {
		t.Fatalf("summary %+v", f)
	}
	if n := count(t, s, "SELECT COUNT(*) FROM context_units"); n != 7 {
		t.Fatalf("context units %d, want 7", n)
	}
	if n := count(t, s, "SELECT COUNT(*) FROM predictions"); n != 0 {
		t.Fatalf("predictions %d, want none", n)
	}
	ref, _ := s.Resolve("ragchecker_checking_outputs/0")
	q, _ := s.QA(ref.ItemID)
	if q.Question != "What's the longest river in the world?" || !strings.HasPrefix(q.Answer, "The longest river") || !strings.Contains(q.Extra, "gt_answer") {
		t.Fatalf("QA %+v", q)
	}
}

func TestClaimRAGLaw(t *testing.T) {
	s := openDB(t)
	// The claims file first: the QA file is still the master of the pairs.
	files := []string{filepath.Join("testdata", "GDPR-CLAIM-LAW.json"), filepath.Join("testdata", "GDPR-RAG-LAW.json")}
	sum := mustImport(t, s, files, Options{})
	if n := count(t, s, "SELECT COUNT(*) FROM items WHERE kind='qa'"); n != 3 {
		t.Fatalf("QA pairs %d, want 3", n)
	}
	if n := count(t, s, "SELECT COUNT(*) FROM items WHERE kind='claim'"); n != 5 {
		t.Fatalf("claims %d, want 5", n)
	}
	var lang, jur string
	s.DB().QueryRow("SELECT language, jurisdiction FROM sources WHERE name='GDPR'").Scan(&lang, &jur)
	if lang != "en" || jur != "EU" {
		t.Fatalf("source GDPR: %q %q", lang, jur)
	}
	ref, _ := s.Resolve("GDPR/1")
	q, _ := s.QA(ref.ItemID)
	if !strings.Contains(q.Extra, "generation_model") || q.Category != "factual_recall" || q.Language != "en" {
		t.Fatalf("the master copy (with its extra keys) must win: %+v", q)
	}
	if got := current(t, s, DefaultClaimRAGAnnotator, "GDPR/2"); got["answer_correctness"] != "partially_correct" ||
		got["persona"] != "legal_expert" || got["question_validity"] != "valid" || got["category"] != "jurisdiction_time_specific" {
		t.Fatalf("labels of GDPR/2: %v", got)
	}
	if got := current(t, s, DefaultClaimRAGAnnotator, "GDPR/3"); len(got) != 0 {
		t.Fatalf("GDPR/3 has no expert judgment, got %v", got)
	}
	if got := current(t, s, DefaultClaimRAGAnnotator, "GDPR/1-c2"); got["claim_validity"] != "correct" || got["entailment"] != "neutral" {
		t.Fatalf("labels of GDPR/1-c2: %v", got)
	}
	if got := current(t, s, DefaultClaimRAGAnnotator, "GDPR/1-c3"); got["claim_validity"] != "incorrect" || got["entailment"] != "" {
		t.Fatalf("labels of GDPR/1-c3: %v", got)
	}
	// An entailment without correctness means the claim was judged correct.
	if got := current(t, s, DefaultClaimRAGAnnotator, "GDPR/3-c1"); got["claim_validity"] != "correct" || got["entailment"] != "entailment" {
		t.Fatalf("labels of GDPR/3-c1: %v", got)
	}
	text := sum.String()
	t.Log("\n" + text)
	for _, want := range []string{
		`warning: testdata/GDPR-CLAIM-LAW.json: 1 label of entailment has unknown value "maybe" (kept, left out of metrics)`,
		`warning: testdata/GDPR-RAG-LAW.json: unknown keys, not interpreted (a QA pair's are kept with it as extra data): generation_model (2)`,
		`claims.checker (1)`,
	} {
		if !strings.Contains(text, want) {
			t.Errorf("summary lacks %q:\n%s", want, text)
		}
	}
	if again := mustImport(t, s, files, Options{}); !again.NoOp() {
		t.Fatalf("re-import: %s", again)
	}
	// --annotator names the expert.
	s2 := openDB(t)
	mustImport(t, s2, files, Options{Annotator: "jo"})
	if labelsOf(t, s2, "jo") == 0 || labelsOf(t, s2, DefaultClaimRAGAnnotator) != 0 {
		t.Fatal("labels must belong to --annotator")
	}
}

func TestLabelNormalisation(t *testing.T) {
	dir := t.TempDir()
	items := writeFile(t, dir, "items.jsonl", `{"id":"q1","source":"GDPR","question":"Q?","answer":"A.","contexts":[{"id":"c1","text":"T."}],"labels":{"jo":{"question_validity":"Valid","answer_correctness":"Partially Correct"}},"claims":[{"triplet":["a","b","c"],"labels":{"jo":{"claim_validity":"correct","entailment":"ENTAILMENT"}}},{"text":"a claim","labels":{"jo":{"entailment":"maybe"}}}]}`+"\n")
	labels := writeFile(t, dir, "labels.jsonl", `{"item":"q1-c2","field":"claim_validity","value":"Correct"}
{"annotator":"sam","item":"q1-c1","field":"entailment","value":"maybe"}
{"annotator":"sam","item":"q1-c2","field":"entailment","value":" Contradiction "}
`)
	s := openDB(t)
	sum := mustImport(t, s, []string{labels, items}, Options{Annotator: "jo", GuidelinesVersion: "v2"})
	if got := current(t, s, "jo", "q1"); got["answer_correctness"] != "partially_correct" || got["question_validity"] != "valid" {
		t.Fatalf("q1: %v", got)
	}
	if got := current(t, s, "jo", "q1-c1"); got["entailment"] != "entailment" {
		t.Fatalf("q1-c1: %v", got)
	}
	if got := current(t, s, "jo", "q1-c2"); got["entailment"] != "maybe" || got["claim_validity"] != "correct" {
		t.Fatalf("unknown value kept verbatim: %v", got)
	}
	if got := current(t, s, "sam", "q1-c2"); got["entailment"] != "contradiction" {
		t.Fatalf("sam: %v", got)
	}
	if n := count(t, s, "SELECT COUNT(*) FROM label_events WHERE guidelines_version='v2'"); n != 8 {
		t.Fatalf("labels with guidelines v2: %d", n)
	}
	text := sum.String()
	for _, want := range []string{
		`warning: ` + labels + `: 1 label of entailment has unknown value "maybe" (kept, left out of metrics)`,
		`warning: ` + items + `: 1 label of entailment has unknown value "maybe"`,
	} {
		if !strings.Contains(text, want) {
			t.Errorf("summary lacks %q:\n%s", want, text)
		}
	}
}

func TestBOMAndCRLF(t *testing.T) {
	content := "\xef\xbb\xbf" + strings.ReplaceAll(nativeGood, "\n", "\r\n")
	s := openDB(t)
	p := writeFile(t, t.TempDir(), "windows.jsonl", content)
	sum := mustImport(t, s, []string{p}, Options{})
	if f := sum.Files[0]; f.Format != FormatNative || f.QA.Added != 2 || f.Claims.Added != 1 {
		t.Fatalf("summary %+v", f)
	}
	ref, _ := s.Resolve("g2")
	q, _ := s.QA(ref.ItemID)
	if strings.ContainsRune(q.Answer, '\r') || q.Hop != "multi" || q.Language != "en" {
		t.Fatalf("QA %+v", q)
	}
	// The same content without BOM and CRLF is the same item.
	p2 := writeFile(t, t.TempDir(), "unix.jsonl", nativeGood)
	if again := mustImport(t, s, []string{p2}, Options{}); !again.NoOp() {
		t.Fatalf("BOM/CRLF must not change the content: %s", again)
	}
}

func TestUpdateReplacesChangedItem(t *testing.T) {
	dir := t.TempDir()
	s := openDB(t)
	mustImport(t, s, []string{writeFile(t, dir, "v1.jsonl", nativeGood)}, Options{})
	changed := strings.Replace(nativeGood, "What is personal data?", "What is personal data under the GDPR?", 1)
	p := writeFile(t, dir, "v2.jsonl", changed)
	_, err := Import(s, []string{p}, Options{})
	if !errors.Is(err, store.ErrChanged) || !strings.Contains(err.Error(), p+`:2: field "id": item "g2" is already in the database with different content (use --update`) {
		t.Fatalf("want ErrChanged naming v2.jsonl:2, got %v", err)
	}
	sum, err := Import(s, []string{p}, Options{Update: true})
	if err != nil {
		t.Fatal(err)
	}
	if f := sum.Files[0]; f.QA.Updated != 1 || f.QA.Unchanged != 1 || f.Claims.Unchanged != 1 {
		t.Fatalf("summary %+v", f)
	}
	ref, _ := s.Resolve("g2")
	if q, _ := s.QA(ref.ItemID); q.Question != "What is personal data under the GDPR?" {
		t.Fatalf("not updated: %q", q.Question)
	}
	if !strings.Contains(sum.String(), "1 updated") {
		t.Fatalf("summary text: %s", sum)
	}
}

func TestDetect(t *testing.T) {
	cases := map[string]string{
		`{"id":"x","question":"q"}`: FormatNative,
		`{"annotator":"a","item":"x","field":"entailment","value":"neutral"}`: FormatLabels,
		`{"input_data":[]}`:                                 FormatClaimRAG,
		"{\n \"results\": [\n ]\n}":                         FormatRAGChecker,
		`[{"id":"1","response":"r","x_response_kg":[]}]`:    FormatHuman,
		`[{"question":"q","response":"r","reference":"t"}]`: FormatChecker,
		`[{"query_id":1,"gt_answer":"a","claims":[{"claim":"c","claim_correctness":"Correct"}]}]`: FormatClaimRAG,
	}
	for in, want := range cases {
		got, err := detect(bytesInput("f", []byte(in), nil))
		if err != nil || got != want {
			t.Errorf("detect(%s) = %q, %v; want %q", in, got, err, want)
		}
	}
	_, err := detect(bytesInput("f.json", []byte(`[{"foo":1}]`), nil))
	if err == nil || !strings.Contains(err.Error(), "f.json: cannot tell the format; expected native JSONL") {
		t.Errorf("unknown format: %v", err)
	}
	if _, err := Import(openDB(t), []string{"x"}, Options{Format: "csv"}); err == nil || !strings.Contains(err.Error(), `unknown format "csv"`) {
		t.Errorf("bad --format: %v", err)
	}
}

func TestForcedFormat(t *testing.T) {
	s := openDB(t)
	// A native line forced to be read as labels lacks the label keys.
	_, err := ImportReader(s, "x.jsonl", []byte(`{"id":"a","source":"S","answer":"b","contexts":[{"id":"c","text":"t"}]}`), Options{Format: FormatLabels})
	if err == nil || !strings.Contains(err.Error(), `x.jsonl:1: field "annotator": missing (required, or give --annotator)`) {
		t.Fatalf("got %v", err)
	}
}

// The exported folder (format hf) is tested with the exporter's round trip.
func TestImportReader(t *testing.T) {
	s := openDB(t)
	sum, err := ImportReader(s, "demo/gdpr.jsonl", []byte(nativeGood), Options{})
	if err != nil || sum.Total().QA.Added != 2 {
		t.Fatalf("%v %+v", err, sum)
	}
	if _, err := ImportReader(s, "demo/empty.jsonl", nil, Options{}); err == nil || err.Error() != "demo/empty.jsonl: empty file" {
		t.Fatalf("empty input: %v", err)
	}
}

func TestNoOpSummaryNamesOnlyWhatTheFilesHeld(t *testing.T) {
	for _, tc := range []struct {
		qa, claims, labels int
		want               string
	}{
		{0, 0, 354, "nothing changed: all 354 labels are already in the database"},
		{1, 0, 0, "nothing changed: all 1 QA pair is already in the database"},
		{2, 3, 0, "nothing changed: all 2 QA pairs and 3 claims are already in the database"},
	} {
		s := Summary{Files: []FileSummary{{QA: Counts{Unchanged: tc.qa}, Claims: Counts{Unchanged: tc.claims}, LabelsUnchanged: tc.labels}}}
		if got := strings.TrimSpace(s.String()); got != tc.want {
			t.Errorf("got %q, want %q", got, tc.want)
		}
	}
}
