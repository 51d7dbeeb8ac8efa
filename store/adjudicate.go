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

// Review and adjudication (`annotate review`). What waits for the lead is
// planned by package adjudication (pure); this file loads the items it plans
// over and writes the decisions.

// ReviewQuery selects what review compares.
type ReviewQuery struct {
	Annotators []string // nil: every annotator with labels (as agreement)
	Field      string   // "": every field
	Batch      string   // "": every item; else the items of this batch
	// Lead, when set, marks the units in which the lead gave a label
	// (ReviewUnit.Own): their decision is refused unless --allow-own.
	Lead string
}

// UnitState says where a review unit stands.
type UnitState = adjudication.State

const (
	UnitPending = adjudication.Pending // waits for the lead's decision
	UnitDone    = adjudication.Done    // adjudicated
	UnitMoot    = adjudication.Moot    // not asked given the item's adjudicated labels
)

// ReviewUnit is one (item, field) to adjudicate.
type ReviewUnit struct {
	ItemRef
	adjudication.Verdicts
}

// Review is what `annotate review` walks through (planned by adjudication.Make).
type Review = adjudication.PlanOf[ReviewUnit]

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

// Reviewers resolves the annotators a review compares (nil: every one with
// labels) and checks there are at least two.
func (rx *ReadTx) Reviewers(names []string) ([]string, error) {
	_, out, err := resolveReviewers(rx.q, names, "")
	return out, err
}

func resolveReviewers(q querier, names []string, field string) ([]int64, []string, error) {
	known, err := labelledAnnotators(q, field)
	if err != nil {
		return nil, nil, err
	}
	if len(names) == 0 {
		names = known
	}
	var ids []int64
	var out []string
	for _, n := range names {
		n = strings.TrimSpace(n)
		if n == "" || slices.Contains(out, n) {
			continue
		}
		if !slices.Contains(known, n) {
			return nil, nil, fmt.Errorf("no annotator %q with labels%s (annotators with labels: %s)", n, suggest.Hint(n, known), orNone(known))
		}
		id, err := knownAnnotator(q, n)
		if err != nil {
			return nil, nil, err
		}
		ids, out = append(ids, id), append(out, n)
	}
	if len(out) < 2 {
		return nil, nil, fmt.Errorf("review compares at least two annotators; %d selected (annotators with labels: %s)", len(out), orNone(known))
	}
	return ids, out, nil
}

func orNone(names []string) string {
	if len(names) == 0 {
		return "none"
	}
	return strings.Join(names, ", ")
}

// Review lists the units to adjudicate and counts the agreements.
func (rx *ReadTx) Review(q ReviewQuery) (Review, error) {
	if q.Field != "" {
		if err := schema.CheckField(q.Field); err != nil {
			return Review{}, err
		}
	}
	var rev Review
	err := func() error {
		ids, names, err := resolveReviewers(rx.q, q.Annotators, q.Field)
		if err != nil {
			return err
		}
		items, err := reviewItems(rx.q, ids, q.Batch)
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

func fromPlan(p adjudication.Plan) Review {
	rev := Review{Annotators: p.Annotators, Agreeing: p.Agreeing, Ready: p.Ready, ReadySingle: p.ReadySingle, Accepted: p.Accepted}
	for _, u := range p.Units {
		rev.Units = append(rev.Units, ReviewUnit{ItemRef: ItemRef{ItemID: u.ID, ExtID: u.Ext, Kind: string(u.Kind)}, Verdicts: u.Verdicts})
	}
	return rev
}

// AcceptAgreements writes, in one transaction, the common label of every
// agreement that is ready (its field asked given the adjudicated labels,
// counting those accepted before it in schema order, parents before
// children) as the lead's adjudication, and keeps the claims annotators
// added to answers adjudicated as missing claims. With q.Field, the
// agreeing fields it depends on are accepted too. The events share one
// timestamp, so UndoAdjudication takes them back together.
func (s *Store) AcceptAgreements(lead string, q ReviewQuery) (int, error) {
	a, err := s.AcceptReady(lead, q, AcceptOptions{})
	return a.N, err
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

// AcceptReady is AcceptAgreements with options: single-label units too,
// the lead's own units with AllowOwn, and the session and active time of
// the review screen.
func (s *Store) AcceptReady(lead string, q ReviewQuery, o AcceptOptions) (Accepted, error) {
	var res Accepted
	err := s.update(func(wx *WriteTx) error {
		ids, names, err := resolveReviewers(wx.q, q.Annotators, q.Field)
		if err != nil {
			return err
		}
		items, err := reviewItems(wx.q, ids, q.Batch)
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
// theirs written in the same transaction (one AcceptAgreements). The
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

// reviewItems loads, family by family, the items the annotators (ids) have
// labels on, with their labels, their parents' and the adjudicated ones.
func reviewItems(q querier, ids []int64, batch string) ([]adjudication.Item, error) {
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

// ReviewDetail is everything the review screens show of one item.
type ReviewDetail struct {
	ItemRef
	Payload     any                          // the item as its kind loads it (*Query, *Relevance, …)
	Root        any                          // its family's root as its kind loads it (a child's parent; a root: Payload)
	Aside       any                          // what the kind shows beside the item (a generated claim's evidence)
	Labels      map[string]map[string]string // annotator -> current labels
	Notes       map[string]string            // annotator -> note ("" none)
	Flagged     map[string]bool              // annotator -> flag
	Final       map[string]string            // adjudicated labels
	Predictions map[string]string            // system -> value of PredictedField; only when asked for
	// PredictedField is the field the systems predict on the item's kind
	// (Predicted), read only with the predictions.
	PredictedField string
	LeadNote       string            // the lead's notes, one a line (ItemNote)
	LeadNotes      map[string]string // … per field (FieldNotes)
	LeadFlagged    bool
}

// ReviewItem loads one item, in one snapshot, with the labels, notes and
// flags of the annotators, the adjudicated labels and the lead's note and
// flag. Review reads predictions only for the system view: adjudicating with
// the system's answer on screen would bias the labels it is measured against.
func (rx *ReadTx) ReviewItem(ref ItemRef, annotators []string, lead string, predictions bool) (ReviewDetail, error) {
	d := ReviewDetail{ItemRef: ref, Labels: map[string]map[string]string{}, Notes: map[string]string{},
		Flagged: map[string]bool{}, Final: map[string]string{}}
	err := func() error {
		ids, err := familyOf(rx.q, ref.ItemID)
		if err != nil {
			return err
		}
		items, err := loadItems(rx.q, []int64{ids[0], ref.ItemID})
		if err != nil {
			return err
		}
		if root := items[ids[0]]; root != nil {
			d.Root = root.Payload
		}
		if it := items[ref.ItemID]; it != nil {
			d.Payload = it.Payload
			if d.Aside, err = aside(rx.q, it); err != nil {
				return err
			}
		}
		for _, a := range annotators {
			if d.Labels[a], err = labelsByName(rx.q, a, ref.ItemID); err != nil {
				return err
			}
			if d.Notes[a], d.Flagged[a], err = itemNote(rx.q, a, ref.ItemID); err != nil {
				return err
			}
		}
		if d.LeadNote, d.LeadFlagged, err = itemNote(rx.q, lead, ref.ItemID); err != nil {
			return err
		}
		if d.LeadNotes, err = fieldNotes(rx.q, lead, ref.ItemID); err != nil {
			return err
		}
		if err := scanPairs(rx.q, d.Final, "SELECT field, value FROM current_labels WHERE item_id=? AND role='adjudicate' AND annotator_id=0", ref.ItemID); err != nil {
			return err
		}
		if field := predictedField(ref.Kind); predictions && field != "" {
			d.Predictions, d.PredictedField = map[string]string{}, field
			return scanPairs(rx.q, d.Predictions, "SELECT system, value FROM predictions WHERE item_id=? AND field=?", ref.ItemID, field)
		}
		return nil
	}()
	return d, err
}

// labelsByName returns an annotator's current labels on an item (none when
// the name is unknown).
func labelsByName(q querier, annotator string, item int64) (map[string]string, error) {
	aid, ok, err := lookupAnnotator(q, annotator)
	if err != nil {
		return nil, err
	}
	if !ok {
		return map[string]string{}, nil
	}
	return labelsOf(q, aid, item)
}

// scanPairs reads two text columns into a map.
func scanPairs(q querier, dst map[string]string, query string, args ...any) error {
	return eachRow(q, query, args, func(sc func(...any) error) error {
		var k, v string
		if err := sc(&k, &v); err != nil {
			return err
		}
		dst[k] = v
		return nil
	})
}

// SystemQuery selects the expert labels and the system the system view
// compares (as `annotate metrics` does).
type SystemQuery struct {
	System string   // e.g. "refchecker"
	Labels LabelSet // an annotator's labels, or the adjudicated ones
	Batch  string   // "": every item
	// Kind is the kind compared: "" the first, in queue order, whose
	// systems predict a field (claims).
	Kind string
}

// OtherClass is the system column of values outside the field's classes.
const OtherClass = tally.OtherClass

// SystemCell is one off-diagonal cell of the confusion matrix: the items
// the expert put in one class of Field and the system in another.
type SystemCell struct {
	Expert, System string
	Field          string    // the field compared (a claim's entailment)
	Items          []ItemRef // in import order
}

// SystemReview is the expert-versus-system confusion over the items of the
// kind compared that enter its comparison (for claims, the verified ones:
// extracted claims the expert judged correct, with an entailment label that
// counts) and that the system predicted.
type SystemReview struct {
	System    string
	Expert    string // the annotator, or "adjudicated"
	Kind      string // the kind compared
	Field     string // the field its systems predict
	Classes   []string
	N, Agree  int
	Confusion map[string]map[string]int // expert -> system (OtherClass included) -> claims
	Cells     []SystemCell              // off the diagonal, most claims first
}

// SystemDisagreements builds the confusion of the expert's labels of the
// predicted field against the system's predictions, with the items of each
// cell. Which items enter, and in which cell, is the kind's declared rule
// (claims: tally.Verify, the one `annotate metrics` counts by); the matrix
// is adjudication.Confuse.
func (rx *ReadTx) SystemDisagreements(q SystemQuery) (SystemReview, error) {
	kind, cmp, err := comparedKind(q.Kind)
	if err != nil {
		return SystemReview{}, err
	}
	fd, _ := schema.Lookup(cmp.PredictedField())
	rev := SystemReview{System: q.System, Expert: q.Labels.Annotator, Kind: string(kind), Field: cmp.PredictedField(), Classes: fd.Values}
	err = func() error {
		rater := tally.Adjudicated
		switch {
		case q.Labels.Adjudicated:
			rev.Expert = "adjudicated"
		case q.Labels.Annotator == "":
			return errors.New("choose the expert labels: an annotator, or the adjudicated ones")
		default:
			var err error
			if rater, err = knownAnnotator(rx.q, q.Labels.Annotator); err != nil {
				return err
			}
		}
		pairs, err := systemPairs(rx.q, q, kind, cmp, rater)
		if err != nil {
			return err
		}
		c := adjudication.Confuse(fd.Values, pairs)
		rev.N, rev.Agree, rev.Confusion = c.N, c.Agree, c.Matrix
		rev.Cells, err = systemCells(rx, c.Cells, kind, cmp.PredictedField())
		return err
	}()
	return rev, err
}

// systemPairs reads, root by root, the items of the kind (of the batch)
// that enter the comparison and that the system predicted: the expert's
// class and the system's value of each.
func systemPairs(q querier, sq SystemQuery, kind schema.Kind, cmp Predicted, rater int64) ([]adjudication.SystemPair, error) {
	bid, err := batchID(q, sq.Batch)
	if err != nil {
		return nil, err
	}
	roots, err := int64s(q, `SELECT DISTINCT COALESCE(i.parent_id, i.id) FROM predictions p JOIN items i ON i.id = p.item_id
		WHERE p.system = ? AND p.field = ? AND i.kind = ? ORDER BY 1`, sq.System, cmp.PredictedField(), kind)
	if err != nil {
		return nil, err
	}
	var pairs []adjudication.SystemPair
	err = eachMember(q, roots, func(f *tally.Family, m *tally.Member) {
		if m.Kind != kind || !inBatch(m, bid) {
			return
		}
		step, expert := cmp.Enters(f, m, rater)
		p := slices.IndexFunc(m.Predictions, func(p tally.Prediction) bool {
			return p.System == sq.System && p.Field == cmp.PredictedField()
		})
		if step != tally.StepReady || p < 0 {
			return
		}
		pairs = append(pairs, adjudication.SystemPair{Item: m.ID, Expert: expert, System: tally.Predicted(m.Predictions[p])})
	})
	if err != nil {
		return nil, err
	}
	return pairs, nil
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

// systemCells names the items of the cells.
func systemCells(rx *ReadTx, cells []adjudication.Cell, kind schema.Kind, field string) ([]SystemCell, error) {
	if len(cells) == 0 {
		return nil, nil
	}
	var ids []int64
	for _, c := range cells {
		ids = append(ids, c.Items...)
	}
	ext, err := rx.ExtIDs(ids)
	if err != nil {
		return nil, err
	}
	out := make([]SystemCell, len(cells))
	for i, c := range cells {
		out[i] = SystemCell{Expert: c.Expert, System: c.System, Field: field}
		for _, id := range c.Items {
			out[i].Items = append(out[i].Items, ItemRef{ItemID: id, ExtID: ext[0], Kind: string(kind)})
			ext = ext[1:]
		}
	}
	return out, nil
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
