package importer

import (
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/annotate-dev/annotate/store"
	"github.com/annotate-dev/annotate/store/storetest"
)

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
	storetest.DB(t, s).QueryRow("SELECT language, jurisdiction FROM sources WHERE name='GDPR'").Scan(&lang, &jur)
	if lang != "en" || jur != "EU" {
		t.Fatalf("source GDPR: %q %q", lang, jur)
	}
	ref, _ := storetest.Read(t, s).Resolve("GDPR/1")
	q, _ := storetest.Read(t, s).QA(ref.ItemID)
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
	sum := mustImport(t, s, []string{labels, items}, Options{Annotator: "jo"})
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
	// Each label records the version of its field's guidelines in force
	// (1, the embedded text, in a new database), not the option's.
	if n := count(t, s, "SELECT COUNT(*) FROM label_events WHERE guidelines_version='1'"); n != 8 {
		t.Fatalf("labels with guidelines version 1: %d", n)
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
	ref, _ := storetest.Read(t, s).Resolve("g2")
	q, _ := storetest.Read(t, s).QA(ref.ItemID)
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
	ref, _ := storetest.Read(t, s).Resolve("g2")
	if q, _ := storetest.Read(t, s).QA(ref.ItemID); q.Question != "What is personal data under the GDPR?" {
		t.Fatalf("not updated: %q", q.Question)
	}
	if !strings.Contains(sum.String(), "1 updated") {
		t.Fatalf("summary text: %s", sum)
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
		f := FileSummary{LabelsUnchanged: tc.labels}
		f.QA.Unchanged, f.Claims.Unchanged = tc.qa, tc.claims
		s := Summary{Files: []FileSummary{f}}
		if got := strings.TrimSpace(s.String()); got != tc.want {
			t.Errorf("got %q, want %q", got, tc.want)
		}
	}
}
