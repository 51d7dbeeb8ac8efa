package store

import (
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/annotate-dev/annotate/schema"
	"github.com/annotate-dev/annotate/tally"
)

// The gen_answer and gen_claim kinds' rows (CanLegalRAGBench §5): a system's
// answer to a query, in a condition (oracle or pipeline), with the documents
// it used, and its atomic claims with an automatic judge's verdicts
// (predictions of accuracy_support and grounded).

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

// GenClaim is an atomic claim of a generated answer.
type GenClaim struct {
	ID       string
	Position int
	Text     string
	// Predictions: system -> field -> value (the judge's verdicts). Written,
	// never loaded for the screens.
	Predictions map[string]map[string]string
	// Filled on read.
	ItemID    int64
	AnswerID  string
	System    string
	Condition string
	Query     string
}

// Attributes of generated answers the kept counts read (package tally).
var genAnswerAttrs = []string{tally.AttrSystem, tally.AttrCondition, tally.AttrPersona, tally.AttrJurisdiction, tally.AttrChars}

func init() {
	registerAttrs(schema.KindGenAnswer, kindAttrs{
		names: genAnswerAttrs,
		sql: `SELECT item_id, system, condition, persona, jurisdiction, length(answer) FROM gen_answers
			WHERE item_id IN (SELECT value FROM json_each(?))`,
	})
	registerPayload(schema.KindGenAnswer, loadGenAnswers)
	registerSQL(schema.KindGenAnswer, kindSQL{})
	registerPayload(schema.KindGenClaim, loadGenClaims)
	registerAside(schema.KindGenClaim, func(q querier, id int64) (any, error) { return genEvidence(q, id) })
	registerSQL(schema.KindGenClaim, kindSQL{})
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

// GenClaimHash is the content hash of a generated claim: its answer,
// position, text and the judges' verdicts.
func GenClaimHash(c GenClaim) string {
	b, _ := json.Marshal(struct {
		ID, Answer  string
		Position    int
		Text        string
		Predictions map[string]map[string]string
	}{c.ID, c.AnswerID, c.Position, c.Text, c.Predictions})
	sum := sha256.Sum256(b)
	return "gen_claim:" + hex.EncodeToString(sum[:16])
}

// PutGenClaim adds (or, with update, replaces) a claim of an existing
// generated answer (c.AnswerID) and its verdicts.
func (t *Tx) PutGenClaim(c GenClaim, hash, file string, update bool) (int64, PutResult, error) {
	var parent, src int64
	err := t.tx.QueryRow("SELECT id, COALESCE(source_id,0) FROM items WHERE ext_id=? AND kind=?", c.AnswerID, schema.KindGenAnswer).Scan(&parent, &src)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, 0, notFound("generated answer", c.AnswerID)
	}
	if err != nil {
		return 0, 0, err
	}
	id, res, err := t.PutItem(schema.KindGenClaim, c.ID, src, parent, hash, file, update)
	if err != nil || res == Unchanged {
		return id, res, err
	}
	if _, err := t.tx.Exec("INSERT OR REPLACE INTO gen_claims(item_id, position, text) VALUES (?,?,?)", id, c.Position, c.Text); err != nil {
		return 0, 0, err
	}
	byField := map[string]map[string]string{}
	for sys, fields := range c.Predictions {
		for f, v := range fields {
			if byField[f] == nil {
				byField[f] = map[string]string{}
			}
			byField[f][sys] = v
		}
	}
	for _, f := range []string{schema.AccuracySupport, schema.Grounded} {
		if err := t.PutPredictions(id, f, byField[f]); err != nil {
			return 0, 0, err
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
func loadGenClaims(q querier, ids []int64) (map[int64]any, error) {
	out := map[int64]any{}
	err := eachRow(q, `SELECT i.id, i.ext_id, c.position, c.text, p.ext_id, g.system, g.condition, g.query
		FROM items i JOIN gen_claims c ON c.item_id=i.id JOIN items p ON p.id=i.parent_id JOIN gen_answers g ON g.item_id=p.id
		WHERE i.id IN (SELECT value FROM json_each(?))`, []any{jsonInts(ids)}, func(sc func(...any) error) error {
		v := &GenClaim{}
		if err := sc(&v.ItemID, &v.ID, &v.Position, &v.Text, &v.AnswerID, &v.System, &v.Condition, &v.Query); err != nil {
			return err
		}
		out[v.ItemID] = v
		return nil
	})
	return out, err
}

// GenEvidence is what a generated claim is judged against: the accepted
// gold answer of its query (nil: none accepted yet) and the documents its
// answer used (those not imported are named in Missing).
type GenEvidence struct {
	Gold      *GoldAnswer
	Documents []*Document
	Missing   []string
}

// GenEvidenceOf reads the evidence of a generated claim in one snapshot
// (the screens get it with the claim: ItemView.Aside, ReviewDetail.Aside).
func (s *Store) GenEvidenceOf(claim int64) (*GenEvidence, error) {
	var ev *GenEvidence
	err := s.Read(func(rx *ReadTx) error {
		var err error
		ev, err = genEvidence(rx.q, claim)
		return err
	})
	return ev, err
}

func genEvidence(q querier, claim int64) (*GenEvidence, error) {
	ev := &GenEvidence{}
	var query sql.NullInt64
	var docs string
	err := q.QueryRow(`SELECT g.query_item_id, g.documents FROM items i JOIN gen_answers g ON g.item_id=i.parent_id WHERE i.id=?`, claim).
		Scan(&query, &docs)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, notFound("generated claim", fmt.Sprint("#", claim))
	}
	if err != nil {
		return nil, err
	}
	if query.Valid {
		if ev.Gold, err = goldOf(q, query.Int64); err != nil {
			return nil, err
		}
	}
	var ids []string
	if err := json.Unmarshal([]byte(docs), &ids); err != nil {
		return nil, err
	}
	var items []int64
	for _, d := range ids {
		var id int64
		err := q.QueryRow("SELECT id FROM items WHERE ext_id=? AND kind=?", d, schema.KindDocument).Scan(&id)
		if errors.Is(err, sql.ErrNoRows) {
			ev.Missing = append(ev.Missing, d)
			continue
		}
		if err != nil {
			return nil, err
		}
		items = append(items, id)
	}
	loaded, err := loadDocuments(q, items)
	if err != nil {
		return nil, err
	}
	for _, id := range items {
		if d, ok := loaded[id].(*Document); ok {
			ev.Documents = append(ev.Documents, d)
		}
	}
	return ev, nil
}

// GenSample draws a batch of generated claims from the judge's verdicts,
// as the paper drew its samples of 25 unsupported claims per system.
type GenSample struct {
	Sample    int      // claims to draw
	Judge     string   // the system whose verdicts choose (default "judge")
	Where     []string // verdicts that must all hold: values of accuracy_support or grounded
	System    string   // only answers of this system ("" : any)
	Condition string   // only answers in this condition ("" : any)
}

// GenSampleWhere is what --where accepts: the values of the judged fields.
func GenSampleWhere() []string {
	var out []string
	for _, f := range []string{schema.AccuracySupport, schema.Grounded} {
		fd, _ := schema.Lookup(f)
		out = append(out, fd.Values...)
	}
	return out
}

// SampleGenClaims draws a batch of generated claims in no gen_claim batch
// yet that match the sample's filters: Sample of them at random with the
// seed (every match, in import order, without Sample). It returns the batch and how
// many claims matched.
func (s *Store) SampleGenClaims(spec BatchSpec, g GenSample) (Batch, int, error) {
	if g.Judge == "" {
		g.Judge = "judge"
	}
	if spec.Seed == nil && g.Sample > 0 {
		return Batch{}, 0, errors.New("a sample needs a seed (--seed N), so that it can be drawn again")
	}
	where := []string{"i.kind = 'gen_claim'",
		"NOT EXISTS (SELECT 1 FROM batch_items bi JOIN batches b ON b.id = bi.batch_id WHERE bi.item_id = i.id AND b.kind = 'gen_claim')"}
	args := []any{}
	if g.System != "" {
		where = append(where, "ga.system = ?")
		args = append(args, g.System)
	}
	if g.Condition != "" {
		where = append(where, "ga.condition = ?")
		args = append(args, g.Condition)
	}
	for _, w := range g.Where {
		field := ""
		for _, f := range []string{schema.AccuracySupport, schema.Grounded} {
			if schema.KnownValue(f, w) {
				field = f
			}
		}
		if field == "" {
			return Batch{}, 0, fmt.Errorf("--where %q: must be one of %s", w, strings.Join(GenSampleWhere(), ", "))
		}
		where = append(where, "EXISTS (SELECT 1 FROM predictions p WHERE p.item_id = i.id AND p.system = ? AND p.field = ? AND p.value = ?)")
		args = append(args, g.Judge, field, w)
	}
	var b Batch
	pool := 0
	err := s.write(func(tx *wtx) error {
		ids, err := int64s(tx, `SELECT i.id FROM items i JOIN gen_answers ga ON ga.item_id = i.parent_id WHERE `+strings.Join(where, " AND ")+` ORDER BY i.id`, args...)
		if err != nil {
			return err
		}
		pool = len(ids)
		if pool == 0 {
			return fmt.Errorf("no generated claim left to sample for batch %q: none in no batch yet matches (system %q, condition %q, %s by %q)",
				spec.Name, g.System, g.Condition, strings.Join(g.Where, " and "), g.Judge)
		}
		shuffle(spec.Seed, len(ids), func(i, j int) { ids[i], ids[j] = ids[j], ids[i] })
		if g.Sample > 0 && g.Sample < len(ids) {
			ids = ids[:g.Sample]
		}
		// The sample keeps import order on screen: the draw is random, the
		// reading order need not be.
		slices.Sort(ids)
		groups := make([][]int64, len(ids))
		for i, id := range ids {
			groups[i] = []int64{id}
		}
		spec.Kind = string(schema.KindGenClaim)
		b, err = insertBatch(tx, spec, groups)
		return err
	})
	return b, pool, err
}

// GenVerdicts reads the verdicts (predictions) on generated claims, for
// export: item -> system -> field -> value.
func (x *Snapshot) GenVerdicts(ids []int64) (map[int64]map[string]map[string]string, error) {
	out := map[int64]map[string]map[string]string{}
	err := eachRow(x.q, `SELECT item_id, system, field, value FROM predictions WHERE item_id IN (SELECT value FROM json_each(?))`,
		[]any{jsonInts(ids)}, func(sc func(...any) error) error {
			var id int64
			var sys, f, v string
			if err := sc(&id, &sys, &f, &v); err != nil {
				return err
			}
			if out[id] == nil {
				out[id] = map[string]map[string]string{}
			}
			if out[id][sys] == nil {
				out[id][sys] = map[string]string{}
			}
			out[id][sys][f] = v
			return nil
		})
	return out, err
}

func init() {
	registerText(schema.KindGenAnswer, kindText{
		search: `(SELECT COALESCE((SELECT text FROM queries WHERE item_id = g.query_item_id), g.query) || ' ' || g.answer
		FROM gen_answers g WHERE g.item_id = %[1]s)`,
	})
	registerText(schema.KindGenClaim, kindText{search: `(SELECT text FROM gen_claims WHERE item_id = %[1]s)`})
}
