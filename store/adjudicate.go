package store

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/annotate-dev/annotate/adjudication"
	"github.com/annotate-dev/annotate/schema"
	"github.com/annotate-dev/annotate/tally"

	"github.com/annotate-dev/annotate/internal/suggest"
)

// Adjudication (the command `annotate review`). What waits for the lead is
// planned by package adjudication (pure); this file loads the items it plans
// over and writes the decisions.

// AdjudicationQuery selects what an adjudication compares.
type AdjudicationQuery struct {
	Annotators []string // nil: every annotator with labels (as agreement)
	Field      string   // "": every field
	Batch      string   // "": every item; else the items of this batch
	// Lead, when set, marks the units in which the lead gave a label
	// (AdjudicationUnit.Own): their decision is refused unless --allow-own.
	Lead string
}

// UnitState says where an adjudication unit stands.
type UnitState = adjudication.State

const (
	UnitPending = adjudication.Pending // waits for the lead's decision
	UnitDone    = adjudication.Done    // adjudicated
	UnitMoot    = adjudication.Moot    // not asked given the item's adjudicated labels
)

// AdjudicationUnit is one (item, field) to adjudicate.
type AdjudicationUnit struct {
	ItemRef
	adjudication.Verdicts
}

// Adjudication is what `annotate review` walks through (planned by adjudication.Make).
type Adjudication = adjudication.PlanOf[AdjudicationUnit]

// LabelledAnnotators lists the annotators with labels of their own that
// count, by name: review's default, as agreement's and the card's.
func (rx *ReadTx) LabelledAnnotators() ([]string, error) { return labelledAnnotators(rx.q, "") }

// labelledAnnotators reads the kept counts: annotators with a label that
// counts (of field, or of any field).
func labelledAnnotators(q querier, field string) ([]string, error) {
	query := `SELECT DISTINCT a.name FROM kept_counts k JOIN annotators a ON a.id = k.rater WHERE k.name = ? AND k.rater > 0`
	args := []any{tally.Label}
	if field != "" {
		query += " AND k.a = ?"
		args = append(args, field)
	}
	var out []string
	err := eachRow(q, query+" ORDER BY a.name", args, func(sc func(...any) error) error {
		var n string
		err := sc(&n)
		out = append(out, n)
		return err
	})
	return out, err
}

// ComparedAnnotators resolves the annotators an adjudication of q compares
// (q.Annotators, or when none are named every one with labels, of q.Field
// when it names one) and checks there are at least two.
func (rx *ReadTx) ComparedAnnotators(q AdjudicationQuery) ([]string, error) {
	if q.Field != "" {
		if err := schema.CheckField(q.Field); err != nil {
			return nil, err
		}
	}
	_, out, err := resolveCompared(rx.q, q.Annotators, q.Field)
	return out, err
}

func resolveCompared(q querier, names []string, field string) ([]int64, []string, error) {
	known, err := labelledAnnotators(q, field)
	if err != nil {
		return nil, nil, err
	}
	if len(names) == 0 {
		names = known
	}
	// With a field, the refusals say whose labels of it are there.
	of, ofIt := "", ""
	if field != "" {
		of, ofIt = " of "+field, " of it"
	}
	var ids []int64
	var out []string
	for _, n := range names {
		n = strings.TrimSpace(n)
		if n == "" || slices.Contains(out, n) {
			continue
		}
		if !slices.Contains(known, n) {
			return nil, nil, fmt.Errorf("no annotator %q with labels%s%s (annotators with labels%s: %s)", n, of, suggest.Hint(n, known), ofIt, orNone(known))
		}
		id, err := knownAnnotator(q, n)
		if err != nil {
			return nil, nil, err
		}
		ids, out = append(ids, id), append(out, n)
	}
	if len(out) < 2 {
		return nil, nil, fmt.Errorf("review compares at least two annotators; %d selected (annotators with labels%s: %s)", len(out), of, orNone(known))
	}
	return ids, out, nil
}

func orNone(names []string) string {
	if len(names) == 0 {
		return "none"
	}
	return strings.Join(names, ", ")
}

// Adjudication lists the units to adjudicate and counts the agreements.
func (rx *ReadTx) Adjudication(q AdjudicationQuery) (Adjudication, error) {
	if q.Field != "" {
		if err := schema.CheckField(q.Field); err != nil {
			return Adjudication{}, err
		}
	}
	var rev Adjudication
	err := func() error {
		ids, names, err := resolveCompared(rx.q, q.Annotators, q.Field)
		if err != nil {
			return err
		}
		items, err := adjudicationItems(rx.q, ids, q.Batch)
		if err != nil {
			return err
		}
		plan, _ := adjudication.Make(items, names, q.Field)
		if q.Lead != "" {
			adj, err := adjudicator(rx.q, q.Lead, false)
			if err != nil {
				return err
			}
			adj.Mark(&plan)
		}
		rev = fromPlan(plan)
		return nil
	}()
	return rev, err
}

func fromPlan(p adjudication.Plan) Adjudication {
	rev := Adjudication{Annotators: p.Annotators, Agreeing: p.Agreeing, Ready: p.Ready, ReadySingle: p.ReadySingle, Accepted: p.Accepted}
	for _, u := range p.Units {
		rev.Units = append(rev.Units, AdjudicationUnit{ItemRef: ItemRef{ItemID: u.ID, ExtID: u.Ext, Kind: string(u.Kind)}, Verdicts: u.Verdicts})
	}
	return rev
}

// AcceptOptions says what a bulk accept takes and how it is timed.
type AcceptOptions struct {
	// Single: also the lone label of every single-label unit that is ready
	// (adjudication.MakeAll), as the lead's adjudication.
	Single bool
	// Session and ActiveMs: the review session the accept belongs to and
	// the active time it took (recorded on its first event).
	Session, ActiveMs int64
	// AllowOwn (--allow-own): accept the units in which the lead gave a
	// label too, recorded as such; without it they are held back
	// (adjudication.Adjudicator).
	AllowOwn bool
}

// Accepted is what a bulk accept did: N labels written, Held units left
// out because the lead labelled them (adjudication.HeldMessage says so).
type Accepted struct {
	N, Held int
}

// AcceptReady writes, in one transaction, the common label of every
// agreement that is ready (its field asked given the adjudicated labels,
// counting those accepted before it in schema order, parents before
// children) as the lead's adjudication, and keeps the claims annotators
// added to answers adjudicated as missing claims. With q.Field, the
// agreeing fields it depends on are accepted too. The events share one
// timestamp, so UndoAdjudication takes them back together. Options:
// single-label units too, the lead's own units with AllowOwn, and the
// session and active time of the review screen.
func (s *Store) AcceptReady(lead string, q AdjudicationQuery, o AcceptOptions) (Accepted, error) {
	var res Accepted
	err := s.update(func(wx *WriteTx) error {
		ids, names, err := resolveCompared(wx.q, q.Annotators, q.Field)
		if err != nil {
			return err
		}
		items, err := adjudicationItems(wx.q, ids, q.Batch)
		if err != nil {
			return err
		}
		_, acc, accS := adjudication.MakeAll(items, names, q.Field)
		if o.Single {
			acc = accS
		}
		adj, err := adjudicator(wx.q, lead, o.AllowOwn)
		if err != nil {
			return err
		}
		acc, res.Held = adj.Keep(acc)
		aid, err := annotatorID(wx.tx, lead)
		if err != nil {
			return err
		}
		res.N = len(acc)
		return writeAdjudications(wx.tx, aid, acc, o.ActiveMs, o.Session)
	})
	return res, err
}

// adjudicator is the rule of the lead's own units (adjudication.Adjudicator)
// over the lead's current labels as an annotator.
func adjudicator(q querier, lead string, allowOwn bool) (adjudication.Adjudicator, error) {
	a := adjudication.Adjudicator{Lead: lead, AllowOwn: allowOwn, Labelled: map[int64]map[string]bool{}}
	err := eachRow(q, `SELECT l.item_id, l.field FROM current_labels l JOIN annotators a ON a.id = l.annotator_id
		WHERE l.role = 'annotate' AND a.name = ?`, []any{lead}, func(sc func(...any) error) error {
		var item int64
		var field string
		if err := sc(&item, &field); err != nil {
			return err
		}
		if a.Labelled[item] == nil {
			a.Labelled[item] = map[string]bool{}
		}
		a.Labelled[item][field] = true
		return nil
	})
	return a, err
}

// ownDecision applies the rule of the lead's own units to one decision on
// (item, field) ("" : the item as a whole): an error when refused, else
// whether it is recorded as the lead's on their own unit.
func ownDecision(q querier, lead string, allowOwn bool, item int64, field string) (bool, error) {
	var ext string
	var labelled int
	err := q.QueryRow(`SELECT i.ext_id, (SELECT count(*) FROM current_labels l JOIN annotators a ON a.id = l.annotator_id
		WHERE l.role = 'annotate' AND a.name = ? AND l.item_id = i.id AND (? = '' OR l.field = ?)) FROM items i WHERE i.id = ?`,
		lead, field, field, item).Scan(&ext, &labelled)
	if err != nil {
		return false, err
	}
	a := adjudication.Adjudicator{Lead: lead, AllowOwn: allowOwn}
	if labelled > 0 {
		a.Labelled = map[int64]map[string]bool{item: {field: true}}
	}
	return a.Decide(item, ext, field)
}

// writeAdjudications writes labels as one adjudication step of the lead
// (id aid): one timestamp, so UndoAdjudication takes them back together;
// the step's active time on its first event and added to its session.
func writeAdjudications(tx *wtx, aid int64, labels []adjudication.Acceptance, activeMs, session int64) error {
	if len(labels) == 0 {
		return nil
	}
	ts := now()
	for i, a := range labels {
		ms := int64(0)
		if i == 0 {
			ms = activeMs
		}
		id, err := insertEventAt(tx, aid, RoleAdjudicate, Label{ItemID: a.Item, Field: a.Field, Value: a.Value, ActiveMs: ms,
			SessionID: session, ownUnit: a.Own}, ts)
		if err != nil {
			return err
		}
		if err := setCurrent(tx, RoleAdjudicate, aid, a.Item, a.Field, a.Value, id); err != nil {
			return err
		}
		if err := tx.touch(a.Item); err != nil {
			return err
		}
	}
	if session != 0 && activeMs > 0 {
		if _, err := tx.Exec("UPDATE sessions SET active_ms = active_ms + ? WHERE id=?", activeMs, session); err != nil {
			return err
		}
	}
	return nil
}

// UndoAdjudication retracts the lead's latest standing adjudication step:
// their latest adjudicate event, with every standing adjudicate event of
// theirs written in the same transaction (one AcceptReady). The
// adjudication before it, if any, becomes current again. It returns the
// retracted events; ErrNothingToUndo when there are none.
func (s *Store) UndoAdjudication(lead string) ([]Event, error) {
	var evs []Event
	err := s.write(func(tx *wtx) error {
		aid, err := annotatorID(tx, lead)
		if err != nil {
			return err
		}
		const standing = `e.annotator_id=? AND e.role='adjudicate' AND e.retracts IS NULL
			AND NOT EXISTS (SELECT 1 FROM label_events r WHERE r.retracts=e.id)`
		var ts string
		err = tx.QueryRow("SELECT e.created_at FROM label_events e WHERE "+standing+" ORDER BY e.id DESC LIMIT 1", aid).Scan(&ts)
		if errors.Is(err, errNoRows) {
			return ErrNothingToUndo
		}
		if err != nil {
			return err
		}
		err = eachRow(tx, `SELECT e.id, e.item_id, i.ext_id, e.field, COALESCE(e.value,''), e.created_at
			FROM label_events e JOIN items i ON i.id=e.item_id WHERE `+standing+` AND e.created_at=? ORDER BY e.id`, []any{aid, ts},
			func(sc func(...any) error) error {
				ev := Event{Annotator: lead, Role: RoleAdjudicate}
				err := sc(&ev.ID, &ev.ItemID, &ev.ItemExtID, &ev.Field, &ev.Value, &ev.CreatedAt)
				evs = append(evs, ev)
				return err
			})
		if err != nil {
			return err
		}
		at := now()
		for _, ev := range evs {
			if _, err := tx.Exec(`INSERT INTO label_events(annotator_id,item_id,field,value,role,created_at,retracts)
				VALUES (?,?,?,NULL,?,?,?)`, aid, ev.ItemID, ev.Field, RoleAdjudicate, at, ev.ID); err != nil {
				return err
			}
			if err := refreshCurrent(tx, RoleAdjudicate, aid, ev.ItemID, ev.Field); err != nil {
				return err
			}
			if err := tx.touch(ev.ItemID); err != nil {
				return err
			}
		}
		return nil
	})
	return evs, err
}

// batchID resolves a batch name ("" : 0, no batch).
func batchID(q querier, batch string) (int64, error) {
	if batch == "" {
		return 0, nil
	}
	var id int64
	err := q.QueryRow("SELECT id FROM batches WHERE name=?", batch).Scan(&id)
	if errors.Is(err, errNoRows) {
		return 0, notFound("batch", batch)
	}
	return id, err
}

// inBatch reports whether a member is in the batch (0: any).
func inBatch(m *tally.Member, batch int64) bool {
	return batch == 0 || slices.ContainsFunc(m.Queues, func(q tally.Queue) bool { return q.Batch == batch })
}

// adjudicationItems loads, family by family, the items the annotators (ids) have
// labels on, with their labels, their parents' and the adjudicated ones.
func adjudicationItems(q querier, ids []int64, batch string) ([]adjudication.Item, error) {
	bid, err := batchID(q, batch)
	if err != nil {
		return nil, err
	}
	roots, err := int64s(q, `SELECT DISTINCT COALESCE(i.parent_id, i.id) FROM items i
		WHERE i.id IN (SELECT item_id FROM current_labels WHERE role='annotate' AND annotator_id IN (SELECT value FROM json_each(?)))
		ORDER BY 1`, jsonInts(ids))
	if err != nil {
		return nil, err
	}
	var out []adjudication.Item
	err = eachMember(q, roots, func(f *tally.Family, m *tally.Member) {
		if !inBatch(m, bid) || !labelledBy(m, ids) {
			return
		}
		it := adjudication.Item{Ref: adjudication.Ref{ID: m.ID, Kind: m.Kind, Added: m.Attrs[tally.AttrOrigin] == OriginAnnotator},
			Final: m.Labels[tally.Adjudicated], FinalParent: f.ParentLabels(m, tally.Adjudicated)}
		if m.ID != f.Root.ID {
			it.Parent = f.Root.ID
		}
		for _, a := range ids {
			it.Labels = append(it.Labels, m.Labels[a])
			it.ParentLabels = append(it.ParentLabels, f.ParentLabels(m, a))
		}
		out = append(out, it)
	})
	if err != nil {
		return nil, err
	}
	items := make([]int64, len(out))
	for i, it := range out {
		items[i] = it.ID
	}
	ext, err := extIDsOf(q, items)
	for i := range out {
		out[i].Ext = ext[out[i].ID]
	}
	return out, err
}

func labelledBy(m *tally.Member, ids []int64) bool {
	for _, a := range ids {
		if len(m.Labels[a]) > 0 {
			return true
		}
	}
	return false
}

// eachMember hands fn every member of the families of roots, familyChunk
// families loaded at a time, in root order: each root, then its children.
func eachMember(q querier, roots []int64, fn func(f *tally.Family, m *tally.Member)) error {
	for _, chunk := range chunks(roots, familyChunk) {
		fams, err := loadFamilies(q, chunk)
		if err != nil {
			return err
		}
		for _, r := range chunk {
			f := fams[r]
			if f == nil {
				continue
			}
			fn(f, &f.Root)
			for i := range f.Children {
				fn(f, &f.Children[i])
			}
		}
	}
	return nil
}

// OwnAdjudications counts, per field, the current adjudicated labels a lead
// decided on a unit in which they gave a label of their own (review
// --allow-own): agreement and the dataset card say how many there are.
func (rx *ReadTx) OwnAdjudications() (map[string]int, error) { return ownAdjudications(rx.q) }

func ownAdjudications(q querier) (map[string]int, error) {
	out := map[string]int{}
	err := eachRow(q, `SELECT c.field, count(*) FROM current_labels c JOIN label_events e ON e.id = c.event_id
		WHERE c.role = 'adjudicate' AND e.own_unit = 1 GROUP BY c.field ORDER BY c.field`, nil, func(sc func(...any) error) error {
		var f string
		var n int
		err := sc(&f, &n)
		out[f] = n
		return err
	})
	return out, err
}
