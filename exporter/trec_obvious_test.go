package exporter

import (
	"fmt"
	"strings"

	"github.com/annotate-dev/annotate/report"
	"github.com/annotate-dev/annotate/store"
)

// trecObvious is the TREC export as it was before it streamed: every run's
// lists, the ids of their queries and documents, and the qrels read first.
// TestTRECStreamed holds the streamed export (trec) to its bytes, and the
// qrels stream (eachQrel, which the hf qrels configs read too) to
// qrelsObvious.
func (e *exporter) trecObvious(dir string) error {
	rx := e.snap.Read()
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
		qs, err := e.qrelsObvious(after)
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

// qrelsObvious reads the gold set, and after the label set's judgments
// when after, merged by report.MergeJudgments.
func (e *exporter) qrelsObvious(after bool) ([]qrel, error) {
	rx := e.snap.Read()
	gold, err := rx.Judgments(store.LabelSet{Annotator: goldAnnotator})
	if err != nil {
		return nil, err
	}
	js := gold
	if after && (e.labels.Annotator != "" || e.labels.Adjudicated) {
		expert, err := rx.Judgments(e.labels)
		if err != nil {
			return nil, err
		}
		js, _, _ = report.MergeJudgments(gold, expert, false)
	}
	var ids []int64
	for _, j := range js {
		ids = append(ids, j.Query, j.Doc)
	}
	names, err := rx.DocIDs(ids)
	if err != nil {
		return nil, err
	}
	out := make([]qrel, len(js))
	for i, j := range js {
		out[i] = qrel{names[j.Query], names[j.Doc], j.Gain()}
	}
	return out, nil
}
