package store

import (
	"database/sql"
	"errors"
	"fmt"
	"strconv"

	"github.com/annotate-dev/annotate/schema"
	"github.com/annotate-dev/annotate/tally"
)

// The QA pair kind's rows: qa_pairs, with its context units.

// qaKind is the store's QA pair: its table qa_pairs (migration 0001), read
// by loadQAs, written by PutQA.
type qaKind struct{}

func init() { Register(qaKind{}) }

func (qaKind) Kind() schema.Kind                                      { return schema.KindQA }
func (qaKind) Table() string                                          { return "qa_pairs" }
func (qaKind) Payloads(q Querier, ids []int64) (map[int64]any, error) { return loadQAs(q, ids) }

func (qaKind) Attrs() ([]string, string) {
	return []string{"hop", "category", tally.AttrAsGiven, tally.AttrNoClaimsFrom},
		"SELECT item_id, hop, category, as_given, " + noClaimsFromSQL +
			" FROM qa_pairs WHERE item_id IN (SELECT value FROM json_each(?))"
}

// noClaimsFromSQL is a pair's tally.AttrNoClaimsFrom: the extractors whose
// output it was imported with as an empty list, RefChecker's
// "<extractor>_response_kg": [] kept with the pair's extra keys as given
// (importer/kind_claim_refchecker.go).
const noClaimsFromSQL = `CASE WHEN json_valid(extra) AND json_type(extra) = 'object' THEN COALESCE((SELECT group_concat(substr(j.key, 1, length(j.key) - 12), char(10))
	FROM json_each(extra) j WHERE j.key LIKE '%\_response\_kg' ESCAPE '\' AND j.type = 'array' AND json_array_length(j.value) = 0), '') ELSE '' END`

// stageQAPairs stages the pairs of an import (import_staging.go).
var stageQAPairs = registerStage("qa_pairs", "INSERT OR REPLACE INTO qa_pairs(item_id,language,hop,question,answer,rationale,category,extra,as_given) VALUES ", 9)

// loadQAs reads QA pairs with their context units in order.
func loadQAs(q querier, ids []int64) (map[int64]any, error) {
	out := map[int64]any{}
	ids2 := jsonInts(ids)
	err := eachRow(q, `SELECT i.id, i.ext_id, COALESCE(src.name,''), CASE WHEN p.language <> '' THEN p.language ELSE COALESCE(src.language,'') END,
			p.hop, p.question, p.answer, p.rationale, p.category, p.extra
		FROM items i JOIN qa_pairs p ON p.item_id=i.id LEFT JOIN sources src ON src.id=i.source_id
		WHERE i.id IN (SELECT value FROM json_each(?))`, []any{ids2}, func(sc func(...any) error) error {
		qa := &QAPair{}
		if err := sc(&qa.ItemID, &qa.ID, &qa.Source, &qa.Language, &qa.Hop, &qa.Question, &qa.Answer, &qa.Rationale, &qa.Category, &qa.Extra); err != nil {
			return err
		}
		out[qa.ItemID] = qa
		return nil
	})
	if err != nil {
		return nil, err
	}
	err = eachRow(q, `SELECT x.qa_item_id, c.ext_id, c.text FROM qa_contexts x JOIN context_units c ON c.id=x.context_id
		WHERE x.qa_item_id IN (SELECT value FROM json_each(?)) ORDER BY x.qa_item_id, x.position`, []any{ids2}, func(sc func(...any) error) error {
		var id int64
		var c Context
		if err := sc(&id, &c.ID, &c.Text); err != nil {
			return err
		}
		if qa, ok := out[id].(*QAPair); ok {
			qa.Contexts = append(qa.Contexts, c)
		}
		return nil
	})
	return out, err
}

func (qaKind) HopSQL() string { return "(SELECT hop FROM qa_pairs WHERE item_id = i.id)" }

// PutQA adds a QA pair (and its context units). hash identifies its content.
func (t *Tx) PutQA(q QAPair, hash, file string, update bool) (int64, PutResult, error) {
	src, err := t.Source(q.Source, q.Language, "")
	if err != nil {
		return 0, 0, err
	}
	id, res, err := t.PutItem(schema.KindQA, q.ID, src, 0, hash, file, update)
	if err != nil {
		return id, res, err
	}
	if res == Unchanged {
		// A pair imported before pairs were marked as given is marked when
		// its file is imported again.
		if q.AsGiven {
			// The pair's row may be staged (put earlier in this import).
			if err := t.tx.flush(stageQAPairs); err != nil {
				return id, res, err
			}
			r, err := t.tx.Exec("UPDATE qa_pairs SET as_given=1 WHERE item_id=? AND as_given=0", id)
			if err != nil {
				return id, res, err
			}
			if n, _ := r.RowsAffected(); n > 0 {
				return id, res, t.tx.touch(id)
			}
		}
		return id, res, nil
	}
	extra := q.Extra
	if extra == "" {
		extra = "{}"
	}
	hop := q.Hop
	if hop == "" {
		hop = "single"
	}
	// Staged with the import's other pairs (import_staging.go).
	if err := t.tx.stage(stageQAPairs, id, q.Language, hop, q.Question, q.Answer, q.Rationale, q.Category, extra, q.AsGiven); err != nil {
		return 0, 0, err
	}
	if _, err := t.tx.Exec("DELETE FROM qa_contexts WHERE qa_item_id=?", id); err != nil {
		return 0, 0, err
	}
	for i, c := range q.Contexts {
		cid, err := t.context(c, src, update)
		if err != nil {
			return 0, 0, fmt.Errorf("contexts[%d]: %w", i, err)
		}
		if _, err := t.tx.Exec("INSERT INTO qa_contexts(qa_item_id,position,context_id) VALUES (?,?,?)", id, i, cid); err != nil {
			return 0, 0, err
		}
	}
	return id, res, t.PutPredictions(id, ResponseField, q.Predictions)
}

func (t *Tx) context(c Context, source int64, update bool) (int64, error) {
	var id int64
	var text string
	err := t.tx.QueryRow("SELECT id, text FROM context_units WHERE ext_id=?", c.ID).Scan(&id, &text)
	switch {
	case errors.Is(err, sql.ErrNoRows):
		res, err := t.tx.Exec("INSERT INTO context_units(ext_id,source_id,text) VALUES (?,?,?)", c.ID, source, c.Text)
		if err != nil {
			return 0, err
		}
		return res.LastInsertId()
	case err != nil:
		return 0, err
	case text == c.Text:
		return id, nil
	case !update:
		return 0, fmt.Errorf("context unit %q exists with a different text (use --update to replace it)", c.ID)
	}
	_, err = t.tx.Exec("UPDATE context_units SET text=? WHERE id=?", c.Text, id)
	return id, err
}

// QA loads a QA pair with its context units in order.
func (rx *ReadTx) QA(item int64) (QAPair, error) {
	var q QAPair
	err := rx.q.QueryRow(`SELECT i.ext_id, COALESCE(src.name,''), p.language, p.hop, p.question, p.answer, p.rationale, p.category, p.extra
		FROM items i JOIN qa_pairs p ON p.item_id=i.id LEFT JOIN sources src ON src.id=i.source_id WHERE i.id=?`, item).
		Scan(&q.ID, &q.Source, &q.Language, &q.Hop, &q.Question, &q.Answer, &q.Rationale, &q.Category, &q.Extra)
	if errors.Is(err, sql.ErrNoRows) {
		return q, notFound("QA pair", "#"+strconv.FormatInt(item, 10))
	}
	if err != nil {
		return q, err
	}
	q.ItemID = item
	if q.Language == "" {
		rx.q.QueryRow("SELECT language FROM sources WHERE name=?", q.Source).Scan(&q.Language)
	}
	rows, err := rx.q.Query(`SELECT c.ext_id, c.text FROM qa_contexts x JOIN context_units c ON c.id=x.context_id
		WHERE x.qa_item_id=? ORDER BY x.position`, item)
	if err != nil {
		return q, err
	}
	defer rows.Close()
	for rows.Next() {
		var c Context
		if err := rows.Scan(&c.ID, &c.Text); err != nil {
			return q, err
		}
		q.Contexts = append(q.Contexts, c)
	}
	return q, rows.Err()
}

// UndoBack: undoing the answer-level marker goes back to the answer's last
// extracted claim, where the missed-claims step is.
func (qaKind) UndoBack(q Querier, ev Event) (int64, error) {
	if ev.Field != schema.MissedClaimsChecked {
		return 0, nil
	}
	return lastClaimOf(q, ev.ItemID)
}

func (qaKind) SearchSQL() string {
	return `(SELECT question || ' ' || answer FROM qa_pairs WHERE item_id = %[1]s)`
}
func (qaKind) LanguageSQL() string { return `(SELECT language FROM qa_pairs WHERE item_id = %[1]s)` }
func (qaKind) SampleSQL() string   { return qaKind{}.SearchSQL() }
