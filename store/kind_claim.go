package store

import (
	"database/sql"
	"errors"
	"fmt"
	"strconv"

	"github.com/annotate-dev/annotate/schema"
	"github.com/annotate-dev/annotate/tally"
)

// The claim kind's rows: claims (a triple or a text, its position in the
// answer, who added it).

// claimKind is the store's claim: its table claims (migration 0001), read
// by loadClaims, written by PutClaim.
type claimKind struct{}

func init() { Register(claimKind{}) }

func (claimKind) Kind() schema.Kind { return schema.KindClaim }
func (claimKind) Table() string     { return "claims" }

func (claimKind) Payloads(q Querier, ids []int64) (map[int64]any, error) { return loadClaims(q, ids) }

func (claimKind) Attrs() ([]string, string) {
	return []string{tally.AttrOrigin, tally.AttrAddedBy, tally.AttrPosition, tally.AttrExtractor},
		"SELECT item_id, origin, COALESCE(added_by, 0), position, extractor FROM claims WHERE item_id IN (SELECT value FROM json_each(?))"
}

// stageClaims stages the claims of an import (import_staging.go).
var stageClaims = registerStage("claims", "INSERT OR REPLACE INTO claims(item_id,position,subject,predicate,object,text,origin,added_by,extractor) VALUES ", 9)

// loadClaims reads claims without their system predictions: what the
// annotation screens load cannot show a prediction.
func loadClaims(q querier, ids []int64) (map[int64]any, error) {
	out := map[int64]any{}
	err := eachRow(q, `SELECT i.id, i.ext_id, COALESCE(p.ext_id,''), c.position, c.subject, c.predicate, c.object, c.text, c.origin,
			COALESCE(a.name,''), COALESCE(src.name,'')
		FROM items i JOIN claims c ON c.item_id=i.id LEFT JOIN items p ON p.id=i.parent_id
		LEFT JOIN annotators a ON a.id=c.added_by LEFT JOIN sources src ON src.id=i.source_id
		WHERE i.id IN (SELECT value FROM json_each(?))`, []any{jsonInts(ids)}, func(sc func(...any) error) error {
		c := &Claim{}
		if err := sc(&c.ItemID, &c.ID, &c.QAID, &c.Position, &c.Triplet[0], &c.Triplet[1], &c.Triplet[2], &c.Text, &c.Origin, &c.AddedBy, &c.Source); err != nil {
			return err
		}
		out[c.ItemID] = c
		return nil
	})
	return out, err
}

// QueueCond: an annotator-added claim lives inside the missed-claims step.
func (claimKind) QueueCond() string {
	return "EXISTS (SELECT 1 FROM claims c WHERE c.item_id = i.id AND c.origin = 'extracted')"
}

func (claimKind) HopSQL() string    { return "(SELECT hop FROM qa_pairs WHERE item_id = i.parent_id)" }
func (claimKind) AnswerSQL() string { return "i.parent_id" }

// GivenParentSQL: its pair imported as given, a claim is asked at once.
func (claimKind) GivenParentSQL() string {
	return "EXISTS (SELECT 1 FROM qa_pairs op WHERE op.item_id = {parent} AND op.as_given)"
}

func (claimKind) GivenParentsSQL() string { return "SELECT item_id FROM qa_pairs WHERE as_given" }

// PutClaim adds a claim of an existing QA pair (by ext id), with its predictions.
func (t *Tx) PutClaim(c Claim, hash, file string, update bool) (int64, PutResult, error) {
	qa, src, err := t.itemOf(c.QAID, schema.KindQA)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, 0, fmt.Errorf("%w %q", ErrUnknownPair, c.QAID)
	}
	if err != nil {
		return 0, 0, err
	}
	id, res, err := t.PutItem(schema.KindClaim, c.ID, src, qa, hash, file, update)
	if err != nil || res == Unchanged {
		return id, res, err
	}
	origin := c.Origin
	if origin == "" {
		origin = OriginExtracted
	}
	var addedBy any
	if c.AddedBy != "" {
		aid, err := annotatorID(t.tx, c.AddedBy)
		if err != nil {
			return 0, 0, err
		}
		addedBy = aid
	}
	// Staged with the import's other claims (import_staging.go).
	if err := t.tx.stage(stageClaims, id, c.Position, c.Triplet[0], c.Triplet[1], c.Triplet[2], c.Text, origin, addedBy, c.Extractor); err != nil {
		return 0, 0, err
	}
	return id, res, t.PutPredictions(id, schema.Entailment, c.Predictions)
}

// Claim loads a claim without its system predictions: the annotation screens
// are blind, so what they load cannot show a prediction.
func (rx *ReadTx) Claim(item int64) (Claim, error) {
	var c Claim
	var addedBy sql.NullString
	err := rx.q.QueryRow(`SELECT i.ext_id, p.ext_id, c.position, c.subject, c.predicate, c.object, c.text, c.origin, a.name, COALESCE(src.name,'')
		FROM items i JOIN claims c ON c.item_id=i.id JOIN items p ON p.id=i.parent_id
		LEFT JOIN annotators a ON a.id=c.added_by LEFT JOIN sources src ON src.id=i.source_id WHERE i.id=?`, item).
		Scan(&c.ID, &c.QAID, &c.Position, &c.Triplet[0], &c.Triplet[1], &c.Triplet[2], &c.Text, &c.Origin, &addedBy, &c.Source)
	if errors.Is(err, sql.ErrNoRows) {
		return c, notFound(string(schema.KindClaim), "#"+strconv.FormatInt(item, 10))
	}
	c.ItemID, c.AddedBy = item, addedBy.String
	return c, err
}

// ClaimsOf lists the claims of a QA pair in position order (without predictions).
func (rx *ReadTx) ClaimsOf(qa int64) ([]Claim, error) {
	rows, err := rx.q.Query(`SELECT i.id FROM items i JOIN claims c ON c.item_id=i.id WHERE i.parent_id=? ORDER BY c.position, i.id`, qa)
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
		c, err := rx.Claim(id)
		if err != nil {
			return nil, err
		}
		out = append(out, c)
	}
	return out, nil
}

// IsLastClaim reports whether a claim is the last extracted claim of its answer.
func (rx *ReadTx) IsLastClaim(claim int64) (bool, error) {
	var parent int64
	if err := rx.q.QueryRow("SELECT parent_id FROM items WHERE id=?", claim).Scan(&parent); err != nil {
		return false, err
	}
	last, err := lastClaimOf(rx.q, parent)
	return last == claim, err
}

// AddMissedClaim records a claim the annotator added in the missed-claims
// step because the extractor missed it, with a claim_added label, and
// marks the answer missed_claims_checked=added (unless it is already), in
// one transaction, so a claim is never added to an answer left unmarked.
// It returns the new claim.
func (s *Store) AddMissedClaim(annotator string, qa int64, triplet [3]string, sessionID int64) (Claim, error) {
	var c Claim
	err := s.write(func(tx *wtx) error {
		aid, err := annotatorID(tx, annotator)
		if err != nil {
			return err
		}
		var qaExt string
		var src sql.NullInt64
		if err := tx.QueryRow("SELECT ext_id, source_id FROM items WHERE id=? AND kind=?", qa, schema.KindQA).Scan(&qaExt, &src); err != nil {
			return err
		}
		var n, maxPos int
		tx.QueryRow("SELECT COUNT(*), COALESCE(MAX(c.position),0) FROM claims c JOIN items i ON i.id=c.item_id WHERE i.parent_id=?", qa).Scan(&n, &maxPos)
		ext := qaExt + "-" + annotator + "-a" + strconv.FormatInt(int64(n+1), 10)
		res, err := tx.Exec("INSERT INTO items(ext_id,kind,source_id,parent_id,hash,imported_at) VALUES (?,?,?,?,?,?)",
			ext, schema.KindClaim, src, qa, "", now())
		if err != nil {
			return err
		}
		id, _ := res.LastInsertId()
		if _, err := tx.Exec("INSERT INTO claims(item_id,position,subject,predicate,object,origin,added_by) VALUES (?,?,?,?,?,?,?)",
			id, maxPos+1, triplet[0], triplet[1], triplet[2], OriginAnnotator, aid); err != nil {
			return err
		}
		c = Claim{ID: ext, QAID: qaExt, Position: maxPos + 1, Triplet: triplet, Origin: OriginAnnotator, AddedBy: annotator, ItemID: id}
		_, err = recordLabel(tx, Label{Annotator: annotator, ItemID: id, Field: schema.ClaimAdded, Value: "yes", SessionID: sessionID})
		if err != nil {
			return err
		}
		cur, err := labelsOf(tx, aid, qa)
		if err != nil || cur[schema.MissedClaimsChecked] == "added" {
			return err
		}
		_, err = recordLabel(tx, Label{Annotator: annotator, ItemID: qa, Field: schema.MissedClaimsChecked, Value: "added", SessionID: sessionID})
		return err
	})
	return c, err
}

// UndoBack: undoing a claim_added goes back to the last extracted claim of
// its answer, the missed-claims step it was made in.
func (claimKind) UndoBack(q Querier, ev Event) (int64, error) {
	if ev.Field != schema.ClaimAdded {
		return 0, nil
	}
	var parent int64
	if err := q.QueryRow("SELECT COALESCE(parent_id,0) FROM items WHERE id=?", ev.ItemID).Scan(&parent); err != nil {
		return 0, err
	}
	return lastClaimOf(q, parent)
}

// Systems predict a claim's entailment; a claim enters their comparison
// with an expert by the verification's rule (metrics' Table 3).
func (claimKind) PredictedField() string { return schema.Entailment }

func (claimKind) Enters(f *tally.Family, m *tally.Member, rater int64) (step, expert string) {
	return tally.Verify(f, m, rater)
}

func (claimKind) SearchSQL() string {
	return `(SELECT subject || ' ' || predicate || ' ' || object || ' ' || text FROM claims WHERE item_id = %[1]s)`
}

// A claim an annotator added stands while its claim_added does.
func (claimKind) AddedMarker() string { return schema.ClaimAdded }

func (claimKind) AddedBy(p any) (string, bool) {
	if c, ok := p.(*Claim); ok && c.Origin == OriginAnnotator {
		return c.AddedBy, true
	}
	return "", false
}

// lastClaimOf is the extracted claim with the highest position of a QA pair, 0 if none.
func lastClaimOf(q querier, qa int64) (int64, error) {
	var id int64
	err := q.QueryRow(`SELECT c.item_id FROM claims c JOIN items i ON i.id=c.item_id
		WHERE i.parent_id=? AND c.origin='extracted' ORDER BY c.position DESC, c.item_id DESC LIMIT 1`, qa).Scan(&id)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, nil
	}
	return id, err
}

// ClaimSystems are the systems with predictions on extracted claims
// (RefChecker's checkers), sorted.
func (x *ReadTx) ClaimSystems() ([]string, error) {
	return x.strings("SELECT DISTINCT p.system FROM predictions p JOIN claims c ON c.item_id = p.item_id ORDER BY p.system")
}

// Extractors are the claim extractors named by the claims, sorted.
func (x *ReadTx) Extractors() ([]string, error) {
	return x.strings("SELECT DISTINCT extractor FROM claims WHERE extractor <> '' ORDER BY extractor")
}
