package importer

import (
	"strings"
	"testing"
)

const genAnswers = `{"kind":"gen_answer","id":"ga-1","query":"q-1","system":"gemma","condition":"oracle","answer":"Notice is required. The tenant may dispute it.","documents":["doc-1","doc-404"],"claims":[{"id":"ga-1-c1","text":"Notice is required.","predictions":{"judge":{"accuracy_support":"Supported","grounded":"ungrounded"}},"labels":{"jo":{"accuracy_support":"not_supported","grounded":"not_grounded","error_category":["Misapplied legal test","document_misattribution"]}}},{"text":"The tenant may dispute it.","predictions":{"judge":{"accuracy_support":"not_supported"}}}]}
{"kind":"answer_task","id":"q-2/answer","query":"q-2","labels":{"jo":{"gold_answer":"Sixty days.","citations":["doc-1","2020 BCSC 7"]}}}
`

func TestGeneratedAnswersImport(t *testing.T) {
	s := openDB(t)
	dir := t.TempDir()
	// The answers come first: they wait for their queries, later in the import.
	p := writeFile(t, dir, "gen.jsonl", genAnswers)
	q := writeFile(t, dir, "canlegal.jsonl", queriesAndDocs)
	sum := mustImport(t, s, []string{p, q}, Options{})
	if got := sum.String(); !strings.Contains(got, "1 generated answer added") || !strings.Contains(got, "1 answer task added") {
		t.Errorf("summary %q", got)
	}
	if n := count(t, s, "SELECT COUNT(*) FROM items WHERE kind='gen_claim'"); n != 2 {
		t.Errorf("%d claims", n)
	}
	// The claim without an id is numbered after its answer.
	if n := count(t, s, "SELECT COUNT(*) FROM items WHERE ext_id='ga-1-c2' AND parent_id=(SELECT id FROM items WHERE ext_id='ga-1')"); n != 1 {
		t.Error("second claim not ga-1-c2 under ga-1")
	}
	// The judge's words are read as the fields' values.
	for _, c := range []struct{ item, field, value string }{
		{"ga-1-c1", "accuracy_support", "supported"}, {"ga-1-c1", "grounded", "not_grounded"}, {"ga-1-c2", "accuracy_support", "not_supported"},
	} {
		if n := count(t, s, `SELECT COUNT(*) FROM predictions p JOIN items i ON i.id=p.item_id WHERE i.ext_id=? AND p.system='judge' AND p.field=? AND p.value=?`,
			c.item, c.field, c.value); n != 1 {
			t.Errorf("prediction %v missing", c)
		}
	}
	if got := current(t, s, "jo", "ga-1-c1")["error_category"]; got != `["misapplied_legal_test","document_misattribution"]` {
		t.Errorf("error_category %q", got)
	}
	if got := current(t, s, "jo", "q-2/answer")["citations"]; got != `["doc-1","2020 BCSC 7"]` {
		t.Errorf("citations %q", got)
	}
	if n := count(t, s, "SELECT COUNT(*) FROM gen_answers WHERE persona='lay' AND jurisdiction='ON' AND documents='[\"doc-1\",\"doc-404\"]'"); n != 1 {
		t.Error("the answer's query attributes or documents were not kept")
	}
	if sum := mustImport(t, s, []string{p, q}, Options{}); !sum.NoOp() {
		t.Errorf("re-import: %s", sum)
	}
}

func TestGeneratedAnswerErrorsNameTheField(t *testing.T) {
	base := `{"kind":"gen_answer","id":"a","query":"q-1","system":"s","condition":"oracle","answer":"x","claims":[{"text":"c"}]}`
	for _, c := range []struct{ line, want string }{
		{strings.Replace(base, `"oracle"`, `"closed-book"`, 1), `x.jsonl:4: field "condition": want "oracle" or "pipeline", got "closed-book"`},
		{strings.Replace(base, `"q-1"`, `"q-9"`, 1), `x.jsonl:4: field "query": unknown item "q-9"`},
		{strings.Replace(base, `{"text":"c"}`, `{"text":"c","predictions":{"judge":{"entailment":"neutral"}}}`, 1), `field "claims[0].predictions.judge.entailment": a judge's verdicts are on accuracy_support and grounded`},
		{strings.Replace(base, `{"text":"c"}`, `{"text":"c","labels":{"jo":{"error_category":[3]}}}`, 1), `field "claims[0].labels.jo.error_category[0]": want a string, got a number`},
		{strings.Replace(base, `{"text":"c"}`, `{"text":"c","labels":{"jo":{"entailment":"neutral"}}}`, 1), `entailment is a field of a claim, not of a gen_claim`},
		{strings.Replace(base, `"answer":"x",`, ``, 1), `field "answer": missing (required)`},
		{strings.Replace(base, `{"text":"c"}`, `{"id":"d"},{"id":"d","text":"e"}`, 1), `field "claims[0].text": missing (required)`},
	} {
		s := openDB(t)
		p := writeFile(t, t.TempDir(), "x.jsonl", queriesAndDocs+c.line+"\n")
		_, err := Import(s, []string{p}, Options{})
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s:\n  %v,\n  want %q", c.line, err, c.want)
		}
		if n := count(t, s, "SELECT COUNT(*) FROM items"); n != 0 {
			t.Errorf("a failed import left %d items", n)
		}
	}
}
