package importer

import (
	"strings"
	"testing"
)

// Detection on defining keys, on the real shapes of every file the tools
// write (testdata, see LICENSE.md) and on made-up ones: each is imported as
// its format or refused naming what it resembles, never taken for another.
func TestDetectRealFiles(t *testing.T) {
	for _, c := range []struct {
		file   string
		format string // "" when refused
		refuse string // substring of the refusal
	}{
		{"GDPR-RAG-LAW.json", FormatClaimRAG, ""},
		{"GDPR-CLAIM-LAW.json", FormatClaimRAG, ""},
		{"dolly_gpt4_answers.json", FormatHuman, ""},
		{"autocheck/dolly_gpt4_answers.json", FormatHuman, ""},
		{"refchecker_example_in.json", FormatChecker, ""},
		{"refchecker_check_soft.json", FormatChecker, ""},
		{"refchecker_check_strict.json", FormatChecker, ""},
		{"ragchecker_checking_outputs.json", FormatRAGChecker, ""},
		// RAGChecker's checking input has query_id and gt_answer like a
		// ClaimRAG-LAW QA file, but the answer under review is "response".
		{"ragchecker_checking_inputs.json", FormatRAGChecker, ""},
		// Its benchmark queries have no response at all.
		{"novelqa_queries.json", "", "RAGChecker's benchmark queries"},
		// Its meta-evaluation files: two responses per query judged whole
		// (once taken for ClaimRAG-LAW and refused as "duplicate id").
		{"ragchecker_human_labeled_data.json", "", "RAGChecker's meta-evaluation data"},
		{"ragchecker_baseline_ragchecker.json", "", "RAGChecker's meta-evaluation data"},
	} {
		in, err := fileInput(testdata(c.file), nil)
		if err != nil {
			t.Fatal(err)
		}
		got, err := detect(in)
		switch {
		case c.format != "" && (err != nil || got != c.format):
			t.Errorf("%s: got %q, %v; want %s", c.file, got, err, c.format)
		case c.format == "" && (err == nil || !strings.Contains(err.Error(), c.refuse)):
			t.Errorf("%s: got %q, %v; want a refusal saying %q", c.file, got, err, c.refuse)
		}
	}
	// A refused file changes nothing.
	s := openDB(t)
	if _, err := Import(s, []string{testdata("GDPR-RAG-LAW.json"), testdata("novelqa_queries.json")}, Options{}); err == nil {
		t.Fatal("the benchmark queries were imported")
	}
	if n := count(t, s, "SELECT COUNT(*) FROM items"); n != 0 {
		t.Fatalf("%d items after a refused import", n)
	}
	// --format is the way out.
	sum, err := Import(s, []string{testdata("novelqa_queries.json")}, Options{Format: FormatClaimRAG})
	if err != nil || sum.Total().QA.Added != 3 {
		t.Fatalf("forced: %v %+v", err, sum.Total())
	}
}

func TestDetect(t *testing.T) {
	cases := map[string]string{
		`{"id":"x","question":"q"}`: FormatNative,
		`{"annotator":"a","item":"x","field":"entailment","value":"neutral"}`:                        FormatLabels,
		`{"item":"x","field":"entailment","value":"neutral"}`:                                        FormatLabels,
		"{\n \"results\": [\n {\"query_id\":\"1\",\"query\":\"q\",\"response\":\"r\"}]\n}":           FormatRAGChecker,
		`{"metrics":{"f1":1},"results":[{"query_id":"1","response":"r"}]}`:                           FormatRAGChecker,
		`{"input_data":[{"query_id":1,"query":"q","relevant_chunk":"c","gt_answer":"a"}]}`:           FormatClaimRAG,
		`{"input_data":[{"query_id":1,"query":"q","gt_answer":"a","answer_correctness":"Correct"}]}`: FormatClaimRAG,
		`[{"id":"1","response":"r","x_response_kg":[]}]`:                                             FormatHuman,
		`[{"question":"q","response":"r","reference":"t"}]`:                                          FormatChecker,
		`[{"response":"r","claims":[["a","b","c"]],"ys":["Entailment"]}]`:                            FormatChecker,
		`[{"query_id":1,"gt_answer":"a","claims":[{"claim":"c","claim_correctness":"Correct"}]}]`:    FormatClaimRAG,
		`[{"query_id":1,"claims":[{"claim":["a","b","c"]}]}]`:                                        FormatClaimRAG,
	}
	for in, want := range cases {
		got, err := detect(bytesInput("f", []byte(in), nil))
		if err != nil || got != want {
			t.Errorf("detect(%s) = %q, %v; want %q", in, got, err, want)
		}
	}
	for _, c := range []struct{ in, want string }{
		// Nothing fits, something resembles.
		{`[{"foo":1}]`, "f.json: cannot tell the format; expected native JSONL"},
		{`[{"query_id":1,"query":"q","gt_answer":"a"}]`, `f.json: cannot tell the format: the first record resembles ClaimRAG-LAW`},
		{`{"id":"x","source":"S"}`, "f.json: cannot tell the format: the first record resembles native JSONL"},
		// Two formats fit.
		{`[{"query_id":1,"relevant_chunk":"c","response":"r","reference":"t"}]`, "f.json: cannot tell the format: the first record fits refchecker-checker and claimrag; say which with --format refchecker-checker or --format claimrag"},
		{`{"input_data":[{"query_id":1,"relevant_chunk":"c","response":"r"}]}`, "fits claimrag and ragchecker"},
		{`{"id":"x","question":"q","item":"y","field":"f","value":"v"}`, "fits native and labels"},
		// A data file of an hf export, not the folder.
		{`{"id":"q1","source":"S","question":"q","answer":"a","contexts":[],"claim_ids":[],"annotator":"jo"}`, "import the folder itself"},
		// Empty and not JSON.
		{`{"input_data":[]}`, `f.json: field "input_data": empty array: nothing to import`},
		{"[\n]", "f.json: empty array: nothing to import"},
		{"id,question\n1,q\n", `f.json: cannot tell the format: the file starts with 'i', not with JSON`},
	} {
		_, err := detect(bytesInput("f.json", []byte(c.in), nil))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("detect(%s):\n  %v\nwant it to contain\n  %s", c.in, err, c.want)
		}
	}
	if _, err := Import(openDB(t), []string{"x"}, Options{Format: "csv"}); err == nil || !strings.Contains(err.Error(), `unknown format "csv"`) {
		t.Errorf("bad --format: %v", err)
	}
}
