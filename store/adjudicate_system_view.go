package store

import (
	"errors"
	"slices"

	"github.com/annotate-dev/annotate/adjudication"
	"github.com/annotate-dev/annotate/schema"
	"github.com/annotate-dev/annotate/tally"
)

// The system view: an expert's labels of the field a kind's systems predict
// (adjudicate_system.go) against one system's, as a confusion matrix whose
// off-diagonal cells name their items.

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

// SystemConfusion is the expert-versus-system confusion over the items of the
// kind compared that enter its comparison (for claims, the verified ones:
// extracted claims the expert judged correct, with an entailment label that
// counts) and that the system predicted.
type SystemConfusion struct {
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
func (rx *ReadTx) SystemDisagreements(q SystemQuery) (SystemConfusion, error) {
	kind, cmp, err := comparedKind(q.Kind)
	if err != nil {
		return SystemConfusion{}, err
	}
	fd, _ := schema.Lookup(cmp.PredictedField())
	rev := SystemConfusion{System: q.System, Expert: q.Labels.Annotator, Kind: string(kind), Field: cmp.PredictedField(), Classes: fd.Values}
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
