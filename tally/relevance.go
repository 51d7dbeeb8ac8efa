package tally

import "github.com/annotate-dev/annotate/schema"

// Relevance judgments are work only once pooled: a (query, document) pair
// in a relevance batch has a queue, counts as an item and its labels count.
// The pairs of the gold set (qrels, annotator gold) that no pool holds are
// judgments, not work: they are read by `annotate ir`, not counted here, so
// the gold set is never "an annotator with labels" the reports must choose
// among.
func init() {
	RegisterKind(schema.KindRelevance, KindRules{
		Queueable: func(m *Member) bool { return len(m.Queues) > 0 },
	})
}
