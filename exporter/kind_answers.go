package exporter

import (
	"iter"
	"slices"
	"sort"

	"github.com/annotate-dev/annotate/schema"
	"github.com/annotate-dev/annotate/store"
)

// The CanLegalRAGBench answer side: config "answers" (answer tasks: the
// query, the lead's review, the accepted gold answer with its citations,
// then the label set's own answer), "gen_answers" (the systems' answers)
// and "gen_claims" (their atomic claims, the judges' verdicts, the label
// set's judgments and error categories). Native lines
// {"kind":"answer_task"}, {"kind":"gen_answer"} and {"kind":"gen_claim"}
// import back unchanged.

func init() {
	fieldDocs[schema.GoldAnswer] = "the label set's answer to the query (free text)"
	fieldDocs[schema.Citations] = "the documents (ids) or citations the answer rests on, as written"
	fieldDocs[schema.AnswerReview] = "the lead's review of the answer (`accept`, `reject`)"
	fieldDocs[schema.RejectReason] = "why the lead rejected it; only for rejected answers"
	fieldDocs[schema.AccuracySupport] = "is the claim supported by the accepted gold answer (`supported`, `not_supported`)"
	fieldDocs[schema.Grounded] = "is the claim supported by the documents its answer used (`grounded`, `not_grounded`)"
	fieldDocs[schema.ErrorCategory] = "the error categories of a claim not supported or not grounded (values of the taxonomy in force)"

	registerExport(kindExport{
		kind: schema.KindAnswerTask, config: "answers",
		labelStudio: &lsKind{texts: []lsText{{"query", "Query"}}},
		facts: cardFacts{tasks: []string{"question-answering"}, taskIDs: []string{"open-domain-qa"},
			creators: []string{"expert-generated"}, protocol: protocolCanLegal, paper: &originCanLegal},
		base: []column{
			{"id", tString, false, "answer task id (`<query id>/answer`)"},
			{"query_id", tString, false, "the query answered"},
			{"query", tString, false, "the query's text"},
			{"query_persona", tString, false, "who asks: `lay` or `professional`"},
			{"jurisdiction", tString, false, "province or territory of the query"},
			{"review", tString, true, "the lead's review: `accept` (the answer is gold) or `reject`; null when not reviewed"},
			{"review_reason", tString, true, "why it was rejected; null unless rejected"},
			{"reviewed_by", tString, true, "the lead who reviewed it; null when not reviewed"},
			{"gold_answer_accepted", tString, true, "the gold answer: the answer the lead accepted, as accepted; null unless accepted"},
			{"gold_citations", tStrings, true, "the accepted answer's citations (empty when its author gave none); null unless accepted, or when the acceptance recorded no citations"},
		},
		values: func(it *store.Item) row {
			t := it.Payload.(*store.AnswerTask)
			q := t.Query
			return row{t.ID, t.QueryID, q.Text, q.Persona, q.Jurisdiction, orNull(t.Review), orNull(t.RejectReason), orNull(t.ReviewedBy), orNull(t.Gold), listOrNull(t.GoldCitations, t.Review == "accept" && t.GoldCitations != nil)}
		},
		native: func(b []byte, it *store.Item) []byte {
			t := it.Payload.(*store.AnswerTask)
			b = append(b, `{"kind":"answer_task","id":`...)
			b = appendString(b, t.ID)
			b = append(b, `,"query":`...)
			b = appendString(b, t.QueryID)
			return append(b, '}', '\n')
		},
	})
	registerExport(kindExport{
		kind: schema.KindGenAnswer, config: "gen_answers",
		facts: cardFacts{tasks: []string{"question-answering"}, creators: []string{"machine-generated"},
			paper: &originCanLegal, risk: riskModelMade},
		base: []column{
			{"id", tString, false, "generated answer id"},
			{"query_id", tString, false, "the query it answers"},
			{"system", tString, false, "the system that generated it"},
			{"condition", tString, false, "`oracle` (from the gold documents) or `pipeline` (from what its retriever found)"},
			{"answer", tString, false, "the generated answer"},
			{"documents", tStrings, false, "ids of the documents the answer used"},
		},
		values: func(it *store.Item) row {
			a := it.Payload.(*store.GenAnswer)
			return row{a.ID, a.Query, a.System, a.Condition, a.Answer, nonNil(a.Documents)}
		},
		native: func(b []byte, it *store.Item) []byte {
			a := it.Payload.(*store.GenAnswer)
			b = append(b, `{"kind":"gen_answer","id":`...)
			b = appendString(b, a.ID)
			b = appendFields(b, [2]string{"query", a.Query}, [2]string{"system", a.System}, [2]string{"condition", a.Condition},
				[2]string{"answer", a.Answer})
			b = append(b, `,"documents":`...)
			b = appendValue(b, nonNil(a.Documents))
			b, _ = appendExtra(b, a.Extra)
			return append(b, '}', '\n')
		},
	})
	registerExport(kindExport{
		kind: schema.KindGenClaim, config: "gen_claims",
		labelStudio: &lsKind{texts: []lsText{{"text", "Claim"}}},
		facts: cardFacts{tasks: []string{"text-classification"}, taskIDs: []string{"fact-checking"},
			tags: []string{"claim-verification", "hallucination"}, creators: []string{"machine-generated"},
			protocol: protocolCanLegal, paper: &originCanLegal},
		base: []column{
			{"id", tString, false, "generated claim id"},
			{"answer_id", tString, false, "the generated answer it is a claim of (config gen_answers)"},
			{"query_id", tString, false, "the query the answer answers"},
			{"system", tString, false, "the system that generated the answer"},
			{"condition", tString, false, "`oracle` or `pipeline`"},
			{"position", tInt, false, "order of the claim in its answer"},
			{"text", tString, false, "the atomic claim"},
			{"verdicts", tStrings, false, "automatic judges' verdicts, `system/field=value` (e.g. `judge/grounded=not_grounded`), sorted"},
		},
		values: func(it *store.Item) row {
			c := it.Payload.(*store.GenClaim)
			return row{c.ID, c.AnswerID, c.Query, c.System, c.Condition, c.Position, c.Text, verdictList(c.Predictions)}
		},
		native: func(b []byte, it *store.Item) []byte {
			c := it.Payload.(*store.GenClaim)
			b = append(b, `{"kind":"gen_claim","id":`...)
			b = appendString(b, c.ID)
			b = append(b, `,"answer":`...)
			b = appendString(b, c.AnswerID)
			if c.Position > 0 {
				b = append(b, `,"position":`...)
				b = appendValue(b, c.Position)
			}
			b = append(b, `,"text":`...)
			b = appendString(b, c.Text)
			if len(c.Predictions) > 0 {
				b = append(b, `,"predictions":{`...)
				for i, sys := range sortedKeys(c.Predictions) {
					if i > 0 {
						b = append(b, ',')
					}
					b = appendString(b, sys)
					b = append(b, ":{"...)
					for j, f := range sortedKeys(c.Predictions[sys]) {
						if j > 0 {
							b = append(b, ',')
						}
						b = appendString(b, f)
						b = append(b, ':')
						b = appendString(b, c.Predictions[sys][f])
					}
					b = append(b, '}')
				}
				b = append(b, '}')
			}
			return append(b, '}', '\n')
		},
		items: genClaimsWithVerdicts,
	})
}

// genClaimsWithVerdicts streams generated claims with their verdicts, read a
// few hundred claims at a time (the item model never loads predictions).
func genClaimsWithVerdicts(x *store.Snapshot, o store.ExportOptions) iter.Seq2[*store.ExportItem, error] {
	return func(yield func(*store.ExportItem, error) bool) {
		var batch []*store.ExportItem
		flush := func() bool {
			ids := make([]int64, len(batch))
			for i, it := range batch {
				ids[i] = it.ItemID
			}
			v, err := x.GenVerdicts(ids)
			if err != nil {
				yield(nil, err)
				return false
			}
			for _, it := range batch {
				if c, ok := it.Payload.(*store.GenClaim); ok {
					c.Predictions = v[it.ItemID]
				}
				if !yield(it, nil) {
					return false
				}
			}
			batch = batch[:0]
			return true
		}
		for it, err := range x.ExportItems(schema.KindGenClaim, o) {
			if err != nil {
				yield(nil, err)
				return
			}
			if batch = append(batch, it); len(batch) == 500 && !flush() {
				return
			}
		}
		if len(batch) > 0 {
			flush()
		}
	}
}

func verdictList(p map[string]map[string]string) []string {
	out := []string{}
	for sys, fields := range p {
		for f, v := range fields {
			out = append(out, sys+"/"+f+"="+v)
		}
	}
	sort.Strings(out)
	return out
}

func orNull(s string) any {
	if s == "" {
		return nil
	}
	return s
}

func listOrNull(l []string, ok bool) any {
	if !ok {
		return nil
	}
	return nonNil(l)
}

func nonNil(l []string) []string {
	if l == nil {
		return []string{}
	}
	return slices.Clone(l)
}
