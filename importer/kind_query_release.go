package importer

import (
	"fmt"
	"slices"

	"github.com/annotate-dev/annotate/schema"
	"github.com/annotate-dev/annotate/store"

	"github.com/annotate-dev/annotate/internal/pytext"
)

// CanLegalRAGBench's queries (release.go): a line of queries.json is a
// query, its reference answer an answer task (kind_answer_task_release.go),
// and its ground-truth citations the relevance judgments of the gold set
// (as qrels lines are: kind_relevance_qrels.go).

// parseReleaseQueries reads queries.json.
func parseReleaseQueries(f *fileData, t *textReader) error {
	who := f.opt.Annotator
	if who == "" {
		who = DefaultReleaseAnnotator
	}
	return f.eachReleaseRecord(t, func(r *rec) error {
		at := r.at
		var q store.Query
		var err error
		if q.ID, err = r.needID("query_id"); err != nil {
			return err
		}
		if err := printable(at, "query_id", "the id", q.ID); err != nil {
			return err
		}
		if q.Text, err = r.need("query_text"); err != nil {
			return err
		}
		if q.Jurisdiction, err = r.str("province"); err != nil {
			return err
		}
		if err := printable(at, "province", "the province", q.Jurisdiction); err != nil {
			return err
		}
		answerKey, answer, err := f.releaseReference(r)
		if err != nil {
			return err
		}
		cites, err := r.strings(releaseCitations)
		if err != nil {
			return err
		}
		if r.get(releaseCitations) == nil {
			return r.errf(releaseCitations, "missing (required; [] when the query has none)")
		}
		var docs []string
		for i, c := range cites {
			field := fmt.Sprintf("%s[%d]", releaseCitations, i)
			if c == "" {
				return r.errf(field, "empty citation")
			}
			if err := printable(at, field, "the citation", c); err != nil {
				return err
			}
			if !slices.Contains(docs, c) { // a citation given twice is one judgment
				docs = append(docs, c)
			}
		}
		// batch_id and any other key are kept with the query.
		keys, extra := r.unknown()
		for _, k := range keys {
			if k != "batch_id" {
				f.sum.countKey(k)
			}
		}
		q.Extra = extra
		qit := &itemRec{at: at, idField: "query_id", kind: schema.KindQuery, id: q.ID, hash: contentHash(q),
			put: func(tx *store.Tx, hash, file string, update bool) (int64, store.PutResult, error) {
				return tx.PutQuery(q, hash, file, update)
			}}
		if err := f.out.item(f, qit); err != nil {
			return err
		}
		if !pytext.Blank(answer) { // is_query_usable: no reference answer
			if err := f.releaseAnswer(at, answerKey, who, q.ID, answer, docs); err != nil {
				return err
			}
		}
		for _, d := range docs {
			it := relevanceRec(f, q.ID, d)
			it.at, it.line = at, relevanceLine(q.ID, d)
			if err := f.out.item(f, it); err != nil {
				return err
			}
			for _, l := range []labelRec{
				{at: at, field: releaseCitations, itemField: releaseCitations, annotator: GoldAnnotator, item: it.id, name: schema.Relevance, value: schema.Relevant},
				{at: at, field: releaseCitations, itemField: releaseCitations, annotator: GoldAnnotator, item: it.id, name: schema.RelevanceGrade, value: "1"},
			} {
				if err := f.addLabel(l, schema.KindRelevance); err != nil {
					return err
				}
			}
		}
		return nil
	})
}
