package storetest

import "github.com/annotate-dev/annotate/store"

// The Builder's QA pairs.

// QA adds a QA pair of a source with a generated category.
func (b *Builder) QA(id, source, lang, category string) {
	q := store.QAPair{ID: id, Source: source, Language: lang, Question: "Q " + id + "?", Answer: "A " + id + ".",
		Category: category, Contexts: []store.Context{{ID: "ctx-" + id, Text: "context of " + id}}}
	item, _, err := b.Tx.PutQA(q, "h-"+id, "test", false)
	b.Fail(err, "qa "+id)
	b.IDs[id] = item
}
