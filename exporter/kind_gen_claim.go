package exporter

import (
	"iter"
	"sort"

	"github.com/annotate-dev/annotate/schema"
	"github.com/annotate-dev/annotate/store"
)

// Config "gen_claims": the atomic claims of the generated answers, the
// judges' verdicts, the label set's judgments and error categories
// (CanLegalRAGBench §5). Their native line {"kind":"gen_claim"} imports
// back unchanged.

func init() {
	Register(genClaimKind{})
}

// genClaimKind publishes the generated answers' claims.
type genClaimKind struct{}

func (genClaimKind) FieldDocs() map[string]string {
	return map[string]string{
		schema.AccuracySupport: "is the claim supported by the accepted gold answer (`supported`, `not_supported`)",
		schema.Grounded:        "is the claim supported by the documents its answer used (`grounded`, `not_grounded`)",
		schema.ErrorCategory:   "the error categories of a claim not supported or not grounded (values of the taxonomy in force)",
	}
}

func (genClaimKind) Kind() schema.Kind { return schema.KindGenClaim }

func (genClaimKind) Config() string { return "gen_claims" }

func (genClaimKind) lsTexts() []lsText { return []lsText{{"text", "Claim"}} }

func (genClaimKind) facts() cardFacts {
	return cardFacts{tasks: []string{"text-classification"}, taskIDs: []string{"fact-checking"},
		tags: []string{"claim-verification", "hallucination"}, creators: []string{"machine-generated"},
		protocol: protocolCanLegal, paper: &originCanLegal}
}

// items: the claims with their judges' verdicts.
func (genClaimKind) items(x *store.ReadTx, o store.ExportOptions) iter.Seq2[*store.ExportItem, error] {
	return genClaimsWithVerdicts(x, o)
}

func (genClaimKind) Columns() []Column { return genClaimColumns }

func (genClaimKind) Values(it *store.Item) []any {
	c := it.Payload.(*store.GenClaim)
	return row{c.ID, c.AnswerID, c.Query, c.System, c.Condition, c.Position, c.Text, verdictList(c.Predictions)}
}

func (genClaimKind) Native(b []byte, it *store.Item) []byte {
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
}

var genClaimColumns = []Column{
	{"id", TypeString, false, "generated claim id"},
	{"answer_id", TypeString, false, "the generated answer it is a claim of (config gen_answers)"},
	{"query_id", TypeString, false, "the query the answer answers"},
	{"system", TypeString, false, "the system that generated the answer"},
	{"condition", TypeString, false, "`oracle` or `pipeline`"},
	{"position", TypeInt, false, "order of the claim in its answer"},
	{"text", TypeString, false, "the atomic claim"},
	{"verdicts", TypeStrings, false, "automatic judges' verdicts, `system/field=value` (e.g. `judge/grounded=not_grounded`), sorted"},
}

// genClaimsWithVerdicts streams generated claims with their verdicts, read a
// few hundred claims at a time (the item model never loads predictions).
func genClaimsWithVerdicts(x *store.ReadTx, o store.ExportOptions) iter.Seq2[*store.ExportItem, error] {
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
