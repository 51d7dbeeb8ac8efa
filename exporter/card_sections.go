package exporter

import (
	"fmt"
	"slices"
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/annotate-dev/annotate/schema"
)

// The sections of the Hub's dataset-card template, each filled with what
// the database knows and written only for the kinds the export holds.

// The parts of the card's sections a kind writes itself (cardWriter).
const (
	cardUses     = "uses"     // Direct Use: what the rows evaluate
	cardSource   = "source"   // Source Data: where the kind's texts come from
	cardProtocol = "protocol" // Annotation process: what was asked
	cardSources  = "sources"  // Dataset Description: the kind's items per source
	cardStats    = "stats"    // a kind's statistics and metrics, before agreement
	// Bias, Risks, and Limitations: the kind's items the label set leaves
	// unlabelled.
	cardUnlabelled = "unlabelled"
)

// kindText writes the kinds' own parts of a section, in config order; it
// reports whether any kind wrote one.
func (c *card) kindText(b *strings.Builder, section string) bool {
	wrote := false
	for _, x := range c.configs {
		if k, ok := x.kind.(cardWriter); ok && slices.Contains(k.cardSections(), section) {
			wrote = k.writeCard(section, c, b) || wrote
		}
	}
	return wrote
}

// hasKindText: a kind present writes its own part of the section.
func (c *card) hasKindText(section string) bool {
	for _, x := range c.configs {
		if k, ok := x.kind.(cardWriter); ok && slices.Contains(k.cardSections(), section) {
			return true
		}
	}
	return false
}

// configNames says what one row of a config is: singular, plural (a
// kind's file adds its own).
var configNames = map[string][2]string{
	"queries":      {"query", "queries"},
	"documents":    {"document", "documents"},
	"relevance":    {"relevance judgment of a query–document pair", "relevance judgments of query–document pairs"},
	"qrels_before": {"qrels line of the gold set", "qrels lines of the gold set"},
	"qrels_after":  {"qrels line of the gold set with the experts' additions", "qrels lines of the gold set with the experts' additions"},
	"answers":      {"gold answer with its citations", "gold answers with their citations"},
	"gen_answers":  {"generated answer", "generated answers"},
	"gen_claims":   {"claim of a generated answer", "claims of generated answers"},
}

func configCount(x *hfConfig) string {
	if x.byAnnotator != nil {
		return fmt.Sprintf("%d rows of `%s` with each label set's labels (one per item and label set)", x.rows, x.byAnnotator.Config())
	}
	n, ok := configNames[x.name]
	if !ok {
		return fmt.Sprintf("%d rows of `%s`", x.rows, x.name)
	}
	if x.rows == 1 {
		return "1 " + n[0]
	}
	return fmt.Sprintf("%d %s", x.rows, n[1])
}

func configUnit(name string) string {
	if n, ok := configNames[name]; ok {
		return n[0]
	}
	if base, ok := strings.CutSuffix(name, byAnnotatorSuffix); ok {
		return "item of `" + base + "` and label set"
	}
	return "item"
}

// joinAnd writes "a", "a and b", "a, b and c".
func joinAnd(xs []string) string {
	switch len(xs) {
	case 0:
		return ""
	case 1:
		return xs[0]
	}
	return strings.Join(xs[:len(xs)-1], ", ") + " and " + xs[len(xs)-1]
}

func upperFirst(s string) string {
	r, n := utf8.DecodeRuneInString(s)
	return string(unicode.ToUpper(r)) + s[n:]
}

func (c *card) systemList() string {
	var xs []string
	for _, s := range c.e.systems {
		xs = append(xs, md(s))
	}
	return strings.Join(xs, ", ")
}

// protocols names the annotation protocols of the kinds present.
func (c *card) protocols() []string {
	return c.declared(func(f cardFacts) []string { return []string{f.protocol} }, nil)
}

// annotationsCreators: expert-generated when people labelled, found for
// labels imported as given (the gold set), no-annotation otherwise.
func (c *card) annotationsCreators() []string {
	annotators, adjudicators := c.people()
	var out []string
	if len(annotators)+len(adjudicators) > 0 {
		out = append(out, "expert-generated")
	}
	if c.hasGold() || len(c.outside()) > 0 {
		out = append(out, "found")
	}
	if len(out) == 0 {
		out = append(out, "no-annotation")
	}
	return out
}

// languageCreators: the documents and contexts were found; questions,
// queries, answers and claims made by models are machine-generated; gold
// answers were written by experts.
func (c *card) languageCreators() []string {
	return append([]string{"found"}, c.declared(func(f cardFacts) []string { return f.creators }, creatorOrder)...)
}

// papers lists the works to cite for the kinds present and the data imported.
func (c *card) papers() []origin {
	annotators, _ := c.people()
	out := c.declaredPapers(len(annotators) > 0)
	add := func(o origin) {
		for _, x := range out {
			if x.name == o.name {
				return
			}
		}
		out = append(out, o)
	}
	os, _ := origins(c.formats)
	// Then the works whose data was imported (ClaimRAG-LAW's, when
	// nobody labelled its fields here) and the systems'.
	for _, o := range os {
		add(o)
	}
	for _, s := range c.e.systems {
		switch strings.ToLower(s) {
		case "refchecker":
			add(originRefChecker)
		case "ragchecker":
			add(originRAGChecker)
		}
	}
	return out
}

func (c *card) description(b *strings.Builder) {
	b.WriteString("## Dataset Description\n\n")
	if c.labelledInTool() {
		b.WriteString("Exported with annotate, a terminal annotation and review workbench: every label made in it was recorded one decision at a time, " +
			"with its active time and the guidelines version in force.\n\n")
	} else {
		b.WriteString("Exported with annotate, a terminal annotation and review workbench. No label in this database was made in annotate: " +
			"every label was imported as given, with no active time and no annotate guidelines of its own.\n\n")
	}
	for _, x := range c.configs {
		fmt.Fprintf(b, "- `%s`: %s.\n", x.name, configCount(x))
	}
	b.WriteString("\n")
	c.languageText(b)
	c.kindText(b, cardSources)
	if o := c.e.o; o.License == "other" {
		fmt.Fprintf(b, "- **License:** %s (not on the Hub's list): %s\n", md(o.LicenseName), code(o.LicenseLink))
	} else {
		fmt.Fprintf(b, "- **License:** %s\n", md(o.License))
	}
	if c.e.o.Contact != "" {
		fmt.Fprintf(b, "- **Curated by:** %s\n", md(c.e.o.Contact))
	}
	b.WriteString("\n### Dataset Sources\n\n")
	os, native := origins(c.formats)
	if native {
		b.WriteString("- Data imported in annotate's native format (this dataset's own).\n")
	}
	for _, o := range os {
		fmt.Fprintf(b, "- Data imported from %s: <%s>.\n", o.name, o.url)
	}
	b.WriteString("\n")
}

// kindTitle is a kind's title inside a sentence: "queries", but "QA pairs"
// (an initialism keeps its capitals).
func kindTitle(k schema.Kind) string {
	t := schema.SpecOf(k).Title
	if t == "" {
		return string(k)
	}
	if len(t) > 1 && unicode.IsUpper(rune(t[1])) {
		return t
	}
	return strings.ToLower(t[:1]) + t[1:]
}

// languageText says where the languages come from, per kind.
func (c *card) languageText(b *strings.Builder) {
	var parts []string
	for _, k := range c.kindLangs {
		var ds []string
		for _, l := range sortedKeys(k.declared) {
			ds = append(ds, fmt.Sprintf("%s %d", md(l), k.declared[l]))
		}
		t := kindTitle(schema.Kind(k.kind)) + ": "
		if len(ds) > 0 {
			t += strings.Join(ds, ", ") + " as declared"
		}
		if k.unknown > 0 {
			if len(ds) > 0 {
				t += "; "
			}
			if k.detected != "" {
				t += fmt.Sprintf("%d declaring none, told %s from their words", k.unknown, k.detected)
			} else {
				t += fmt.Sprintf("%d declaring none (not told from their words)", k.unknown)
			}
		}
		parts = append(parts, t)
	}
	if len(parts) > 0 {
		fmt.Fprintf(b, "Languages (ISO 639-1): %s.", strings.Join(parts, "; "))
		var bad []string
		for _, k := range c.kindLangs {
			for l := range k.declared {
				if !languageCode.MatchString(l) && !slices.Contains(bad, l) {
					bad = append(bad, l)
				}
			}
		}
		sort.Strings(bad)
		for i := range bad {
			bad[i] = code(bad[i])
		}
		if len(bad) > 0 {
			fmt.Fprintf(b, " Not a language code, so not in the header's `language`: %s.", strings.Join(bad, ", "))
		}
		b.WriteString("\n\n")
	}
}

func (c *card) uses(b *strings.Builder) {
	b.WriteString("## Uses\n\n### Direct Use\n\n")
	c.kindText(b, cardUses)
	if c.has("relevance", "qrels_before") {
		b.WriteString("- Evaluating retrieval: the qrels before and after experts judged pooled documents, to score runs with trec_eval-style metrics.\n")
	}
	if c.has("answers") {
		b.WriteString("- Reference answers for generation: the experts' accepted gold answers with their citations.\n")
	}
	if c.has("gen_claims", "gen_answers") {
		b.WriteString("- Evaluating generated answers claim by claim: accuracy against the gold answer, groundedness in the cited documents, error categories.\n")
	}
	b.WriteString("\n### Out-of-Scope Use\n\n" +
		"Not legal advice, and not a training set for systems that give it: the labels judge answers and claims against the given contexts, not against the law in force. " +
		"Scores on these rows say how a system does on these sources and languages only.\n\n")
}

func (c *card) creation(b *strings.Builder) {
	b.WriteString("## Dataset Creation\n\n### Source Data\n\n")
	os, native := origins(c.formats)
	for _, o := range os {
		fmt.Fprintf(b, "- From %s (<%s>), imported as published.\n", o.name, o.url)
	}
	if native {
		b.WriteString("- Items imported in annotate's native JSONL format.\n")
	}
	c.kindText(b, cardSource)
	if c.has("queries") {
		b.WriteString("- The queries simulate legal research questions; the documents are the texts they are judged against.\n")
	}
	b.WriteString("\n### Annotations\n\n#### Annotation process\n\n")
	c.protocol(b)
	c.annotators(b)
	c.personal(b)
}

// protocol describes what was asked of each kind present.
func (c *card) protocol(b *strings.Builder) {
	if out := c.outside(); len(out) > 0 {
		var from []string
		os, _ := origins(c.formats)
		for _, o := range os {
			from = append(from, o.name)
		}
		where := "the files they came from"
		if len(from) > 0 {
			where = joinAnd(from)
		}
		fmt.Fprintf(b, "The labels of %s were made outside annotate and imported as given: they follow the protocol of %s, read into the fields below.\n\n",
			md(strings.Join(out, ", ")), where)
	}
	// A kind that writes its own protocol heads the list (ClaimRAG-LAW's);
	// without one, a plain heading does.
	if !c.hasKindText(cardProtocol) {
		b.WriteString("The fields annotate asks, kind by kind:\n\n")
	}
	c.kindText(b, cardProtocol)
	if c.has("queries") {
		b.WriteString("- **Queries** (`query_validity`): is the query a sound legal research question?\n")
	}
	if c.has("relevance") {
		b.WriteString("- **Relevance** (`relevance`): is the document relevant to the query? If not, why (`irrelevance_reason`: different issue, reversed roles, " +
			"different posture, other); graded judgments in `relevance_grade`. Experts judge pooled documents blind to the run, rank and score that retrieved them.\n")
	}
	if c.has("answers") {
		b.WriteString("- **Gold answers**: an expert writes the answer with its citations; the lead accepts or rejects it (`answer_review`, `reject_reason`).\n")
	}
	if c.has("gen_claims") {
		b.WriteString("- **Claims of generated answers**: supported by the gold answer or not (`accuracy_support`), grounded in the documents the answer used or not " +
			"(`grounded`), and the error categories of a claim not supported or not grounded (`error_category`, several allowed).\n")
	}
	if c.labelledInTool() {
		b.WriteString("\nAnnotation in annotate is blind: an annotator sees neither the other annotators' labels nor the system predictions. " +
			"Every decision is kept in an append-only log with its active time and the guidelines version in force.\n\n")
		return
	}
	b.WriteString("\nNo label was made in annotate: the list above is what the fields mean, as annotate would ask them, " +
		"not how the imported labels were made.\n\n")
}

func (c *card) annotators(b *strings.Builder) {
	b.WriteString("#### Who are the annotators?\n\n")
	annotators, adjudicators := c.people()
	var total int64
	for _, w := range c.rep.work {
		if !person(w.Annotator) || imported(w) {
			continue
		}
		total += w.ActiveMs
	}
	if len(annotators) == 0 {
		b.WriteString("No item has been labelled in annotate yet")
		if len(adjudicators) > 0 {
			fmt.Fprintf(b, "; %s adjudicated there", md(strings.Join(adjudicators, ", ")))
		}
		b.WriteString(".\n\n")
	} else {
		fmt.Fprintf(b, "%s (%s)", count(len(annotators), "annotator"), md(strings.Join(annotators, ", ")))
		if len(adjudicators) > 0 {
			fmt.Fprintf(b, "; disagreements adjudicated by %s", md(strings.Join(adjudicators, ", ")))
		}
		fmt.Fprintf(b, ". %s of active time in total, as recorded with each decision. %s\n\n", duration(total), ActiveTimeRule)
		b.WriteString("| annotator | items labelled | active time | first label | last label | guidelines |\n|---|---:|---:|---|---|---|\n")
		for _, w := range c.rep.work {
			if !person(w.Annotator) || imported(w) {
				continue
			}
			role := ""
			if !w.Annotated {
				role = " (adjudication only)"
			}
			fmt.Fprintf(b, "| %s%s | %d | %s | %s | %s | %s |\n", cell(w.Annotator), role, w.Items, duration(w.ActiveMs),
				day(w.First), day(w.Last), cell(strings.Join(w.Guidelines, ", ")))
		}
		b.WriteString("\n")
	}
	for _, w := range c.rep.work {
		switch {
		case !person(w.Annotator):
			fmt.Fprintf(b, "The gold set (`gold`): %d items with judgments imported as given, not made in annotate.\n\n", w.Items)
		case imported(w):
			fmt.Fprintf(b, "%s: %d items with labels imported as given, made outside annotate.\n\n", md(w.Annotator), w.Items)
		}
	}
	c.ownAdjudications(b)
	c.guidelinesUsed(b)
}

func (c *card) personal(b *strings.Builder) {
	b.WriteString("#### Personal and Sensitive Information\n\n")
	annotators, adjudicators := c.people()
	if n := len(annotators) + len(adjudicators) + len(c.outside()); n > 0 {
		b.WriteString("The rows name whose labels they carry (column `annotator`) by the names the annotators were given in annotate; " +
			"replace them before publishing if they identify people who did not agree to be named.")
	}
	if c.e.o.WithNotes {
		b.WriteString(" The annotators' free-text notes are included (`note`): read them before publishing.")
	} else {
		b.WriteString(" The annotators' notes are not included.")
	}
	if c.has("documents") {
		b.WriteString(" The documents are published texts quoted as imported; court decisions may name parties and witnesses.")
	}
	b.WriteString(" annotate did not screen the texts for personal data.\n\n")
}

func (c *card) risks(b *strings.Builder) {
	b.WriteString("## Bias, Risks, and Limitations\n\n")
	annotators, _ := c.people()
	switch n := len(annotators); {
	case n == 0:
		b.WriteString("- No labels made in annotate: the rows carry the data as imported.\n")
	case n == 1:
		fmt.Fprintf(b, "- One annotator (%s): the labels are one person's judgment, with no agreement to measure it by.\n", md(annotators[0]))
	case c.hasByAnnotator():
		own := "no labels"
		if c.e.labels.Annotator != "" || c.e.labels.Adjudicated {
			own = "one label set, " + c.labelSetText()
		}
		fmt.Fprintf(b, "- Several annotators: the `*%s` configs carry every label set, one row per item and set; the items' own configs carry %s.\n", byAnnotatorSuffix, own)
	default:
		fmt.Fprintf(b, "- The rows carry one label set (%s); the other annotators' labels are not in them (agreement below, when measured).\n", c.labelSetText())
	}
	c.kindText(b, cardUnlabelled)
	if len(c.langs) > 0 {
		fmt.Fprintf(b, "- Languages: %s only; sources: those listed above only.\n", md(strings.Join(c.langs, ", ")))
	}
	// In config order: every kind's parent comes first, so the sentences
	// shared by several kinds keep their place.
	for _, r := range c.declared(func(f cardFacts) []string { return []string{f.risk} }, nil) {
		b.WriteString("- " + r + "\n")
	}
	b.WriteString("\n### Recommendations\n\nReport scores with their intervals and per source and language; do not read them as legal accuracy in general.\n\n")
}

func (c *card) citation(b *strings.Builder) {
	title := strings.NewReplacer("{", `\{`, "}", `\}`).Replace(c.e.o.Name)
	b.WriteString("## Citation\n\nFill in the citation of this dataset:\n\n" + fenced("@misc{TODO_dataset_key,\n  title        = {"+title+"},\n"+
		"  author       = {TODO},\n  year         = {TODO},\n  howpublished = {TODO: URL of the dataset}\n}\n", "bibtex") + "\n")
	ps := c.papers()
	if len(ps) == 0 {
		return
	}
	var names []string
	for _, p := range ps {
		names = append(names, p.name)
	}
	fmt.Fprintf(b, "The works the data and the protocol come from (%s):\n\n```bibtex\n", joinAnd(names))
	for i, p := range ps {
		if i > 0 {
			b.WriteString("\n")
		}
		b.WriteString(p.bibtex + "\n")
	}
	b.WriteString("```\n\n")
}

func (c *card) contact(b *strings.Builder) {
	b.WriteString("## Dataset Card Contact\n\n")
	if c.e.o.Contact == "" {
		b.WriteString("TODO: who answers questions about this dataset (annotate export --contact).\n")
		return
	}
	fmt.Fprintf(b, "%s\n", md(c.e.o.Contact))
}

// ownAdjudications says how many adjudicated labels a lead decided on a
// unit in which they gave a label themselves (review --allow-own), which a
// reader of the adjudicated labels should know: the lead's judgement
// weighed against their own.
func (c *card) ownAdjudications(b *strings.Builder) {
	total := 0
	var parts []string
	for _, f := range sortedKeys(c.rep.own) {
		n := c.rep.own[f]
		total += n
		parts = append(parts, fmt.Sprintf("%s %d", md(f), n))
	}
	if total == 0 {
		return
	}
	verb := "was"
	if total > 1 {
		verb = "were"
	}
	fmt.Fprintf(b, "%s %s decided by a lead on an item and field they had labelled themselves (allowed on purpose: `annotate review --allow-own`): %s. "+
		"Elsewhere a lead never adjudicates a unit in which they gave a label.\n\n", count(total, "adjudicated label"), verb, strings.Join(parts, ", "))
}
