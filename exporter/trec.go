package exporter

import (
	"errors"
	"fmt"
	"strings"

	"github.com/annotate-dev/annotate/store"
)

// TREC (--format trec): the files trec_eval, ir_measures and ranx read.
//
//   - trec/runs/<run>.run: each run's document ranking per query,
//     "qid Q0 docid rank score tag" (rank from 1, score n+1-rank so that the
//     order by score is the rank order, tag the run's name);
//   - trec/qrels_before.txt: the gold set, "qid 0 docid rel" (rel the grade,
//     0 not relevant);
//   - trec/qrels_after.txt: the gold set plus the documents the export's
//     label set (--annotator or --adjudicated, else the only human
//     annotator) judged relevant, as `annotate ir` scores "after".
//
// Queries and runs are in name order, documents in rank order. A run keeps
// its document ranking only (the chunk-level list of a CanLegalRAGBench run
// is not written: chunk ids are not kept).

var errNoRuns = errors.New("nothing to export as TREC: the database has no runs and no qrels (import a run or qrels first)")

func (e *exporter) trec(dir string) error {
	rx := e.snap
	runs, err := rx.Runs()
	if err != nil {
		return err
	}
	names := make([]string, len(runs))
	for i, r := range runs {
		if strings.ContainsAny(r.Name, "/\\ \t") || r.Name == "" || r.Name == "." || r.Name == ".." {
			return fmt.Errorf("run %q: its name cannot be a file name or a TREC tag (no spaces or slashes)", r.Name)
		}
		names[i] = r.Name
	}
	var lists []store.RunList
	var ids []int64
	if err := rx.RunLists(names, func(l store.RunList) {
		lists = append(lists, l)
		ids = append(ids, l.Query)
		ids = append(ids, l.Docs...)
	}); err != nil {
		return err
	}
	ext, err := rx.DocIDs(ids)
	if err != nil {
		return err
	}
	var f *sink
	cur := ""
	n := 0
	closeRun := func() error {
		if f == nil {
			return nil
		}
		var c int
		err := e.finish(f, nil, &c, 0)
		f = nil
		return err
	}
	for _, l := range lists {
		if l.Run != cur {
			if err := closeRun(); err != nil {
				return err
			}
			if f, err = e.openFile(dir, "trec/runs/"+l.Run+".run"); err != nil {
				return err
			}
			cur = l.Run
			n++
		}
		for i, d := range l.Docs {
			if _, err := fmt.Fprintf(f, "%s Q0 %s %d %d %s\n", ext[l.Query], ext[d], i+1, len(l.Docs)-i, l.Run); err != nil {
				f.Close()
				return err
			}
		}
	}
	if err := closeRun(); err != nil {
		return err
	}
	nq := 0
	for _, after := range []bool{false, true} {
		qs, err := e.qrels(after)
		if err != nil {
			return err
		}
		name := "trec/qrels_before.txt"
		if after {
			name = "trec/qrels_after.txt"
		}
		if len(qs) == 0 {
			continue
		}
		f, err := e.openFile(dir, name)
		if err != nil {
			return err
		}
		for _, q := range qs {
			if _, err = fmt.Fprintf(f, "%s 0 %s %d\n", q.query, q.doc, q.gain); err != nil {
				break
			}
		}
		var c int
		if err := e.finish(f, err, &c, 0); err != nil {
			return err
		}
		nq += len(qs)
	}
	if n == 0 && nq == 0 {
		return errNoRuns
	}
	e.res.countedConfig("runs", n)
	return nil
}
