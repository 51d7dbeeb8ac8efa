package store

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"slices"
	"sort"
	"strings"

	"github.com/annotate-dev/annotate/schema"

	"github.com/annotate-dev/annotate/internal/jsontext"
	"github.com/annotate-dev/annotate/internal/suggest"
)

// Relevance pools (docs/relevance.md, the paper's §4.3):
// a stratified sample of queries, then for each the union of the runs' top
// documents that nobody has judged and no pool holds yet, shuffled, as one
// batch of relevance items. The batch is a batch like any other (queues,
// progress, overlap, agreement); how it was cut is kept in relevance_pools.

// PoolSpec describes a pool to cut.
type PoolSpec struct {
	Name     string
	Runs     []string
	Depth    int      // each run's top documents per query
	Queries  int      // queries to sample; 0: every query with documents left to judge
	Stratify []string // query attributes, outermost first: jurisdiction, issue, persona
	Seed     *int64   // nil: a random seed, recorded and returned
	Assign   []string
	Overlap  int // assignees per query; 0: all
	Graded   bool
	Pilot    bool
}

// PoolAttrs are the query attributes a pool may be stratified by.
var PoolAttrs = []string{"jurisdiction", "issue", "persona"}

// Pool is what CreatePool did.
type Pool struct {
	Batch    Batch
	Seed     int64
	Eligible int // queries with documents left to judge
	Strata   []Stratum
	Queries  []PoolQuery // in batch order
	Got      map[string]int
}

// Stratum is one cell of the stratification: its attribute values, its
// eligible queries and how many were sampled.
type Stratum struct {
	Values   []string
	Eligible int
	Sampled  int
}

// PoolQuery is one sampled query's pool.
type PoolQuery struct {
	Query     string
	Retrieved int // distinct documents in the runs' top Depth
	Left      int // of those, neither judged nor pooled before: the pool
	Assignees []string
}

// poolQuery is an eligible query while the pool is cut.
type poolQuery struct {
	id    int64
	ext   string
	attrs map[string]string
	docs  []int64 // distinct top documents, by id
	left  []int64
}

// CreatePool cuts a relevance pool into a new batch.
func (s *Store) CreatePool(spec PoolSpec) (Pool, error) {
	if err := checkPoolSpec(spec); err != nil {
		return Pool{}, err
	}
	if spec.Overlap == 0 {
		spec.Overlap = len(spec.Assign)
	}
	var seed int64
	if spec.Seed != nil {
		seed = *spec.Seed
	} else {
		seed = rand.Int64N(1 << 31)
	}
	var p Pool
	err := s.write(func(tx *wtx) error {
		if err := batchNameFree(tx, spec.Name); err != nil {
			return err
		}
		if err := checkRuns(tx, spec.Runs); err != nil {
			return err
		}
		aids, err := assigneeIDs(tx, spec.Assign)
		if err != nil {
			return err
		}
		eligible, err := eligibleQueries(tx, spec)
		if err != nil {
			return err
		}
		if len(eligible) == 0 {
			return fmt.Errorf("no query has documents left to judge in the top %d of %s: every one is judged, in the gold set or pooled already", spec.Depth, strings.Join(spec.Runs, ", "))
		}
		r := rand.New(rand.NewPCG(uint64(seed), 0x616e6e6f74617465))
		sampled, strata := sampleQueries(eligible, spec.Queries, spec.Stratify, r)
		p = Pool{Seed: seed, Eligible: len(eligible), Strata: strata}
		bid, err := insertPoolBatch(tx, spec, seed, len(sampled), aids)
		if err != nil {
			return err
		}
		load, size, err := fillPool(tx, &p, spec, bid, sampled, aids, r)
		if err != nil {
			return err
		}
		p.Batch = Batch{Name: spec.Name, Kind: string(schema.KindRelevance), Pilot: spec.Pilot, Size: size, Overlap: spec.Overlap, Assignees: spec.Assign}
		if len(aids) > 0 {
			p.Got = gotOf(spec.Assign, load)
		}
		return nil
	})
	return p, err
}

// checkPoolSpec refuses a pool of no depth, of no runs, stratified by an
// unknown attribute, or with an overlap beyond the assignees.
func checkPoolSpec(spec PoolSpec) error {
	if spec.Depth < 1 {
		return fmt.Errorf("--depth %d: want at least 1 document per run and query", spec.Depth)
	}
	if len(spec.Runs) == 0 {
		return fmt.Errorf("--runs: name the runs whose documents are pooled")
	}
	for _, a := range spec.Stratify {
		if !slices.Contains(PoolAttrs, a) {
			return fmt.Errorf("--stratify %q: want a list of %s", a, strings.Join(PoolAttrs, ", "))
		}
	}
	if spec.Overlap < 0 || spec.Overlap > len(spec.Assign) {
		return fmt.Errorf("--overlap %d: must be between 1 and the number of assignees (%d)", spec.Overlap, len(spec.Assign))
	}
	return nil
}

// insertPoolBatch writes the pool's batch, its assignees and how it was cut.
func insertPoolBatch(tx *wtx, spec PoolSpec, seed int64, queries int, aids []int64) (int64, error) {
	bid, err := insertBatchRow(tx, newBatch{name: spec.Name, kind: string(schema.KindRelevance), pilot: spec.Pilot, overlap: spec.Overlap, seed: &seed},
		spec.Assign, aids)
	if err != nil {
		return 0, err
	}
	runsJSON, _ := json.Marshal(spec.Runs)
	_, err = tx.Exec("INSERT INTO relevance_pools(batch_id, runs, depth, queries, stratify, graded) VALUES (?,?,?,?,?,?)",
		bid, string(runsJSON), spec.Depth, queries, strings.Join(spec.Stratify, ","), spec.Graded)
	return bid, err
}

// fillPool writes, query by query, the sampled queries' documents left to
// judge as relevance items of the batch, shuffled. A query's whole pool goes
// to the same assignees (the least loaded): an expert reads a query once for
// all its documents. It notes each query in p.Queries and returns each
// assignee's count of items and the batch's size.
func fillPool(tx *wtx, p *Pool, spec PoolSpec, bid int64, sampled []*poolQuery, aids []int64, r *rand.Rand) ([]int, int, error) {
	t := &Tx{tx: tx, sources: map[string]int64{}}
	docExt, err := poolDocIDs(tx, sampled)
	if err != nil {
		return nil, 0, err
	}
	load := make([]int, len(aids))
	pos := 0
	for _, q := range sampled {
		r.Shuffle(len(q.left), func(i, j int) { q.left[i], q.left[j] = q.left[j], q.left[i] })
		to := leastLoaded(allIndexes(len(aids)), load, spec.Overlap)
		pq := PoolQuery{Query: q.ext, Retrieved: len(q.docs), Left: len(q.left)}
		for _, a := range to {
			load[a] += len(q.left)
			pq.Assignees = append(pq.Assignees, spec.Assign[a])
		}
		p.Queries = append(p.Queries, pq)
		for _, d := range q.left {
			id, _, err := putRelevance(t, q.id, d, q.ext, docExt[d], "")
			if err != nil {
				return nil, 0, err
			}
			if err := tx.touch(id); err != nil {
				return nil, 0, err
			}
			pos++
			if err := insertMember(tx, bid, pos, id, aids, to); err != nil {
				return nil, 0, err
			}
		}
	}
	return load, pos, nil
}

func allIndexes(n int) []int {
	out := make([]int, n)
	for i := range out {
		out[i] = i
	}
	return out
}

// checkRuns says which runs do not exist, naming those that do.
func checkRuns(q querier, runs []string) error {
	var known []string
	err := eachRow(q, "SELECT name FROM runs ORDER BY name", nil, func(sc func(...any) error) error {
		var n string
		err := sc(&n)
		known = append(known, n)
		return err
	})
	if err != nil {
		return err
	}
	for _, r := range runs {
		if !slices.Contains(known, r) {
			if len(known) == 0 {
				return fmt.Errorf("no run %q: the database has no runs (annotate import --format trec-run FILE)", r)
			}
			return fmt.Errorf("no run %q%s (runs: %s)", r, suggest.Hint(r, known), strings.Join(known, ", "))
		}
	}
	return nil
}

// eligibleQueries reads the queries the runs retrieved documents for, with
// those documents and the ones left to judge: not judged by anyone (the
// gold set's qrels included) and in no relevance batch.
func eligibleQueries(tx *wtx, spec PoolSpec) ([]*poolQuery, error) {
	runs := jsontext.Strings(spec.Runs)
	byID := map[int64]*poolQuery{}
	var order []*poolQuery
	err := eachRow(tx, `SELECT x.query_item_id, qi.ext_id, q.persona, q.jurisdiction, q.issue, x.doc_item_id,
			EXISTS (SELECT 1 FROM relevance_pairs rp JOIN current_labels l ON l.item_id = rp.item_id AND l.field = 'relevance'
				WHERE rp.query_item_id = x.query_item_id AND rp.doc_item_id = x.doc_item_id)
			OR EXISTS (SELECT 1 FROM relevance_pairs rp JOIN batch_items bi ON bi.item_id = rp.item_id JOIN batches b ON b.id = bi.batch_id AND b.kind = 'relevance'
				WHERE rp.query_item_id = x.query_item_id AND rp.doc_item_id = x.doc_item_id)
		FROM (SELECT DISTINCT r.query_item_id, j.value AS doc_item_id FROM run_lists r JOIN runs n ON n.id = r.run_id, json_each(r.docs) j
			WHERE n.name IN (SELECT value FROM json_each(?)) AND j.key < ?) x
		JOIN items qi ON qi.id = x.query_item_id JOIN queries q ON q.item_id = x.query_item_id
		ORDER BY x.query_item_id, x.doc_item_id`, []any{runs, spec.Depth}, func(sc func(...any) error) error {
		var qid, did int64
		var ext, persona, jur, issue string
		var done bool
		if err := sc(&qid, &ext, &persona, &jur, &issue, &did, &done); err != nil {
			return err
		}
		q := byID[qid]
		if q == nil {
			q = &poolQuery{id: qid, ext: ext, attrs: map[string]string{"persona": persona, "jurisdiction": jur, "issue": issue}}
			byID[qid] = q
			order = append(order, q)
		}
		q.docs = append(q.docs, did)
		if !done {
			q.left = append(q.left, did)
		}
		return nil
	})
	var out []*poolQuery
	for _, q := range order {
		if len(q.left) > 0 {
			out = append(out, q)
		}
	}
	return out, err
}

// sampleQueries draws n queries (all when n is 0 or at least their number)
// by proportional allocation over the strata, attribute by attribute
// (the paper's "by province first and by legal issue second"): each level's
// quota is split among its groups in proportion to their sizes, the seats
// left by rounding down going to the largest remainders (ties: the larger
// group, then the group's name). Within a stratum the queries are drawn
// uniformly. The sample comes back shuffled; strata in name order.
func sampleQueries(qs []*poolQuery, n int, attrs []string, r *rand.Rand) ([]*poolQuery, []Stratum) {
	if n <= 0 || n > len(qs) {
		n = len(qs)
	}
	var out []*poolQuery
	var strata []Stratum
	var split func(group []*poolQuery, quota, level int, values []string)
	split = func(group []*poolQuery, quota, level int, values []string) {
		if level == len(attrs) {
			pick := slices.Clone(group)
			r.Shuffle(len(pick), func(i, j int) { pick[i], pick[j] = pick[j], pick[i] })
			out = append(out, pick[:quota]...)
			strata = append(strata, Stratum{Values: slices.Clone(values), Eligible: len(group), Sampled: quota})
			return
		}
		groups := map[string][]*poolQuery{}
		for _, q := range group {
			v := q.attrs[attrs[level]]
			groups[v] = append(groups[v], q)
		}
		names := make([]string, 0, len(groups))
		sizes := make([]int, 0, len(groups))
		for v := range groups {
			names = append(names, v)
		}
		sort.Strings(names)
		for _, v := range names {
			sizes = append(sizes, len(groups[v]))
		}
		for i, seats := range LargestRemainder(quota, sizes) {
			split(groups[names[i]], seats, level+1, append(values, names[i]))
		}
	}
	split(qs, n, 0, nil)
	r.Shuffle(len(out), func(i, j int) { out[i], out[j] = out[j], out[i] })
	return out, strata
}

// LargestRemainder splits n seats among groups in proportion to their
// sizes (Hamilton's method): each gets the whole part of its share, and the
// seats left go to the largest fractional parts; ties go to the larger
// group, then to the earlier one.
func LargestRemainder(n int, sizes []int) []int {
	total := 0
	for _, s := range sizes {
		total += s
	}
	out := make([]int, len(sizes))
	if total == 0 {
		return out
	}
	type rem struct {
		i    int
		frac int // numerator of the fractional part, over total
	}
	var rems []rem
	left := n
	for i, s := range sizes {
		out[i] = n * s / total
		left -= out[i]
		rems = append(rems, rem{i, n * s % total})
	}
	sort.SliceStable(rems, func(a, b int) bool {
		if rems[a].frac != rems[b].frac {
			return rems[a].frac > rems[b].frac
		}
		return sizes[rems[a].i] > sizes[rems[b].i]
	})
	for j := 0; j < left; j++ {
		out[rems[j].i]++
	}
	return out
}

// poolDocIDs reads the ext ids of the sampled queries' documents.
func poolDocIDs(q querier, qs []*poolQuery) (map[int64]string, error) {
	var ids []int64
	for _, x := range qs {
		ids = append(ids, x.left...)
	}
	return extIDsOf(q, ids)
}

// PooledQueries lists the queries that have a relevance pool, by id.
func (rx *ReadTx) PooledQueries() ([]int64, error) {
	return int64s(rx.q, `SELECT DISTINCT rp.query_item_id FROM relevance_pairs rp
		JOIN batch_items bi ON bi.item_id = rp.item_id JOIN batches b ON b.id = bi.batch_id AND b.kind = 'relevance' ORDER BY 1`)
}

// JudgedSizes lists, query by query, how many of its (query, document)
// pairs an expert judged: pairs with a label of an annotator other than the
// gold set, or adjudicated (the pairs the kept counts count once no pool
// holds them: tally/kind_relevance.go).
func (rx *ReadTx) JudgedSizes() ([]int, error) {
	var out []int
	err := eachRow(rx.q, `SELECT COUNT(*) FROM relevance_pairs rp
		WHERE EXISTS (SELECT 1 FROM current_labels l WHERE l.item_id = rp.item_id
			AND (l.role = ? OR l.annotator_id IS NOT (SELECT id FROM annotators WHERE name = ?)))
		GROUP BY rp.query_item_id ORDER BY rp.query_item_id`, []any{RoleAdjudicate, GoldAnnotator}, func(sc func(...any) error) error {
		var n int
		err := sc(&n)
		out = append(out, n)
		return err
	})
	return out, err
}
