package exporter

import (
	"fmt"
	"strings"

	"github.com/annotate-dev/annotate/report"
	"github.com/annotate-dev/annotate/schema"
	"github.com/annotate-dev/annotate/store"
)

// QA pairs: config "qa" (qa.csv), one row per pair with its contexts and
// the ids of its claims, streamed from the store's pair query. Their native
// lines (a pair with its claims inside) are written by kind_qa_native.go.

var qaBase = []Column{
	{"id", TypeString, false, "QA pair id"},
	{"source", TypeString, false, "legal source, e.g. GDPR or CIVIL"},
	{"language", TypeString, false, "language of the pair (ISO 639-1)"},
	{"jurisdiction", TypeString, false, "jurisdiction of the source (empty when not recorded)"},
	{"hop", TypeString, false, "`single` or `multi` (several context units)"},
	{"question", TypeString, false, "generated question"},
	{"answer", TypeString, false, "generated answer"},
	{"rationale", TypeString, false, "generator's rationale (empty when none)"},
	{"generated_category", TypeString, false, "category assigned by the generator (empty when none); the expert's is `category`"},
	{"contexts", tContexts, false, "the context unit(s) the pair was generated from, in order"},
	{"claim_ids", TypeStrings, false, "ids of the pair's claims in the claims config, in answer order"},
	{"as_given", TypeBool, false, "true when the pair was imported as given (its answer a system response, not under review: its claims are asked at once)"},
	{"extra", TypeString, true, "the keys of the input no field took, kept with the pair, as a JSON object (e.g. RefChecker's `<extractor>_response_kg: []` of an extractor that found nothing in the response); null when none"},
	{"ragchecker", TypeString, true, "the RAGChecker result whose response the pair is, as a JSON object: `system`, `query_id`, `answer_pair` (the ground-truth answer's pair) and the claim × chunk matrices `answer2response`, `response2answer`, `retrieved2response`, `retrieved2answer` as RAGChecker wrote them (what `annotate rag` computes its metrics from); null for any other pair"},
}

func init() {
	configNames["qa"] = [2]string{"question–answer pair", "question–answer pairs"}
	Register(qaKind{})
}

// qaKind publishes the QA pairs.
type qaKind struct{}

func (qaKind) FieldDocs() map[string]string {
	return map[string]string{
		schema.QuestionValidity:    "does the question make sense (domain) and is it understandable (linguistic)",
		schema.InvalidReason:       "why the question is invalid; only for invalid questions",
		schema.Category:            "question category confirmed or corrected by the expert; only for valid questions",
		schema.Persona:             "who would ask the question; only for valid questions",
		schema.AnswerCorrectness:   "is the answer correct; only for valid questions",
		schema.MissedClaimsChecked: "the expert checked the answer for claims the extractor missed: `checked` (none missed) or `added` (see claims with origin `annotator`); null when not checked",
	}
}

func (qaKind) Kind() schema.Kind { return schema.KindQA }

func (qaKind) Config() string { return "qa" }

func (qaKind) Columns() []Column { return qaBase }

func (qaKind) Suggestable() bool { return true }

func (qaKind) facts() cardFacts {
	return cardFacts{tasks: []string{"question-answering"}, taskIDs: []string{"open-domain-qa"},
		creators: []string{"machine-generated"}, protocol: protocolClaimRAG, paper: &originClaimRAG, paperIfLabelled: true,
		risk: riskModelMade}
}

func (qaKind) markers() []string { return []string{schema.MissedClaimsChecked} }

func (qaKind) count(e *exporter) (int, error) {
	n, _, err := e.snap.ExportCounts(false)
	return n, err
}

func (qaKind) stream(e *exporter, l layout, fn func(row) error) error {
	// RAGChecker results are few: one per checked response.
	rag, err := e.snap.RAGResultsByPair()
	if err != nil {
		return err
	}
	return each(e, readAhead(e.snap.QAs(e.streamOptions(l))), func(q *store.ExportQA) error { return fn(l.qaRow(q, rag, e.who)) })
}

func (qaKind) nested(e *exporter, f *sink) error { return writeNativePairs(e, f) }

func (qaKind) lsTexts() []lsText {
	return []lsText{{"question", "Question"}, {"answer", "Answer"}, {"context", "Context"}}
}

func (qaKind) lsData(e *exporter, fn func(int64, string, map[string]any) error) error {
	return each(e, e.snap.QAs(store.ExportOptions{}), func(q *store.ExportQA) error {
		// The pair's own fields too, so that a task made from
		// them in Label Studio can create the pair (importer).
		return fn(q.ItemID, q.ID, map[string]any{"source": q.Source, "question": q.Question, "answer": q.Answer,
			"context": contextText(q.ContextsJSON), "contexts": q.ContextsJSON, "category": q.Category})
	})
}

func (qaKind) prodigyItems(x *store.ReadTx, ids []int64) (map[int64]prodigyItem, error) {
	items := map[int64]prodigyItem{}
	for q, err := range x.QAsByID(ids) {
		if err != nil {
			return nil, err
		}
		// A pair is its question with its answer and context units.
		items[q.ItemID] = newProdigyItem(q.ID, schema.KindQA, q.Question, q.Answer, string(q.ContextsJSON))
	}
	return items, nil
}

func (qaKind) total(r *Result) *int { return &r.QA }

func (qaKind) intro(c *card, x *hfConfig) (string, bool) { return qaIntro(c, x) }

func (qaKind) measure(e *exporter, rx *store.ReadTx, sel report.Selection) (any, error) {
	return qaMeasure(e, rx, sel)
}

func (qaKind) cardSections() []string {
	return []string{cardUses, cardSource, cardSources, cardStats, cardUnlabelled, cardProtocol}
}

func (qaKind) writeCard(section string, c *card, b *strings.Builder) bool {
	switch section {
	case cardUses:
		b.WriteString(qaUse)
	case cardSource:
		b.WriteString("- The QA pairs' questions and answers are generated from the context passages of their sources; the passages are quoted from the sources.\n")
	case cardSources:
		return qaSources(c, b)
	case cardStats:
		return qaTable1(c, b)
	case cardUnlabelled:
		return qaUnlabelled(c, b)
	case cardProtocol:
		if c.labelledInTool() {
			b.WriteString("QA pairs follow the manual validation of ClaimRAG-LAW (Appendix A), one decision per keystroke:\n\n")
		} else {
			b.WriteString("The fields of QA pairs, as ClaimRAG-LAW's manual validation (Appendix A) defines them:\n\n")
		}
		b.WriteString("- **Question validity** (`question_validity`): does the question make sense in the domain, and is it understandable? " +
			"If invalid, why (`invalid_reason`: domain, linguistic, both); nothing else is asked about an invalid question.\n" +
			"- For a valid question, the annotator confirms or corrects the generated **category** (`category`), names the **persona** who would ask it " +
			"(`persona`: citizen, civil officer, legal expert) and judges the **answer** (`answer_correctness`: correct, partially correct, incorrect).\n")
	default:
		return false
	}
	return true
}

// protocolClaimRAG is the protocol of the QA pairs' and the claims' labels.
const protocolClaimRAG = "the validation protocol of ClaimRAG-LAW (Appendix A of the paper cited below)"

// qaUse is the use of QA pairs, written by the pairs' config or, without
// it, by the claims'.
const qaUse = "- Evaluating retrieval-augmented generation on question answering: the QA pairs with their context passages, the validated questions and answers.\n"

func (l layout) qaRow(q *store.ExportQA, rag map[string]store.RAGResult, who string) row {
	r := make(row, 0, len(l.cols))
	lang := q.Language
	if lang == "" {
		lang = q.SourceLanguage
	}
	var extra, checked any
	if q.Extra != "" && q.Extra != "{}" {
		extra = q.Extra
	}
	if res, ok := rag[q.ID]; ok {
		b := appendRAG(nil, res) // `,"ragchecker":{…}`
		checked = string(b[len(`,"ragchecker":`):])
	}
	r = append(r, q.ID, q.Source, lang, q.Jurisdiction, q.Hop, q.Question, q.Answer, q.Rationale, q.Category,
		q.ContextsJSON, q.ClaimIDs, q.AsGiven, extra, checked, who)
	r = l.labelValues(r, q.Labels, nil)
	return l.suggestedValue(l.noteValue(r, q.Note), q.Suggested)
}

// qaIntro: the pairs, their sources and languages, and the claims of their
// answers with the systems whose predictions they carry.
func qaIntro(c *card, x *hfConfig) (string, bool) {
	var srcs []string
	for _, s := range c.sources {
		if s.QA == 0 {
			continue
		}
		d := md(s.Name)
		if s.Language != "" {
			d += " (" + md(s.Language) + ")"
		}
		srcs = append(srcs, d)
	}
	t := fmt.Sprintf("%s from %s: %s", count(x.rows, "question–answer pair"), count(len(srcs), "source"), strings.Join(srcs, ", "))
	t += ", with the context passages each pair is judged against (included)"
	if y := c.config(ConfigOf(schema.KindClaim)); y != nil {
		t += fmt.Sprintf(", and %s extracted from the answers", count(y.rows, "claim"))
		t += c.predictionsText()
	}
	return t + ".", true
}
