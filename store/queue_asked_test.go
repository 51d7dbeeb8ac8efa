package store

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/annotate-dev/annotate/schema"
)

// TestAskedQueuesEqualTheRule is the property test of asked_items: after
// every step of the random walks of the kept counts' test (imports, pairs
// imported as given, labels that change what an answer's claims ask, undos,
// adjudications, batches that ask at once or only of the assignees' correct
// answers, added claims), every claim queue of every annotator (open, and
// each claim batch by name) holds the items the asked-when rule reads from
// the labels (offeredCond, below: the queries the queues ran before
// asked_items), in the same order and pages; each item's key and rank
// follow the rule too, and the queue's size is that of the rule's. The QA
// pairs' queues are held to their items the same way.
func TestAskedQueuesEqualTheRule(t *testing.T) {
	for seed := range uint64(10) {
		t.Run(fmt.Sprint(seed), func(t *testing.T) {
			s := openTemp(t)
			r := rand.New(rand.NewPCG(seed, 31))
			w := &walker{t: t, s: s, r: r}
			for step := range 40 {
				what := w.step()
				if msg := checkAskedQueues(t, s, r); msg != "" {
					t.Fatalf("seed %d, step %d (%s): %s", seed, step, what, msg)
				}
			}
		})
	}
}

// checkAskedQueues compares every claim queue with the rule's; it returns
// what differs.
func checkAskedQueues(t *testing.T, s *Store, r *rand.Rand) string {
	t.Helper()
	var diffs []string
	// The QA pairs' queues too: they ask everyone, but their first page
	// also trusts the kept counts when these say the queue is finished.
	for _, kind := range []string{"claim", "qa"} {
		diffs = append(diffs, checkKindQueues(t, s, r, kind)...)
	}
	if len(diffs) > 8 {
		diffs = append(diffs[:8], "…")
	}
	return strings.Join(diffs, "\n")
}

// checkKindQueues compares every queue of a kind with the rule's.
func checkKindQueues(t *testing.T, s *Store, r *rand.Rand, kind string) []string {
	batches, err := strs(s.db, "SELECT name FROM batches WHERE kind = ? ORDER BY id", kind)
	if err != nil {
		t.Fatal(err)
	}
	items, err := int64s(s.db, "SELECT id FROM items WHERE kind = ? ORDER BY id", kind)
	if err != nil {
		t.Fatal(err)
	}
	var diffs []string
	for _, who := range append(slices.Clone(people), "kim") { // kim: no labels, no assignments
		for _, batch := range append([]string{""}, batches...) {
			q := QueueQuery{Annotator: who, Kind: kind, Batch: batch}
			name := fmt.Sprintf("%s's %s queue %q", who, kind, batch)
			want, rank := ruleQueue(t, s, q)
			// Paged as the screens page it, a few items at a time.
			var got []string
			q.Limit = 1 + r.IntN(3)
			for {
				page, err := s.pooled().Queue(q)
				if err != nil {
					t.Fatal(err)
				}
				for _, e := range page {
					got = append(got, fmt.Sprint(e.ItemID, "@", e.Key))
				}
				if len(page) < q.Limit {
					break
				}
				q.After = page[len(page)-1].Key
			}
			q.After, q.Limit = 0, 0
			if !slices.Equal(got, want) {
				diffs = append(diffs, fmt.Sprintf("%s: %v, the rule's %v", name, got, want))
			}
			for _, id := range items {
				key, in, err := s.pooled().QueueKey(q, id)
				if err != nil {
					t.Fatal(err)
				}
				wantKey, wantIn := rank.key[id]
				if in != wantIn || key != wantKey {
					diffs = append(diffs, fmt.Sprintf("%s: item %d key %d in %v, the rule's %d %v", name, id, key, in, wantKey, wantIn))
					continue
				}
				if !in {
					continue
				}
				n, err := s.pooled().QueueRank(q, 0, key)
				if err != nil {
					t.Fatal(err)
				}
				if n != rank.pos[id] {
					diffs = append(diffs, fmt.Sprintf("%s: item %d at %d, the rule's %d", name, id, n, rank.pos[id]))
				}
			}
			total, err := s.pooled().QueueTotal(q)
			if err != nil {
				t.Fatal(err)
			}
			if total != len(rank.pos) {
				diffs = append(diffs, fmt.Sprintf("%s: %d items, the rule's %d", name, total, len(rank.pos)))
			}
		}
	}
	return diffs
}

// ruleRanks are the keys and positions (from 1) of a queue's items, done
// or not, by the rule.
type ruleRanks struct {
	key map[int64]int64
	pos map[int64]int
}

// ruleQueue is a queue by the rule read from the labels: its unfinished
// items in order ("item@key"), and the keys and positions of all its items.
func ruleQueue(t *testing.T, s *Store, q QueueQuery) ([]string, ruleRanks) {
	t.Helper()
	sc, err := queueScopeOf(s.db, q)
	if err != nil {
		t.Fatal(err)
	}
	from, key, item, args := sc.keyed()
	offered, oargs := offeredCond(schema.Kind(q.Kind), item, sc.annotator)
	if offered == "" {
		offered = "1" // a kind that asks everyone
	}
	rows, err := s.db.Query("SELECT "+item+", "+key+", EXISTS (SELECT 1 FROM done_items d WHERE d.item_id = "+item+" AND d.annotator_id = ?), "+
		"EXISTS (SELECT 1 FROM done_items d WHERE d.item_id = "+item+" AND d.annotator_id = ? AND d.gated) FROM "+from+" AND "+offered+" ORDER BY "+key,
		append(append([]any{sc.annotator, sc.annotator}, args...), oargs...)...)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	rk := ruleRanks{key: map[int64]int64{}, pos: map[int64]int{}}
	var todo []string
	for rows.Next() {
		var id, k int64
		var done, gated bool
		if err := rows.Scan(&id, &k, &done, &gated); err != nil {
			t.Fatal(err)
		}
		if gated {
			continue // asks the annotator nothing: not in the queue, nor in its total
		}
		rk.key[id] = k
		rk.pos[id] = len(rk.pos) + 1
		if !done {
			todo = append(todo, fmt.Sprint(id, "@", k))
		}
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return todo, rk
}

// The rule read from the labels, as the queues read it before asked_items:
// the obvious queries TestAskedQueuesEqualTheRule holds the fast ones to.

// offeredCond is, for a kind that waits for its parent's labels, the SQL
// condition that the item whose id is the expression item is asked of the
// annotator of id aid: its parent is given, or aid's labels on the parent
// ask it (schema.Offered: an answer judged correct), or it is in a batch
// that asks at once (open, or assigned to aid). The parent gate (an answer
// judged incorrect) is left to done_items. "" for other kinds.
func offeredCond(kind schema.Kind, item string, aid int64) (string, []any) {
	if !schema.WaitsForParent(kind) {
		return "", nil
	}
	parent := "(SELECT parent_id FROM items WHERE id = " + item + ")"
	if item == "i.id" {
		parent = "i.parent_id"
	}
	var sets []string
	if g, ok := kinds.Get(kind).(GivenParent); ok {
		sets = append(sets, g.GivenParentsSQL())
	}
	sets = append(sets, parentsAsking(kind))
	return "(" + parent + " IN (" + strings.Join(sets, " UNION ") + ") OR " + item + " IN (" + atOnceItems + "))", []any{aid, aid}
}

// atOnceItems lists the items of the batches that ask at once, for the
// annotator ? : open batches, and those assigned to them.
const atOnceItems = `SELECT obi.item_id FROM batch_items obi JOIN batches ob ON ob.id = obi.batch_id
	WHERE ob.asks_at_once AND (NOT EXISTS (SELECT 1 FROM batch_assignees ox WHERE ox.batch_id = ob.id)
		OR EXISTS (SELECT 1 FROM assignments oa WHERE oa.batch_id = ob.id AND oa.item_id = obi.item_id AND oa.annotator_id = ?))`

// parentsAsking lists the parents whose counted labels by the annotator ?
// ask the kind's items (schema's OnlyOnceParent, each field's own asked-when
// conditions holding too: of claims, the pairs whose answer they judged
// correct, the question valid).
func parentsAsking(kind schema.Kind) string {
	sp := schema.SpecOf(kind)
	if sp == nil || len(sp.OnlyOnceParent) == 0 {
		return "SELECT 0 WHERE 0"
	}
	var or []string
	for _, c := range sp.OnlyOnceParent {
		cond := "l.field = " + quote(c.Field) + " AND l.value IN (" + quoteAll(c.Values) + ")"
		for _, a := range askedIf(c.Field) {
			cond += " AND " + labelIn("l.item_id", a, "v.role = 'annotate' AND v.annotator_id = l.annotator_id")
		}
		or = append(or, "("+cond+")")
	}
	return "SELECT l.item_id FROM current_labels l WHERE l.role = 'annotate' AND l.annotator_id = ? AND (" + strings.Join(or, " OR ") + ")"
}

// strs reads one text column.
func strs(q querier, query string, args ...any) ([]string, error) {
	var out []string
	err := eachRow(q, query, args, func(sc func(...any) error) error {
		var v string
		err := sc(&v)
		out = append(out, v)
		return err
	})
	return out, err
}
