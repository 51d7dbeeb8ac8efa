package store

import (
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/annotate-dev/annotate/schema"
)

// Hamilton's method, worked by hand.
func TestLargestRemainder(t *testing.T) {
	for _, c := range []struct {
		n     int
		sizes []int
		want  []int
	}{
		// 5 seats over 1, 3, 6: shares 0.5, 1.5, 3; the seat left goes to
		// the tie of remainders .5, to the larger group.
		{5, []int{1, 3, 6}, []int{0, 2, 3}},
		// 4 over three equal groups: 1.33 each; the earlier group wins the tie.
		{4, []int{5, 5, 5}, []int{2, 1, 1}},
		{2, []int{1, 2}, []int{1, 1}}, // 0.67 and 1.33: remainders 2/3 and 1/3
		{3, []int{0, 3}, []int{0, 3}},
		{0, []int{4, 4}, []int{0, 0}},
	} {
		if got := LargestRemainder(c.n, c.sizes); !slices.Equal(got, c.want) {
			t.Errorf("LargestRemainder(%d, %v) = %v, want %v", c.n, c.sizes, got, c.want)
		}
	}
}

// poolFixture: 10 queries (ON: 4 tenancy, 2 employment; BC: 1 tenancy, 2
// family; AB: 1 family), 12 documents, runs r1 and r2 each retrieving
// three documents per query (r2 shares one with r1): 5 distinct per query.
func poolFixture(t *testing.T) (*Store, []string) {
	t.Helper()
	s := openTemp(t)
	strata := [][2]string{{"ON", "tenancy"}, {"ON", "tenancy"}, {"ON", "tenancy"}, {"ON", "tenancy"}, {"ON", "employment"}, {"ON", "employment"},
		{"BC", "tenancy"}, {"BC", "family"}, {"BC", "family"}, {"AB", "family"}}
	var qs []string
	err := s.Import(func(tx *Tx) error {
		for i, st := range strata {
			q := Query{ID: fmt.Sprintf("q%02d", i), Text: "query", Persona: []string{"lay", "professional"}[i%2], Jurisdiction: st[0], Issue: st[1]}
			if _, _, err := tx.PutQuery(q, q.ID, "t", false); err != nil {
				return err
			}
			qs = append(qs, q.ID)
		}
		for i := 0; i < 12; i++ {
			d := Document{ID: fmt.Sprintf("d%02d", i), Text: "text of the case", Chunks: []Chunk{{ID: fmt.Sprintf("d%02d#0", i), Start: 0, End: 4}}}
			if _, _, err := tx.PutDocument(d, d.ID, "t", false); err != nil {
				return err
			}
		}
		if err := tx.BeginRuns(); err != nil {
			return err
		}
		for qi, q := range qs {
			for r, run := range []string{"r1", "r2"} {
				for rank := 1; rank <= 3; rank++ {
					doc := fmt.Sprintf("d%02d", (qi+rank+2*r)%12)
					if rank == 2 {
						doc += "#0" // a chunk: the screen may jump to it
					}
					if err := tx.StageRunRow(RunRow{Run: run, Query: q, Doc: doc, Rank: rank, Score: 1 / float64(rank), Line: qi*10 + rank}); err != nil {
						return err
					}
				}
			}
		}
		_, err := tx.WriteRuns(false, func(int) string { return "t.run" })
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return s, qs
}

func TestPoolStratifiedSample(t *testing.T) {
	s, _ := poolFixture(t)
	seed := int64(7)
	p, err := s.CreatePool(PoolSpec{Name: "p", Runs: []string{"r1", "r2"}, Depth: 10, Queries: 5, Stratify: []string{"jurisdiction", "issue"}, Seed: &seed})
	if err != nil {
		t.Fatal(err)
	}
	// By jurisdiction first (AB 1, BC 3, ON 6 → 0, 2, 3), then by issue
	// within each (BC: family 2, tenancy 1 → 1, 1; ON: employment 2,
	// tenancy 4 → 1, 2): worked by hand with Hamilton's method.
	var got []string
	for _, st := range p.Strata {
		got = append(got, fmt.Sprintf("%s %d/%d", strings.Join(st.Values, "/"), st.Sampled, st.Eligible))
	}
	if want := "AB/family 0/1, BC/family 1/2, BC/tenancy 1/1, ON/employment 1/2, ON/tenancy 2/4"; strings.Join(got, ", ") != want {
		t.Errorf("strata %s, want %s", strings.Join(got, ", "), want)
	}
	if p.Eligible != 10 || len(p.Queries) != 5 || p.Batch.Size != 25 {
		t.Errorf("eligible %d, sampled %d, items %d", p.Eligible, len(p.Queries), p.Batch.Size)
	}
	for _, q := range p.Queries {
		if q.Retrieved != 5 || q.Left != 5 {
			t.Errorf("%s: %d retrieved, %d pooled; want 5 and 5", q.Query, q.Retrieved, q.Left)
		}
	}
	// The same seed cuts the same pool, in the same order.
	items, _ := s.BatchItems("p", "")
	s2, _ := poolFixture(t)
	if _, err := s2.CreatePool(PoolSpec{Name: "p", Runs: []string{"r1", "r2"}, Depth: 10, Queries: 5, Stratify: []string{"jurisdiction", "issue"}, Seed: &seed}); err != nil {
		t.Fatal(err)
	}
	again, _ := s2.BatchItems("p", "")
	if !slices.Equal(items, again) {
		t.Errorf("seed %d: %v then %v", seed, items, again)
	}
	// Each query's documents are together (the expert reads the query once).
	var order []string
	for _, id := range items {
		q, _, _ := strings.Cut(id, "/")
		if len(order) == 0 || order[len(order)-1] != q {
			order = append(order, q)
		}
	}
	if len(order) != 5 {
		t.Errorf("queries interleaved: %v", order)
	}
	// A second pool takes the queries whose documents are not pooled yet.
	p2, err := s.CreatePool(PoolSpec{Name: "p2", Runs: []string{"r1", "r2"}, Depth: 10, Seed: &seed})
	if err != nil {
		t.Fatal(err)
	}
	if p2.Eligible != 5 || p2.Batch.Size != 25 {
		t.Errorf("second pool: %d eligible, %d items", p2.Eligible, p2.Batch.Size)
	}
	if _, err := s.CreatePool(PoolSpec{Name: "p3", Runs: []string{"r1"}, Depth: 10}); err == nil || !strings.Contains(err.Error(), "no query has documents left to judge") {
		t.Errorf("nothing left: %v", err)
	}
}

// A pool leaves out what the gold set or anybody judged and what another
// pool holds; depth cuts each run; overlap gives each query's whole pool to
// the least-loaded assignees.
func TestPoolExcludesJudgedAndAssignsByQuery(t *testing.T) {
	s, qs := poolFixture(t)
	err := s.Import(func(tx *Tx) error {
		id, _, err := tx.PutRelevance(qs[0], "d01", "qrels") // r1's rank 1 for q00
		if err != nil {
			return err
		}
		_, err = tx.PutLabel(Label{Annotator: "gold", ItemID: id, Field: schema.Relevance, Value: schema.Relevant})
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	seed := int64(1)
	p, err := s.CreatePool(PoolSpec{Name: "p", Runs: []string{"r1"}, Depth: 2, Seed: &seed, Assign: []string{"jo", "sam"}, Overlap: 1})
	if err != nil {
		t.Fatal(err)
	}
	// Depth 2 of r1: two documents per query, one of q00's in the gold set.
	if p.Batch.Size != 19 || p.Queries[0].Retrieved != 2 {
		t.Errorf("%d items; %+v", p.Batch.Size, p.Queries[0])
	}
	for _, q := range p.Queries {
		if len(q.Assignees) != 1 {
			t.Errorf("%s goes to %v", q.Query, q.Assignees)
		}
	}
	if p.Got["jo"]+p.Got["sam"] != 19 || p.Got["jo"] < 9 || p.Got["sam"] < 9 {
		t.Errorf("assigned %v", p.Got)
	}
	jo, _ := s.BatchItems("p", "jo")
	sam, _ := s.BatchItems("p", "sam")
	for _, id := range jo {
		if slices.Contains(sam, id) {
			t.Errorf("%s is both jo's and sam's with overlap 1", id)
		}
	}
	// Documents judged by anybody are out of later pools too.
	ref, _ := s.Resolve(jo[0])
	if _, err := s.RecordLabel(Label{Annotator: "jo", ItemID: ref.ItemID, Field: schema.Relevance, Value: schema.NotRelevant}); err != nil {
		t.Fatal(err)
	}
	p2, err := s.CreatePool(PoolSpec{Name: "p2", Runs: []string{"r1", "r2"}, Depth: 3, Seed: &seed})
	if err != nil {
		t.Fatal(err)
	}
	// r1 and r2 at depth 3: 5 distinct per query, 50; minus 19 pooled and
	// the gold one.
	if p2.Batch.Size != 50-19-1 {
		t.Errorf("second pool %d items, want 30", p2.Batch.Size)
	}
	// Unknown runs and attributes are named; r9 is one substitution from
	// r1 and from r2, so both are suggested.
	if _, err := s.CreatePool(PoolSpec{Name: "x", Runs: []string{"r9"}, Depth: 1}); err == nil || !strings.Contains(err.Error(), `no run "r9"; did you mean "r1" or "r2"? (runs: r1, r2)`) {
		t.Errorf("%v", err)
	}
	if _, err := s.CreatePool(PoolSpec{Name: "x", Runs: []string{"r1"}, Depth: 1, Queries: 2, Stratify: []string{"court"}}); err == nil || !strings.Contains(err.Error(), "--stratify") {
		t.Errorf("%v", err)
	}
}

// What the relevance screen loads carries no run, rank or score: the
// payload has no such field (at any depth), and the run tables are read
// only for the chunks some run retrieved.
func TestRelevancePayloadIsBlind(t *testing.T) {
	s, qs := poolFixture(t)
	seed := int64(2)
	if _, err := s.CreatePool(PoolSpec{Name: "p", Runs: []string{"r1", "r2"}, Depth: 3, Seed: &seed}); err != nil {
		t.Fatal(err)
	}
	var check func(tp reflect.Type, path string)
	seen := map[reflect.Type]bool{}
	check = func(tp reflect.Type, path string) {
		for tp.Kind() == reflect.Pointer || tp.Kind() == reflect.Slice {
			tp = tp.Elem()
		}
		if tp.Kind() != reflect.Struct || seen[tp] {
			return
		}
		seen[tp] = true
		for i := 0; i < tp.NumField(); i++ {
			f := tp.Field(i)
			name := strings.ToLower(f.Name)
			for _, bad := range []string{"run", "rank", "score", "system"} {
				if strings.Contains(name, bad) {
					t.Errorf("%s.%s: the relevance screen must not see a %s", path, f.Name, bad)
				}
			}
			check(f.Type, path+"."+f.Name)
		}
	}
	check(reflect.TypeOf(Relevance{}), "Relevance")
	id := mustResolve(t, s, qs[0]+"/d02") // r1's rank 2 for q00 was the chunk d02#0
	v, err := s.LoadItemView("jo", id)
	if err != nil {
		t.Fatal(err)
	}
	r := v.Item.Payload.(*Relevance)
	if r.Query.ID != qs[0] || r.Document.ID != "d02" || r.Document.Text == "" || len(r.Retrieved) != 1 || r.Retrieved[0].ID != "d02#0" {
		t.Errorf("payload %+v", r)
	}
}

// The kept counts follow relevance items as they are pooled, judged (with a
// grade), undone, and as gold pairs that no pool holds are imported.
func TestRelevanceKeptCountsEqualRecount(t *testing.T) {
	s, qs := poolFixture(t)
	err := s.Import(func(tx *Tx) error {
		id, _, err := tx.PutRelevance(qs[1], "d02", "qrels")
		if err != nil {
			return err
		}
		_, err = tx.PutLabel(Label{Annotator: "gold", ItemID: id, Field: schema.Relevance, Value: schema.Relevant})
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	if msg := checkKept(t, s); msg != "" {
		t.Fatal("after qrels: " + msg)
	}
	seed := int64(4)
	if _, err := s.CreatePool(PoolSpec{Name: "p", Runs: []string{"r1"}, Depth: 3, Seed: &seed, Assign: []string{"jo", "sam"}, Graded: true}); err != nil {
		t.Fatal(err)
	}
	if msg := checkKept(t, s); msg != "" {
		t.Fatal("after the pool: " + msg)
	}
	mine, _ := s.BatchItems("p", "jo")
	for i, ext := range mine[:4] {
		id := mustResolve(t, s, ext)
		if _, err := s.RecordGradedRelevance(Label{Annotator: "jo", ItemID: id}, i%3); err != nil {
			t.Fatal(err)
		}
		if i%3 == 0 {
			if _, err := s.RecordLabel(Label{Annotator: "jo", ItemID: id, Field: schema.IrrelevanceReason, Value: "different_posture"}); err != nil {
				t.Fatal(err)
			}
		}
		if _, err := s.RecordLabel(Label{Annotator: "sam", ItemID: id, Field: schema.Relevance, Value: schema.Relevant}); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := s.Undo("jo"); err != nil {
		t.Fatal(err)
	}
	if msg := checkKept(t, s); msg != "" {
		t.Fatal("after judgments: " + msg)
	}
	// The gold pair is no work and no pool holds it: the pool's 29 items
	// (30 retrieved, one in the gold set) count; jo finished 3 (the undo
	// took the fourth's reason back, which it asks again).
	var items, done int
	s.db.QueryRow("SELECT COALESCE(SUM(n),0) FROM kept_counts WHERE name='items' AND a='relevance'").Scan(&items)
	s.db.QueryRow("SELECT COUNT(*) FROM done_items d JOIN annotators a ON a.id=d.annotator_id WHERE a.name='jo'").Scan(&done)
	if items != 29 || done != 3 {
		t.Errorf("%d relevance items counted, jo done %d", items, done)
	}
}
