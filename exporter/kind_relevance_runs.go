package exporter

import (
	"github.com/annotate-dev/annotate/schema"
	"github.com/annotate-dev/annotate/store"
)

// Config "runs": the retrieval runs as the database keeps them, so that a
// re-import scores them as `annotate ir` did. One row per retrieved line of
// a (run, query) in rank order (the chunk-level list: a chunk names its
// document, a document retrieved through several chunks has several rows);
// a run imported before annotate kept that list has one row per ranked
// document. A document's score is on its first row (its best rank) and is
// its best score; its later rows have none. A query the run retrieved
// nothing for is one row of rank 0 with no document.

func init() {
	configNames["runs"] = [2]string{"retrieved line of a run (run, query, rank)", "retrieved lines of runs"}
	Register(runsKind{})
}

// runsKind publishes the runs' retrieved lines.
type runsKind struct{}

func (runsKind) Kind() schema.Kind { return schema.KindRelevance }

func (runsKind) Config() string { return "runs" }

func (runsKind) Columns() []Column { return runsColumns }

func (runsKind) rows(e *exporter, fn func(row) error) error {
	return e.snap.EachRunExport(func(l store.RunExport) error {
		if err := e.ctx.Err(); err != nil {
			return err
		}
		return runRows(l, fn)
	})
}

func (runsKind) count(e *exporter) (int, error) { return e.snap.CountRunExportRows() }

var runsColumns = []Column{
	{"run", TypeString, false, "the run's name"},
	{"query_id", TypeString, false, "query id (config `queries`)"},
	{"rank", TypeInt, false, "rank of the line in the run's list for the query, from 1; 0: the run retrieved nothing for it"},
	{"document_id", TypeString, true, "the document retrieved (config `documents`); null only at rank 0"},
	{"chunk_id", TypeString, true, "the chunk the run named (one of the document's `chunk_ids`); null when it named the document"},
	{"score", TypeFloat, true, "the document's best score, on its first row; null on its later rows and when the run gave none"},
}

// runRows writes the rows of one (run, query) list.
func runRows(l store.RunExport, fn func(row) error) error {
	if len(l.Docs) == 0 && len(l.ChunkDocs) == 0 {
		return fn(row{l.Run, l.Query, 0, nil, nil, nil})
	}
	if !l.ChunkLevel {
		for i, d := range l.Docs {
			if err := fn(row{l.Run, l.Query, i + 1, d, nil, scoreOf(l.Scores[i])}); err != nil {
				return err
			}
		}
		return nil
	}
	score := make(map[string]*float64, len(l.Docs))
	for i, d := range l.Docs {
		score[d] = l.Scores[i]
	}
	seen := make(map[string]bool, len(l.Docs))
	for i, d := range l.ChunkDocs {
		var sc any
		if !seen[d] {
			seen[d], sc = true, scoreOf(score[d])
		}
		if err := fn(row{l.Run, l.Query, i + 1, d, orNull(l.ChunkIDs[i]), sc}); err != nil {
			return err
		}
	}
	return nil
}

func scoreOf(p *float64) any {
	if p == nil {
		return nil
	}
	return *p
}
