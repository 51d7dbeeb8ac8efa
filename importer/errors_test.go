package importer

import (
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/annotate-dev/annotate/store"
)

// TestMalformedInputLeavesDatabaseUnchanged feeds one malformed input per
// class to a database holding a valid import and checks the message names
// the file, the line or record and the field, and the database file is
// byte for byte the same afterwards.
func TestMalformedInputLeavesDatabaseUnchanged(t *testing.T) {
	line := func(s string) string { return s + "\n" }
	pair := `{"id":"n1","source":"GDPR","question":"Q?","answer":"A.","contexts":[{"id":"p1","text":"T."}]}`
	big := `{"id":"big","source":"GDPR","question":"` + strings.Repeat("a", 20<<20) + `","answer":"A.","contexts":[{"id":"p1","text":"T."}]}`
	cases := []struct {
		name, file, content string
		want                []string // substrings of the error; FILE is replaced by the path
		is                  error
	}{
		{name: "bad JSON", file: "bad.jsonl", content: line(pair) + line(`{"id":"n2",, "source":"GDPR"}`),
			want: []string{`FILE:2: bad JSON at column 12: invalid character ','`}},
		{name: "bad JSON in an array", file: "kg.json", content: "[\n {\"id\":\"1\",\"response\":\"r\",\"m_response_kg\":[]},\n {\"id\": }\n]",
			want: []string{`FILE:3: record 2: bad JSON at column 9`}},
		{name: "missing required field", file: "missing.jsonl", content: line(pair) + line(`{"id":"n2","source":"GDPR","question":"Q?","contexts":[{"id":"p1","text":"T."}]}`),
			want: []string{`FILE:2: field "answer": missing (required)`}},
		{name: "missing context", file: "noctx.jsonl", content: line(`{"id":"n2","source":"GDPR","question":"Q?","answer":"A.","contexts":[]}`),
			want: []string{`FILE:1: field "contexts": empty`}},
		{name: "wrong type", file: "type.jsonl", content: line(`{"id":"n2","source":"GDPR","question":5,"answer":"A.","contexts":[{"id":"p1","text":"T."}]}`),
			want: []string{`FILE:1: field "question": want a string, got a number`}},
		{name: "wrong type nested", file: "trip.jsonl", content: line(`{"id":"n2","source":"GDPR","question":"Q","answer":"A.","contexts":[{"id":"p1","text":"T."}],"claims":[{"triplet":["a","b"]}]}`),
			want: []string{`FILE:1: field "claims[0].triplet": want 3 strings (subject, predicate, object), got 2 elements`}},
		{name: "wrong type in an array", file: "kg.json", content: `[{"id":"1","response":["r"],"m_response_kg":[]}]`,
			want: []string{`FILE: record 1: field "response": want a string, got an array`}},
		{name: "duplicate id", file: "dup.jsonl", content: line(pair) + line(strings.Replace(pair, "Q?", "Other?", 1)),
			want: []string{`FILE:2: field "id": duplicate id "n1" (first at line 1)`}},
		{name: "duplicate claim id", file: "dupc.jsonl", content: line(`{"id":"n2","source":"GDPR","question":"Q","answer":"A.","contexts":[{"id":"p1","text":"T."}],"claims":[{"id":"k","text":"x"},{"id":"k","text":"y"}]}`),
			want: []string{`FILE:1: field "claims[1].id": duplicate id "k" (first at line 1)`}},
		{name: "label of an unknown item", file: "labels.jsonl", content: line(`{"annotator":"jo","item":"seed1","field":"question_validity","value":"valid"}`) + line(`{"annotator":"jo","item":"nope","field":"entailment","value":"neutral"}`),
			want: []string{`FILE:2: field "item": unknown item "nope": it is neither in the database nor in this import`}, is: store.ErrUnknownPair},
		{name: "label of an unknown field", file: "labels.jsonl", content: line(`{"annotator":"jo","item":"seed1","field":"truthiness","value":"high"}`),
			want: []string{`FILE:1: field "field": unknown field "truthiness"`}},
		{name: "label of the wrong kind", file: "labels.jsonl", content: line(`{"annotator":"jo","item":"seed1","field":"entailment","value":"neutral"}`),
			want: []string{`FILE:1: field "field": entailment is a field of a claim, but "seed1" is a QA pair`}},
		{name: "claim of an unknown pair", file: "GDPR-CLAIM-LAW.json", content: `[{"query_id":99,"claims":[{"claim":["a","b","c"],"claim_correctness":"Correct"}]}]`,
			want: []string{`FILE: record 1: field "query_id": unknown QA pair "GDPR/99": it is neither in the database nor in this import`}, is: store.ErrUnknownPair},
		{name: "changed item", file: "changed.jsonl", content: line(strings.Replace(seedPairs, "Seed?", "Changed?", 1)),
			want: []string{`FILE:1: field "id": item "seed1" is already in the database with different content`}, is: store.ErrChanged},
		{name: "context with another text", file: "ctx.jsonl", content: line(`{"id":"n3","source":"GDPR","question":"Q","answer":"A.","contexts":[{"id":"seed-p1","text":"Another text."}]}`),
			want: []string{`FILE:1: field "contexts[0]": context unit "seed-p1" exists with a different text`}},
		{name: "invalid UTF-8", file: "latin1.jsonl", content: line(pair) + line(`{"id":"n2","source":"GDPR","question":"Qu'est-ce qu'un `+"\xe9"+`tat?"}`),
			want: []string{`FILE:2: invalid UTF-8 at column 56`}},
		{name: "invalid UTF-8 in JSON", file: "kg.json", content: "[\n{\"id\":\"1\",\"response\":\"caf\xe9\",\"m_response_kg\":[]}]",
			want: []string{`FILE:2: invalid UTF-8 at column 26`}},
		{name: "empty file", file: "empty.jsonl", content: " \r\n\n",
			want: []string{`FILE: empty file`}},
		{name: "20 MB record", file: "big.jsonl", content: line(pair) + line(big),
			want: []string{`FILE:2: field "question": record is 20.0 MiB, over the 16 MiB limit`}},
		// Duplicate keys: which value was meant is not guessed, on the fast
		// path, on encoding/json's (an escaped key) and in nested objects.
		{name: "duplicate key", file: "dupkey.jsonl", content: line(pair) + line(`{"id":"n2","source":"GDPR","id":"n3","question":"Q?","answer":"A.","contexts":[{"id":"p1","text":"T."}]}`),
			want: []string{`FILE:2: field "id": duplicate key: the object gives it twice (keep one) (column 28)`}},
		{name: "duplicate escaped key", file: "dupkey.jsonl", content: line(`{"id":"n2","source":"GDPR","question":"Q?","answer":"A.","\u0061nswer":"B.","contexts":[{"id":"p1","text":"T."}]}`),
			want: []string{`FILE:1: field "answer": duplicate key: the object gives it twice (keep one) (column 58)`}},
		{name: "duplicate nested key", file: "dupkey.jsonl", content: line(`{"id":"n2","source":"GDPR","question":"Q?","answer":"A.","contexts":[{"id":"p1","text":"T.","text":"U."}]}`),
			want: []string{`FILE:1: field "contexts[0].text": duplicate key`}},
		{name: "duplicate label key", file: "dupkey.jsonl", content: line(`{"id":"n2","source":"GDPR","question":"Q?","answer":"A.","contexts":[{"id":"p1","text":"T."}],"labels":{"jo":{"question_validity":"valid","question_validity":"invalid"}}}`),
			want: []string{`FILE:1: field "labels.jo.question_validity": duplicate key`}},
		{name: "duplicate annotator key", file: "dupkey.jsonl", content: line(`{"id":"n2","source":"GDPR","question":"Q?","answer":"A.","contexts":[{"id":"p1","text":"T."}],"labels":{"jo":{"question_validity":"valid"},"jo":{"question_validity":"invalid"}}}`),
			want: []string{`FILE:1: field "labels.jo": duplicate key`}},
		{name: "duplicate key in an array", file: "kg.json", content: "[\n {\"id\":\"1\",\"response\":\"r\",\"m_response_kg\":[]},\n {\"id\":\"2\",\"response\":\"r\",\n  \"response\":\"s\",\"m_response_kg\":[]}\n]",
			want: []string{`FILE:4: record 2: field "response": duplicate key: the object gives it twice (keep one) (column 3)`}},
		{name: "duplicate key of a document", file: "GDPR-RAG-LAW.json", content: "{\"input_data\": [{\"query_id\": 1, \"query\": \"Q?\", \"relevant_chunk\": \"T.\", \"gt_answer\": \"A.\"}],\n \"input_data\": []}",
			want: []string{`FILE:2: field "input_data": duplicate key: the object gives it twice (keep one) (column 2)`}},
		// Ids: a string with something besides spaces.
		{name: "blank id", file: "blank.jsonl", content: line(`{"id":"  ","source":"GDPR","question":"Q?","answer":"A.","contexts":[{"id":"p1","text":"T."}]}`),
			want: []string{`FILE:1: field "id": blank (only spaces): want an id`}},
		{name: "blank claim id", file: "blank.jsonl", content: line(`{"id":"n2","source":"GDPR","question":"Q?","answer":"A.","contexts":[{"id":"p1","text":"T."}],"claims":[{"id":"\t ","text":"x"}]}`),
			want: []string{`FILE:1: field "claims[0].id": blank (only spaces): want an id`}},
		{name: "numeric id", file: "num.jsonl", content: line(`{"id":17,"source":"GDPR","question":"Q?","answer":"A.","contexts":[{"id":"p1","text":"T."}]}`),
			want: []string{`FILE:1: field "id": want a string, got a number (write the id in quotes)`}},
		{name: "numeric context id", file: "num.jsonl", content: line(`{"id":"n2","source":"GDPR","question":"Q?","answer":"A.","contexts":[{"id":1.0,"text":"T."}]}`),
			want: []string{`FILE:1: field "contexts[0].id": want a string, got a number`}},
		{name: "numeric item of a label", file: "labels.jsonl", content: line(`{"annotator":"jo","item":5,"field":"question_validity","value":"valid"}`),
			want: []string{`FILE:1: field "item": want a string, got a number`}},
		{name: "blank id in an array", file: "kg.json", content: "[\n {\"id\":\" \",\"response\":\"r\",\"m_response_kg\":[]}\n]",
			want: []string{`FILE: record 1: field "id": blank (only spaces): want an id`}},
		{name: "fractional ClaimRAG-LAW query id", file: "GDPR-RAG-LAW.json", content: `{"input_data":[{"query_id":1.5,"query":"Q?","relevant_chunk":"T.","gt_answer":"A."}]}`,
			want: []string{`field "query_id": want a string or an integer, got 1.5`}},
		{name: "unknown format", file: "what.json", content: `[{"foo":1}]`,
			want: []string{`FILE: cannot tell the format; expected`}},
	}

	// One seeded database file, copied for each case.
	seedDir := t.TempDir()
	seedDB := filepath.Join(seedDir, "seed.db")
	s, err := store.Open(seedDB)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Import(s, []string{writeFile(t, seedDir, "seed.jsonl", seedPairs)}, Options{}); err != nil {
		t.Fatal(err)
	}
	s.Close()

	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			db := filepath.Join(dir, "t.db")
			writeFile(t, dir, "t.db", string(readFile(t, seedDB)))
			before := contentOf(t, db)
			p := writeFile(t, dir, c.file, c.content)
			// A valid file alongside: one invocation is all or nothing.
			good := writeFile(t, dir, "good.jsonl", nativeGood)
			s, err := store.Open(db)
			if err != nil {
				t.Fatal(err)
			}
			_, err = Import(s, []string{good, p}, Options{})
			s.Close()
			if err == nil {
				t.Fatal("import succeeded")
			}
			for _, w := range c.want {
				if w = strings.ReplaceAll(w, "FILE", p); !strings.Contains(err.Error(), w) {
					t.Errorf("error\n  %v\nwant it to contain\n  %s", err, w)
				}
			}
			if c.is != nil && !errors.Is(err, c.is) {
				t.Errorf("error %v is not %v", err, c.is)
			}
			var ie *InputError
			if !errors.As(err, &ie) || ie.File != p {
				t.Errorf("want an *InputError naming %s, got %T %v", p, err, err)
			}
			if contentOf(t, db) != before {
				t.Error("the database changed")
			}
			t.Log(err)
		})
	}

	// Control: the same check does see a successful import.
	dir := t.TempDir()
	db := filepath.Join(dir, "t.db")
	writeFile(t, dir, "t.db", string(readFile(t, seedDB)))
	before := contentOf(t, db)
	s, err = store.Open(db)
	if err != nil {
		t.Fatal(err)
	}
	_, err = Import(s, []string{writeFile(t, dir, "good.jsonl", nativeGood)}, Options{})
	s.Close()
	if err != nil || contentOf(t, db) == before {
		t.Fatalf("control import: %v; the file must change", err)
	}
}

const seedPairs = `{"id":"seed1","source":"GDPR","question":"Seed?","answer":"A.","contexts":[{"id":"seed-p1","text":"Seed text."}],"claims":[{"triplet":["s","p","o"]}]}
`
