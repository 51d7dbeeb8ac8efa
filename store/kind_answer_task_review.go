package store

import (
	"errors"
	"fmt"

	"github.com/annotate-dev/annotate/adjudication"
	"github.com/annotate-dev/annotate/schema"
)

// The lead's review of gold answers (annotate review --kind answer_task).
// A review is the lead's adjudication of the answer task: accepting an
// expert's answer writes answer_review=accept and copies that answer's
// gold_answer and citations into the adjudicated labels (so the gold answer
// is exactly what was accepted, even if the expert edits theirs later);
// rejecting writes answer_review=reject and reject_reason, and makes no gold
// answer. The events of one review share a timestamp, so UndoAdjudication
// takes a review back whole.

// AnswerUnit is one expert's submitted answer to an answer task.
type AnswerUnit struct {
	ItemRef
	Task      *AnswerTask
	Annotator string
	Answer    string
	Citations []string
	// Review: "" pending (never reviewed, or the answer changed since),
	// "accepted" (this answer is the gold one), "rejected", or "other"
	// (another expert's answer to the task was accepted).
	Review string
	Reason string // reject_reason when rejected
	// Own: the lead gave a label on the answer's item (their own answer):
	// its review is refused unless --allow-own (AnswerUnitsOf).
	Own bool
}

// Review states of an AnswerUnit (adjudication.AnswerState says which).
const (
	ReviewPending  = adjudication.AnswerPending
	ReviewAccepted = adjudication.AnswerAccepted
	ReviewRejected = adjudication.AnswerRejected
	ReviewOther    = adjudication.AnswerOther
)

// AnswerUnits lists every submitted answer (of a batch: batch != ""), in
// task order then annotator order, with its review state.
func (s *Store) AnswerUnits(batch string) ([]AnswerUnit, error) { return s.AnswerUnitsOf(batch, "") }

// AnswerUnitsOf is AnswerUnits for a lead: the answers in whose item the
// lead gave a label are marked Own.
func (s *Store) AnswerUnitsOf(batch, lead string) ([]AnswerUnit, error) {
	var out []AnswerUnit
	err := s.Read(func(rx *ReadTx) error {
		adj, err := adjudicator(rx.q, lead, false)
		if err != nil {
			return err
		}
		bid, err := batchID(rx.q, batch)
		if err != nil {
			return err
		}
		type row struct {
			item, event, aid int64
			ext, who, answer string
		}
		var rows []row
		err = eachRow(rx.q, `SELECT i.id, i.ext_id, l.annotator_id, a.name, l.value, l.event_id
			FROM current_labels l JOIN items i ON i.id=l.item_id JOIN annotators a ON a.id=l.annotator_id
			WHERE l.role='annotate' AND l.field=? AND i.kind=?
			  AND (?=0 OR EXISTS (SELECT 1 FROM batch_items b WHERE b.batch_id=? AND b.item_id=i.id))
			ORDER BY i.id, a.id`, []any{schema.GoldAnswer, schema.KindAnswerTask, bid, bid}, func(sc func(...any) error) error {
			var r row
			err := sc(&r.item, &r.ext, &r.aid, &r.who, &r.answer, &r.event)
			rows = append(rows, r)
			return err
		})
		if err != nil || len(rows) == 0 {
			return err
		}
		var ids []int64
		for _, r := range rows {
			ids = append(ids, r.item)
		}
		items, err := loadItems(rx.q, ids)
		if err != nil {
			return err
		}
		for _, r := range rows {
			u := AnswerUnit{ItemRef: ItemRef{ItemID: r.item, ExtID: r.ext, Kind: string(schema.KindAnswerTask)}, Annotator: r.who, Answer: r.answer}
			u.Task, _ = items[r.item].Payload.(*AnswerTask)
			mine, err := labelsOf(rx.q, r.aid, r.item)
			if err != nil {
				return err
			}
			u.Citations = schema.DecodeMulti(mine[schema.Citations])
			final, events, err := adjudicated(rx.q, r.item)
			if err != nil {
				return err
			}
			u.Review, u.Reason = adjudication.AnswerState(adjudication.Answer{Text: r.answer, Citations: mine[schema.Citations], Event: r.event}, final, events)
			u.Own = adj.Own(r.item, "")
			out = append(out, u)
		}
		return nil
	})
	return out, err
}

// adjudicated reads an item's adjudicated labels and their event ids.
func adjudicated(q querier, item int64) (map[string]string, map[string]int64, error) {
	vals, evs := map[string]string{}, map[string]int64{}
	err := eachRow(q, "SELECT field, value, event_id FROM current_labels WHERE item_id=? AND role='adjudicate'", []any{item},
		func(sc func(...any) error) error {
			var f, v string
			var e int64
			err := sc(&f, &v, &e)
			vals[f], evs[f] = v, e
			return err
		})
	return vals, evs, err
}

// AnswerReviewOptions times a gold answer's review and says whether the
// lead may review an answer task in which they gave a label (their own
// answer: --allow-own, recorded as such; refused without it).
type AnswerReviewOptions struct {
	ActiveMs, Session int64
	AllowOwn          bool
}

// ReviewAnswer records the lead's review of one expert's answer: accept
// (reason ""), or reject with a reason of reject_reason. One transaction,
// one timestamp.
func (s *Store) ReviewAnswer(lead string, item int64, annotator string, accept bool, reason string, o AnswerReviewOptions) error {
	if !accept && !schema.KnownValue(schema.RejectReason, reason) {
		f, _ := schema.Lookup(schema.RejectReason)
		return fmt.Errorf("reject reason %q: must be one of %v", reason, f.Values)
	}
	return s.write(func(tx *wtx) error {
		aid, ok, _ := lookupAnnotator(tx, annotator)
		if !ok {
			return notFound("annotator", annotator)
		}
		mine, err := labelsOf(tx, aid, item)
		if err != nil {
			return err
		}
		if mine[schema.GoldAnswer] == "" {
			return fmt.Errorf("%s has submitted no answer to item %d", annotator, item)
		}
		own, err := ownDecision(tx, lead, o.AllowOwn, item, "")
		if err != nil {
			return err
		}
		lid, err := annotatorID(tx, lead)
		if err != nil {
			return err
		}
		labels := []adjudication.Acceptance{{Item: item, Field: schema.AnswerReview, Value: "reject"}, {Item: item, Field: schema.RejectReason, Value: reason}}
		if accept {
			labels = []adjudication.Acceptance{{Item: item, Field: schema.AnswerReview, Value: "accept"},
				{Item: item, Field: schema.GoldAnswer, Value: mine[schema.GoldAnswer]}, {Item: item, Field: schema.Citations, Value: mine[schema.Citations]}}
		}
		for i := range labels {
			labels[i].Own = own
		}
		return writeAdjudications(tx, lid, labels, o.ActiveMs, o.Session)
	})
}

// ErrNoAnswers is returned when there is no submitted answer to review.
var ErrNoAnswers = errors.New("no submitted answer to review yet")
