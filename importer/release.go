package importer

import (
	"encoding/json"
	"fmt"
	"strings"
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
//
// The records are made by the files of the kinds they fill:
// kind_document_release.go, kind_query_release.go (with the relevance
// judgments of the ground-truth citations), kind_answer_task_release.go and
// kind_gen_answer_release.go.

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
