package importer

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/annotate-dev/annotate/schema"
	"github.com/annotate-dev/annotate/store"

	"github.com/annotate-dev/annotate/internal/pytext"
)

// CanLegalRAGBench's release (github.com/NLP-UBC/CanLegalRAGBench), the
// files other than retrieval runs:
//
//   - data/documents.parquet (release_parquet.go): one document per row,
//     the citation its id.
//   - data/queries.json, JSON lines (or a JSON array) {"query_id", "query_text", "answer",
//     "batch_id", "ground_truth_citations", "province"}: each line a query
//     (province → jurisdiction, batch_id and any other key kept with it);
//     its reference answer the accepted gold answer of --annotator (default
//     canlegalragbench): an answer task "<query_id>/answer" with that
//     annotator's gold_answer and citations and an adjudicated
//     answer_review=accept that copies them; and each ground-truth citation
//     a relevance item "<query_id>/<citation>" judged relevant by annotator
//     gold, as a qrels line "query_id 0 citation 1" is. A citation must name
//     a document of the database or of the same invocation (in any order:
//     the judgments wait until every file is read).
//   - evaluate_generation's outputs/answers.jsonl (prepare_eval_input.py)
//     {"query_id", "query_text", "generated_answer", "ground_truth_answer",
//     "condition", "generator", "retrieval_method"}, and the judge's per-row
//     scores (ragas_answer_eval.py --keep-answers: the same keys with
//     "groundedness_gold", "factual_precision_gold", …): each line a
//     generated answer "<query_id>/<system>/<condition>" of system
//     "generator" (--system instead) in condition "condition" (--condition
//     instead; "pipeline" when neither says), of a query of the database or
//     of the same invocation. The judge's scores are numbers on the whole
//     answer, which no field of a generated claim holds: they are kept with
//     the answer, as every other key is. A row of the judge's manual
//     evaluation ("factual_precision":{"judgements":[{"statement",
//     "verdict"}]}) also brings its claims, each with the judge's verdict as
//     the prediction of system "ragas" on accuracy_support (the verdicts are
//     against the reference answer).

// Formats of this file.
const (
	FormatReleaseDocuments = "canlegalragbench-documents"
	FormatReleaseQueries   = "canlegalragbench-queries"
	FormatReleaseAnswers   = "canlegalragbench-answers"
)

// DefaultReleaseAnnotator writes the reference answers of queries.json.
const DefaultReleaseAnnotator = "canlegalragbench"

// ReleaseJudge is the system of the verdicts of the generation judge.
const ReleaseJudge = "ragas"

func init() {
	parsers[FormatReleaseDocuments] = parseReleaseDocuments
	parsers[FormatReleaseQueries] = parseReleaseQueries
	parsers[FormatReleaseAnswers] = parseReleaseAnswers
	Formats = append(Formats, FormatReleaseDocuments, FormatReleaseQueries, FormatReleaseAnswers)
	described[FormatReleaseDocuments] = `CanLegalRAGBench documents.parquet (Parquet with the columns ` + strings.Join(releaseDocRequired, " and ") + `, and any of ` + strings.Join(releaseDocOptional, ", ") + `)`
	described[FormatReleaseQueries] = `CanLegalRAGBench queries.json (JSON lines with "query_id", "query_text", "ground_truth_citations")`
	described[FormatReleaseAnswers] = `CanLegalRAGBench generation outputs (JSON lines with "query_id", "generated_answer")`
}

// releaseLineShape adds what the first line of a JSON Lines file says of
// the release's formats to sh.
func releaseLineShape(m map[string]json.RawMessage, sh *shape) {
	if has(m, "query_id") && has(m, "query_text") && has(m, "ground_truth_citations") {
		sh.fits = append(sh.fits, FormatReleaseQueries)
	} else if hasAny(m, "ground_truth_citations", "batch_id", "province") {
		sh.resembles = append(sh.resembles, described[FormatReleaseQueries])
	}
	if has(m, "query_id") && has(m, "generated_answer") {
		sh.fits = append(sh.fits, FormatReleaseAnswers)
	} else if hasAny(m, "generated_answer", "ground_truth_answer", "groundedness_gold") {
		sh.resembles = append(sh.resembles, described[FormatReleaseAnswers])
	}
}

// releaseNeed names what an item of the release needs when it is missing.
func releaseNeed(format, field, id string) (string, string, bool) {
	switch {
	case format == FormatReleaseAnswers && field == "query":
		return "query_id", fmt.Sprintf("unknown query %q: it is neither in the database nor in this import (import queries.json before the answers, or with them in the same invocation)", id), true
	}
	return "", "", false
}

const releaseCitations = "ground_truth_citations"

// releaseAbsent says whether a missing item an item needs is a gold
// citation of queries.json: the benchmark scores a citation that names no
// document of its corpus as a relevant document no run retrieves, and so
// does annotate (an absent document: store.Document.Absent).
func releaseAbsent(format, field string) bool {
	return format == FormatReleaseQueries && field == releaseCitations
}

// absentDocument writes the absent document a gold citation names, once
// every file is read and it is in neither the database nor the import, and
// counts it in the file's warnings.
func (w *writer) absentDocument(f *fileData, at loc, citation string) error {
	d := store.Document{ID: citation, Citation: citation}
	id, res, err := w.tx.PutDocument(d, contentHash(d), f.name, false)
	if err != nil {
		return at.wrap(releaseCitations, err)
	}
	f.sum.addItem(string(schema.KindDocument), res)
	f.sum.absent(citation)
	w.wrote(citation, schema.KindDocument, id)
	return nil
}

// eachReleaseRecord reads JSON lines, or a JSON array of records (the
// benchmark's own loaders take either).
func (f *fileData) eachReleaseRecord(t *textReader, fn func(r *rec) error) error {
	if c, err := t.peekNonSpace(); err == nil && c == '[' {
		return f.eachArrayRecord(t, fn)
	}
	return t.eachLine(func(at loc, line []byte) error {
		m, err := object(at, line)
		if err != nil {
			return err
		}
		return fn(newRec(at, "", m))
	})
}

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

// releaseReference reads a query's reference answer as the benchmark's
// is_query_usable and its judge read it, str(q.get("answer",
// q.get("user_answer", ""))): "answer" when the key is there, even empty or
// null ("user_answer", the annotation tool's name, is read only without
// it), and a value that is not a string is its Python text (null "None",
// true "True", 0 "0"); an array or an object is refused. key is the key
// read ("" for none).
func (f *fileData) releaseReference(r *rec) (key, answer string, err error) {
	key = "answer"
	raw, ok := r.m[key]
	if !ok {
		key = "user_answer"
		if raw, ok = r.m[key]; !ok {
			return "", "", nil
		}
	}
	s, ok := pytext.Str(raw)
	if !ok {
		return "", "", r.errf(key, "want a string, got %s (the benchmark reads a null, a number, true or false as its Python text)", kind(raw))
	}
	r.get(key)
	if key == "answer" && r.has("user_answer") { // the benchmark never reads it then
		if pytext.Blank(s) {
			f.sum.quirk(`"answer" is empty and "user_answer" is not: the benchmark reads "answer" (no reference answer: the query is not usable), never "user_answer"`)
		}
	}
	if bytes.Equal(bytes.TrimSpace(raw), []byte("null")) {
		f.sum.quirk(fmt.Sprintf(`%q is null: read as the reference answer "None", as the benchmark's str() reads it (the query is usable)`, key))
	}
	return key, s, nil
}

// releaseAnswer makes the reference answer of a query the accepted gold
// answer of who: the answer task, who's answer and citations, and who's
// acceptance (adjudicated labels, as the lead's review writes them).
func (f *fileData) releaseAnswer(at loc, key, who, query, answer string, cites []string) error {
	id := store.AnswerTaskID(query)
	line, _ := json.Marshal(map[string]string{"kind": string(schema.KindAnswerTask), "id": id, "query": query})
	it := &itemRec{at: at, idField: "query_id", kind: schema.KindAnswerTask, id: id, hash: store.AnswerTaskHash(query),
		needs: []need{{"query_id", query}}, line: line,
		put: func(tx *store.Tx, hash, file string, update bool) (int64, store.PutResult, error) {
			return tx.PutAnswerTask(store.AnswerTask{ID: id, QueryID: query}, hash, file, update)
		}}
	if err := f.out.item(f, it); err != nil {
		return err
	}
	labels := []labelRec{{name: schema.GoldAnswer, value: answer, field: key}}
	if len(cites) > 0 {
		labels = append(labels, labelRec{name: schema.Citations, value: schema.EncodeMulti(cites), field: releaseCitations})
	}
	n := len(labels)
	labels = append(labels, labelRec{name: schema.AnswerReview, value: "accept", field: key, adjudicate: true})
	for _, l := range labels[:n] {
		l.adjudicate = true
		labels = append(labels, l)
	}
	for _, l := range labels {
		l.at, l.itemField, l.annotator, l.item = at, "query_id", who, id
		if err := f.addLabel(l, schema.KindAnswerTask); err != nil {
			return err
		}
	}
	return nil
}

// parseReleaseAnswers reads the generation outputs.
func parseReleaseAnswers(f *fileData, t *textReader) error {
	return f.eachReleaseRecord(t, func(r *rec) error {
		at, m := r.at, r.m
		query, err := r.needID("query_id")
		if err != nil {
			return err
		}
		answer, err := r.need("generated_answer")
		if err != nil {
			return err
		}
		system := f.opt.System
		gen, err := r.str("generator")
		if err != nil {
			return err
		}
		if system == "" {
			if system = gen; system == "" {
				return r.errf("generator", "empty: the row does not name its system (prepare_eval_input.py --generator); give it with --system NAME")
			}
		}
		if err := printable(at, "generator", "the system name", system); err != nil {
			return err
		}
		condition := f.opt.Condition
		cond, err := r.str("condition")
		if err != nil {
			return err
		}
		if condition == "" {
			if condition = cond; condition == "" {
				condition = schema.ConditionPipeline // prepare_eval_input.py's default
			}
		}
		if !slices.Contains(conditions, condition) {
			return r.errf("condition", "want \"oracle\" or \"pipeline\", got %q (--condition to say which)", condition)
		}
		// The native line of the answer: what it is staged as while its
		// query is not in yet, and parsed by the native parser so both ways
		// give the same item. Every other key of the row (generator,
		// retrieval_method, the judge's scores, …) is kept with it.
		native := map[string]any{"kind": string(schema.KindGenAnswer), "id": query + "/" + system + "/" + condition,
			"query": query, "system": system, "condition": condition, "answer": answer}
		if r.has("generator") {
			native["generator"] = gen
		}
		fp, err := r.object("factual_precision")
		if err != nil {
			return err
		}
		if fp != nil {
			sub := newRec(at, "factual_precision.", fp)
			claims, err := releaseJudgements(sub)
			if err != nil {
				return err
			}
			if claims != nil {
				native[genClaimsKey] = claims
			}
			// What is not a judgement (the prompts, the counts) is kept.
			if keys, rest := sub.unknown(); len(keys) > 0 {
				native["factual_precision"] = json.RawMessage(rest)
			}
		}
		keys, _ := r.unknown()
		for _, k := range keys {
			native[k] = m[k]
		}
		b, err := json.Marshal(native)
		if err != nil {
			return err
		}
		nm, err := object(at, b)
		if err != nil {
			return err
		}
		nf := *f
		nf.sum = &FileSummary{} // the native keys kept are no unknown keys of this file
		it, err := parseGenAnswer(&nf, newRec(at, "", nm))
		if err != nil {
			return err
		}
		it.idField, it.at, it.line = "query_id", at, b
		return f.out.item(f, it)
	})
}

// releaseJudgements reads the judge's per-claim verdicts of a manual
// evaluation row as the claims of the answer.
func releaseJudgements(r *rec) ([]map[string]any, error) {
	list, err := r.array("judgements")
	if err != nil || list == nil {
		return nil, err
	}
	r.get("decomposed_statements") // the same statements, without verdicts
	claims := []map[string]any{}
	for i, raw := range list {
		field := fmt.Sprintf("judgements[%d]", i)
		j, err := r.sub(field, raw)
		if err != nil {
			return nil, err
		}
		text, err := j.need("statement")
		if err != nil {
			return nil, err
		}
		var verdict string
		switch v := strings.TrimSpace(string(j.get("verdict"))); v {
		case "1", "true":
			verdict = "supported"
		case "0", "false":
			verdict = "not_supported"
		default:
			return nil, j.errf("verdict", "want 1 (supported by the reference answer) or 0, got %s", kind(j.get("verdict")))
		}
		c := map[string]any{"text": text, "predictions": map[string]map[string]string{ReleaseJudge: {schema.AccuracySupport: verdict}}}
		j.get("supported") // the verdict again
		j.get("reason")    // the judge's, not kept: a claim holds its text and verdicts
		claims = append(claims, c)
	}
	return claims, nil
}
