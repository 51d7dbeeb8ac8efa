package exporter

import (
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/annotate-dev/annotate/guidelines"
	"github.com/annotate-dev/annotate/schema"
	"github.com/annotate-dev/annotate/store"
)

// The dataset card (README.md): a YAML header the Hub and `datasets` read
// (configs and their data files, features, license, languages, sizes, tasks)
// and a Markdown body for people. The label distributions are counted on the
// rows as they are written, so they describe exactly the files beside the
// card; Table 1, the metrics and the agreement come from package report
// (cardreport.go), as the commands of the same names print them.

// ActiveTimeRule says how active time is counted, in the words of DESIGN.md
// and the README; the card and `annotate progress` print it. The screens'
// timer (tui/timer.go) measures it.
const ActiveTimeRule = "Active time is the sum of the gaps between key presses on an item, each gap counted up to 5 minutes."

// tally counts the values of the label columns of the rows written, so the
// card's distributions describe exactly the files beside it.
type tally struct {
	fields []string
	counts []map[string]int // per label column: value -> rows ("" : null)
}

func newTally(l layout) *tally {
	t := &tally{fields: labelNames(l.labels), counts: make([]map[string]int, len(l.labels))}
	for i := range t.counts {
		t.counts[i] = map[string]int{}
	}
	return t
}

// add counts the label values of r, whose label columns start at offset:
// a multi-valued field once per element (a row may count under several), a
// free-text field only as given (its text is no category).
func (t *tally) add(r row, offset int) {
	for i, name := range t.fields {
		switch v := r[offset+i].(type) {
		case []string:
			for _, e := range v {
				t.counts[i][e]++
			}
			if len(v) == 0 {
				t.counts[i]["(none)"]++
			}
		case string:
			if f, _ := schema.Lookup(name); len(f.Values) == 0 {
				v = "(given)"
			}
			t.counts[i][v]++
		default:
			t.counts[i][""]++
		}
	}
}

func (e *exporter) writeCard(dir string, configs []*hfConfig, rep cardReports) error {
	srcs, langs, err := e.languages()
	if err != nil {
		return err
	}
	e.res.Languages = langs
	if rep.err != nil {
		return fmt.Errorf("the dataset card's reports: %w", rep.err)
	}
	f, err := e.openFile(dir, "README.md")
	if err != nil {
		return err
	}
	c := &card{e: e, configs: configs, sources: srcs, langs: langs, rep: rep}
	b := c.header()
	b = append(b, c.body()...)
	if _, err := f.Write(b); err != nil {
		f.Close()
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	e.res.Files = append(e.res.Files, "README.md")
	return nil
}

type card struct {
	e       *exporter
	configs []*hfConfig
	sources []store.SourceInfo
	langs   []string
	rep     cardReports
}

func (c *card) config(name string) *hfConfig {
	for _, x := range c.configs {
		if x.name == name {
			return x
		}
	}
	return nil
}

// sizeCategory is the Hub's size bucket of the largest config.
func sizeCategory(n int) string {
	switch {
	case n < 1_000:
		return "n<1K"
	case n < 10_000:
		return "1K<n<10K"
	case n < 100_000:
		return "10K<n<100K"
	case n < 1_000_000:
		return "100K<n<1M"
	case n < 10_000_000:
		return "1M<n<10M"
	case n < 100_000_000:
		return "10M<n<100M"
	}
	return "100M<n<1B"
}

// header writes the YAML front matter by hand (no YAML dependency). Every
// free string is written as a JSON string, which is also a valid YAML
// double-quoted scalar, so no value can break the header.
func (c *card) header() []byte {
	o := c.e.o
	q := func(s string) string { return string(appendString(nil, s)) }
	var b strings.Builder
	b.WriteString("---\n")
	fmt.Fprintf(&b, "pretty_name: %s\n", q(o.Name))
	fmt.Fprintf(&b, "license: %s\n", q(o.License))
	if len(c.langs) > 0 {
		b.WriteString("language:\n")
		for _, l := range c.langs {
			fmt.Fprintf(&b, "- %s\n", q(l))
		}
	}
	multi := "monolingual"
	if len(c.langs) > 1 {
		multi = "multilingual"
	}
	fmt.Fprintf(&b, "multilinguality:\n- %s\n", multi)
	largest := 0
	for _, x := range c.configs {
		largest = max(largest, x.rows)
	}
	fmt.Fprintf(&b, "size_categories:\n- %s\n", q(sizeCategory(largest)))
	b.WriteString("task_categories:\n- question-answering\n")
	if c.config("claims") != nil {
		b.WriteString("- text-classification\n")
	}
	b.WriteString("annotations_creators:\n- expert-generated\n")
	b.WriteString("language_creators:\n- found\n- machine-generated\n")
	b.WriteString("source_datasets:\n- original\n")
	b.WriteString("tags:\n- retrieval-augmented-generation\n- claim-verification\n")
	// The first config is the default one, so load_dataset(DIR) works
	// without a config name.
	hfYAML(&b, c.configs, o.Split, c.e.systems) // hf_features.go
	b.WriteString("---\n\n")
	return []byte(b.String())
}

func (c *card) body() string {
	var b strings.Builder
	c.intro(&b)
	c.structure(&b)
	c.annotation(&b)
	c.reports(&b)
	c.retrieval(&b)
	c.distributions(&b)
	c.fields(&b)
	c.citation(&b)
	return b.String()
}

// intro describes the data that is there, as read from it: the sources and
// their languages, the counts, the systems whose predictions the claims
// carry, and who labelled them. It assumes no domain and no number of
// annotators.
func (c *card) intro(b *strings.Builder) {
	o := c.e.o
	fmt.Fprintf(b, "# %s\n\n", o.Name)
	var srcs []string
	for _, s := range c.sources {
		if s.QA == 0 {
			continue
		}
		d := s.Name
		if s.Language != "" {
			d += " (" + s.Language + ")"
		}
		srcs = append(srcs, d)
	}
	qa, claims := 0, 0
	if x := c.config("qa"); x != nil {
		qa = x.rows
	}
	if x := c.config("claims"); x != nil {
		claims = x.rows
	}
	fmt.Fprintf(b, "%s from %s: %s", count(qa, "question–answer pair"), count(len(srcs), "source"), strings.Join(srcs, ", "))
	fmt.Fprintf(b, ", with the context passages each pair is judged against (included)")
	if claims > 0 {
		fmt.Fprintf(b, ", and %s extracted from the answers", count(claims, "claim"))
		if n := len(c.e.systems); n > 0 {
			fmt.Fprintf(b, ", with the predictions of system%s %s", plural(n), strings.Join(c.e.systems, ", "))
		}
	}
	b.WriteString(".")
	if len(c.langs) > 0 {
		fmt.Fprintf(b, " Language%s: %s.", plural(len(c.langs)), strings.Join(c.langs, ", "))
	}
	b.WriteString("\n\n")
	var annotators, adjudicators []string
	for _, w := range c.rep.work {
		if w.Annotated {
			annotators = append(annotators, w.Annotator)
		}
		if w.Adjudicate {
			adjudicators = append(adjudicators, w.Annotator)
		}
	}
	if len(annotators) == 0 {
		b.WriteString("No item has been labelled yet.\n\n")
	} else {
		fmt.Fprintf(b, "Labelled by %s (%s) with the annotate tool, following the validation protocol of ClaimRAG-LAW "+
			"(Appendix A of the paper cited below)", count(len(annotators), "annotator"), strings.Join(annotators, ", "))
		if len(adjudicators) > 0 {
			fmt.Fprintf(b, "; disagreements adjudicated by %s", strings.Join(adjudicators, ", "))
		}
		b.WriteString(". ")
		fmt.Fprintf(b, "Labels in the rows: %s.\n\n", c.labelSetText())
	}
	b.WriteString("```python\nfrom datasets import load_dataset\n\n")
	for i, x := range c.configs {
		if i == 0 {
			fmt.Fprintf(b, "%s = load_dataset(\"PATH_OR_REPO_ID\", split=%q)  # the default config, %q\n", x.name, o.Split, x.name)
			continue
		}
		fmt.Fprintf(b, "%s = load_dataset(\"PATH_OR_REPO_ID\", %q, split=%q)\n", x.name, x.name, o.Split)
	}
	b.WriteString("```\n\n")
}

// count writes "1 source", "2 sources".
func count(n int, what string) string { return fmt.Sprintf("%d %s%s", n, what, plural(n)) }

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

func (c *card) labelSetText() string {
	if c.e.labels.Adjudicated {
		return "the **adjudicated** labels: the lead's final decision on each item and field that was adjudicated (column `annotator` is `adjudicated`)"
	}
	return fmt.Sprintf("those of annotator **%s** (column `annotator`)", c.e.labels.Annotator)
}

func (c *card) structure(b *strings.Builder) {
	b.WriteString("## Dataset structure\n\n| config | split | file | rows |\n|---|---|---|---:|\n")
	for _, x := range c.configs {
		fmt.Fprintf(b, "| `%s` | `%s` | `%s` | %d |\n", x.name, c.e.o.Split, x.path, x.rows)
	}
	b.WriteString("\nOne JSON object per line. Every row of a config has the same keys with the same JSON types; a key that has no value " +
		"(a label not given, or not asked: e.g. the persona of an invalid question) is `null`, never missing. " +
		"`claims.qa_id` joins a claim to its QA pair; `qa.claim_ids` lists a pair's claims.\n\n")
	b.WriteString("| source | language | jurisdiction | QA pairs |\n|---|---|---|---:|\n")
	for _, s := range c.sources {
		if s.QA > 0 {
			fmt.Fprintf(b, "| %s | %s | %s | %d |\n", cell(s.Name), cell(s.Language), cell(s.Jurisdiction), s.QA)
		}
	}
	b.WriteString("\n")
}

func (c *card) annotation(b *strings.Builder) {
	b.WriteString("## Annotation\n\n### Protocol\n\n")
	b.WriteString("The protocol is the manual validation of ClaimRAG-LAW (Appendix A), one decision per keystroke in a terminal tool:\n\n" +
		"- **Question validity** (`question_validity`): does the question make sense in the domain, and is it understandable? " +
		"If invalid, why (`invalid_reason`: domain, linguistic, both); nothing else is asked about an invalid question.\n" +
		"- For a valid question, the annotator confirms or corrects the generated **category** (`category`), names the **persona** who would ask it " +
		"(`persona`: citizen, civil officer, legal expert) and judges the **answer** (`answer_correctness`: correct, partially correct, incorrect).\n" +
		"- **Claims**: each claim is judged **correct** if it has all required elements and is coherent and meaningful (`claim_validity`); " +
		"for a correct claim, its relation to the context unit(s) (`entailment`): entailment (explicitly supported), " +
		"contradiction (conflicts with the context), neutral (not grounded in the context).\n" +
		"- **Missed claims**: after the last claim of an answer the annotator adds the claims the extractor missed (rows of `claims` with `origin` " +
		"`annotator`) or confirms none were missed (`qa.missed_claims_checked`).\n\n" +
		"Annotation is blind: an annotator sees neither the other annotators' labels nor the system predictions. " +
		"Every decision is kept in an append-only log with its active time and the guidelines version in force.\n\n")
	var annotators, adjudicators []string
	var total int64
	versions := map[string]bool{}
	for _, w := range c.rep.work {
		total += w.ActiveMs
		if w.Annotated {
			annotators = append(annotators, w.Annotator)
		}
		if w.Adjudicate {
			adjudicators = append(adjudicators, w.Annotator)
		}
		for _, v := range w.Guidelines {
			versions[v] = true
		}
	}
	b.WriteString("### Annotators and time\n\n")
	if len(c.rep.work) == 0 {
		b.WriteString("No item has been labelled yet.\n\n")
	} else {
		fmt.Fprintf(b, "%d annotator(s) (%s)", len(annotators), strings.Join(annotators, ", "))
		if len(adjudicators) > 0 {
			fmt.Fprintf(b, "; disagreements adjudicated by %s", strings.Join(adjudicators, ", "))
		}
		fmt.Fprintf(b, ". %s of active time in total, as recorded with each decision. %s\n\n", duration(total), ActiveTimeRule)
		b.WriteString("| annotator | items labelled | active time | first label | last label | guidelines |\n|---|---:|---:|---|---|---|\n")
		for _, w := range c.rep.work {
			role := ""
			if !w.Annotated {
				role = " (adjudication only)"
			}
			fmt.Fprintf(b, "| %s%s | %d | %s | %s | %s | %s |\n", cell(w.Annotator), role, w.Items, duration(w.ActiveMs),
				day(w.First), day(w.Last), cell(strings.Join(w.Guidelines, ", ")))
		}
		b.WriteString("\n")
	}
	var vs []string
	for v := range versions {
		vs = append(vs, v)
	}
	sort.Strings(vs)
	if len(vs) == 0 {
		vs = []string{"not recorded"}
	}
	fmt.Fprintf(b, "Guidelines version(s) of the labels: %s (this build of annotate ships %s).\n\n", strings.Join(vs, ", "), guidelines.Version)
}

func (c *card) distributions(b *strings.Builder) {
	b.WriteString("## Label distributions\n\nCounts over the rows of this export (the labels of the selected set; `null`: not labelled or not asked).\n\n")
	for _, x := range c.configs {
		if x.tally == nil {
			continue
		}
		for i, f := range x.tally.fields {
			counts := x.tally.counts[i]
			fmt.Fprintf(b, "**%s.%s**: ", x.name, f)
			keys := make([]string, 0, len(counts))
			for k := range counts {
				keys = append(keys, k)
			}
			sort.Slice(keys, func(i, j int) bool {
				if (keys[i] == "") != (keys[j] == "") {
					return keys[j] == "" // null last
				}
				return counts[keys[i]] > counts[keys[j]] || counts[keys[i]] == counts[keys[j]] && keys[i] < keys[j]
			})
			var parts []string
			for _, k := range keys {
				name := "`" + k + "`"
				if k == "" {
					name = "null"
				}
				parts = append(parts, fmt.Sprintf("%s %d (%.1f%%)", name, counts[k], pct(counts[k], x.rows)))
			}
			b.WriteString(strings.Join(parts, ", ") + "\n\n")
		}
	}
}

func (c *card) fields(b *strings.Builder) {
	b.WriteString("## Fields\n\n")
	for _, x := range c.configs {
		fmt.Fprintf(b, "### `%s`\n\n| key | type | description |\n|---|---|---|\n", x.name)
		for _, col := range x.layout.cols {
			typ := col.typ
			if col.nullable {
				typ += " or null"
			}
			fmt.Fprintf(b, "| `%s` | %s | %s |\n", col.key, typ, cell(col.doc))
		}
		b.WriteString("\n")
	}
}

func (c *card) citation(b *strings.Builder) {
	b.WriteString("## Citation\n\nFill in the citation of this dataset:\n\n```bibtex\n" +
		"@misc{TODO_dataset_key,\n  title        = {" + c.e.o.Name + "},\n  author       = {TODO},\n  year         = {TODO},\n" +
		"  howpublished = {TODO: URL of the dataset},\n  note         = {Annotated following the ClaimRAG-LAW protocol}\n}\n```\n\n" +
		"The annotation protocol:\n\n```bibtex\n" +
		"@misc{das2026claimraglaw,\n  title  = {Fine-grained Claim-level RAG Benchmark for Law},\n" +
		"  author = {Das, Souvick and Abualhaija, Sallam and Bianculli, Domenico},\n  year   = {2026},\n" +
		"  eprint = {2605.21071},\n  archivePrefix = {arXiv}\n}\n```\n")
}

// cell keeps a value inside one Markdown table cell.
func cell(s string) string {
	return strings.NewReplacer("|", `\|`, "\n", " ").Replace(s)
}

func pct(n, of int) float64 {
	if of == 0 {
		return 0
	}
	return 100 * float64(n) / float64(of)
}

func duration(ms int64) string {
	d := time.Duration(ms) * time.Millisecond
	h := int(d.Hours())
	m := int(d.Minutes()) % 60
	if h > 0 {
		return fmt.Sprintf("%d h %02d min", h, m)
	}
	return fmt.Sprintf("%d min", m)
}

func day(ts string) string {
	if t, err := time.Parse(time.RFC3339Nano, ts); err == nil {
		return t.Format("2006-01-02")
	}
	return ts
}
