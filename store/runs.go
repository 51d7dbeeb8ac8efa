package store

import (
	"database/sql"
	"errors"
	"fmt"
	"iter"
	"strconv"
	"strings"

	"github.com/annotate-dev/annotate/internal/jsontext"
	"github.com/annotate-dev/annotate/schema"
)

// RunInfo describes a run in the database.
type RunInfo struct {
	Name    string
	Queries int // queries it ranks documents for
}

// Runs lists the runs by name, with the number of queries they rank at
// least one document for.
func (rx *ReadTx) Runs() ([]RunInfo, error) {
	var out []RunInfo
	err := eachRow(rx.q, `SELECT r.name, (SELECT COUNT(*) FROM run_lists WHERE run_id = r.id AND docs <> '[]')
		FROM runs r ORDER BY r.name`, nil, func(sc func(...any) error) error {
		var ri RunInfo
		err := sc(&ri.Name, &ri.Queries)
		out = append(out, ri)
		return err
	})
	return out, err
}

// RankedDoc is a document at a rank of a run's ranking for a query.
type RankedDoc struct {
	Query, Doc int64
	Rank       int
}

// RunTops hands over the results of the runs ranked at most depth, run by
// run and query by query, each query's documents in rank order.
func (rx *ReadTx) RunTops(runs []string, depth int, fn func(run string, r RankedDoc)) error {
	return rx.RunLists(runs, func(l RunList) {
		for i, d := range l.Docs[:min(depth, len(l.Docs))] {
			fn(l.Run, RankedDoc{Query: l.Query, Doc: d, Rank: i + 1})
		}
	})
}

// RunList is a run's results for one query: its document ranking, and its
// chunk-level list (the document of every retrieved chunk or line, in rank
// order, repeats included), which ChunkLevel says is known (runs imported
// before annotate kept it have only their ranking).
type RunList struct {
	Run        string
	Query      int64
	Docs       []int64
	Chunks     []int64
	ChunkLevel bool
}

// RunLists hands over the lists of the runs, run by run (by name) and query
// by query (by item id), in one statement.
func (rx *ReadTx) RunLists(runs []string, fn func(RunList)) error {
	names := jsontext.Strings(runs)
	return eachRow(rx.q, `SELECT r.name, x.query_item_id, x.docs, x.chunk_docs FROM runs r JOIN run_lists x ON x.run_id = r.id
		WHERE r.name IN (SELECT value FROM json_each(?)) ORDER BY r.name, x.query_item_id`,
		[]any{names}, func(sc func(...any) error) error {
			var l RunList
			var docs string
			var chunks sql.NullString
			err := sc(&l.Run, &l.Query, &docs, &chunks)
			if err != nil {
				return err
			}
			if l.Docs, err = parseIDs(docs); err != nil {
				return fmt.Errorf("run %q: %w", l.Run, err)
			}
			l.Chunks, l.ChunkLevel = l.Docs, chunks.Valid
			if chunks.Valid {
				if l.Chunks, err = parseIDs(chunks.String); err != nil {
					return fmt.Errorf("run %q: %w", l.Run, err)
				}
			}
			fn(l)
			return nil
		})
}

// parseIDs reads a JSON array of item ids ("[12,7,30]").
func parseIDs(s string) ([]int64, error) {
	if len(s) < 2 || s[0] != '[' || s[len(s)-1] != ']' {
		return nil, fmt.Errorf("a run list is not a JSON array: %.40q", s)
	}
	body := s[1 : len(s)-1]
	if body == "" {
		return []int64{}, nil
	}
	out := make([]int64, 0, strings.Count(body, ",")+1)
	for len(body) > 0 {
		i := strings.IndexByte(body, ',')
		if i < 0 {
			i = len(body)
		}
		n, err := strconv.ParseInt(strings.TrimSpace(body[:i]), 10, 64)
		if err != nil {
			return nil, fmt.Errorf("a run list holds %q, not an item id", body[:i])
		}
		out = append(out, n)
		body = body[min(i+1, len(body)):]
	}
	return out, nil
}

// Judgment is one rater's current relevance judgment of a (query,
// document) pair: its relevance and, when recorded, its grade.
type Judgment struct {
	Query, Doc int64
	Relevance  string // relevant, not_relevant, or a value outside the schema
	Grade      int
	HasGrade   bool
}

// Gain is the judgment's gain for nDCG: its grade when recorded, else 1
// when relevant and 0 when not.
func (j Judgment) Gain() int {
	switch {
	case j.Relevance != schema.Relevant:
		return 0
	case j.HasGrade && j.Grade > 0:
		return j.Grade
	}
	return 1
}

// Judgments reads the relevance judgments of one label set (an annotator's,
// or the adjudicated ones) in one statement: a pair with a relevance label,
// with its grade when there is one. An unknown annotator has none.
func (rx *ReadTx) Judgments(who LabelSet) ([]Judgment, error) {
	var out []Judgment
	err := rx.eachJudgment(who, false, func(j NamedJudgment) error {
		out = append(out, j.Judgment)
		return nil
	})
	return out, err
}

// NamedJudgment is a judgment with the ids a reader knows: its query's and
// its document's.
type NamedJudgment struct {
	Judgment
	QueryID, DocID string
}

// NamedJudgments streams the judgments of one label set as Judgments reads
// them, in the same order (query, then document, by item id), with their
// ids: memory holds one judgment.
func (rx *ReadTx) NamedJudgments(who LabelSet) iter.Seq2[NamedJudgment, error] {
	return func(yield func(NamedJudgment, error) bool) {
		stopped := errors.New("stopped")
		err := rx.eachJudgment(who, true, func(j NamedJudgment) error {
			if !yield(j, nil) {
				return stopped
			}
			return nil
		})
		if err != nil && err != stopped {
			yield(NamedJudgment{}, err)
		}
	}
}

// eachJudgment hands over the judgments of a label set, with their ids
// when named.
func (rx *ReadTx) eachJudgment(who LabelSet, named bool, fn func(NamedJudgment) error) error {
	role, aid := RoleAdjudicate, int64(0)
	if !who.Adjudicated {
		role = RoleAnnotate
		id, ok, err := lookupAnnotator(rx.q, who.Annotator)
		if err != nil || !ok {
			return err
		}
		aid = id
	}
	names, join := ", '', ''", ""
	if named {
		names, join = ", qi.ext_id, di.ext_id", " JOIN items qi ON qi.id = p.query_item_id JOIN items di ON di.id = p.doc_item_id"
	}
	return eachRow(rx.q, `SELECT p.query_item_id, p.doc_item_id, l.value,
			(SELECT g.value FROM current_labels g WHERE g.item_id = l.item_id AND g.field = ? AND g.role = l.role AND g.annotator_id = l.annotator_id)`+names+`
		FROM current_labels l JOIN relevance_pairs p ON p.item_id = l.item_id`+join+`
		WHERE l.field = ? AND l.role = ? AND l.annotator_id = ? ORDER BY p.query_item_id, p.doc_item_id`,
		[]any{schema.RelevanceGrade, schema.Relevance, role, aid}, func(sc func(...any) error) error {
			var j NamedJudgment
			var grade sql.NullString
			if err := sc(&j.Query, &j.Doc, &j.Relevance, &grade, &j.QueryID, &j.DocID); err != nil {
				return err
			}
			if grade.Valid {
				if g, err := strconv.Atoi(grade.String); err == nil {
					j.Grade, j.HasGrade = g, true
				}
			}
			return fn(j)
		})
}

// QueryAttrs reads the ext id, persona, jurisdiction and issue of queries.
func (rx *ReadTx) QueryAttrs(ids []int64) (map[int64]*Query, error) {
	out := map[int64]*Query{}
	for _, chunk := range chunks(ids, 5000) {
		err := eachRow(rx.q, `SELECT i.id, i.ext_id, x.persona, x.jurisdiction, x.issue FROM items i JOIN queries x ON x.item_id = i.id
			WHERE i.id IN (SELECT value FROM json_each(?))`, []any{jsonInts(chunk)}, func(sc func(...any) error) error {
			q := &Query{}
			if err := sc(&q.ItemID, &q.ID, &q.Persona, &q.Jurisdiction, &q.Issue); err != nil {
				return err
			}
			out[q.ItemID] = q
			return nil
		})
		if err != nil {
			return nil, err
		}
	}
	return out, nil
}

// DocIDs reads the ext ids of items (documents), keyed by id.
func (rx *ReadTx) DocIDs(ids []int64) (map[int64]string, error) {
	return extIDsOf(rx.q, ids)
}

// AcceptedGoldAnswers reads the accepted gold answers of the queries (the
// answer task's adjudicated answer_review is accept: its adjudicated
// gold_answer), by query; a query without one is not in the map.
func (rx *ReadTx) AcceptedGoldAnswers(ids []int64) (map[int64]string, error) {
	out := map[int64]string{}
	for _, chunk := range chunks(ids, 5000) {
		err := eachRow(rx.q, `SELECT a.query_item_id, l.value FROM answer_tasks a
			JOIN current_labels l ON l.item_id = a.item_id AND l.role = ? AND l.field = ?
			WHERE a.query_item_id IN (SELECT value FROM json_each(?))
			AND EXISTS (SELECT 1 FROM current_labels r WHERE r.item_id = a.item_id AND r.role = ? AND r.field = ? AND r.value = 'accept')`,
			[]any{RoleAdjudicate, schema.GoldAnswer, jsonInts(chunk), RoleAdjudicate, schema.AnswerReview}, func(sc func(...any) error) error {
				var q int64
				var answer string
				err := sc(&q, &answer)
				out[q] = answer
				return err
			})
		if err != nil {
			return nil, err
		}
	}
	return out, nil
}
