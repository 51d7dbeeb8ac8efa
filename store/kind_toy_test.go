package store

import (
	"testing"

	"github.com/annotate-dev/annotate/schema"
	"github.com/annotate-dev/annotate/tally"
)

// A toy kind registered from this one file, as a new kind is (ARCHITECTURE.md,
// "Kinds"): its schema, its store.Kind (no table: its payload is the item
// row itself), its tally.Kind. The test then imports toys, queues them,
// labels them, checks the kept counts against the recount, batches them
// and re-imports them, with no edit to the generic code of the store. (A
// kind with a table of its own: internal/toykind.)

const kindToy schema.Kind = "toy"

type toy struct {
	ID     string
	ItemID int64
}

func init() {
	schema.Register(schema.Spec{Kind: kindToy, Order: 990, Title: "Toys", Noun: "toy", Annotated: true,
		Fields: []schema.Field{
			{Name: "toy_fun", Values: []string{"fun", "dull"}, TwoWay: true},
			{Name: "toy_why", Values: []string{"colour", "shape"}, AskedIf: []schema.Cond{{Field: "toy_fun", Values: []string{"dull"}}}},
		}})
	Register(toyKind{})
	tally.Register(toyKind{})
}

// toyKind is the toy's store.Kind and tally.Kind (it counts nothing of its
// own).
type toyKind struct{}

func (toyKind) Kind() schema.Kind { return kindToy }
func (toyKind) Table() string     { return "" }

func (toyKind) Payloads(q Querier, ids []int64) (map[int64]any, error) {
	out := map[int64]any{}
	err := eachRow(q, `SELECT id, ext_id FROM items WHERE id IN (SELECT value FROM json_each(?))`, []any{jsonInts(ids)}, func(sc func(...any) error) error {
		v := &toy{}
		if err := sc(&v.ItemID, &v.ID); err != nil {
			return err
		}
		out[v.ItemID] = v
		return nil
	})
	return out, err
}

func TestToyKindEndToEnd(t *testing.T) {
	s := openTemp(t)
	put := func() []PutResult {
		var res []PutResult
		err := s.Import(func(tx *Tx) error {
			for _, id := range []string{"toy-1", "toy-2", "toy-3"} {
				_, r, err := tx.PutItem(kindToy, id, 0, 0, "h-"+id, "toys.jsonl", false)
				if err != nil {
					return err
				}
				res = append(res, r)
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	put()
	q := QueueQuery{Annotator: "jo", Kind: string(kindToy)}
	entries, err := s.pooled().Queue(q)
	if err != nil || len(entries) != 3 || entries[0].ExtID != "toy-1" {
		t.Fatalf("queue: %v %v", entries, err)
	}
	// toy-1 fun (done), toy-2 dull (waits for toy_why), toy-3 dull, colour (done).
	ids := map[string]int64{}
	for _, e := range entries {
		ids[e.ExtID] = e.ItemID
	}
	for _, l := range []Label{
		{Annotator: "jo", ItemID: ids["toy-1"], Field: "toy_fun", Value: "fun"},
		{Annotator: "jo", ItemID: ids["toy-2"], Field: "toy_fun", Value: "dull"},
		{Annotator: "jo", ItemID: ids["toy-3"], Field: "toy_fun", Value: "dull"},
		{Annotator: "jo", ItemID: ids["toy-3"], Field: "toy_why", Value: "colour"},
		{Annotator: "sam", ItemID: ids["toy-1"], Field: "toy_fun", Value: "dull"},
	} {
		if _, err := s.RecordLabel(l); err != nil {
			t.Fatal(err)
		}
	}
	total, _ := s.pooled().QueueTotal(q)
	done, err := s.pooled().QueueDone(q)
	if err != nil || total != 3 || done != 2 {
		t.Errorf("jo's toys: %d done of %d, want 2 of 3 (%v)", done, total, err)
	}
	if diff := checkKept(t, s); diff != "" {
		t.Errorf("kept counts differ from the recount:\n%s", diff)
	}
	v, err := s.pooled().ItemView("jo", ids["toy-2"])
	if err != nil || v.Item.Payload.(*toy).ID != "toy-2" {
		t.Fatalf("item view: %+v %v", v, err)
	}
	b, err := s.CreateBatch(BatchSpec{Name: "toys", Kind: string(kindToy), Assign: []string{"jo", "sam"}, Overlap: 2})
	if err != nil || b.Size != 3 {
		t.Fatalf("batch of toys: %+v %v", b, err)
	}
	for _, r := range put() {
		if r != Unchanged {
			t.Errorf("re-import of the same toys: %v, want unchanged", r)
		}
	}
}
