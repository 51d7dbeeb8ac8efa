package importer

import (
	"strconv"

	"github.com/annotate-dev/annotate/schema"
)

// TREC qrels (trec.go's format qrels, docs/relevance.md): relevance items
// with the gold set's judgments.

// parseQrels reads TREC qrels: each line a relevance item with the gold
// set's (or --annotator's) judgment.
func parseQrels(f *fileData, t *textReader) error {
	who := f.opt.Annotator
	if who == "" {
		who = GoldAnnotator
	}
	return t.eachLine(func(at loc, line []byte) error {
		c, err := columns(at, line, "qid iter docid rel")
		if err != nil {
			return err
		}
		rel, err := strconv.Atoi(c[3])
		if err != nil {
			return at.errf("rel", "want an integer relevance grade (0 not relevant, 1 or more relevant), got %q", c[3])
		}
		// The item goes the way of a native relevance line (which is also
		// what waits when its query or document is not in yet).
		it := relevanceRec(f, c[0], c[2])
		it.at, it.line = at, relevanceLine(c[0], c[2])
		if err := f.out.item(f, it); err != nil {
			return err
		}
		value := schema.NotRelevant
		if rel > 0 {
			value = schema.Relevant
		}
		for _, l := range []labelRec{
			{at: at, field: "rel", itemField: "qid", annotator: who, item: it.id, name: schema.Relevance, value: value},
			{at: at, field: "rel", itemField: "qid", annotator: who, item: it.id, name: schema.RelevanceGrade, value: strconv.Itoa(rel)},
		} {
			if err := f.addLabel(l, schema.KindRelevance); err != nil {
				return err
			}
		}
		return nil
	})
}
