package store

import (
	"database/sql"
	"errors"
)

// What a streaming import reads and fills of the QA pairs it wrote, inside
// its transaction (import_scratch.go).

// FillPairLanguages gives the QA pairs of this import (those See'n as "qa" in
// space "item") from source name that were written without a language this
// one.
func (t *Tx) FillPairLanguages(name, language string) error {
	if err := t.tx.flush(stageSeen, stageQAPairs); err != nil {
		return err
	}
	_, err := t.tx.Exec(`UPDATE qa_pairs SET language=? WHERE language='' AND item_id IN (
		SELECT i.id FROM items i JOIN temp.import_seen s ON s.space='item' AND s.kind='qa' AND s.ext_id=i.ext_id
		JOIN sources src ON src.id=i.source_id WHERE src.name=?)`, language, name)
	return err
}

// StoredQA reads a QA pair as the database holds it, inside the import: its
// language is the effective one (the source's when the pair has none), its
// extra keys "" when none. ErrNotFound when there is no such pair.
func (t *Tx) StoredQA(extID string) (QAPair, error) {
	var q QAPair
	if err := t.tx.flush(stageQAPairs, stagePredictions); err != nil {
		return q, err
	}
	err := t.tx.QueryRow(`SELECT i.id, i.ext_id, s.name, CASE WHEN p.language<>'' THEN p.language ELSE s.language END,
		p.hop, p.question, p.answer, p.rationale, p.category, p.extra
		FROM items i JOIN qa_pairs p ON p.item_id=i.id JOIN sources s ON s.id=i.source_id
		WHERE i.ext_id=? AND i.kind='qa'`, extID).Scan(&q.ItemID, &q.ID, &q.Source, &q.Language, &q.Hop,
		&q.Question, &q.Answer, &q.Rationale, &q.Category, &q.Extra)
	if errors.Is(err, sql.ErrNoRows) {
		return q, notFound("QA pair", extID)
	}
	if err != nil {
		return q, err
	}
	if q.Extra == "{}" {
		q.Extra = ""
	}
	rows, err := t.tx.Query(`SELECT cu.ext_id, cu.text FROM qa_contexts x JOIN context_units cu ON cu.id=x.context_id
		WHERE x.qa_item_id=? ORDER BY x.position`, q.ItemID)
	if err != nil {
		return q, err
	}
	for rows.Next() {
		var c Context
		if err := rows.Scan(&c.ID, &c.Text); err != nil {
			rows.Close()
			return q, err
		}
		q.Contexts = append(q.Contexts, c)
	}
	rows.Close()
	q.Predictions, err = t.storedPredictions(q.ItemID)
	return q, err
}
