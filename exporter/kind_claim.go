package exporter

import (
	"strings"

	"github.com/annotate-dev/annotate/report"
	"github.com/annotate-dev/annotate/schema"
	"github.com/annotate-dev/annotate/store"
)

// Claims: config "claims" (claims.csv), one row per claim with its pair's
// question, answer and contexts and the systems' predictions, streamed from
// the store's claim query. Their native lines sit inside their pair's
// (kind_qa_native.go).

var claimBase = []Column{
	{"id", TypeString, false, "claim id"},
	{"qa_id", TypeString, false, "id of the QA pair whose answer the claim comes from"},
	{"source", TypeString, false, "legal source"},
	{"language", TypeString, false, "language (ISO 639-1)"},
	{"position", TypeInt, false, "order of the claim in its answer"},
	{"triplet", TypeStrings, true, "⟨subject, predicate, object⟩; null for a sub-sentence (text) claim"},
	{"text", TypeString, true, "sub-sentence claim; null for a triplet claim"},
	{"origin", TypeString, false, "`extracted` (by the claim extractor) or `annotator` (added by the expert because the extractor missed it)"},
	{"added_by", TypeString, true, "annotator who added the claim; null for extracted claims"},
	{"extractor", TypeString, true, "the extractor whose output the claim is (RefChecker's `<extractor>_response_kg`); null when the input did not say"},
	{"question", TypeString, false, "question of the QA pair"},
	{"answer", TypeString, false, "answer the claim was extracted from"},
	{"contexts", tContexts, false, "the pair's context unit(s) the claim is judged against"},
	{"predictions", tPreds, true, "system predictions (e.g. RefChecker's entailment/neutral/contradiction), one key per system present in the dataset, null when that system has no prediction; the whole object is null when the dataset has no predictions"},
}

func init() {
	configNames["claims"] = [2]string{"claim", "claims"}
	Register(claimKind{})
}

// claimKind publishes the claims.
type claimKind struct{}

func (claimKind) FieldDocs() map[string]string {
	return map[string]string{
		schema.ClaimValidity: "has the claim all required elements, is it coherent and meaningful",
		schema.Entailment:    "relation of the claim to its context unit(s); only for correct claims",
	}
}

func (claimKind) Kind() schema.Kind { return schema.KindClaim }

func (claimKind) Config() string { return "claims" }

func (claimKind) Columns() []Column { return claimBase }

func (claimKind) besideParent() bool { return true }

func (claimKind) Suggestable() bool { return true }

func (claimKind) facts() cardFacts {
	return cardFacts{tasks: []string{"text-classification"}, taskIDs: []string{"natural-language-inference", "fact-checking"},
		tags: []string{"claim-verification", "hallucination"}, creators: []string{"machine-generated"},
		protocol: protocolClaimRAG, paper: &originClaimRAG, paperIfLabelled: true,
		risk: "Claims were extracted automatically: what the extractor missed is only known where annotators checked for missed claims."}
}

func (claimKind) count(e *exporter) (int, error) {
	_, n, err := e.snap.ExportCounts(false)
	return n, err
}

func (claimKind) stream(e *exporter, l layout, fn func(row) error) error {
	return each(e, readAhead(e.snap.Claims(e.streamOptions(l))), func(c *store.ExportClaim) error { return fn(l.claimRow(c, e.systems, e.who)) })
}

func (claimKind) total(r *Result) *int { return &r.Claims }

func (claimKind) lsTexts() []lsText {
	return []lsText{{"claim", "Claim"}, {"question", "Question"}, {"answer", "Answer"}, {"context", "Context"}}
}

func (claimKind) lsData(e *exporter, fn func(int64, string, map[string]any) error) error {
	return each(e, e.snap.Claims(store.ExportOptions{}), func(c *store.ExportClaim) error {
		return fn(c.ItemID, c.ID, map[string]any{"qa_id": c.QAID, "claim": claimLine(c.Claim), "question": c.Question,
			"answer": c.Answer, "context": contextText(c.ContextsJSON)})
	})
}

// claimLine is a claim as one line of text for the tools that show it
// (Label Studio, Prodigy): its text, or its triplet's parts split by " | ".
func claimLine(c store.Claim) string {
	if c.IsTriplet() {
		return strings.Join(c.Triplet[:], " | ")
	}
	return c.Text
}

func (claimKind) prodigyItems(x *store.ReadTx, ids []int64) (map[int64]prodigyItem, error) {
	items := map[int64]prodigyItem{}
	for c, err := range x.ClaimsByID(ids) {
		if err != nil {
			return nil, err
		}
		// A claim is its triplet (or text) judged against its
		// pair's context units.
		items[c.ItemID] = newProdigyItem(c.ID, schema.KindClaim, claimLine(c.Claim), c.QAID, string(c.ContextsJSON))
	}
	return items, nil
}

func (claimKind) intro(c *card, x *hfConfig) (string, bool) { return claimIntro(c, x) }

func (claimKind) measure(e *exporter, rx *store.ReadTx, sel report.Selection) (any, error) {
	return claimMeasure(e, rx, sel)
}

func (claimKind) cardSections() []string { return []string{cardUses, cardProtocol, cardStats} }

func (claimKind) writeCard(section string, c *card, b *strings.Builder) bool {
	switch section {
	case cardUses:
		if c.config(ConfigOf(schema.KindQA)) == nil {
			b.WriteString(qaUse)
		}
		b.WriteString("- Evaluating claim extraction and claim verification (does the context entail, contradict or not ground a claim?) against human labels.\n")
		return true
	case cardProtocol:
		return claimProtocol(c, b)
	case cardStats:
		return claimMetrics(c, b)
	}
	return false
}

func (claimKind) joins() joinText {
	return joinText{"qa", "`claims.qa_id` joins a claim to its QA pair; `qa.claim_ids` lists a pair's claims."}
}

func claimProtocol(c *card, b *strings.Builder) bool {
	pairs := c.config(ConfigOf(schema.KindQA)) != nil
	if !pairs {
		b.WriteString("Claims follow the claim validation of ClaimRAG-LAW (Appendix A):\n\n")
	}
	b.WriteString("- **Claims**: each claim is judged **correct** if it has all required elements and is coherent and meaningful (`claim_validity`); " +
		"for a correct claim, its relation to the context unit(s) (`entailment`): entailment (explicitly supported), " +
		"contradiction (conflicts with the context), neutral (not grounded in the context).\n")
	if pairs {
		b.WriteString("- **Missed claims**: after the last claim of an answer the annotator adds the claims the extractor missed (rows of `claims` with `origin` " +
			"`annotator`) or confirms none were missed (`qa.missed_claims_checked`).\n")
	}
	return true
}

func (l layout) claimRow(c *store.ExportClaim, systems []string, who string) row {
	r := make(row, 0, len(l.cols))
	var triplet, text any = []string{c.Triplet[0], c.Triplet[1], c.Triplet[2]}, nil
	if !c.IsTriplet() {
		triplet, text = nil, c.Text
	}
	var addedBy any
	if c.AddedBy != "" {
		addedBy = c.AddedBy
	}
	var p any // null when the dataset has no predictions at all
	if len(systems) > 0 {
		pv := preds{systems: systems, values: make([]*string, len(systems))}
		for i, v := range c.Preds {
			if v.Valid {
				pv.values[i] = &v.String
			}
		}
		p = pv
	}
	r = append(r, c.ID, c.QAID, c.Source, c.Language, c.Position, triplet, text, c.Origin, addedBy, orNull(c.Extractor),
		c.Question, c.Answer, c.ContextsJSON, p, who)
	r = l.labelValues(r, c.Labels, c.PairLabels)
	return l.suggestedValue(l.noteValue(r, c.Note), c.Suggested)
}

// claimIntro: the claims, when their pairs' sentence (qaIntro) does not
// already tell them.
func claimIntro(c *card, x *hfConfig) (string, bool) {
	if c.config(ConfigOf(schema.KindQA)) != nil {
		return "", true
	}
	return count(x.rows, "claim") + " with the answers and contexts they are judged against" + c.predictionsText() + ".", true
}
