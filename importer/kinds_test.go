package importer

import (
	"strings"
	"testing"

	"github.com/annotate-dev/annotate/store"
	"github.com/annotate-dev/annotate/store/storetest"
)

const queriesAndDocs = `{"kind":"document","id":"doc-1","title":"Smith v. Jones","citation":"2019 ONCA 1","court":"ONCA","jurisdiction":"ON","year":2019,"text":"The landlord must give notice. The tenant may dispute.","chunks":[{"id":"doc-1#0","start":0,"end":30},{"id":"doc-1#1","start":31,"end":54}]}
{"kind":"query","id":"q-1","text":"Can my landlord evict me without notice?","persona":"lay","jurisdiction":"ON","issue":"tenancy","seed_doc":"doc-1","seed_group":"g1","labels":{"jo":{"query_validity":"valid"}}}
{"kind":"query","id":"q-2","text":"What notice period applies?","persona":"professional","jurisdiction":"BC","issue":"tenancy","seed_doc":"doc-1","seed_group":"g1","court_note":"kept"}
`

func TestQueriesAndDocumentsImport(t *testing.T) {
	s := openDB(t)
	p := writeFile(t, t.TempDir(), "canlegal.jsonl", queriesAndDocs)
	sum := mustImport(t, s, []string{p}, Options{})
	if got := sum.String(); !strings.Contains(got, "1 document added; 2 queries added; 1 label added") {
		t.Errorf("summary %q", got)
	}
	var v *store.ItemView
	ref, err := storetest.Read(t, s).Resolve("q-2")
	if err != nil {
		t.Fatal(err)
	}
	if v, err = storetest.Read(t, s).ItemView("jo", ref.ItemID); err != nil {
		t.Fatal(err)
	}
	q, ok := v.Item.Payload.(*store.Query)
	if !ok || q.Persona != "professional" || q.Jurisdiction != "BC" || q.SeedGroup != "g1" || q.Extra != `{"court_note":"kept"}` {
		t.Errorf("query %+v", v.Item.Payload)
	}
	ref, _ = storetest.Read(t, s).Resolve("doc-1")
	if v, err = storetest.Read(t, s).ItemView("jo", ref.ItemID); err != nil {
		t.Fatal(err)
	}
	d, ok := v.Item.Payload.(*store.Document)
	if !ok || d.Year != 2019 || len(d.Chunks) != 2 || d.Chunks[1] != (store.Chunk{ID: "doc-1#1", Start: 31, End: 54}) {
		t.Errorf("document %+v", v.Item.Payload)
	}
	// Once more: nothing changed.
	if sum := mustImport(t, s, []string{p}, Options{}); !sum.NoOp() {
		t.Errorf("re-import: %s", sum)
	}
	// A changed query is refused without --update, replaced with it.
	changed := strings.Replace(queriesAndDocs, "What notice period applies?", "Which notice period applies?", 1)
	p2 := writeFile(t, t.TempDir(), "canlegal.jsonl", changed)
	if _, err := Import(s, []string{p2}, Options{}); err == nil || !strings.Contains(err.Error(), `canlegal.jsonl:3: field "id": item "q-2" is already in the database with different content`) {
		t.Errorf("changed query: %v", err)
	}
	if sum := mustImport(t, s, []string{p2}, Options{Update: true}); !strings.Contains(sum.String(), "1 updated") {
		t.Errorf("update: %s", sum)
	}
}

func TestQueryAndDocumentErrorsNameTheField(t *testing.T) {
	for _, c := range []struct{ line, want string }{
		{`{"kind":"querry","id":"x","text":"t"}`, `x.jsonl:1: field "kind": unknown kind "querry" (known: qa, answer_task, document, gen_answer, gen_claim, query, relevance)`},
		{`{"kind":"query","id":"x","text":"t","persona":"judge"}`, `field "persona": want "lay" or "professional", got "judge"`},
		{`{"kind":"query","id":"x"}`, `field "text"`},
		{`{"kind":"document","id":"d","text":"abc","chunks":[{"id":"c","start":1,"end":9}]}`, `field "chunks[0].end": the span 1–9 is not inside the text (3 bytes)`},
		{`{"kind":"document","id":"d","text":"abc","year":"MMXIX"}`, `field "year": want a year such as 2019`},
		{`{"kind":"query","id":"q\u001b[2J","text":"t"}`, `field "id"`},
	} {
		s := openDB(t)
		p := writeFile(t, t.TempDir(), "x.jsonl", c.line+"\n")
		_, err := Import(s, []string{p}, Options{})
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want %q", c.line, err, c.want)
		}
	}
}
