package store

import (
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/annotate-dev/annotate/schema"
	"github.com/annotate-dev/annotate/tally"
)

// The answer_task kind's rows (CanLegalRAGBench §3 step 6): a query an
// expert answers, its drafts while they type, the submitted answer (labels
// gold_answer and citations) and the lead's review, which copies an accepted
// answer into the adjudicated labels: the gold answer is what the lead
// accepted, never an answer still being edited.

// AnswerTask is a query to answer.
type AnswerTask struct {
	ID      string // "<query id>/answer"
	QueryID string
	// Filled on read.
	ItemID int64
	Query  *Query
	// The lead's review: "accept", "reject" or "" (not reviewed), the
	// reason of a rejection, and the gold answer an acceptance copied.
	Review        string
	ReviewedBy    string // the lead whose review it is (who wrote answer_review)
	RejectReason  string
	Gold          string
	GoldCitations []string
}

// AnswerTaskID is the id of a query's answer task.
func AnswerTaskID(query string) string { return query + "/answer" }

// answerTaskKind is the store's answer task: its table answer_tasks
// (migration 0005), read by loadAnswerTasks, written by PutAnswerTask.
type answerTaskKind struct{}

func init() { Register(answerTaskKind{}) }

func (answerTaskKind) Kind() schema.Kind { return schema.KindAnswerTask }
func (answerTaskKind) Table() string     { return "answer_tasks" }

func (answerTaskKind) Payloads(q Querier, ids []int64) (map[int64]any, error) {
	return loadAnswerTasks(q, ids)
}

func (answerTaskKind) Attrs() ([]string, string) {
	return []string{tally.AttrPersona, tally.AttrJurisdiction},
		"SELECT item_id, persona, jurisdiction FROM answer_tasks WHERE item_id IN (SELECT value FROM json_each(?))"
}

// PutAnswerTask adds the answer task of an existing query (a native line
// {"kind":"answer_task"}; batches create theirs with CreateAnswerBatch).
func (t *Tx) PutAnswerTask(a AnswerTask, hash, file string, update bool) (int64, PutResult, error) {
	return putAnswerTask(t.tx, a.ID, a.QueryID, hash, file, update)
}

func putAnswerTask(tx *wtx, id, query, hash, file string, update bool) (int64, PutResult, error) {
	var q, src int64
	var persona, jur string
	err := tx.QueryRow(`SELECT i.id, COALESCE(i.source_id,0), x.persona, x.jurisdiction FROM items i JOIN queries x ON x.item_id=i.id
		WHERE i.ext_id=?`, query).Scan(&q, &src, &persona, &jur)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, 0, notFound("query", query)
	}
	if err != nil {
		return 0, 0, err
	}
	var other string
	err = tx.QueryRow("SELECT i.ext_id FROM answer_tasks a JOIN items i ON i.id=a.item_id WHERE a.query_item_id=? AND i.ext_id<>?", q, id).Scan(&other)
	if err == nil {
		return 0, 0, fmt.Errorf("query %q has an answer task already: %q", query, other)
	}
	if !errors.Is(err, sql.ErrNoRows) {
		return 0, 0, err
	}
	w := &Tx{tx: tx, sources: map[string]int64{}}
	item, res, err := w.PutItem(schema.KindAnswerTask, id, src, 0, hash, file, update)
	if err != nil || res == Unchanged {
		return item, res, err
	}
	_, err = tx.Exec("INSERT OR REPLACE INTO answer_tasks(item_id, query_item_id, persona, jurisdiction) VALUES (?,?,?,?)", item, q, persona, jur)
	return item, res, err
}

// answerTaskHash is the content hash of an answer task: its query is all it is.
func answerTaskHash(query string) string { return "answer_task:" + query }

// AnswerTaskHash is the hash the importer gives an answer task line, the
// same as a batch gives the task it creates, so either way round is a no-op.
func AnswerTaskHash(query string) string { return answerTaskHash(query) }

func loadAnswerTasks(q querier, ids []int64) (map[int64]any, error) {
	out := map[int64]any{}
	var queries []int64
	err := eachRow(q, `SELECT i.id, i.ext_id, a.query_item_id FROM items i JOIN answer_tasks a ON a.item_id=i.id
		WHERE i.id IN (SELECT value FROM json_each(?))`, []any{jsonInts(ids)}, func(sc func(...any) error) error {
		v := &AnswerTask{Query: &Query{}}
		if err := sc(&v.ItemID, &v.ID, &v.Query.ItemID); err != nil {
			return err
		}
		out[v.ItemID] = v
		queries = append(queries, v.Query.ItemID)
		return nil
	})
	if err != nil || len(queries) == 0 {
		return out, err
	}
	qs, err := loadQueries(q, queries)
	if err != nil {
		return nil, err
	}
	err = eachRow(q, `SELECT l.item_id, l.field, l.value, a.name FROM current_labels l
		JOIN label_events e ON e.id = l.event_id JOIN annotators a ON a.id = e.annotator_id
		WHERE l.role='adjudicate' AND l.item_id IN (SELECT value FROM json_each(?))`,
		[]any{jsonInts(ids)}, func(sc func(...any) error) error {
			var id int64
			var f, v, who string
			if err := sc(&id, &f, &v, &who); err != nil {
				return err
			}
			t, ok := out[id].(*AnswerTask)
			if !ok {
				return nil
			}
			switch f {
			case schema.AnswerReview:
				t.Review, t.ReviewedBy = v, who
			case schema.RejectReason:
				t.RejectReason = v
			case schema.GoldAnswer:
				t.Gold = v
			case schema.Citations:
				t.GoldCitations = schema.DecodeMulti(v)
			}
			return nil
		})
	if err != nil {
		return nil, err
	}
	for _, v := range out {
		t := v.(*AnswerTask)
		if t.Review != "accept" {
			t.Gold, t.GoldCitations = "", nil // a rejected answer is no gold answer
		}
		if t.Review != "reject" {
			t.RejectReason = "" // a reason left from a rejection since undone or reversed
		}
	}
	for _, v := range out {
		t := v.(*AnswerTask)
		if qq, ok := qs[t.Query.ItemID].(*Query); ok {
			t.Query, t.QueryID = qq, qq.ID
		}
	}
	return out, nil
}

// CreateAnswerBatch cuts a batch of answer tasks: whole seed groups (the 8
// variations of a seed query) of queries that have no answer task in a
// batch yet, in import order (the groups shuffled with Seed), until Size
// queries (a group is never split: the first is taken whole even if it is
// larger); each group goes to Overlap of the assignees, round robin.
// It creates the answer tasks of the chosen queries (those
// that have none yet) and the batch, in one transaction. Batch.Groups says
// how many seed groups it holds.
func (s *Store) CreateAnswerBatch(spec BatchSpec) (Batch, int, error) {
	var b Batch
	groups := 0
	if len(spec.Assign) > 0 && (spec.Overlap < 1 || spec.Overlap > len(spec.Assign)) {
		return b, 0, fmt.Errorf("--overlap %d: must be between 1 and the number of assignees (%d)", spec.Overlap, len(spec.Assign))
	}
	err := s.write(func(tx *wtx) error {
		where := `NOT EXISTS (SELECT 1 FROM answer_tasks a JOIN batch_items bi ON bi.item_id=a.item_id JOIN batches bt ON bt.id=bi.batch_id
			WHERE a.query_item_id=i.id AND bt.kind='answer_task')`
		args := []any{}
		if spec.Source != "" {
			where += " AND i.source_id = (SELECT id FROM sources WHERE name = ?)"
			args = append(args, spec.Source)
		}
		type query struct {
			id    int64
			ext   string
			group string
		}
		var order []string
		byGroup := map[string][]query{}
		err := eachRow(tx, `SELECT i.id, i.ext_id, x.seed_group FROM items i JOIN queries x ON x.item_id=i.id WHERE `+where+` ORDER BY i.id`, args,
			func(sc func(...any) error) error {
				var q query
				if err := sc(&q.id, &q.ext, &q.group); err != nil {
					return err
				}
				g := q.group
				if g == "" {
					g = "\x00" + q.ext // a query of no group is a group of its own
				}
				if byGroup[g] == nil {
					order = append(order, g)
				}
				byGroup[g] = append(byGroup[g], q)
				return nil
			})
		if err != nil {
			return err
		}
		if len(order) == 0 {
			return fmt.Errorf("no query left to answer for batch %q: every query has an answer task in a batch already (annotate batch list), or none is imported", spec.Name)
		}
		shuffle(spec.Seed, len(order), func(i, j int) { order[i], order[j] = order[j], order[i] })
		var picked [][]query
		n := 0
		for _, g := range order {
			qs := byGroup[g]
			if spec.Size > 0 && n > 0 && n+len(qs) > spec.Size {
				break
			}
			picked = append(picked, qs)
			n += len(qs)
		}
		var ids [][]int64
		for _, g := range picked {
			var gids []int64
			for _, q := range g {
				var item int64
				err := tx.QueryRow("SELECT item_id FROM answer_tasks WHERE query_item_id=?", q.id).Scan(&item)
				if errors.Is(err, sql.ErrNoRows) {
					item, _, err = putAnswerTask(tx, AnswerTaskID(q.ext), q.ext, answerTaskHash(q.ext), "batch "+spec.Name, false)
				}
				if err != nil {
					return fmt.Errorf("answer task of query %q: %w", q.ext, err)
				}
				gids = append(gids, item)
			}
			ids = append(ids, gids)
		}
		spec.Kind = string(schema.KindAnswerTask)
		b, err = insertBatch(tx, spec, ids)
		groups = len(picked)
		return err
	})
	return b, groups, err
}

// AnswerDraft is what an expert typed and has not submitted yet.
type AnswerDraft struct {
	GoldAnswer string
	Citations  string // as typed, one per line
	ActiveMs   int64
	UpdatedAt  time.Time
}

// SaveDraft writes an annotator's draft of an answer task (replacing the
// last one) and adds activeMs to the time spent on it. A draft is never a
// label: reports and exports do not see it.
func (s *Store) SaveDraft(annotator string, item int64, answer, citations string, activeMs int64) error {
	return s.write(func(tx *wtx) error {
		aid, err := annotatorID(tx, annotator)
		if err != nil {
			return err
		}
		_, err = tx.Exec(`INSERT INTO answer_drafts(annotator_id, item_id, gold_answer, citations, active_ms, updated_at) VALUES (?,?,?,?,?,?)
			ON CONFLICT(annotator_id, item_id) DO UPDATE SET gold_answer=excluded.gold_answer, citations=excluded.citations,
			active_ms=active_ms+excluded.active_ms, updated_at=excluded.updated_at`, aid, item, answer, citations, activeMs, now())
		return err
	})
}

// Draft reads an annotator's draft of an answer task (ok false: none).
func (rx *ReadTx) Draft(annotator string, item int64) (AnswerDraft, bool, error) {
	var d AnswerDraft
	var at string
	err := rx.q.QueryRow(`SELECT d.gold_answer, d.citations, d.active_ms, d.updated_at FROM answer_drafts d JOIN annotators a ON a.id=d.annotator_id
		WHERE a.name=? AND d.item_id=?`, annotator, item).Scan(&d.GoldAnswer, &d.Citations, &d.ActiveMs, &at)
	if errors.Is(err, sql.ErrNoRows) {
		return d, false, nil
	}
	if err != nil {
		return d, false, err
	}
	d.UpdatedAt, err = parseStamp(at)
	return d, true, err
}

// SubmitAnswer records a submitted answer in one transaction: one label
// event for gold_answer (carrying the active time: the draft's and activeMs)
// and one for citations (a JSON array), and deletes the draft.
func (s *Store) SubmitAnswer(annotator string, item int64, answer string, citations []string, activeMs, session int64) error {
	if strings.TrimSpace(answer) == "" {
		return errors.New("the answer is empty")
	}
	return s.write(func(tx *wtx) error {
		var kind string
		if err := tx.QueryRow("SELECT kind FROM items WHERE id=?", item).Scan(&kind); err != nil {
			return fmt.Errorf("item %d: %w", item, err)
		}
		if kind != string(schema.KindAnswerTask) {
			return fmt.Errorf("item %d is a %s item, not an answer task", item, kind)
		}
		aid, err := annotatorID(tx, annotator)
		if err != nil {
			return err
		}
		var draftMs int64
		tx.QueryRow("SELECT active_ms FROM answer_drafts WHERE annotator_id=? AND item_id=?", aid, item).Scan(&draftMs)
		cf, _ := schema.Lookup(schema.Citations)
		cites, _ := schema.NormalizeFor(cf, schema.EncodeMulti(citations))
		for _, l := range []Label{
			{Annotator: annotator, ItemID: item, Field: schema.GoldAnswer, Value: answer, ActiveMs: draftMs + activeMs, SessionID: session},
			{Annotator: annotator, ItemID: item, Field: schema.Citations, Value: cites, SessionID: session},
		} {
			if _, err := recordLabel(tx, l); err != nil {
				return err
			}
		}
		_, err = tx.Exec("DELETE FROM answer_drafts WHERE annotator_id=? AND item_id=?", aid, item)
		return err
	})
}

// CitationCheck says whether a citation names a known document: by its id,
// or by its citation (case and spacing aside).
type CitationCheck struct {
	Text     string
	Document string // the document's id; "" : unknown
}

// citationLookupSQL finds a document by its citation, case aside, through
// the index documents_citation (COLLATE NOCASE, migration 0020).
const citationLookupSQL = `SELECT i.ext_id FROM documents d JOIN items i ON i.id=d.item_id WHERE d.citation=? COLLATE NOCASE LIMIT 1`

// CheckCitations looks each citation up among the documents.
func (rx *ReadTx) CheckCitations(cites []string) ([]CitationCheck, error) {
	out := make([]CitationCheck, len(cites))
	for i, c := range cites {
		out[i].Text = c
		key := strings.TrimSpace(c)
		if key == "" {
			continue
		}
		err := rx.q.QueryRow(`SELECT ext_id FROM items WHERE ext_id=? AND kind=?`, key, schema.KindDocument).Scan(&out[i].Document)
		if errors.Is(err, sql.ErrNoRows) {
			err = rx.q.QueryRow(citationLookupSQL, strings.Join(strings.Fields(key), " ")).Scan(&out[i].Document)
		}
		if err != nil && !errors.Is(err, sql.ErrNoRows) {
			return nil, err
		}
	}
	return out, nil
}

// GoldAnswer is the gold answer of a query: the answer the lead accepted.
type GoldAnswer struct {
	Task      string // the answer task's id
	Text      string
	Citations []string
}

// goldOf reads the accepted answer of a query (nil: none accepted).
func goldOf(q querier, queryItem int64) (*GoldAnswer, error) {
	var task int64
	var ext string
	err := q.QueryRow("SELECT a.item_id, i.ext_id FROM answer_tasks a JOIN items i ON i.id=a.item_id WHERE a.query_item_id=?", queryItem).Scan(&task, &ext)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	final := map[string]string{}
	err = eachRow(q, "SELECT field, value FROM current_labels WHERE item_id=? AND role='adjudicate'", []any{task}, func(sc func(...any) error) error {
		var f, v string
		err := sc(&f, &v)
		final[f] = v
		return err
	})
	if err != nil || final[schema.AnswerReview] != "accept" || final[schema.GoldAnswer] == "" {
		return nil, err
	}
	return &GoldAnswer{Task: ext, Text: final[schema.GoldAnswer], Citations: schema.DecodeMulti(final[schema.Citations])}, nil
}

// GoldAnswerOf reads the accepted gold answer of a query by its id (nil: none).
func (rx *ReadTx) GoldAnswerOf(query string) (*GoldAnswer, error) {
	var id int64
	err := rx.q.QueryRow("SELECT id FROM items WHERE ext_id=? AND kind=?", query, schema.KindQuery).Scan(&id)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, notFound("query", query)
	}
	if err != nil {
		return nil, err
	}
	return goldOf(rx.q, id)
}

// AnswerScreen is what the answer screen loads besides the item: the
// annotator's draft, if any, and the query's seed document (nil when the
// query names none or it is not imported).
type AnswerScreen struct {
	Draft    *AnswerDraft
	Seed     *Document
	SeedName string // the seed document's id as the query gives it
}

// LoadAnswerScreen reads an answer task's draft and seed document.
func (rx *ReadTx) LoadAnswerScreen(annotator string, item int64) (*AnswerScreen, error) {
	out := &AnswerScreen{}
	d, ok, err := rx.Draft(annotator, item)
	if err != nil {
		return nil, err
	}
	if ok {
		out.Draft = &d
	}
	err = func() error {
		err := rx.q.QueryRow(`SELECT x.seed_doc FROM answer_tasks a JOIN queries x ON x.item_id=a.query_item_id WHERE a.item_id=?`, item).Scan(&out.SeedName)
		if errors.Is(err, sql.ErrNoRows) || out.SeedName == "" {
			return nil
		}
		if err != nil {
			return err
		}
		var id int64
		err = rx.q.QueryRow("SELECT id FROM items WHERE ext_id=? AND kind=?", out.SeedName, schema.KindDocument).Scan(&id)
		if errors.Is(err, sql.ErrNoRows) {
			return nil
		}
		if err != nil {
			return err
		}
		docs, err := loadDocuments(rx.q, []int64{id})
		if err != nil {
			return err
		}
		out.Seed, _ = docs[id].(*Document)
		return nil
	}()
	return out, err
}

func (answerTaskKind) SearchSQL() string {
	return `(SELECT q.text FROM answer_tasks t JOIN queries q ON q.item_id = t.query_item_id WHERE t.item_id = %[1]s)`
}
