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
)

// The gen_claim kind's rows (CanLegalRAGBench §5): the atomic claims of a
// generated answer (kind_gen_answer.go) with an automatic judge's verdicts
// (predictions of accuracy_support and grounded); what a claim is judged
// against; the batches drawn from the verdicts.

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

// genClaimKind is the store's claim of a generated answer: its table
// gen_claims (migration 0005), read by loadGenClaims, written by
// PutGenClaim; its screen shows its evidence beside it (genEvidence).
type genClaimKind struct{}

func init() { Register(genClaimKind{}) }

func (genClaimKind) Kind() schema.Kind { return schema.KindGenClaim }
func (genClaimKind) Table() string     { return "gen_claims" }

func (genClaimKind) Payloads(q Querier, ids []int64) (map[int64]any, error) {
	return loadGenClaims(q, ids)
}

func (genClaimKind) Aside(q Querier, id int64) (any, error) { return genEvidence(q, id) }

func (genClaimKind) SearchSQL() string { return `(SELECT text FROM gen_claims WHERE item_id = %[1]s)` }

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

// GenEvidenceOf reads the evidence of a generated claim (the screens get it
// with the claim: ItemView.Aside, AdjudicationDetail.Aside).
func (rx *ReadTx) GenEvidenceOf(claim int64) (*GenEvidence, error) { return genEvidence(rx.q, claim) }

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
func (x *ReadTx) GenVerdicts(ids []int64) (map[int64]map[string]map[string]string, error) {
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
