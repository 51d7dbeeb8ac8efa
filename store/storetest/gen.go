package storetest

import "github.com/annotate-dev/annotate/store"

// Document adds a document.
func (b *Builder) Document(d store.Document) {
	item, _, err := b.Tx.PutDocument(d, "h-"+d.ID, "test", false)
	b.Fail(err, "document "+d.ID)
	b.IDs[d.ID] = item
}

// GenAnswer adds a generated answer of a query added before, with its
// claims (their ids are recorded too).
func (b *Builder) GenAnswer(a store.GenAnswer) {
	item, _, err := b.Tx.PutGenAnswer(a, "h-"+a.ID, "test", false)
	b.Fail(err, "generated answer "+a.ID)
	b.IDs[a.ID] = item
	for _, c := range a.Claims {
		id, _, err := b.Tx.ItemID(c.ID)
		b.Fail(err, "claim "+c.ID)
		b.IDs[c.ID] = id
	}
}

// AnswerTask adds the answer task of a query added before ("<query>/answer").
func (b *Builder) AnswerTask(query string) {
	id := store.AnswerTaskID(query)
	item, _, err := b.Tx.PutAnswerTask(store.AnswerTask{ID: id, QueryID: query}, store.AnswerTaskHash(query), "test", false)
	b.Fail(err, "answer task "+id)
	b.IDs[id] = item
}

// Relevance adds the relevance judgment of a (query, document) pair, both
// added before; its id is "<query>/<document>".
func (b *Builder) Relevance(query, doc string) {
	item, _, err := b.Tx.PutRelevance(query, doc, "test")
	b.Fail(err, "relevance "+query+"/"+doc)
	b.IDs[store.RelevanceID(query, doc)] = item
}
