package importer

import (
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	gohash "hash"
	"math"
	"strconv"

	"github.com/annotate-dev/annotate/store"
)

// The runs config of an hf export (exporter/kind_relevance_runs.go): one row per
// retrieved line of a (run, query) — run, query_id, rank, document_id,
// chunk_id, score — staged as a run file's lines are (trec.go), so the
// run's ranking and chunk-level list are rebuilt as they were. A query the
// run retrieved nothing for is a row of rank 0 without a document.
//
// The folders of several annotators each carry the same runs: a run met in
// the runs config of an earlier folder is read again and compared (a hash
// of its rows), not staged twice; a run that differs is refused.

var hfRunFields = store.RunFields{Query: "query_id", Doc: "document_id", Run: "run"}

// hfRunSeen is a run of an hf runs config: where it was first met and the
// hash of its rows there.
type hfRunSeen struct {
	file, line int
	sum        []byte
}

// hfRunsFile reads one runs data file.
type hfRunsFile struct {
	f      *fileData
	w      *writer
	sums   map[string]gohash.Hash // the hash of each run's rows in this file
	first  map[string]int         // the line of each run's first row in this file
	staged map[string]bool        // runs this file stages (first met here)
	order  []string
}

func (f *fileData) hfRuns() (*hfRunsFile, error) {
	w, ok := f.out.(*writer)
	if !ok {
		return nil, errors.New("importer: a run is read by an import")
	}
	if w.runs == nil {
		if err := w.tx.BeginRuns(); err != nil {
			return nil, err
		}
		w.runs = map[string]runSeen{}
	}
	if w.hfRuns == nil {
		w.hfRuns = map[string]hfRunSeen{}
	}
	return &hfRunsFile{f: f, w: w, sums: map[string]gohash.Hash{}, first: map[string]int{}, staged: map[string]bool{}}, nil
}

// row reads one row.
func (h *hfRunsFile) row(r *rec) error {
	at := r.at
	run, err := r.need("run")
	if err != nil {
		return err
	}
	if err := printable(at, "run", "the run name", run); err != nil {
		return err
	}
	qid, err := r.needID("query_id")
	if err != nil {
		return err
	}
	if err := printable(at, "query_id", "the query id", qid); err != nil {
		return err
	}
	raw := r.get("rank")
	if raw == nil {
		return r.errf("rank", "missing (required)")
	}
	rank, err := strconv.Atoi(string(raw))
	if err != nil || rank < 0 {
		return r.errf("rank", "want an integer from 0, got %s", raw)
	}
	doc, err := r.id("document_id")
	if err != nil {
		return err
	}
	chunk, err := r.id("chunk_id")
	if err != nil {
		return err
	}
	score, hasScore := 0.0, false
	if raw := r.get("score"); raw != nil {
		if json.Unmarshal(raw, &score) != nil || math.IsNaN(score) || math.IsInf(score, 0) {
			return r.errf("score", "want a finite number or null, got %s", raw)
		}
		hasScore = true
	}
	switch {
	case rank == 0 && (doc != "" || chunk != "" || hasScore):
		return r.errf("rank", "0 is a query the run retrieved nothing for: document_id, chunk_id and score must be null")
	case rank > 0 && doc == "":
		return r.errf("document_id", "missing (required from rank 1)")
	}
	for _, p := range [][2]string{{"document_id", doc}, {"chunk_id", chunk}} {
		if err := printable(at, p[0], "the "+p[0][:len(p[0])-3]+" id", p[1]); err != nil {
			return err
		}
	}
	keys, _ := r.unknown()
	h.f.unknownKeys("", keys)

	sum, met := h.sums[run]
	if !met {
		if prev, ok := h.w.runs[run]; ok {
			if _, hf := h.w.hfRuns[run]; !hf || prev.file == h.f.idx {
				return r.errf("run", "run %q is also in %s: a run comes from one file", run, loc{file: h.w.name(prev.file), line: prev.line}.String())
			}
		} else {
			h.w.runs[run] = runSeen{h.f.idx, at.line}
			fields := hfRunFields
			if chunk != "" { // a run names chunks (or documents) throughout
				fields.Doc = "chunk_id"
			}
			h.w.tx.SetRunFields(run, fields)
			h.staged[run] = true
		}
		sum = sha256.New()
		h.sums[run], h.first[run] = sum, at.line
		h.order = append(h.order, run)
	}
	fmt.Fprintf(sum, "%s\x00%d\x00%s\x00%s\x00%t\x00%v\n", qid, rank, doc, chunk, hasScore, score)
	if !h.staged[run] {
		return nil // compared at the end of the file
	}
	if rank == 0 {
		return h.w.tx.StageRunQuery([]byte(run), []byte(qid), h.f.idx, at.line)
	}
	named := doc
	if chunk != "" {
		named = chunk // a chunk names its document
	}
	return h.w.tx.StageRunLine([]byte(run), []byte(qid), []byte(named), rank, score, hasScore, h.f.idx, at.line)
}

// end compares the runs this file read again with the folder they were
// first read from.
func (h *hfRunsFile) end() error {
	for _, run := range h.order {
		sum := h.sums[run].Sum(nil)
		if h.staged[run] {
			h.w.hfRuns[run] = hfRunSeen{file: h.f.idx, line: h.first[run], sum: sum}
			continue
		}
		prev := h.w.hfRuns[run]
		if string(prev.sum) != string(sum) {
			return lineLoc(h.f.name, h.first[run]).errf("run", "run %q differs from the one in %s: the folders of one database carry the same runs",
				run, loc{file: h.w.name(prev.file), line: prev.line}.String())
		}
	}
	return nil
}
