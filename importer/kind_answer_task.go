package importer

import (
	"strings"

	"github.com/annotate-dev/annotate/schema"
	"github.com/annotate-dev/annotate/store"
)

// Native JSONL lines of answer tasks, as the export writes them:
// {"kind":"answer_task","id":…,"query":…}.

// answerTaskKind reads answer tasks from their native lines and from the
// answers config of an hf export, whose review columns are the reviewing
// lead's adjudicated labels (hfReview).
type answerTaskKind struct{}

func init() { Register(answerTaskKind{}) }

func (answerTaskKind) Kind() schema.Kind                  { return schema.KindAnswerTask }
func (answerTaskKind) ReadLine(l *Line) (*Item, error)    { return parseAnswerTask(l.f, l.r) }
func (answerTaskKind) HFConfig() string                   { return "answers" }
func (answerTaskKind) HFExtra(row *Line, id string) error { return hfReview(row.f, row.r, id) }

func (answerTaskKind) HFColumns() map[string]string {
	return map[string]string{"query": "", "query_id": "query", "query_persona": "", "jurisdiction": "",
		"review": "", "review_reason": "", "reviewed_by": "", "gold_answer_accepted": "", "gold_citations": ""}
}

func parseAnswerTask(f *fileData, r *rec) (*itemRec, error) {
	var a store.AnswerTask
	var err error
	if a.ID, err = r.needID("id"); err != nil {
		return nil, err
	}
	if a.QueryID, err = r.needID("query"); err != nil {
		return nil, err
	}
	if _, err := f.itemRest(r, a.ID, schema.KindAnswerTask); err != nil {
		return nil, err
	}
	return &itemRec{idField: "id", kind: schema.KindAnswerTask, id: a.ID, hash: store.AnswerTaskHash(a.QueryID),
		needs: []need{{"query", a.QueryID}},
		put: func(tx *store.Tx, hash, file string, update bool) (int64, store.PutResult, error) {
			return tx.PutAnswerTask(a, hash, file, update)
		}}, nil
}

// hfReview gives an answer task's review back to the lead who made it
// (reviewed_by), as the review wrote it: adjudicated answer_review, and
// the accepted gold answer and citations, or the reject reason. A row
// without reviewed_by (a folder written before annotate named the
// reviewer) keeps no review.
func hfReview(f *fileData, r *rec, id string) error {
	review, err := r.str("review")
	if err != nil {
		return err
	}
	lead, err := r.str("reviewed_by")
	if err != nil {
		return err
	}
	switch {
	case lead == "":
		return nil
	case review == "":
		return r.errf("reviewed_by", "%q reviewed nothing: review is null", lead)
	}
	reason, err := r.str("review_reason")
	if err != nil {
		return err
	}
	gold, err := r.str("gold_answer_accepted")
	if err != nil {
		return err
	}
	cites, err := r.strings("gold_citations")
	if err != nil {
		return err
	}
	labels := []labelRec{{field: "review", name: schema.AnswerReview, value: review}}
	switch review {
	case "accept":
		if strings.TrimSpace(gold) == "" {
			return r.errf("gold_answer_accepted", "missing: an accepted answer is the gold answer")
		}
		labels = append(labels, labelRec{field: "gold_answer_accepted", name: schema.GoldAnswer, value: gold})
		if cites != nil { // [] too: the acceptance recorded that there are none
			labels = append(labels, labelRec{field: "gold_citations", name: schema.Citations, value: schema.EncodeMulti(cites)})
		}
	case "reject":
		if reason == "" {
			return r.errf("review_reason", "missing: a rejection gives its reason")
		}
		labels = append(labels, labelRec{field: "review_reason", name: schema.RejectReason, value: reason})
	default:
		return r.errf("review", "want accept or reject, got %q", review)
	}
	for _, l := range labels {
		l.at, l.itemField, l.annotator, l.who, l.item, l.adjudicate = r.at, "id", lead, "reviewed_by", id, true
		if err := f.addLabel(l, schema.KindAnswerTask); err != nil {
			return err
		}
	}
	return nil
}
