package store

import "github.com/annotate-dev/annotate/schema"

// The QA pair kind's rows: qa_pairs, with its context units.

func init() {
	registerAttrs(schema.KindQA, kindAttrs{
		names: []string{"hop", "category"},
		sql:   "SELECT item_id, hop, category FROM qa_pairs WHERE item_id IN (SELECT value FROM json_each(?))",
	})
}
