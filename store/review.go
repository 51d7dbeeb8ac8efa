package store

import (
	"cmp"
	"database/sql"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/annotate-dev/annotate/schema"
)

// Review and adjudication (`annotate review`). A review unit is one (item,
// field) the lead has to decide: the chosen annotators disagree on it, or an
// adjudication made it asked when fewer than two of them labelled it. Labels
// count by the asked-when rule applied to each annotator's own labels, as in
// the reports; the lead's final labels (role adjudicate, current under
// annotator 0) obey the same rule as a label set of their own, which is why
// review walks fields in schema order and accepts agreements field by field:
// an entailment only counts once the claim's validity is adjudicated correct.

// ReviewQuery selects what review compares.
type ReviewQuery struct {
	Annotators []string // nil: every annotator with labels (LabelledAnnotators)
	Field      string   // "": every asked field
	Batch      string   // "": every item; else the items of this batch
}

// UnitState says where a review unit stands.
type UnitState int

const (
	UnitPending UnitState = iota // waits for the lead's decision
	UnitDone                     // adjudicated
	UnitMoot                     // not asked given the item's adjudicated labels
)

func (u UnitState) String() string {
	return [...]string{"pending", "done", "not_asked"}[u]
}

// ReviewUnit is one (item, field) to adjudicate.
type ReviewUnit struct {
	ItemRef
	Field string
	// Labels holds each annotator's label that counts (asked given their own
	// labels); an annotator without one is absent.
	Labels   map[string]string
	Final    string // the adjudicated value, "" if none
	FollowUp bool   // fewer than two labels, but asked given the adjudicated labels
	State    UnitState
}

// Review is what `annotate review` walks through.
type Review struct {
	Annotators []string
	Units      []ReviewUnit // field by field in schema order, items in import order
	// Agreements: (item, field)s where at least two annotators have a label
	// that counts and all agree. Agreeing ones are not adjudicated yet
	// (nor moot), Ready of them AcceptAgreements would accept now, Accepted
	// ones carry an adjudication already.
	Agreeing, Ready, Accepted int
}

// Counts returns the units of a field ("" : all) by state.
func (r Review) Counts(field string) (pending, done, moot int) {
	for _, u := range r.Units {
		if field != "" && u.Field != field {
			continue
		}
		switch u.State {
		case UnitPending:
			pending++
		case UnitDone:
			done++
		default:
			moot++
		}
	}
	return
}

// LabelledAnnotators lists the human annotators with at least one current
// label of their own, in creation order: review's default.
func (s *Store) LabelledAnnotators() ([]string, error) { return labelledAnnotators(s.db) }

func labelledAnnotators(q querier) ([]string, error) {
	rows, err := q.Query(`SELECT a.name FROM annotators a WHERE a.human=1 AND EXISTS
		(SELECT 1 FROM current_labels l WHERE l.role='annotate' AND l.annotator_id=a.id) ORDER BY a.id`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var n string
		if err := rows.Scan(&n); err != nil {
			return nil, err
		}
		out = append(out, n)
	}
	return out, rows.Err()
}

// Reviewers resolves the annotators a review compares (nil: every one with
// labels) and checks there are at least two.
func (s *Store) Reviewers(names []string) ([]string, error) {
	_, out, err := resolveReviewers(s.db, names)
	return out, err
}

func resolveReviewers(q querier, names []string) ([]int64, []string, error) {
	known, err := labelledAnnotators(q)
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
		var id int64
		err := q.QueryRow("SELECT id FROM annotators WHERE name=?", n).Scan(&id)
		if errors.Is(err, sql.ErrNoRows) {
			return nil, nil, fmt.Errorf("no annotator %q (annotators with labels: %s)", n, orNone(known))
		}
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
func (s *Store) Review(q ReviewQuery) (Review, error) {
	if q.Field != "" {
		if err := schema.CheckField(q.Field); err != nil {
			return Review{}, err
		}
	}
	ids, names, err := resolveReviewers(s.db, q.Annotators)
	if err != nil {
		return Review{}, err
	}
	items, err := loadReview(s.db, ids, q.Batch)
	if err != nil {
		return Review{}, err
	}
	rev, _ := planReview(items, names, q.Field)
	return rev, nil
}

// AcceptAgreements writes, in one transaction, the common label of every
// agreement that is ready (its field asked given the adjudicated labels,
// counting those accepted before it in schema order) as the lead's
// adjudication. With q.Field, the agreeing fields it depends on are
// accepted too, since it only counts once they are. The events share one
// timestamp, so UndoAdjudication takes them back together.
func (s *Store) AcceptAgreements(lead string, q ReviewQuery, guidelinesVersion string) (int, error) {
	n := 0
	err := s.write(func(tx *wtx) error {
		ids, names, err := resolveReviewers(tx, q.Annotators)
		if err != nil {
			return err
		}
		items, err := loadReview(tx, ids, q.Batch)
		if err != nil {
			return err
		}
		_, acc := planReview(items, names, q.Field)
		aid, err := annotatorID(tx, lead)
		if err != nil {
			return err
		}
		ts := now()
		for _, a := range acc {
			res, err := tx.Exec(`INSERT INTO label_events(annotator_id,item_id,field,value,role,created_at,guidelines_version)
				VALUES (?,?,?,?,?,?,?)`, aid, a.item, a.field, a.value, RoleAdjudicate, ts, guidelinesVersion)
			if err != nil {
				return err
			}
			id, _ := res.LastInsertId()
			if err := setCurrent(tx, RoleAdjudicate, aid, a.item, a.field, a.value, id); err != nil {
				return err
			}
			if err := tx.touch(a.item); err != nil {
				return err
			}
		}
		n = len(acc)
		return nil
	})
	return n, err
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
		if errors.Is(err, sql.ErrNoRows) {
			return ErrNothingToUndo
		}
		if err != nil {
			return err
		}
		rows, err := tx.Query(`SELECT e.id, e.item_id, i.ext_id, e.field, COALESCE(e.value,''), e.created_at
			FROM label_events e JOIN items i ON i.id=e.item_id WHERE `+standing+` AND e.created_at=? ORDER BY e.id`, aid, ts)
		if err != nil {
			return err
		}
		for rows.Next() {
			ev := Event{Annotator: lead, Role: RoleAdjudicate}
			if err := rows.Scan(&ev.ID, &ev.ItemID, &ev.ItemExtID, &ev.Field, &ev.Value, &ev.CreatedAt); err != nil {
				rows.Close()
				return err
			}
			evs = append(evs, ev)
		}
		rows.Close()
		if err := rows.Err(); err != nil {
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

// reviewItem is one item's labels: each compared annotator's (by index) and
// the adjudicated ones.
type reviewItem struct {
	ref    ItemRef
	labels []map[string]string
	final  map[string]string
}

// acceptance is one agreement AcceptAgreements writes.
type acceptance struct {
	item         int64
	field, value string
}

// batchFilter restricts a query on column col to the items of a batch.
func batchFilter(q querier, col, batch string) (string, []any, error) {
	if batch == "" {
		return "", nil, nil
	}
	var ok bool
	if err := q.QueryRow("SELECT EXISTS(SELECT 1 FROM batches WHERE name=?)", batch).Scan(&ok); err != nil {
		return "", nil, err
	}
	if !ok {
		return "", nil, notFound("batch", batch)
	}
	return " AND " + col + " IN (SELECT bi.item_id FROM batch_items bi JOIN batches b ON b.id=bi.batch_id WHERE b.name=?)", []any{batch}, nil
}

// loadReview reads the current labels of the annotators (ids) and the
// adjudicated labels of the items they labelled, in item order.
func loadReview(q querier, ids []int64, batch string) ([]*reviewItem, error) {
	filter, fargs, err := batchFilter(q, "l.item_id", batch)
	if err != nil {
		return nil, err
	}
	slot := make(map[int64]int, len(ids))
	for i, id := range ids {
		slot[id] = i
	}
	byID := map[int64]*reviewItem{}
	rows, err := q.Query(`SELECT l.annotator_id, l.item_id, i.ext_id, i.kind, l.field, l.value
		FROM current_labels l JOIN items i ON i.id=l.item_id
		WHERE l.role='annotate' AND l.annotator_id IN (SELECT value FROM json_each(?))`+filter,
		append([]any{jsonInts(ids)}, fargs...)...)
	if err != nil {
		return nil, err
	}
	for rows.Next() {
		var aid int64
		var ref ItemRef
		var field, value string
		if err := rows.Scan(&aid, &ref.ItemID, &ref.ExtID, &ref.Kind, &field, &value); err != nil {
			rows.Close()
			return nil, err
		}
		it := byID[ref.ItemID]
		if it == nil {
			it = &reviewItem{ref: ref, labels: make([]map[string]string, len(ids)), final: map[string]string{}}
			byID[ref.ItemID] = it
		}
		i := slot[aid]
		if it.labels[i] == nil {
			it.labels[i] = map[string]string{}
		}
		it.labels[i][field] = value
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, err
	}
	rows, err = q.Query(`SELECT l.item_id, l.field, l.value FROM current_labels l
		WHERE l.role='adjudicate' AND l.annotator_id=0`+filter, fargs...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	for rows.Next() {
		var item int64
		var field, value string
		if err := rows.Scan(&item, &field, &value); err != nil {
			return nil, err
		}
		if it := byID[item]; it != nil {
			it.final[field] = value
		}
	}
	out := slices.Collect(maps.Values(byID))
	slices.SortFunc(out, func(a, b *reviewItem) int { return cmp.Compare(a.ref.ItemID, b.ref.ItemID) })
	return out, rows.Err()
}

// planReview is the pure part of review: it classifies every (item, field)
// of the loaded items into units and agreements and lists the agreements
// that are ready to accept. only restricts the units to one field; the
// agreements then cover that field and the fields before it in its kind.
func planReview(items []*reviewItem, names []string, only string) (Review, []acceptance) {
	rev := Review{Annotators: names}
	byField := map[string][]ReviewUnit{}
	var acc []acceptance
	for _, it := range items {
		kind := schema.Kind(it.ref.Kind)
		fields := schema.Fields(kind)
		counted := make([]map[string]string, len(names))
		for i, l := range it.labels {
			counted[i] = schema.Counted(kind, l, nil)
		}
		final := it.final
		sim := maps.Clone(final) // final plus what this pass accepts
		last := len(fields) - 1  // the last field whose agreements count
		if only != "" {
			last = slices.IndexFunc(fields, func(f schema.Field) bool { return f.Name == only })
		}
		for fi, f := range fields {
			inScope := fi <= last
			labels := map[string]string{}
			for i, c := range counted {
				if v := c[f.Name]; v != "" {
					labels[names[i]] = v
				}
			}
			common, agree := agreed(f.Name, labels)
			asked := f.AskedWhen(final)
			moot := !asked && settled(f, final, fields[:fi])
			followUp := len(labels) < 2 && asked && !f.AskedWhen(map[string]string{})
			if agree && inScope {
				switch {
				case final[f.Name] != "":
					rev.Accepted++
				case !moot:
					rev.Agreeing++
					if sim[f.Name] == "" && f.AskedWhen(sim) {
						acc = append(acc, acceptance{it.ref.ItemID, f.Name, common})
						sim[f.Name] = common
					}
				}
			}
			if (only == "" || only == f.Name) && (len(labels) >= 2 && !agree || followUp) {
				u := ReviewUnit{ItemRef: it.ref, Field: f.Name, Labels: labels, Final: final[f.Name], FollowUp: followUp}
				switch {
				case moot:
					u.State = UnitMoot
				case u.Final != "":
					u.State = UnitDone
				}
				byField[f.Name] = append(byField[f.Name], u)
			}
			if fi == last {
				break
			}
		}
	}
	for _, f := range schema.AllFields() {
		rev.Units = append(rev.Units, byField[f.Name]...)
	}
	rev.Ready = len(acc)
	return rev, acc
}

// agreed returns the common value of at least two labels that all agree.
// A common value outside the schema is no agreement: the lead decides it.
func agreed(field string, labels map[string]string) (string, bool) {
	if len(labels) < 2 {
		return "", false
	}
	common := ""
	for _, v := range labels {
		if common != "" && v != common {
			return "", false
		}
		common = v
	}
	return common, schema.KnownValue(field, common)
}

// settled reports whether f's asked-when answer given the adjudicated
// labels can no longer change: it stays the same whatever values the
// earlier fields without an adjudication get (or if they get none). The
// schema's fields only depend on fields before them, so a field that is
// not asked and settled is moot, while one waiting on an undecided
// prerequisite is not.
func settled(f schema.Field, final map[string]string, earlier []schema.Field) bool {
	want := f.AskedWhen(final)
	var open []schema.Field
	for _, e := range earlier {
		if final[e.Name] == "" {
			open = append(open, e)
		}
	}
	cur := maps.Clone(final)
	var try func(k int) bool
	try = func(k int) bool {
		if k == len(open) {
			return f.AskedWhen(cur) == want
		}
		name := open[k].Name
		defer delete(cur, name)
		delete(cur, name)
		if !try(k + 1) {
			return false
		}
		for _, v := range open[k].Values {
			cur[name] = v
			if !try(k + 1) {
				return false
			}
		}
		return true
	}
	return try(0)
}

// ReviewDetail is everything the review screens show of one item.
type ReviewDetail struct {
	ItemRef
	QA          QAPair                       // the item's pair (a claim's: its answer's)
	Claim       Claim                        // kind claim
	Labels      map[string]map[string]string // annotator -> current labels
	Notes       map[string]string            // annotator -> note ("" none)
	Flagged     map[string]bool              // annotator -> flag
	Final       map[string]string            // adjudicated labels
	Predictions map[string]string            // system -> value; only when asked for
	LeadNote    string
	LeadFlagged bool
}

// ReviewItem loads one item with the labels, notes and flags of the
// annotators, the adjudicated labels and the lead's note and flag. Review
// reads predictions only for the system view: adjudicating with the
// system's answer on screen would bias the labels it is measured against.
func (s *Store) ReviewItem(ref ItemRef, annotators []string, lead string, predictions bool) (ReviewDetail, error) {
	d := ReviewDetail{ItemRef: ref, Labels: map[string]map[string]string{}, Notes: map[string]string{},
		Flagged: map[string]bool{}, Final: map[string]string{}}
	var err error
	qa := ref.ItemID
	if ref.Kind == string(schema.KindClaim) {
		if d.Claim, err = s.Claim(ref.ItemID); err != nil {
			return d, err
		}
		p, err := s.Resolve(d.Claim.QAID)
		if err != nil {
			return d, err
		}
		qa = p.ItemID
	}
	if d.QA, err = s.QA(qa); err != nil {
		return d, err
	}
	for _, a := range annotators {
		if d.Labels[a], err = s.CurrentLabels(a, ref.ItemID); err != nil {
			return d, err
		}
		if d.Notes[a], d.Flagged[a], err = s.ItemNote(a, ref.ItemID); err != nil {
			return d, err
		}
	}
	if d.LeadNote, d.LeadFlagged, err = s.ItemNote(lead, ref.ItemID); err != nil {
		return d, err
	}
	if err := scanPairs(s.db, d.Final, "SELECT field, value FROM current_labels WHERE role='adjudicate' AND annotator_id=0 AND item_id=?", ref.ItemID); err != nil {
		return d, err
	}
	if predictions {
		d.Predictions = map[string]string{}
		err = scanPairs(s.db, d.Predictions, "SELECT system, value FROM predictions WHERE item_id=?", ref.ItemID)
	}
	return d, err
}

// scanPairs reads two text columns into a map.
func scanPairs(q querier, dst map[string]string, query string, args ...any) error {
	rows, err := q.Query(query, args...)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		var k, v string
		if err := rows.Scan(&k, &v); err != nil {
			return err
		}
		dst[k] = v
	}
	return rows.Err()
}

// SystemQuery selects the expert labels and the system the system view
// compares (as `annotate metrics` does).
type SystemQuery struct {
	System string   // e.g. "refchecker"
	Labels LabelSet // an annotator's labels, or the adjudicated ones
	Batch  string   // "": every claim
}

// OtherClass is the system column of values outside the entailment classes.
const OtherClass = "other"

// SystemCell is one off-diagonal cell of the confusion matrix: the claims
// the expert put in one class and the system in another.
type SystemCell struct {
	Expert, System string
	Items          []ItemRef // in import order
}

// SystemReview is the expert-versus-system confusion over the verified
// claims: extracted claims the expert judged correct, with an entailment
// label that counts and a prediction of the system.
type SystemReview struct {
	System    string
	Expert    string // the annotator, or "adjudicated"
	Classes   []string
	N, Agree  int
	Confusion map[string]map[string]int // expert -> system (OtherClass included) -> claims
	Cells     []SystemCell              // off the diagonal, most claims first
}

// SystemDisagreements builds the confusion of the expert's entailment
// labels against the system's predictions, with the claims of each cell.
func (s *Store) SystemDisagreements(q SystemQuery) (SystemReview, error) {
	ent, _ := schema.Lookup(schema.Entailment)
	validity, _ := schema.Lookup(schema.ClaimValidity)
	rev := SystemReview{System: q.System, Expert: q.Labels.Annotator, Classes: ent.Values, Confusion: map[string]map[string]int{}}
	role, aid := RoleAdjudicate, int64(0)
	switch {
	case q.Labels.Adjudicated:
		rev.Expert = "adjudicated"
	case q.Labels.Annotator == "":
		return rev, errors.New("choose the expert labels: an annotator, or the adjudicated ones")
	default:
		role = RoleAnnotate
		err := s.db.QueryRow("SELECT id FROM annotators WHERE name=?", q.Labels.Annotator).Scan(&aid)
		if errors.Is(err, sql.ErrNoRows) {
			return rev, notFound("annotator", q.Labels.Annotator)
		}
		if err != nil {
			return rev, err
		}
	}
	filter, fargs, err := batchFilter(s.db, "i.id", q.Batch)
	if err != nil {
		return rev, err
	}
	rows, err := s.db.Query(`SELECT i.id, i.ext_id, l.field, l.value, p.value
		FROM claims c JOIN items i ON i.id=c.item_id
		JOIN predictions p ON p.item_id=c.item_id AND p.system=?
		JOIN current_labels l ON l.item_id=c.item_id AND l.role=? AND l.annotator_id=? AND l.field IN (?,?)
		WHERE c.origin='extracted'`+filter+` ORDER BY i.id`,
		append([]any{q.System, role, aid, schema.ClaimValidity, schema.Entailment}, fargs...)...)
	if err != nil {
		return rev, err
	}
	defer rows.Close()
	for _, c := range ent.Values {
		rev.Confusion[c] = map[string]int{OtherClass: 0}
		for _, p := range ent.Values {
			rev.Confusion[c][p] = 0
		}
	}
	cells := map[[2]string]*SystemCell{}
	var cur ItemRef
	var labels map[string]string
	var pred string
	flush := func() {
		if cur.ItemID == 0 {
			return
		}
		counted := schema.Counted(schema.KindClaim, labels, nil)
		e := counted[schema.Entailment]
		if counted[schema.ClaimValidity] != validity.Values[0] || !schema.KnownValue(schema.Entailment, e) {
			return
		}
		p, known := schema.Normalize(schema.Entailment, pred)
		if !known {
			p = OtherClass
		}
		rev.N++
		rev.Confusion[e][p]++
		if p == e {
			rev.Agree++
			return
		}
		k := [2]string{e, p}
		if cells[k] == nil {
			cells[k] = &SystemCell{Expert: e, System: p}
		}
		cells[k].Items = append(cells[k].Items, cur)
	}
	for rows.Next() {
		var ref ItemRef
		var field, value, p string
		if err := rows.Scan(&ref.ItemID, &ref.ExtID, &field, &value, &p); err != nil {
			return rev, err
		}
		if ref.ItemID != cur.ItemID {
			flush()
			cur, labels, pred = ref, map[string]string{}, p
			cur.Kind = string(schema.KindClaim)
		}
		labels[field] = value
	}
	if err := rows.Err(); err != nil {
		return rev, err
	}
	flush()
	classIdx := func(c string) int {
		if i := slices.Index(ent.Values, c); i >= 0 {
			return i
		}
		return len(ent.Values)
	}
	for _, c := range cells {
		rev.Cells = append(rev.Cells, *c)
	}
	slices.SortFunc(rev.Cells, func(a, b SystemCell) int {
		if d := len(b.Items) - len(a.Items); d != 0 {
			return d
		}
		if d := classIdx(a.Expert) - classIdx(b.Expert); d != 0 {
			return d
		}
		return classIdx(a.System) - classIdx(b.System)
	})
	return rev, nil
}
