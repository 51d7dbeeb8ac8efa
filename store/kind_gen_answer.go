package store

import (
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/annotate-dev/annotate/schema"
	"github.com/annotate-dev/annotate/tally"
)

// The gen_answer kind's rows (CanLegalRAGBench §5): a system's answer to a
// query, in a condition (oracle or pipeline), with the documents it used.
// Its atomic claims are the gen_claim kind's (kind_gen_claim.go).

// GenAnswer is a system's generated answer.
type GenAnswer struct {
	ID        string
	Query     string // the query's id
	System    string
	Condition string // oracle | pipeline
	Answer    string
	Documents []string // ids of the documents the answer used
	Extra     string
	Claims    []GenClaim // written with the answer (PutGenAnswer); not loaded
	// Filled on read (copied from the query when written).
	ItemID       int64
	QueryItemID  int64
	Persona      string
	Jurisdiction string
}

// Attributes of generated answers the kept counts read (package tally).
var genAnswerAttrs = []string{tally.AttrSystem, tally.AttrCondition, tally.AttrPersona, tally.AttrJurisdiction, tally.AttrChars}

// genAnswerKind is the store's generated answer: its table gen_answers
// (migration 0005), read by loadGenAnswers, written by PutGenAnswer.
type genAnswerKind struct{}

func init() { Register(genAnswerKind{}) }

func (genAnswerKind) Kind() schema.Kind { return schema.KindGenAnswer }
func (genAnswerKind) Table() string     { return "gen_answers" }

func (genAnswerKind) Payloads(q Querier, ids []int64) (map[int64]any, error) {
	return loadGenAnswers(q, ids)
}

func (genAnswerKind) Attrs() ([]string, string) {
	return genAnswerAttrs, `SELECT item_id, system, condition, persona, jurisdiction, length(answer) FROM gen_answers
			WHERE item_id IN (SELECT value FROM json_each(?))`
}

// PutGenAnswer adds (or, with update, replaces) a generated answer of an
// existing query, then its claims (children, each with its own content hash:
// PutGenClaim). hash covers the answer without its claims, so the answer's
// line exported without them imports back unchanged. Updating keeps claims
// the new version no longer lists: labels may rest on them.
func (t *Tx) PutGenAnswer(a GenAnswer, hash, file string, update bool) (int64, PutResult, error) {
	var q, src int64
	var persona, jur string
	err := t.tx.QueryRow(`SELECT i.id, COALESCE(i.source_id,0), x.persona, x.jurisdiction FROM items i JOIN queries x ON x.item_id=i.id
		WHERE i.ext_id=?`, a.Query).Scan(&q, &src, &persona, &jur)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, 0, notFound("query", a.Query)
	}
	if err != nil {
		return 0, 0, err
	}
	id, res, err := t.PutItem(schema.KindGenAnswer, a.ID, src, 0, hash, file, update)
	if err != nil {
		return id, res, err
	}
	if res != Unchanged {
		docs := a.Documents
		if docs == nil {
			docs = []string{}
		}
		dj, _ := json.Marshal(docs)
		if _, err := t.tx.Exec(`INSERT OR REPLACE INTO gen_answers(item_id,query,query_item_id,system,condition,answer,documents,persona,jurisdiction,extra)
			VALUES (?,?,?,?,?,?,?,?,?,?)`, id, a.Query, q, a.System, a.Condition, a.Answer, string(dj), persona, jur, orEmptyObject(a.Extra)); err != nil {
			return 0, 0, err
		}
	}
	for i, c := range a.Claims {
		c.AnswerID = a.ID
		if _, _, err := t.PutGenClaim(c, GenClaimHash(c), file, update); err != nil {
			return 0, 0, fmt.Errorf("claims[%d]: %w", i, err)
		}
	}
	return id, res, nil
}

func loadGenAnswers(q querier, ids []int64) (map[int64]any, error) {
	out := map[int64]any{}
	err := eachRow(q, `SELECT i.id, i.ext_id, g.query, COALESCE(g.query_item_id,0), g.system, g.condition, g.answer, g.documents,
			g.persona, g.jurisdiction, g.extra
		FROM items i JOIN gen_answers g ON g.item_id=i.id WHERE i.id IN (SELECT value FROM json_each(?))`, []any{jsonInts(ids)},
		func(sc func(...any) error) error {
			v := &GenAnswer{}
			var docs string
			if err := sc(&v.ItemID, &v.ID, &v.Query, &v.QueryItemID, &v.System, &v.Condition, &v.Answer, &docs, &v.Persona, &v.Jurisdiction, &v.Extra); err != nil {
				return err
			}
			if err := json.Unmarshal([]byte(docs), &v.Documents); err != nil {
				return fmt.Errorf("generated answer %s: documents: %w", v.ID, err)
			}
			out[v.ItemID] = v
			return nil
		})
	return out, err
}

// loadGenClaims reads claims with their answer's system, condition and
// query; never the judge's verdicts.
func (genAnswerKind) SearchSQL() string {
	return `(SELECT COALESCE((SELECT text FROM queries WHERE item_id = g.query_item_id), g.query) || ' ' || g.answer
		FROM gen_answers g WHERE g.item_id = %[1]s)`
}
