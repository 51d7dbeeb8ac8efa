package exporter

import (
	"cmp"
	"database/sql"
	"fmt"
	"iter"
	"strconv"
	"strings"

	"github.com/annotate-dev/annotate/report"
	"github.com/annotate-dev/annotate/schema"
	"github.com/annotate-dev/annotate/store"
)

// Relevance judgments (CanLegalRAGBench §4.3) are published as three
// configs:
//
//   - relevance: every judgment with whose it is (the gold set's qrels under
//     `gold`, each expert's, the adjudicated ones), one row per (pair,
//     annotator); native lines {"kind":"relevance","query","document"};
//   - qrels_before: the gold set, one row per judged (query, document) with
//     its grade (0 not relevant);
//   - qrels_after: the gold set plus the documents the export's label set
//     (--annotator or --adjudicated) judged relevant, as `annotate ir` reads
//     it.
//
// The card gets a retrieval section (the runs before and after).

// riskPooled is the risk of relevance judged on a pool.
const riskPooled = "Relevance was judged on pooled documents only: a document no run retrieved is unjudged, not irrelevant."

// goldAnnotator is whose qrels are the gold set.
const goldAnnotator = "gold"

func init() {
	Register(relevanceKind{})
	Register(qrelsKind{after: false})
	Register(qrelsKind{after: true})
}

// relevanceKind publishes every judgment with whose it is.
type relevanceKind struct{}

func (relevanceKind) Kind() schema.Kind { return schema.KindRelevance }

func (relevanceKind) Config() string { return "relevance" }

func (relevanceKind) facts() cardFacts {
	return cardFacts{tasks: []string{"text-retrieval"}, taskIDs: []string{"document-retrieval"}, tags: []string{"relevance-judgments"},
		protocol: protocolCanLegal, paper: &originCanLegal, risk: riskPooled}
}

func (relevanceKind) joins() joinText {
	return joinText{"queries", "`relevance.query_id` joins a judgment to its query, `relevance.document_id` to its document."}
}

// A task per pooled (query, document) pair, not per judgment.
func (relevanceKind) lsTexts() []lsText {
	return []lsText{{"query", "Query"}, {"document", "Document"}}
}

func (relevanceKind) lsData(e *exporter, fn func(int64, string, map[string]any) error) error {
	return each(e, e.snap.ExportItems(schema.KindRelevance, store.ExportOptions{}), func(it *store.ExportItem) error {
		r := it.Payload.(*store.Relevance)
		doc := r.Document.Text
		if head := strings.TrimSpace(r.Document.Title + " " + r.Document.Citation); head != "" {
			doc = head + "\n\n" + doc
		}
		return fn(it.ItemID, it.ExtID, map[string]any{"query_id": r.Query.ID, "document_id": r.Document.ID, "query": r.Query.Text,
			"document": doc, "jurisdiction": r.Query.Jurisdiction})
	})
}

func (relevanceKind) Columns() []Column { return relevanceColumns }

var relevanceColumns = []Column{
	{"query_id", TypeString, false, "query id (config `queries`)"},
	{"document_id", TypeString, false, "document id (config `documents`)"},
	{"annotator", TypeString, false, "whose judgment: an annotator, `gold` for the gold set's qrels, or `adjudicated`"},
	{schema.Relevance, TypeString, true, "`relevant` or `not_relevant`; null when only other fields were labelled"},
	{schema.IrrelevanceReason, TypeString, true, "why not relevant: `different_issue`, `reversed_roles`, `different_posture`, `other`; null when relevant or not given"},
	{schema.RelevanceGrade, TypeInt, true, "graded judgments: 0 not relevant, 1 relevant, 2 highly relevant (qrels grades as imported); null when not graded"},
}

func (relevanceKind) rows(e *exporter, fn func(row) error) error {
	return each(e, e.snap.RelevanceJudgments(), func(j *store.RelevanceJudgment) error {
		reason := nullable(j.Reason)
		if j.Relevance.String == schema.Relevant {
			reason = nil // not asked: never counted (docs/metrics.md)
		}
		return fn(row{j.Query, j.Document, j.Annotator, nullable(j.Relevance), reason, grade(j.Grade)})
	})
}

func (relevanceKind) count(e *exporter) (int, error) { return e.snap.CountRelevanceJudgments() }

func (relevanceKind) lines(e *exporter, fn func([]byte) error) error {
	var b []byte
	return each(e, e.snap.RelevancePairs(), func(p [2]string) error {
		b = append(b[:0], `{"kind":"relevance","query":`...)
		b = appendString(b, p[0])
		b = append(b, `,"document":`...)
		b = appendString(b, p[1])
		return fn(append(b, '}', '\n'))
	})
}

// qrelsKind publishes the gold set's qrels (qrels_before) or, after, the
// gold set with the export's label set merged in (qrels_after).
type qrelsKind struct{ after bool }

func (qrelsKind) Kind() schema.Kind { return schema.KindRelevance }

func (q qrelsKind) Config() string {
	if q.after {
		return "qrels_after"
	}
	return "qrels_before"
}

func (q qrelsKind) facts() cardFacts {
	f := cardFacts{tasks: []string{"text-retrieval"}, taskIDs: []string{"document-retrieval"}, tags: []string{"relevance-judgments"}, risk: riskPooled}
	if q.after {
		f.tags, f.risk = nil, "" // the gold set's: qrels_before's
	}
	return f
}

func (q qrelsKind) Columns() []Column {
	if q.after {
		return qrelsAfterColumns
	}
	return qrelsBeforeColumns
}

var (
	qrelsBeforeColumns = qrelsColumns("the gold set (qrels of annotator `gold`)")
	qrelsAfterColumns  = qrelsColumns("the gold set plus the documents the export's label set judged relevant")
)

func qrelsColumns(doc string) []Column {
	return []Column{
		{"query_id", TypeString, false, "query id"},
		{"document_id", TypeString, false, "document id"},
		{schema.RelevanceGrade, TypeInt, false, "relevance grade in " + doc + ": 0 not relevant, 1 or more relevant"},
	}
}

func (q qrelsKind) rows(e *exporter, fn func(row) error) error {
	return e.eachQrel(q.after, func(q qrel) error { return fn(row{q.query, q.doc, q.gain}) })
}

func (q qrelsKind) count(e *exporter) (int, error) {
	n := 0
	err := e.eachQrel(q.after, func(qrel) error {
		n++
		return nil
	})
	return n, err
}

func nullable(s sql.NullString) any {
	if !s.Valid {
		return nil
	}
	return s.String
}

func grade(s sql.NullString) any {
	if n, err := strconv.Atoi(s.String); s.Valid && err == nil {
		return n
	}
	return nil
}

// qrel is one line of a qrels config.
type qrel struct {
	query, doc string
	gain       int
}

// eachQrel streams the gold set's judgments and, when after, those of the
// export's label set merged into them as `annotate ir` merges them
// (report.MergeJudgments without overrides: report.ExpertStands), in
// (query, document) order: both are read in that order and merged as they
// pass, so memory holds one judgment of each.
func (e *exporter) eachQrel(after bool, fn func(qrel) error) error {
	rx := e.snap
	put := func(j store.NamedJudgment) error { return fn(qrel{j.QueryID, j.DocID, j.Gain()}) }
	gold := rx.NamedJudgments(store.LabelSet{Annotator: goldAnnotator})
	if !after || e.labels.Annotator == "" && !e.labels.Adjudicated {
		for j, err := range gold {
			if err == nil {
				err = put(j)
			}
			if err != nil {
				return err
			}
		}
		return nil
	}
	nextGold, stopGold := iter.Pull2(gold)
	defer stopGold()
	nextExpert, stopExpert := iter.Pull2(rx.NamedJudgments(e.labels))
	defer stopExpert()
	g, gerr, gok := nextGold()
	x, xerr, xok := nextExpert()
	for gok || xok {
		if gerr != nil {
			return gerr
		}
		if xerr != nil {
			return xerr
		}
		// before: the gold judgment comes first; 0: both judge the pair.
		order := 0
		switch {
		case !xok:
			order = -1
		case !gok:
			order = 1
		default:
			order = cmp.Or(cmp.Compare(g.Query, x.Query), cmp.Compare(g.Doc, x.Doc))
		}
		var err error
		switch order {
		case -1:
			err = put(g)
			g, gerr, gok = nextGold()
		case 1:
			if stands, _, _ := report.ExpertStands(nil, x.Judgment, false); stands {
				err = put(x)
			}
			x, xerr, xok = nextExpert()
		default:
			j := g
			if stands, _, _ := report.ExpertStands(&g.Judgment, x.Judgment, false); stands {
				j = x
			}
			err = put(j)
			g, gerr, gok = nextGold()
			x, xerr, xok = nextExpert()
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// retrieval writes the card's retrieval section: the runs' scores before
// and after the experts' judgments (annotate ir at k=10, the label set's
// judgments), when the database has runs.
func (c *card) retrieval(b *strings.Builder) {
	if c.config("relevance") == nil && c.config("qrels_before") == nil {
		return
	}
	b.WriteString("## Retrieval\n\n")
	sel := report.Selection{Annotator: c.e.labels.Annotator, Adjudicated: c.e.labels.Adjudicated}
	rep, err := report.IR(c.e.snap, report.IROptions{K: 10, Selection: sel})
	if err != nil {
		fmt.Fprintf(b, "No retrieval scores: %s.\n\n", cell(err.Error()))
		return
	}
	who := "no expert judgment yet"
	if rep.Annotator != "" {
		who = "the judgments of " + rep.Annotator
	}
	fmt.Fprintf(b, "Retrieval runs scored as in CanLegalRAGBench §4.3 (trec_eval's recall_10 and ndcg_cut_10, graded gains), "+
		"macro-averaged over the queries with a relevant document: **before** with the gold set (`qrels_before`), **after** with "+
		"the documents experts judged relevant added (`qrels_after`: %s; %d added). Experts judged pooled documents blind to run, rank and score.\n\n",
		cell(who), rep.Judgments.Added)
	b.WriteString("| run | nDCG@10 before | after | recall@10 before | after | queries before | after |\n|---|---:|---:|---:|---:|---:|---:|\n")
	for _, name := range rep.Ranking.Before {
		r := rep.Runs[name]
		fmt.Fprintf(b, "| %s | %s | %s | %s | %s | %d | %d |\n", cell(name), pctCell(r.Before.NDCG), pctCell(r.After.NDCG),
			pctCell(r.Before.Recall), pctCell(r.After.Recall), r.Before.Queries, r.After.Queries)
	}
	tau := "undefined"
	if rep.Ranking.KendallTau != nil {
		tau = fmt.Sprintf("%.3f", *rep.Ranking.KendallTau)
	}
	fmt.Fprintf(b, "\nRuns ranked by nDCG@10 before: %s; after: %s (Kendall's τ %s).\n\n",
		cell(strings.Join(rep.Ranking.Before, " > ")), cell(strings.Join(rep.Ranking.After, " > ")), tau)
}
