package importer

import (
	"strings"
	"testing"

	"github.com/annotate-dev/annotate/store/storetest"

	"github.com/annotate-dev/annotate/store"
)

// TestImportedDoneMatchesLabelled checks that the done items the import
// keeps (brought up to date when its transaction ends, whatever order items
// and labels came in) are those the store's own path gives (PutLabel), on
// labels covering the asked-when rule and the last-claim rule.
func TestImportedDoneMatchesLabelled(t *testing.T) {
	data := []byte(strings.Join([]string{
		// complete valid pair, claims complete, missed claims checked
		`{"id":"a","source":"S","question":"Q","answer":"A","contexts":[{"id":"ca","text":"t"}],"labels":{"jo":{"question_validity":"valid","category":"factual_recall","persona":"citizen","answer_correctness":"correct","missed_claims_checked":"checked"}},` +
			`"claims":[{"triplet":["a","b","c"],"labels":{"jo":{"claim_validity":"correct","entailment":"neutral"}}},{"triplet":["d","e","f"],"labels":{"jo":{"claim_validity":"incorrect"}}}]}`,
		// last claim complete but answer not checked; first claim lacks entailment
		`{"id":"b","source":"S","question":"Q","answer":"A","contexts":[{"id":"cb","text":"t"}],"labels":{"jo":{"question_validity":"valid"},"sam":{"question_validity":"valid"}},` +
			`"claims":[{"triplet":["a","b","c"],"labels":{"jo":{"claim_validity":"correct"},"sam":{"claim_validity":"incorrect"}}},{"text":"x","labels":{"jo":{"claim_validity":"correct","entailment":"entailment"}}}]}`,
		// no labels at all on the pair, one claim done for sam only
		`{"id":"c","source":"S","question":"Q","answer":"A","contexts":[{"id":"cc","text":"t"}],"claims":[{"triplet":["a","b","c"],"labels":{"sam":{"claim_validity":"incorrect"}}}]}`,
		// answer checked first (in field order), then its only claim
		`{"id":"d","source":"S","question":"Q","answer":"A","contexts":[{"id":"cd","text":"t"}],"labels":{"sam":{"missed_claims_checked":"checked"}},"claims":[{"triplet":["a","b","c"],"labels":{"sam":{"claim_validity":"incorrect"}}}]}`,
	}, "\n"))

	batched := openDB(t)
	if _, err := ImportReader(batched, "done.jsonl", data, Options{}); err != nil {
		t.Fatal(err)
	}

	own := openDB(t)
	f := parseAll(t, "done.jsonl", data)
	err := own.Import(func(tx *store.Tx) error {
		for _, p := range f.pairs {
			if _, _, err := tx.PutQA(p.q, p.hash, "done.jsonl", false); err != nil {
				return err
			}
		}
		for _, c := range f.claims {
			if _, _, err := tx.PutClaim(c.c, c.hash, "done.jsonl", false); err != nil {
				return err
			}
		}
		for _, l := range f.labels {
			id, _, err := tx.ItemID(l.item)
			if err != nil {
				return err
			}
			if _, err := tx.PutLabel(store.Label{Annotator: l.annotator, ItemID: id, Field: l.name, Value: l.value}); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	got, want := doneItems(t, batched), doneItems(t, own)
	t.Log(want)
	if got != want {
		t.Fatalf("done items differ:\nbatched: %s\nstore:   %s", got, want)
	}
	if !strings.Contains(want, "jo:a-c2") || strings.Contains(want, "jo:b-c2") {
		t.Fatalf("the fixture does not exercise the last-claim rule: %s", want)
	}
}

func doneItems(t *testing.T, s *store.Store) string {
	rows, err := storetest.DB(t, s).Query(`SELECT a.name, i.ext_id FROM done_items d JOIN annotators a ON a.id=d.annotator_id
		JOIN items i ON i.id=d.item_id ORDER BY a.name, i.ext_id`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var a, i string
		rows.Scan(&a, &i)
		out = append(out, a+":"+i)
	}
	return strings.Join(out, " ")
}
