package store

import (
	"fmt"
	"strings"

	"github.com/annotate-dev/annotate/schema"

	"github.com/annotate-dev/annotate/internal/suggest"
)

// BatchSpec describes a batch to cut.
type BatchSpec struct {
	Name    string
	Kind    string // an annotated kind
	Size    int    // 0: every remaining item
	Pilot   bool
	Source  string   // only items of this source
	Hop     string   // "single" | "multi": only items of pairs with this hop ("" : any)
	Assign  []string // assignees; none: open to everyone
	Overlap int      // each item goes to Overlap assignees; 0 or len(Assign): to all
	Seed    *int64   // shuffle the chosen items reproducibly
	// OnlyCorrectAnswers keeps the items of answers judged correct (the
	// paper's flow: claims are verified only for correct answers), judged by
	// the assignee they go to (an assignee gets only claims of answers they
	// judged correct), or with Adjudicated by the lead.
	OnlyCorrectAnswers bool
	Adjudicated        bool
	// WithoutQA asks the batch's claims at once, whatever the assignees'
	// labels on their answers (answers judged elsewhere, or not at all).
	// A batch cut with OnlyCorrectAnswers and Adjudicated asks at once too:
	// the lead's labels stand for the answers.
	WithoutQA bool
}

// AsksAtOnce reports whether a batch cut with the spec asks its items at
// once rather than once each assignee judged their answers.
func (spec BatchSpec) AsksAtOnce() bool {
	return spec.WithoutQA || spec.OnlyCorrectAnswers && spec.Adjudicated
}

// Batch is a batch with its members' count and assignees.
type Batch struct {
	Name      string
	Kind      string
	Pilot     bool
	Size      int
	Overlap   int
	Source    string
	Assignees []string
	CreatedAt string
	// Got counts, with OnlyCorrectAnswers per assignee, the items each got:
	// only those of answers they judged correct.
	Got map[string]int
	// AtOnce: the batch asks its items at once (BatchSpec.AsksAtOnce).
	AtOnce bool
}

// parentAsks is the SQL condition that the parent at expr has labels that
// ask its kind's items (schema's OnlyOnceParent and the asked-when rule of
// those fields) by the rater the condition who names over labels v; n is
// how many times who appears (its arguments repeat as many times).
func parentAsks(kind schema.Kind, expr, who string) (cond string, n int) {
	var or []string
	for _, c := range schema.SpecOf(kind).OnlyOnceParent {
		and := []string{labelIn(expr, c, who)}
		for _, a := range askedIf(c.Field) {
			and = append(and, labelIn(expr, a, who))
		}
		n += len(and)
		or = append(or, "("+strings.Join(and, " AND ")+")")
	}
	return "(" + strings.Join(or, " OR ") + ")", n
}

// askedIf is the asked-when rule of a field.
func askedIf(field string) []schema.Cond {
	f, _ := schema.Lookup(field)
	return f.AskedIf
}

// labelIn: the item at expr has a current label v meeting c, by who.
func labelIn(expr string, c schema.Cond, who string) string {
	return "EXISTS (SELECT 1 FROM current_labels v WHERE v.item_id = " + expr + " AND v.field = " + quote(c.Field) +
		" AND v.value IN (" + quoteAll(c.Values) + ") AND " + who + ")"
}

func quote(s string) string { return "'" + strings.ReplaceAll(s, "'", "''") + "'" }

func quoteAll(xs []string) string {
	q := make([]string, len(xs))
	for i, x := range xs {
		q[i] = quote(x)
	}
	return strings.Join(q, ", ")
}

// atOnceCond is, for one item, the part of offeredCond that does not read
// aid's labels: the item is asked of aid at once.
func atOnceCond(kind schema.Kind, item string, aid int64) (string, []any) {
	if !schema.WaitsForParent(kind) {
		return "", nil
	}
	parent := "(SELECT parent_id FROM items WHERE id = " + item + ")"
	var or []string
	if g, ok := kinds.Get(kind).(GivenParent); ok {
		or = append(or, strings.ReplaceAll(g.GivenParentSQL(), "{parent}", parent))
	}
	or = append(or, `EXISTS (SELECT 1 FROM batch_items obi JOIN batches ob ON ob.id = obi.batch_id
		WHERE obi.item_id = `+item+` AND ob.asks_at_once AND (NOT EXISTS (SELECT 1 FROM batch_assignees ox WHERE ox.batch_id = ob.id)
			OR EXISTS (SELECT 1 FROM assignments oa WHERE oa.batch_id = ob.id AND oa.item_id = `+item+` AND oa.annotator_id = ?)))`)
	return "(" + strings.Join(or, " OR ") + ")", []any{aid}
}

// answerSQL is the expression of the id of the pair whose answer gates an
// item of the kind (AnswerGated), "" for a kind gated by no answer.
func answerSQL(k schema.Kind) string {
	if a, ok := kinds.Get(k).(AnswerGated); ok {
		return a.AnswerSQL()
	}
	return ""
}

// candidates is the SQL condition (over items i) of a spec's items, and its
// arguments: the kind, a source, a hop; free restricts to items in no batch
// of their kind; correct to items of answers judged correct (by one of
// assignees, or adjudicated).
func candidates(spec BatchSpec, free, correct bool, assignees []int64) (string, []any, error) {
	kind, ok := kinds.Lookup(schema.Kind(spec.Kind))
	if sp := schema.SpecOf(schema.Kind(spec.Kind)); sp == nil || !sp.Annotated || !ok {
		return "", nil, fmt.Errorf("batch kind %q: must be one of %s%s", spec.Kind, strings.Join(schema.KindNames(), ", "), suggest.Hint(spec.Kind, schema.KindNames()))
	}
	where := []string{"i.kind = ?"}
	args := []any{spec.Kind}
	if q, ok := kind.(QueueCond); ok {
		where = append(where, q.QueueCond())
	}
	if free {
		where = append(where, "NOT EXISTS (SELECT 1 FROM batch_items bi JOIN batches b ON b.id = bi.batch_id WHERE bi.item_id = i.id AND b.kind = i.kind)")
	}
	if spec.Source != "" {
		where = append(where, "i.source_id = (SELECT id FROM sources WHERE name = ?)")
		args = append(args, spec.Source)
	}
	if spec.Hop != "" {
		h, ok := kind.(Hopped)
		if !ok {
			return "", nil, fmt.Errorf("--hop: %s items have no hop", spec.Kind)
		}
		where = append(where, h.HopSQL()+" = ?")
		args = append(args, spec.Hop)
	}
	if correct {
		answer := answerSQL(kind.Kind())
		if answer == "" {
			return "", nil, fmt.Errorf("--only-correct-answers: %s items belong to no answer", spec.Kind)
		}
		switch {
		case spec.Adjudicated:
			cond, _ := parentAsks(schema.Kind(spec.Kind), answer, "v.role = 'adjudicate'")
			where = append(where, cond)
		default:
			cond, n := parentAsks(schema.Kind(spec.Kind), answer, "v.role = 'annotate' AND v.annotator_id IN (SELECT value FROM json_each(?))")
			where = append(where, cond)
			for range n {
				args = append(args, jsonInts(assignees))
			}
		}
	}
	return strings.Join(where, " AND "), args, nil
}

// CreateBatch takes the next items of a kind that are in no batch of that kind
// yet (import order, optionally one source or hop), shuffles them with the
// seed if given, and assigns them. Each item goes to Overlap assignees,
// balanced round-robin, so every assignee gets the same number of items when
// they divide; with OnlyCorrectAnswers (not adjudicated), only to assignees
// who judged its answer correct, the least loaded first.
func (s *Store) CreateBatch(spec BatchSpec) (Batch, error) {
	if err := checkBatchSpec(spec); err != nil {
		return Batch{}, err
	}
	if spec.Overlap == 0 {
		spec.Overlap = len(spec.Assign)
	}
	var b Batch
	err := s.write(func(tx *wtx) error {
		if err := batchNameFree(tx, spec.Name); err != nil {
			return err
		}
		aids, err := assigneeIDs(tx, spec.Assign)
		if err != nil {
			return err
		}
		ids, err := batchCandidates(tx, spec, aids)
		if err != nil {
			return err
		}
		bid, err := insertBatchRow(tx, newBatch{name: spec.Name, kind: spec.Kind, source: spec.Source, pilot: spec.Pilot,
			atOnce: spec.AsksAtOnce(), overlap: spec.Overlap, seed: spec.Seed}, spec.Assign, aids)
		if err != nil {
			return err
		}
		if err := tx.touch(ids...); err != nil {
			return err
		}
		load, err := assignBatch(tx, spec, bid, ids, aids)
		if err != nil {
			return err
		}
		b = Batch{Name: spec.Name, Kind: spec.Kind, Pilot: spec.Pilot, Size: len(ids), Overlap: spec.Overlap, Source: spec.Source, Assignees: spec.Assign,
			AtOnce: spec.AsksAtOnce()}
		if spec.OnlyCorrectAnswers && !spec.Adjudicated {
			b.Got = gotOf(spec.Assign, load)
		}
		return nil
	})
	return b, err
}

// checkBatchSpec refuses the flag combinations that cut no sensible batch.
func checkBatchSpec(spec BatchSpec) error {
	switch {
	case spec.Overlap < 0 || spec.Overlap > len(spec.Assign):
		return fmt.Errorf("--overlap %d: must be between 1 and the number of assignees (%d)", spec.Overlap, len(spec.Assign))
	case spec.OnlyCorrectAnswers && !spec.Adjudicated && len(spec.Assign) == 0:
		return fmt.Errorf("--only-correct-answers takes each assignee's own answer labels: name them with --assign, or use --adjudicated for the lead's")
	case spec.WithoutQA && spec.OnlyCorrectAnswers:
		return fmt.Errorf("--without-qa takes the claims of every answer, judged or not: it does not go with --only-correct-answers")
	case spec.WithoutQA && !schema.WaitsForParent(schema.Kind(spec.Kind)):
		return fmt.Errorf("--without-qa applies to batches of %s: %s items do not wait for an answer", waitingKinds(), spec.Kind)
	}
	return nil
}

// batchCandidates lists the items the batch takes, in batch order: the
// first Size free candidates in import order, shuffled with the seed.
func batchCandidates(tx *wtx, spec BatchSpec, aids []int64) ([]int64, error) {
	where, args, err := candidates(spec, true, spec.OnlyCorrectAnswers, aids)
	if err != nil {
		return nil, err
	}
	q := "SELECT i.id FROM items i WHERE " + where + " ORDER BY i.id"
	if spec.Size > 0 {
		q += fmt.Sprintf(" LIMIT %d", spec.Size)
	}
	ids, err := int64s(tx, q, args...)
	if err != nil {
		return nil, err
	}
	if len(ids) == 0 {
		return nil, fmt.Errorf("no %s items left to put in batch %q", spec.Kind, spec.Name)
	}
	shuffle(spec.Seed, len(ids), func(i, j int) { ids[i], ids[j] = ids[j], ids[i] })
	return ids, nil
}

// assignBatch writes the batch's items in order and gives each to Overlap
// assignees: round robin, or with OnlyCorrectAnswers (not adjudicated) the
// least loaded of those who judged its answer correct. It returns each
// assignee's count of items.
func assignBatch(tx *wtx, spec BatchSpec, bid int64, ids, aids []int64) ([]int, error) {
	perAssignee := spec.OnlyCorrectAnswers && !spec.Adjudicated
	var eligible map[int64][]int
	if perAssignee {
		var err error
		if eligible, err = eligibleAssignees(tx, spec, ids, aids); err != nil {
			return nil, err
		}
	}
	load := make([]int, len(aids))
	slot := 0
	for pos, id := range ids {
		var to []int
		if perAssignee {
			to = leastLoaded(eligible[id], load, spec.Overlap)
		} else {
			to, slot = roundRobin(slot, spec.Overlap, len(aids))
		}
		for _, a := range to {
			load[a]++
		}
		if err := insertMember(tx, bid, pos+1, id, aids, to); err != nil {
			return nil, err
		}
	}
	return load, nil
}

// eligibleAssignees lists, per item, the assignees (by index) who judged
// the item's answer correct.
func eligibleAssignees(tx *wtx, spec BatchSpec, ids, aids []int64) (map[int64][]int, error) {
	index := map[int64]int{}
	for i, a := range aids {
		index[a] = i
	}
	out := map[int64][]int{}
	asks, _ := parentAsks(schema.Kind(spec.Kind), answerSQL(schema.Kind(spec.Kind)), "v.role = 'annotate' AND v.annotator_id = a.value")
	for _, chunk := range chunks(ids, 500) {
		err := eachRow(tx, `SELECT i.id, a.value FROM items i, json_each(?) a WHERE i.id IN (SELECT value FROM json_each(?))
			AND `+asks+` ORDER BY i.id, a.key`,
			[]any{jsonInts(aids), jsonInts(chunk)}, func(sc func(...any) error) error {
				var item, aid int64
				if err := sc(&item, &aid); err != nil {
					return err
				}
				out[item] = append(out[item], index[aid])
				return nil
			})
		if err != nil {
			return nil, err
		}
	}
	return out, nil
}

// leastLoaded picks up to n of the eligible assignees with the fewest items
// so far (the earlier listed first on ties).
func leastLoaded(eligible []int, load []int, n int) []int {
	picked := []int{}
	taken := map[int]bool{}
	for len(picked) < n {
		best := -1
		for _, a := range eligible {
			if !taken[a] && (best < 0 || load[a] < load[best]) {
				best = a
			}
		}
		if best < 0 {
			break
		}
		taken[best] = true
		picked = append(picked, best)
	}
	return picked
}

// BatchPool counts the items a new batch could take, to say why one would
// be empty.
type BatchPool struct {
	Items int // of the kind (and source and hop)
	Free  int // of those, in no batch of the kind yet
	// CorrectAnswers counts the answers (with items of the kind) judged
	// correct, by the assignees or adjudicated; FreeOfCorrect the free items
	// of those answers.
	CorrectAnswers int
	FreeOfCorrect  int
}

// BatchPool reads the counts of a prospective batch.
func (rx *ReadTx) BatchPool(spec BatchSpec) (BatchPool, error) {
	var p BatchPool
	aids := []int64{}
	for _, name := range spec.Assign {
		if id, ok, _ := lookupAnnotator(rx.q, name); ok {
			aids = append(aids, id)
		}
	}
	count := func(free, correct bool) (int, error) {
		where, args, err := candidates(spec, free, correct, aids)
		if err != nil {
			return 0, err
		}
		var n int
		err = rx.q.QueryRow("SELECT COUNT(*) FROM items i WHERE "+where, args...).Scan(&n)
		return n, err
	}
	var err error
	if p.Items, err = count(false, false); err != nil {
		return p, err
	}
	if p.Free, err = count(true, false); err != nil {
		return p, err
	}
	answer := answerSQL(schema.Kind(spec.Kind))
	if !spec.OnlyCorrectAnswers || answer == "" {
		return p, nil
	}
	if p.FreeOfCorrect, err = count(true, true); err != nil {
		return p, err
	}
	where, args, err := candidates(spec, false, true, aids)
	if err != nil {
		return p, err
	}
	err = rx.q.QueryRow("SELECT COUNT(DISTINCT "+answer+") FROM items i WHERE "+where, args...).Scan(&p.CorrectAnswers)
	return p, err
}

// Batches lists every batch in creation order.
func (rx *ReadTx) Batches() ([]Batch, error) {
	rows, err := rx.q.Query(`SELECT b.id, b.name, b.kind, b.pilot, b.overlap, b.source, b.created_at, b.asks_at_once,
		(SELECT COUNT(*) FROM batch_items WHERE batch_id=b.id),
		COALESCE((SELECT group_concat(a.name, ',') FROM batch_assignees x JOIN annotators a ON a.id=x.annotator_id WHERE x.batch_id=b.id),'')
		FROM batches b ORDER BY b.id`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []Batch
	for rows.Next() {
		var b Batch
		var id int64
		var names string
		if err := rows.Scan(&id, &b.Name, &b.Kind, &b.Pilot, &b.Overlap, &b.Source, &b.CreatedAt, &b.AtOnce, &b.Size, &names); err != nil {
			return nil, err
		}
		if names != "" {
			b.Assignees = strings.Split(names, ",")
		}
		out = append(out, b)
	}
	return out, rows.Err()
}

// BatchItems returns the ext ids of a batch's items assigned to annotator ("" : all), in order.
func (rx *ReadTx) BatchItems(batch, annotator string) ([]string, error) {
	q := `SELECT i.ext_id FROM batch_items b JOIN batches bt ON bt.id=b.batch_id JOIN items i ON i.id=b.item_id WHERE bt.name=?`
	args := []any{batch}
	if annotator != "" {
		q += ` AND EXISTS (SELECT 1 FROM assignments a JOIN annotators n ON n.id=a.annotator_id WHERE a.batch_id=b.batch_id AND a.item_id=b.item_id AND n.name=?)`
		args = append(args, annotator)
	}
	rows, err := rx.q.Query(q+" ORDER BY b.position", args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var e string
		if err := rows.Scan(&e); err != nil {
			return nil, err
		}
		out = append(out, e)
	}
	if len(out) == 0 {
		var ok bool
		rx.q.QueryRow("SELECT EXISTS(SELECT 1 FROM batches WHERE name=?)", batch).Scan(&ok)
		if !ok {
			return nil, notFound("batch", batch)
		}
	}
	return out, rows.Err()
}

func int64s(q querier, query string, args ...any) ([]int64, error) {
	rows, err := q.Query(query, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []int64
	for rows.Next() {
		var v int64
		if err := rows.Scan(&v); err != nil {
			return nil, err
		}
		out = append(out, v)
	}
	return out, rows.Err()
}

// waitingKinds names the kinds whose items wait for their parent's labels,
// as --kind takes them: "claims (--kind claim)".
func waitingKinds() string {
	var out []string
	for _, k := range schema.Kinds() {
		if schema.WaitsForParent(k) {
			out = append(out, strings.ToLower(schema.SpecOf(k).Title)+" (--kind "+string(k)+")")
		}
	}
	return strings.Join(out, " or ")
}
