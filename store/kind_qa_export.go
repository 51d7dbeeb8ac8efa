package store

import (
	"database/sql"
	"encoding/json"
	"fmt"
	"iter"
)

// The QA pairs' export stream (exportdata.go) and what the card reads of
// the pairs per source.

// ExportQA is one QA pair of an export stream.
type ExportQA struct {
	QAPair         // Language: the pair's own, "" when it takes the source's
	SourceLanguage string
	Jurisdiction   string
	// ContextsJSON is the pair's context units as a JSON array of
	// {"id","text"} objects in order, built by SQLite so the writers can
	// copy it without decoding and re-encoding every paragraph.
	ContextsJSON json.RawMessage
	ClaimIDs     json.RawMessage // JSON array of the pair's claim ids in position order
	Labels       map[string]string
	Note         sql.NullString
	// Suggested lists "field=system" for each label of the row made with a
	// system's prediction preselected (ExportOptions.Suggested), in field
	// order; empty when all were made blind.
	Suggested []string
}

const contextsSQL = `(SELECT COALESCE(json_group_array(json_object('id', cu.ext_id, 'text', cu.text) ORDER BY x.position), '[]')
	FROM qa_contexts x JOIN context_units cu ON cu.id = x.context_id WHERE x.qa_item_id = %s)`

// QAs streams the QA pairs in import order.
func (x *Snapshot) QAs(o ExportOptions) iter.Seq2[*ExportQA, error] {
	return x.qas(o, nil)
}

// QAsByID streams the QA pairs among ids (a batch: a few hundred) as QAs
// streams them, in its order, without a label set.
func (x *Snapshot) QAsByID(ids []int64) iter.Seq2[*ExportQA, error] {
	if ids == nil {
		ids = []int64{}
	}
	return x.qas(ExportOptions{}, ids)
}

// qas is QAs, of the pairs among ids unless ids is nil.
func (x *Snapshot) qas(o ExportOptions, ids []int64) iter.Seq2[*ExportQA, error] {
	return func(yield func(*ExportQA, error) bool) {
		cols, args, err := x.rowLabelCols(o, "p.id")
		if err != nil {
			yield(nil, err)
			return
		}
		standing := standingSQL
		if o.AllClaims {
			standing = "1"
		}
		q := `SELECT p.id, p.ext_id, COALESCE(src.name, ''), q.language, COALESCE(src.language, ''), COALESCE(src.jurisdiction, ''),
			q.hop, q.question, q.answer, q.rationale, q.category, q.extra, q.as_given, ` + fmt.Sprintf(contextsSQL, "p.id") + `,
			(SELECT COALESCE(json_group_array(c.ext_id ORDER BY cl.position, c.id), '[]') FROM items c JOIN claims cl ON cl.item_id = c.id
				WHERE c.parent_id = p.id AND ` + standing + `)` + cols + `
			FROM items p JOIN qa_pairs q ON q.item_id = p.id LEFT JOIN sources src ON src.id = p.source_id
			WHERE p.kind = 'qa'`
		if ids != nil {
			q += " AND p.id IN (SELECT value FROM json_each(?))"
			args = append(args, jsonInts(ids))
		}
		rows, err := x.q.Query(q+" ORDER BY p.id", args...)
		if err != nil {
			yield(nil, err)
			return
		}
		defer rows.Close()
		for rows.Next() {
			r := &ExportQA{}
			var ctx, ids string
			var labels, suggested sql.NullString
			if err := rows.Scan(&r.ItemID, &r.ID, &r.Source, &r.Language, &r.SourceLanguage, &r.Jurisdiction, &r.Hop, &r.Question, &r.Answer,
				&r.Rationale, &r.Category, &r.Extra, &r.AsGiven, &ctx, &ids, &labels, &r.Note, &suggested); err != nil {
				yield(nil, err)
				return
			}
			r.Suggested = scanSuggested(suggested)
			r.ContextsJSON, r.ClaimIDs = json.RawMessage(ctx), json.RawMessage(ids)
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

// SourceInfo describes a source for the dataset card.
type SourceInfo struct {
	Name, Language, Jurisdiction string
	QA                           int
}

// SourceInfos lists the sources in creation order (the reports' order), with the language of
// their pairs when the source itself has none.
func (x *Snapshot) SourceInfos() ([]SourceInfo, error) {
	rows, err := x.q.Query(`SELECT s.name, COALESCE(NULLIF(s.language, ''), (SELECT MIN(q.language) FROM qa_pairs q JOIN items i ON i.id = q.item_id
			WHERE i.source_id = s.id AND q.language <> ''), ''), s.jurisdiction,
		(SELECT COUNT(*) FROM items i WHERE i.source_id = s.id AND i.kind = 'qa')
		FROM sources s ORDER BY s.id`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []SourceInfo
	for rows.Next() {
		var si SourceInfo
		if err := rows.Scan(&si.Name, &si.Language, &si.Jurisdiction, &si.QA); err != nil {
			return nil, err
		}
		out = append(out, si)
	}
	return out, rows.Err()
}
