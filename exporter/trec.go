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
	rx := e.snap.Read()
	runs, err := rx.Runs()
	if err != nil {
		return err
	}
	for _, r := range runs {
		if strings.ContainsAny(r.Name, "/\\ \t") || r.Name == "" || r.Name == "." || r.Name == ".." {
			return fmt.Errorf("run %q: its name cannot be a file name or a TREC tag (no spaces or slashes)", r.Name)
		}
	}
	// The runs' lists stream past one (run, query) at a time, run by run:
	// a file a run.
	var f *sink
	cur := ""
	n := 0
	closeRun := func(err error) error {
		if f == nil {
			return err
		}
		var c int
		err = e.finish(f, err, &c, 0)
		f = nil
		return err
	}
	err = rx.EachRunExport(func(l store.RunExport) error {
		if l.Run != cur {
			if err := closeRun(nil); err != nil {
				return err
			}
			var err error
			if f, err = e.openFile(dir, "trec/runs/"+l.Run+".run"); err != nil {
				return err
			}
			cur = l.Run
			n++
		}
		for i, d := range l.Docs {
			if _, err := fmt.Fprintf(f, "%s Q0 %s %d %d %s\n", l.Query, d, i+1, len(l.Docs)-i, l.Run); err != nil {
				return err
			}
		}
		return nil
	})
	if err := closeRun(err); err != nil {
		return err
	}
	nq := 0
	for _, after := range []bool{false, true} {
		name := "trec/qrels_before.txt"
		if after {
			name = "trec/qrels_after.txt"
		}
		var f *sink
		err := e.eachQrel(after, func(q qrel) error {
			if f == nil {
				var err error
				if f, err = e.openFile(dir, name); err != nil {
					return err
				}
			}
			nq++
			_, err := fmt.Fprintf(f, "%s 0 %s %d\n", q.query, q.doc, q.gain)
			return err
		})
		if f == nil {
			if err != nil {
				return err
			}
			continue
		}
		var c int
		if err := e.finish(f, err, &c, 0); err != nil {
			return err
		}
	}
	if n == 0 && nq == 0 {
		return errNoRuns
	}
	e.res.countedConfig("runs", n)
	return nil
}
