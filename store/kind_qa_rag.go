package store

import (
	"database/sql"
	"errors"
	"fmt"

	"github.com/annotate-dev/annotate/schema"
)

// RAGChecker's checking output, kept whole (rag_results): what `annotate
// rag` recomputes RAGChecker's metrics from.

// RAGResult is one result of a RAGChecker checking output. The matrices are
// JSON as imported, "" when the file had none.
type RAGResult struct {
	System  string
	QueryID string
	// AnswerPair is the ext id of the ground-truth answer's QA pair, whose
	// claims (in position order) are the result's ground-truth claims; ""
	// when the result has no ground-truth answer.
	AnswerPair                                                                 string
	AnswerToResponse, ResponseToAnswer, RetrievedToResponse, RetrievedToAnswer string
}

func nullable(s string) any {
	if s == "" {
		return nil
	}
	return s
}

// RAGChangedError says which part of a stored result an import would
// change; it wraps ErrChanged.
type RAGChangedError struct{ Key string }

func (e *RAGChangedError) Error() string { return e.Key + ": " + ErrChanged.Error() }
func (e *RAGChangedError) Unwrap() error { return ErrChanged }

// PutRAGResult records the result whose response is QA pair pair (an ext id
// written earlier in the import). A result already stored for the pair with
// other content is a *RAGChangedError unless update.
func (t *Tx) PutRAGResult(pair string, r RAGResult, update bool) error {
	id, _, err := t.itemOf(pair, schema.KindQA)
	if err != nil {
		return fmt.Errorf("the response's pair %q: %w", pair, err)
	}
	var answer any
	var answerExt string
	if r.AnswerPair != "" {
		aid, _, err := t.itemOf(r.AnswerPair, schema.KindQA)
		if err != nil {
			return fmt.Errorf("the ground-truth answer's pair %q: %w", r.AnswerPair, err)
		}
		answer, answerExt = aid, r.AnswerPair
	}
	var old RAGResult
	err = t.tx.QueryRow(`SELECT r.system, r.query_id, COALESCE(a.ext_id,''), COALESCE(r.answer2response,''), COALESCE(r.response2answer,''),
			COALESCE(r.retrieved2response,''), COALESCE(r.retrieved2answer,'')
		FROM rag_results r LEFT JOIN items a ON a.id=r.answer_item_id WHERE r.item_id=?`, id).
		Scan(&old.System, &old.QueryID, &old.AnswerPair, &old.AnswerToResponse, &old.ResponseToAnswer, &old.RetrievedToResponse, &old.RetrievedToAnswer)
	switch {
	case errors.Is(err, sql.ErrNoRows):
	case err != nil:
		return err
	case old == r:
		return nil
	case !update:
		key := "system"
		for _, d := range []struct{ k, a, b string }{
			{"query_id", old.QueryID, r.QueryID}, {"gt_answer", old.AnswerPair, answerExt},
			{"answer2response", old.AnswerToResponse, r.AnswerToResponse}, {"response2answer", old.ResponseToAnswer, r.ResponseToAnswer},
			{"retrieved2response", old.RetrievedToResponse, r.RetrievedToResponse}, {"retrieved2answer", old.RetrievedToAnswer, r.RetrievedToAnswer},
		} {
			if d.a != d.b {
				key = d.k
				break
			}
		}
		return &RAGChangedError{Key: key}
	}
	_, err = t.tx.Exec(`INSERT OR REPLACE INTO rag_results(item_id, system, query_id, answer_item_id,
			answer2response, response2answer, retrieved2response, retrieved2answer) VALUES (?,?,?,?,?,?,?,?)`,
		id, r.System, r.QueryID, answer, nullable(r.AnswerToResponse), nullable(r.ResponseToAnswer),
		nullable(r.RetrievedToResponse), nullable(r.RetrievedToAnswer))
	return err
}

// RAGRow is a stored result with what `annotate rag` needs around it.
type RAGRow struct {
	RAGResult
	Pair   string // the response's QA pair (ext id)
	Source string // the response's source
	// AnswerClaims are the ground-truth claims' ext ids in position order.
	AnswerClaims []string
	// Validity is the expert's counted claim_validity of each ground-truth
	// claim ("" when none, or when it does not count: the expert judged the
	// ground-truth pair's question invalid or its answer not correct).
	Validity []string
}

// RAGResults lists the stored results in import order, with the
// ground-truth claims' claim_validity by annotator expert ("" for none).
func (rx *ReadTx) RAGResults(expert string) ([]RAGRow, error) {
	return rx.ragResults(expert, RoleAnnotate)
}

// RAGResultsAdjudicated is RAGResults with the adjudicated labels.
func (rx *ReadTx) RAGResultsAdjudicated() ([]RAGRow, error) { return rx.ragResults("", RoleAdjudicate) }

func (rx *ReadTx) ragResults(expert, role string) ([]RAGRow, error) {
	var aid int64 = -1
	if role == RoleAdjudicate {
		aid = 0 // adjudicated labels are kept under annotator 0
	}
	if expert != "" {
		id, ok, err := lookupAnnotator(rx.q, expert)
		if err != nil {
			return nil, err
		}
		if !ok {
			return nil, fmt.Errorf("no annotator %q", expert)
		}
		aid = id
	}
	var out []RAGRow
	err := eachRow(rx.q, `SELECT i.ext_id, COALESCE(src.name,''), r.system, r.query_id, COALESCE(a.ext_id,''), COALESCE(r.answer_item_id,0),
			COALESCE(r.answer2response,''), COALESCE(r.response2answer,''), COALESCE(r.retrieved2response,''), COALESCE(r.retrieved2answer,'')
		FROM rag_results r JOIN items i ON i.id=r.item_id LEFT JOIN sources src ON src.id=i.source_id
		LEFT JOIN items a ON a.id=r.answer_item_id ORDER BY r.item_id`, nil, func(sc func(...any) error) error {
		var row RAGRow
		var answer int64
		if err := sc(&row.Pair, &row.Source, &row.System, &row.QueryID, &row.AnswerPair, &answer,
			&row.AnswerToResponse, &row.ResponseToAnswer, &row.RetrievedToResponse, &row.RetrievedToAnswer); err != nil {
			return err
		}
		out = append(out, row)
		return nil
	})
	if err != nil {
		return nil, err
	}
	// The ground-truth claims and the expert's labels, per answer pair (two
	// systems' results share one).
	type claims struct{ ids, validity []string }
	byAnswer := map[string]*claims{}
	for i := range out {
		a := out[i].AnswerPair
		if a == "" {
			continue
		}
		c := byAnswer[a]
		if c == nil {
			c = &claims{}
			if c.ids, c.validity, err = rx.answerClaims(a, aid, role); err != nil {
				return nil, err
			}
			byAnswer[a] = c
		}
		out[i].AnswerClaims, out[i].Validity = c.ids, c.validity
	}
	return out, nil
}

// answerClaims lists the claims of pair ext id in position order and the
// counted claim_validity annotator aid gave each.
func (rx *ReadTx) answerClaims(pair string, aid int64, role string) (ids, validity []string, err error) {
	var pid int64
	if err := rx.q.QueryRow("SELECT id FROM items WHERE ext_id=? AND kind='qa'", pair).Scan(&pid); err != nil {
		return nil, nil, err
	}
	parent := map[string]string{}
	err = eachRow(rx.q, "SELECT field, value FROM current_labels WHERE role=? AND annotator_id=? AND item_id=?", []any{role, aid, pid},
		func(sc func(...any) error) error {
			var f, v string
			if err := sc(&f, &v); err != nil {
				return err
			}
			parent[f] = v
			return nil
		})
	if err != nil {
		return nil, nil, err
	}
	gated := schema.ParentGate(schema.KindClaim, parent) != ""
	err = eachRow(rx.q, `SELECT i.ext_id, COALESCE(l.value,'') FROM items i JOIN claims c ON c.item_id=i.id
		LEFT JOIN current_labels l ON l.item_id=i.id AND l.role=? AND l.annotator_id=? AND l.field=?
		WHERE i.parent_id=? AND c.origin='extracted' ORDER BY c.position, i.id`, []any{role, aid, schema.ClaimValidity, pid},
		func(sc func(...any) error) error {
			var id, v string
			if err := sc(&id, &v); err != nil {
				return err
			}
			if gated {
				v = ""
			}
			ids, validity = append(ids, id), append(validity, v)
			return nil
		})
	return ids, validity, err
}

// RAGResultsByPair reads every stored result by the ext id of its
// response's pair, for the native export, which writes them back with the
// pairs.
func (x *ReadTx) RAGResultsByPair() (map[string]RAGResult, error) {
	out := map[string]RAGResult{}
	err := eachRow(x.q, `SELECT i.ext_id, r.system, r.query_id, COALESCE(a.ext_id,''), COALESCE(r.answer2response,''), COALESCE(r.response2answer,''),
			COALESCE(r.retrieved2response,''), COALESCE(r.retrieved2answer,'')
		FROM rag_results r JOIN items i ON i.id=r.item_id LEFT JOIN items a ON a.id=r.answer_item_id`, nil,
		func(sc func(...any) error) error {
			var pair string
			var r RAGResult
			if err := sc(&pair, &r.System, &r.QueryID, &r.AnswerPair, &r.AnswerToResponse, &r.ResponseToAnswer,
				&r.RetrievedToResponse, &r.RetrievedToAnswer); err != nil {
				return err
			}
			out[pair] = r
			return nil
		})
	return out, err
}
