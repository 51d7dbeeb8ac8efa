package importer

import (
	"github.com/annotate-dev/annotate/schema"
	"github.com/annotate-dev/annotate/store"
)

// Native JSONL lines of answer tasks, as the export writes them:
// {"kind":"answer_task","id":…,"query":…}.

func init() {
	registerNative(schema.KindAnswerTask, parseAnswerTask)
}

func parseAnswerTask(f *fileData, r *rec) (*itemRec, error) {
	var a store.AnswerTask
	var err error
	if a.ID, err = r.needID("id"); err != nil {
		return nil, err
	}
	if a.QueryID, err = r.needID("query"); err != nil {
		return nil, err
	}
	if _, err := f.itemRest(r, a.ID, schema.KindAnswerTask); err != nil {
		return nil, err
	}
	return &itemRec{idField: "id", kind: schema.KindAnswerTask, id: a.ID, hash: store.AnswerTaskHash(a.QueryID),
		needs: []need{{"query", a.QueryID}},
		put: func(tx *store.Tx, hash, file string, update bool) (int64, store.PutResult, error) {
			return tx.PutAnswerTask(a, hash, file, update)
		}}, nil
}
