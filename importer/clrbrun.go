package importer

import (
	"errors"
	"fmt"
	"math"
	"path/filepath"
	"strconv"

	"github.com/annotate-dev/annotate/store"
)

// CanLegalRAGBench's retrieval results (github.com/NLP-UBC/CanLegalRAGBench,
// evaluate_retrieval/scripts/run_benchmark.py): the pipeline of an
// experiment writes runs/<experiment>/results/query_results.jsonl, one line
// per query:
//
//	{"query_id":…, "query_text":…, "gold_citations":[…],
//	 "retrieved_ids":["doc-a","doc-b","doc-a",…],
//	 "retrieved_chunk_details":[{"doc_id":"doc-a","chunk_idx":3,"score":0.81},…],
//	 "num_unique_docs_retrieved":…, "answer":…}
//
// retrieved_ids holds the document of every retrieved chunk in rank order,
// repeats included. The file is one run, named after its experiment folder
// (--run NAME instead); the chunk-level list is kept as it is (the
// benchmark's own metrics count chunks) beside the document ranking (each
// document at its first rank). A detail's score becomes its chunk's score;
// it never reorders the list (the benchmark's metrics.py scores
// retrieved_ids as listed: store.RunFields.ByScore is off).
// The query and every document must be in the database or in the same
// import. An empty retrieved_ids is an empty list (the benchmark scores it
// 0). query_text, gold_citations and answer belong to queries.json and
// the generation outputs: they are checked for their type and not stored.

// FormatCLRBRun is the format of query_results.jsonl.
const FormatCLRBRun = "canlegalragbench-run"

// clrbRunFields name the fields of its errors.
var clrbRunFields = store.RunFields{Query: "query_id", Doc: "retrieved_ids", Run: "query_id", DocIndexed: true}

func init() {
	parsers[FormatCLRBRun] = parseCLRBRun
	Formats = append(Formats, FormatCLRBRun)
	described[FormatCLRBRun] = `CanLegalRAGBench retrieval results (query_results.jsonl: "query_id" and "retrieved_ids" per line)`
}

// experimentOf is the experiment a results file belongs to:
// <experiment>/results/query_results.jsonl.
func experimentOf(name string) string {
	abs, err := filepath.Abs(name)
	if err != nil {
		return ""
	}
	dir := filepath.Dir(abs)
	if filepath.Base(dir) != "results" {
		return ""
	}
	exp := filepath.Base(filepath.Dir(dir))
	if exp == "." || exp == string(filepath.Separator) || exp == "" {
		return ""
	}
	return exp
}

func parseCLRBRun(f *fileData, t *textReader) error {
	w, ok := f.out.(*writer)
	if !ok {
		return errors.New("importer: a run is read by an import")
	}
	run := f.opt.Run
	if run == "" {
		if run = experimentOf(f.name); run == "" {
			return fileLoc(f.name).errf("", "cannot tell the run's name: a results file is runs/<experiment>/results/query_results.jsonl, named after <experiment>; give --run NAME")
		}
		if err := printable(fileLoc(f.name), "", "the run name (the experiment folder)", run); err != nil {
			return err
		}
	}
	if w.runs == nil {
		if err := w.tx.BeginRuns(); err != nil {
			return err
		}
		w.runs = map[string]runSeen{}
	}
	if prev, met := w.runs[run]; met {
		return fileLoc(f.name).errf("", "run %q is also in %s: a run comes from one file (give --run NAME to name this one)", run, loc{file: w.name(prev.file), line: prev.line}.String())
	}
	w.runs[run] = runSeen{f.idx, 1}
	w.tx.SetRunFields(run, clrbRunFields)
	runB := []byte(run)
	return t.eachLine(func(at loc, line []byte) error {
		m, err := object(at, line)
		if err != nil {
			return err
		}
		r := newRec(at, "", m)
		qid, err := r.needID("query_id")
		if err != nil {
			return err
		}
		if err := printable(at, "query_id", "the query id", qid); err != nil {
			return err
		}
		if first, again, err := w.tx.See("run-query:"+run, qid, store.Seen{Kind: "run query", File: f.idx, Line: at.line, Record: -1}); err != nil {
			return err
		} else if again {
			return at.errf("query_id", "query %q is also at %s: a results file has one line per query", qid, w.where(first))
		}
		if r.get("retrieved_ids") == nil {
			return r.errf("retrieved_ids", "missing (required): the document of each retrieved chunk, in rank order")
		}
		ids, err := r.array("retrieved_ids")
		if err != nil {
			return err
		}
		docs := make([]string, len(ids))
		for i, raw := range ids {
			field := fmt.Sprintf("retrieved_ids[%d]", i)
			var s string
			if decodeString(raw, &s) != nil {
				return r.errf(field, "want a document id (a string), got %s", kind(raw))
			}
			if s == "" {
				return r.errf(field, "empty (a document id is required)")
			}
			if err := printable(at, field, "the document id", s); err != nil {
				return err
			}
			docs[i] = s
		}
		scores, err := chunkScores(r, docs)
		if err != nil {
			return err
		}
		for _, key := range []string{"query_text", "answer"} {
			if _, err := r.str(key); err != nil {
				return err
			}
		}
		if _, err := r.strings("gold_citations"); err != nil {
			return err
		}
		if len(docs) == 0 { // nothing retrieved: an empty list, which scores 0
			return w.tx.StageRunQuery(runB, []byte(qid), f.idx, at.line)
		}
		for i, d := range docs {
			sc, has := 0.0, scores != nil
			if has {
				sc = scores[i]
			}
			if err := w.tx.StageRunLine(runB, []byte(qid), []byte(d), i+1, sc, has, f.idx, at.line); err != nil {
				return err
			}
		}
		return nil
	})
}

// chunkScores reads retrieved_chunk_details, when there: one detail per
// retrieved chunk, naming the same document, with a finite score. nil when
// absent.
func chunkScores(r *rec, docs []string) ([]float64, error) {
	details, err := r.array("retrieved_chunk_details")
	if err != nil || details == nil {
		return nil, err
	}
	if len(details) != len(docs) {
		return nil, r.errf("retrieved_chunk_details", "%d details for %d retrieved_ids: want one per retrieved chunk", len(details), len(docs))
	}
	out := make([]float64, len(details))
	for i, raw := range details {
		field := "retrieved_chunk_details[" + strconv.Itoa(i) + "]"
		d, err := r.sub(field, raw)
		if err != nil {
			return nil, err
		}
		doc, err := d.str("doc_id")
		if err != nil {
			return nil, err
		}
		if doc != docs[i] {
			return nil, d.errf("doc_id", "%q, but retrieved_ids[%d] is %q: the details must follow retrieved_ids", doc, i, docs[i])
		}
		raw := d.get("score")
		if raw == nil {
			return nil, d.errf("score", "missing (required in a detail)")
		}
		v, err := strconv.ParseFloat(string(raw), 64)
		if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
			return nil, d.errf("score", "want a finite number, got %s", raw)
		}
		out[i] = v
	}
	return out, nil
}
