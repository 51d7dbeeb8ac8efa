package tally

import (
	"strconv"

	"github.com/annotate-dev/annotate/schema"
)

// Relevance judgments are an expert's: a (query, document) pair counts as an
// item, and its labels count, once it is pooled (in a relevance batch: work
// to do) or an expert judged it (imported with its labels: a pool's
// judgment once the pool is gone). The gold set's labels (qrels, annotator
// gold: AttrGold) are the reference `annotate ir` reads, not labels: they
// count for nothing, so a pair only the gold set judged counts for nothing
// and the gold set is never "an annotator with labels" the reports must
// choose among.
func init() {
	Register(relevanceKind{})
}

// relevanceKind: a pair's gold labels are a reference, not a rater's; a
// pair is annotated once it is in a batch (or labelled).
type relevanceKind struct{}

func (relevanceKind) Kind() schema.Kind { return schema.KindRelevance }

func (relevanceKind) Reference(m *Member) int64 {
	id, _ := strconv.ParseInt(m.Attrs[AttrGold], 10, 64)
	return id
}

func (relevanceKind) Queueable(m *Member) bool { return len(m.Queues) > 0 || len(m.Labels) > 0 }

// AttrGold, a relevance pair's: the id of the gold set's annotator ("0"
// when there is none).
const AttrGold = "gold"
