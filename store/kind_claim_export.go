package store

import (
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"iter"
	"strings"

	"github.com/annotate-dev/annotate/schema"
)

// The claims' export stream (exportdata.go), each claim with its pair's
// text, and the counts of pairs and claims an export yields.

// ExportClaim is one claim of an export stream, with its pair's question,
// answer and contexts so a claims file stands on its own.
type ExportClaim struct {
	Claim
	Language     string
	Question     string
	Answer       string
	ContextsJSON json.RawMessage  // shared by the claims of a pair: read-only
	Preds        []sql.NullString // aligned with ExportOptions.Systems
	Labels       map[string]string
	// PairLabels are the pair's labels in the label set: a claim of an
	// answer judged incorrect asks nothing (its labels are not published).
	PairLabels map[string]string
	Note       sql.NullString
	Suggested  []string // as ExportQA.Suggested
}

// standingSQL keeps extracted claims and annotator-added claims whose
// claim_added label still stands.
const standingSQL = `(cl.origin <> 'annotator' OR EXISTS (SELECT 1 FROM current_labels ca
	WHERE ca.item_id = cl.item_id AND ca.field = 'claim_added' AND ca.role = 'annotate'))`

// pairText is what claim rows repeat from their QA pair, with the pair's
// labels in the label set (which decide whether its claims are asked).
type pairText struct {
	id                         int64
	language, question, answer string
	contexts                   json.RawMessage
	labels                     map[string]string
}

// Claims streams the claims grouped by QA pair (import order), in position
// order within a pair, so annotator-added claims follow their answer's. The
// pair's text comes from a second cursor over the pairs in the same order,
// read once per pair rather than once per claim (a pair has several claims,
// and its contexts are the longest text of a row).
func (x *Snapshot) Claims(o ExportOptions) iter.Seq2[*ExportClaim, error] {
	return x.claims(o, nil)
}

// ClaimsByID streams the standing claims among ids (a batch: a few hundred)
// as Claims streams them, in its order, without a label set.
func (x *Snapshot) ClaimsByID(ids []int64) iter.Seq2[*ExportClaim, error] {
	if ids == nil {
		ids = []int64{}
	}
	return x.claims(ExportOptions{}, ids)
}

// claims is Claims, of the claims among ids unless ids is nil.
func (x *Snapshot) claims(o ExportOptions, ids []int64) iter.Seq2[*ExportClaim, error] {
	return func(yield func(*ExportClaim, error) bool) {
		cols, args, err := x.rowLabelCols(o, "c.id")
		if err != nil {
			yield(nil, err)
			return
		}
		var preds strings.Builder
		var pargs []any
		for _, sys := range o.Systems {
			preds.WriteString(", (SELECT value FROM predictions WHERE item_id = c.id AND system = ? AND field = 'entailment')")
			pargs = append(pargs, sys)
		}
		where, pairsWhere := "p.kind = 'qa'", ""
		var idArgs []any
		if !o.AllClaims {
			where += " AND " + standingSQL
		}
		if ids != nil {
			where += " AND c.id IN (SELECT value FROM json_each(?))"
			pairsWhere = " AND p.id IN (SELECT parent_id FROM items WHERE id IN (SELECT value FROM json_each(?)))"
			idArgs = []any{jsonInts(ids)}
		}
		q := `SELECT p.id, c.id, c.ext_id, p.ext_id, COALESCE(src.name, ''),
			cl.position, cl.subject, cl.predicate, cl.object, cl.text, cl.origin, COALESCE(a.name, ''), cl.extractor` + preds.String() + cols + `
			FROM items p JOIN items c ON c.parent_id = p.id JOIN claims cl ON cl.item_id = c.id
			LEFT JOIN sources src ON src.id = c.source_id LEFT JOIN annotators a ON a.id = cl.added_by
			WHERE ` + where + ` ORDER BY p.id, cl.position, c.id`
		rows, err := x.q.Query(q, append(append(pargs, args...), idArgs...)...)
		if err != nil {
			yield(nil, err)
			return
		}
		defer rows.Close()
		pairFields := schema.KindFields(schema.KindQA)
		var pairNames []string
		for _, f := range pairFields {
			pairNames = append(pairNames, f.Name)
		}
		pcols, pcargs := ", NULL, NULL", []any(nil) // the native export reads no label set
		if o.Labels.Annotator != "" || o.Labels.Adjudicated {
			if pcols, pcargs, err = x.labelCols(ExportOptions{Labels: o.Labels, Fields: pairNames}, "p.id"); err != nil {
				yield(nil, err)
				return
			}
		}
		pairs, err := x.q.Query(`SELECT p.id, COALESCE(NULLIF(q.language, ''), src.language, ''), q.question, q.answer, `+
			fmt.Sprintf(contextsSQL, "p.id")+pcols+` FROM items p JOIN qa_pairs q ON q.item_id = p.id LEFT JOIN sources src ON src.id = p.source_id
			WHERE p.kind = 'qa'`+pairsWhere+` ORDER BY p.id`, append(pcargs, idArgs...)...)
		if err != nil {
			yield(nil, err)
			return
		}
		defer pairs.Close()
		var pair pairText
		for rows.Next() {
			r := &ExportClaim{Preds: make([]sql.NullString, len(o.Systems))}
			var parent int64
			var labels, suggested sql.NullString
			dest := []any{&parent, &r.ItemID, &r.ID, &r.QAID, &r.Source, &r.Position,
				&r.Triplet[0], &r.Triplet[1], &r.Triplet[2], &r.Text, &r.Origin, &r.AddedBy, &r.Extractor}
			for i := range r.Preds {
				dest = append(dest, &r.Preds[i])
			}
			if err := rows.Scan(append(dest, &labels, &r.Note, &suggested)...); err != nil {
				yield(nil, err)
				return
			}
			r.Suggested = scanSuggested(suggested)
			for pair.id < parent && pairs.Next() {
				var ctx string
				var plabels, pnote sql.NullString
				if err := pairs.Scan(&pair.id, &pair.language, &pair.question, &pair.answer, &ctx, &plabels, &pnote); err != nil {
					yield(nil, err)
					return
				}
				pair.contexts = json.RawMessage(ctx)
				if pair.labels, err = scanLabels(pairNames, plabels); err != nil {
					yield(nil, fmt.Errorf("labels of pair %d: %w", pair.id, err))
					return
				}
			}
			if pair.id != parent {
				yield(nil, errors.Join(pairs.Err(), fmt.Errorf("claim %s: its QA pair %s was not read", r.ID, r.QAID)))
				return
			}
			r.Language, r.Question, r.Answer, r.ContextsJSON = pair.language, pair.question, pair.answer, pair.contexts
			r.PairLabels = pair.labels
			if r.Labels, err = scanLabels(o.Fields, labels); err != nil {
				yield(nil, fmt.Errorf("labels of %s: %w", r.ID, err))
				return
			}
			if !yield(r, nil) {
				return
			}
		}
		if err := rows.Err(); err != nil {
			yield(nil, err)
		}
	}
}

// ExportCounts returns the number of QA pairs and of claims a stream will yield
// (standing claims unless all), for progress and the card's size category.
func (x *Snapshot) ExportCounts(all bool) (qa, claims int, err error) {
	where := standingSQL
	if all {
		where = "1"
	}
	err = x.q.QueryRow(`SELECT (SELECT COUNT(*) FROM items WHERE kind = 'qa'),
		(SELECT COUNT(*) FROM claims cl JOIN items c ON c.id = cl.item_id JOIN items p ON p.id = c.parent_id AND p.kind = 'qa' WHERE `+where+`)`).Scan(&qa, &claims)
	return qa, claims, err
}
