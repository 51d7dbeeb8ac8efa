package store

import (
	"database/sql"
	"errors"
	"strconv"
)

// ItemRef names an item.
type ItemRef struct {
	ItemID int64
	ExtID  string
	Kind   string
}

// Resolve finds an item by its ext id.
func (s *Store) Resolve(extID string) (ItemRef, error) {
	id, kind, err := itemID(s.db, extID)
	return ItemRef{ItemID: id, ExtID: extID, Kind: kind}, err
}

// QA loads a QA pair with its context units in order.
func (s *Store) QA(item int64) (QAPair, error) {
	var q QAPair
	err := s.db.QueryRow(`SELECT i.ext_id, COALESCE(src.name,''), p.language, p.hop, p.question, p.answer, p.rationale, p.category, p.extra
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
		s.db.QueryRow("SELECT language FROM sources WHERE name=?", q.Source).Scan(&q.Language)
	}
	rows, err := s.db.Query(`SELECT c.ext_id, c.text FROM qa_contexts x JOIN context_units c ON c.id=x.context_id
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

// Claim loads a claim without its system predictions: the annotation screens
// are blind, so what they load cannot show a prediction.
func (s *Store) Claim(item int64) (Claim, error) {
	var c Claim
	var addedBy sql.NullString
	err := s.db.QueryRow(`SELECT i.ext_id, p.ext_id, c.position, c.subject, c.predicate, c.object, c.text, c.origin, a.name, COALESCE(src.name,'')
		FROM items i JOIN claims c ON c.item_id=i.id JOIN items p ON p.id=i.parent_id
		LEFT JOIN annotators a ON a.id=c.added_by LEFT JOIN sources src ON src.id=i.source_id WHERE i.id=?`, item).
		Scan(&c.ID, &c.QAID, &c.Position, &c.Triplet[0], &c.Triplet[1], &c.Triplet[2], &c.Text, &c.Origin, &addedBy, &c.Source)
	if errors.Is(err, sql.ErrNoRows) {
		return c, notFound("claim", "#"+strconv.FormatInt(item, 10))
	}
	c.ItemID, c.AddedBy = item, addedBy.String
	return c, err
}

// ClaimsOf lists the claims of a QA pair in position order (without predictions).
func (s *Store) ClaimsOf(qa int64) ([]Claim, error) {
	rows, err := s.db.Query(`SELECT i.id FROM items i JOIN claims c ON c.item_id=i.id WHERE i.parent_id=? ORDER BY c.position, i.id`, qa)
	if err != nil {
		return nil, err
	}
	var ids []int64
	for rows.Next() {
		var id int64
		if err := rows.Scan(&id); err != nil {
			rows.Close()
			return nil, err
		}
		ids = append(ids, id)
	}
	rows.Close()
	out := make([]Claim, 0, len(ids))
	for _, id := range ids {
		c, err := s.Claim(id)
		if err != nil {
			return nil, err
		}
		out = append(out, c)
	}
	return out, nil
}

// IsLastClaim reports whether a claim is the last extracted claim of its answer.
func (s *Store) IsLastClaim(claim int64) (bool, error) {
	var parent int64
	if err := s.db.QueryRow("SELECT parent_id FROM items WHERE id=?", claim).Scan(&parent); err != nil {
		return false, err
	}
	last, err := lastClaimOf(s.db, parent)
	return last == claim, err
}

// AddClaim records a claim the annotator added because the extractor missed it,
// with a claim_added label, in one transaction. It returns the new claim.
func (s *Store) AddClaim(annotator string, qa int64, triplet [3]string, sessionID int64, guidelines string) (Claim, error) {
	var c Claim
	err := s.write(func(tx *wtx) error {
		aid, err := annotatorID(tx, annotator)
		if err != nil {
			return err
		}
		var qaExt string
		var src sql.NullInt64
		if err := tx.QueryRow("SELECT ext_id, source_id FROM items WHERE id=? AND kind='qa'", qa).Scan(&qaExt, &src); err != nil {
			return err
		}
		var n, maxPos int
		tx.QueryRow("SELECT COUNT(*), COALESCE(MAX(c.position),0) FROM claims c JOIN items i ON i.id=c.item_id WHERE i.parent_id=?", qa).Scan(&n, &maxPos)
		ext := qaExt + "-" + annotator + "-a" + strconv.FormatInt(int64(n+1), 10)
		res, err := tx.Exec("INSERT INTO items(ext_id,kind,source_id,parent_id,hash,imported_at) VALUES (?,?,?,?,?,?)",
			ext, "claim", src, qa, "", now())
		if err != nil {
			return err
		}
		id, _ := res.LastInsertId()
		if _, err := tx.Exec("INSERT INTO claims(item_id,position,subject,predicate,object,origin,added_by) VALUES (?,?,?,?,?,?,?)",
			id, maxPos+1, triplet[0], triplet[1], triplet[2], OriginAnnotator, aid); err != nil {
			return err
		}
		c = Claim{ID: ext, QAID: qaExt, Position: maxPos + 1, Triplet: triplet, Origin: OriginAnnotator, AddedBy: annotator, ItemID: id}
		_, err = recordLabel(tx, Label{Annotator: annotator, ItemID: id, Field: "claim_added", Value: "yes", SessionID: sessionID, GuidelinesVersion: guidelines})
		return err
	})
	return c, err
}
