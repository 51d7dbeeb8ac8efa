package store

import "github.com/annotate-dev/annotate/schema"

// The QA pair kind's rows: qa_pairs, with its context units.

func init() {
	registerAttrs(schema.KindQA, kindAttrs{
		names: []string{"hop", "category"},
		sql:   "SELECT item_id, hop, category FROM qa_pairs WHERE item_id IN (SELECT value FROM json_each(?))",
	})
}

func init() {
	registerPayload(schema.KindQA, loadQAs)
}

// loadQAs reads QA pairs with their context units in order.
func loadQAs(q querier, ids []int64) (map[int64]any, error) {
	out := map[int64]any{}
	ids2 := jsonInts(ids)
	err := eachRow(q, `SELECT i.id, i.ext_id, COALESCE(src.name,''), CASE WHEN p.language <> '' THEN p.language ELSE COALESCE(src.language,'') END,
			p.hop, p.question, p.answer, p.rationale, p.category, p.extra
		FROM items i JOIN qa_pairs p ON p.item_id=i.id LEFT JOIN sources src ON src.id=i.source_id
		WHERE i.id IN (SELECT value FROM json_each(?))`, []any{ids2}, func(sc func(...any) error) error {
		qa := &QAPair{}
		if err := sc(&qa.ItemID, &qa.ID, &qa.Source, &qa.Language, &qa.Hop, &qa.Question, &qa.Answer, &qa.Rationale, &qa.Category, &qa.Extra); err != nil {
			return err
		}
		out[qa.ItemID] = qa
		return nil
	})
	if err != nil {
		return nil, err
	}
	err = eachRow(q, `SELECT x.qa_item_id, c.ext_id, c.text FROM qa_contexts x JOIN context_units c ON c.id=x.context_id
		WHERE x.qa_item_id IN (SELECT value FROM json_each(?)) ORDER BY x.qa_item_id, x.position`, []any{ids2}, func(sc func(...any) error) error {
		var id int64
		var c Context
		if err := sc(&id, &c.ID, &c.Text); err != nil {
			return err
		}
		if qa, ok := out[id].(*QAPair); ok {
			qa.Contexts = append(qa.Contexts, c)
		}
		return nil
	})
	return out, err
}

func init() {
	registerSQL(schema.KindQA, kindSQL{hop: "(SELECT hop FROM qa_pairs WHERE item_id = i.id)"})
}
