package exporter

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/annotate-dev/annotate/schema"
	"github.com/annotate-dev/annotate/store"
)

// The dataset card (README.md): a YAML header the Hub and `datasets` read
// (configs and their data files, features, license, languages, sizes, tasks)
// and a Markdown body for people. The label distributions are counted on the
// rows as they are written, so they describe exactly the files beside the
// card; Table 1, the metrics and the agreement come from package report
// (cardreport.go), as the commands of the same names print them.

// ActiveTimeRule says how active time is counted, in the words of
// docs/metrics.md and the README; the card and `annotate progress` print it. The screens'
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
		case int: // an interval field's label
			t.counts[i][strconv.Itoa(v)]++
		case float64:
			t.counts[i][strconv.FormatFloat(v, 'g', -1, 64)]++
		default:
			t.counts[i][""]++
		}
	}
}

func (e *exporter) writeCard(dir string, configs []*hfConfig, rep cardReports) error {
	srcs, err := e.snap.SourceInfos()
	if err != nil {
		return err
	}
	kls, langs, err := e.cardLanguages()
	if err != nil {
		return err
	}
	formats, err := e.snap.ImportFormats()
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
	c := &card{e: e, configs: configs, sources: srcs, langs: langs, kindLangs: kls, formats: formats, rep: rep}
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
	e         *exporter
	configs   []*hfConfig
	sources   []store.SourceInfo
	langs     []string
	kindLangs []kindLanguages
	formats   []string // the import formats the database recorded
	rep       cardReports
}

func (c *card) config(name string) *hfConfig {
	for _, x := range c.configs {
		if x.name == name {
			return x
		}
	}
	return nil
}

// sizeCategory is the Hub's size bucket of n rows (the card gives the
// total over every config).
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
	case n < 1_000_000_000:
		return "100M<n<1B"
	}
	return "1B<n<10B"
}

// header writes the YAML front matter by hand (no YAML dependency). Every
// free string is a YAML double-quoted scalar (yamlString), so no value can
// break the header or read back as another.
func (c *card) header() []byte {
	o := c.e.o
	q := yamlString
	var b strings.Builder
	b.WriteString("---\n")
	fmt.Fprintf(&b, "pretty_name: %s\n", q(o.Name))
	fmt.Fprintf(&b, "license: %s\n", q(o.License))
	if o.License == "other" { // checkLicenseOther: both are given then
		fmt.Fprintf(&b, "license_name: %s\nlicense_link: %s\n", q(o.LicenseName), q(o.LicenseLink))
	}
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
	fmt.Fprintf(&b, "size_categories:\n- %s\n", q(sizeCategory(c.totalRows())))
	list := func(key string, vs []string) {
		if len(vs) == 0 {
			return
		}
		b.WriteString(key + ":\n")
		for _, v := range vs {
			fmt.Fprintf(&b, "- %s\n", q(v))
		}
	}
	list("task_categories", c.declared(func(f cardFacts) []string { return f.tasks }, hubTaskOrder))
	list("task_ids", c.declared(func(f cardFacts) []string { return f.taskIDs }, hubTaskIDOrder))
	list("annotations_creators", c.annotationsCreators())
	list("language_creators", c.languageCreators())
	list("source_datasets", sourceDatasets(c.formats))
	list("tags", c.tags())
	// The first config is the default one, so load_dataset(DIR) works
	// without a config name.
	hfYAML(&b, c.configs, o.Split, c.e.systems) // hf_features.go
	b.WriteString("---\n\n")
	return []byte(b.String())
}

func (c *card) body() string {
	var b strings.Builder
	c.intro(&b)
	c.description(&b)
	c.uses(&b)
	c.structure(&b)
	c.fields(&b)
	c.creation(&b)
	c.reports(&b)
	c.retrieval(&b)
	c.distributions(&b)
	c.risks(&b)
	c.citation(&b)
	c.contact(&b)
	return b.String()
}

// intro describes the data that is there, as read from it: the sources and
// their languages, the counts of each kind, the systems whose predictions
// the claims carry, and who labelled them. It assumes no domain and no
// number of annotators.
func (c *card) intro(b *strings.Builder) {
	o := c.e.o
	fmt.Fprintf(b, "# %s\n\n", md(o.Name))
	var sentences, others []string
	for _, x := range c.configs {
		if k, ok := x.kind.(introduced); ok {
			if t, own := k.intro(c, x); own {
				if t != "" {
					sentences = append(sentences, t)
				}
				continue
			}
		}
		others = append(others, configCount(x))
	}
	if len(others) > 0 {
		t := joinAnd(others)
		if len(sentences) > 0 {
			t = "also " + t
		}
		sentences = append(sentences, upperFirst(t)+".")
	}
	b.WriteString(strings.Join(sentences, " "))
	if len(c.langs) > 0 {
		fmt.Fprintf(b, " Language%s: %s.", plural(len(c.langs)), md(strings.Join(c.langs, ", ")))
	}
	b.WriteString("\n\n")
	annotators, adjudicators := c.people()
	outside := c.outside()
	if len(annotators) == 0 && len(outside) == 0 {
		b.WriteString("No item has been labelled in annotate yet.")
	}
	if len(outside) > 0 {
		fmt.Fprintf(b, "Labelled by %s (%s) outside annotate: the labels were imported as given.", count(len(outside), "annotator"), md(strings.Join(outside, ", ")))
		if len(annotators) > 0 {
			b.WriteString(" ")
		}
	}
	if len(annotators) > 0 {
		fmt.Fprintf(b, "Labelled by %s (%s) with the annotate tool", count(len(annotators), "annotator"), md(strings.Join(annotators, ", ")))
		if p := c.protocols(); len(p) > 0 {
			fmt.Fprintf(b, ", following %s", joinAnd(p))
		}
		if len(adjudicators) > 0 {
			fmt.Fprintf(b, "; disagreements adjudicated by %s", md(strings.Join(adjudicators, ", ")))
		}
		b.WriteString(".")
	} else if len(adjudicators) > 0 {
		fmt.Fprintf(b, " Adjudicated in annotate by %s.", md(strings.Join(adjudicators, ", ")))
	}
	if len(annotators)+len(outside) > 0 {
		fmt.Fprintf(b, " Labels in the rows: %s.", c.labelSetText())
		if c.hasByAnnotator() && (c.e.labels.Annotator != "" || c.e.labels.Adjudicated) {
			fmt.Fprintf(b, " Every label set, this one among them, is also in the `*%s` configs, one row per item and label set.", byAnnotatorSuffix)
		}
	}
	if c.hasGold() {
		b.WriteString(" The gold set's relevance judgments (annotator `gold` in the rows) were imported as given: `gold` names that set, not a person.")
	}
	b.WriteString("\n\n")
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

// predictionsText is ", with the predictions of systems a, b" for the
// systems present, "" for none.
func (c *card) predictionsText() string {
	if n := len(c.e.systems); n > 0 {
		return fmt.Sprintf(", with the predictions of system%s %s", plural(n), c.systemList())
	}
	return ""
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
	if c.e.labels.Annotator == "" && !c.e.labels.Adjudicated {
		return fmt.Sprintf("none in the items' own configs (no label set was chosen with --annotator or --adjudicated: their label columns are `null`); every label set is in the `*%s` configs", byAnnotatorSuffix)
	}
	if c.e.labels.Adjudicated {
		return "the **adjudicated** labels: the lead's final decision on each item and field that was adjudicated (column `annotator` is `adjudicated`)"
	}
	if c.labelSetImported() {
		return fmt.Sprintf("those of annotator **%s** (column `annotator`), imported as given", md(c.e.labels.Annotator))
	}
	return fmt.Sprintf("those of annotator **%s** (column `annotator`)", md(c.e.labels.Annotator))
}

func (c *card) structure(b *strings.Builder) {
	b.WriteString("## Dataset Structure\n\n| config | split | file | rows | one row per |\n|---|---|---|---:|---|\n")
	for _, x := range c.configs {
		fmt.Fprintf(b, "| `%s` | `%s` | `%s` | %d | %s |\n", x.name, c.e.o.Split, x.path, x.rows, configUnit(x.name))
	}
	fmt.Fprintf(b, "\n%d rows in all. Every row of a config has the same keys with the same types; a key that has no value "+
		"(a label not given, or not asked given the item's other labels) is `null`, never missing.", c.totalRows())
	for _, x := range c.configs {
		k, ok := x.kind.(joined)
		if !ok {
			continue
		}
		if j := k.joins(); j.text != "" && c.has(j.with) {
			b.WriteString(" " + j.text)
		}
	}
	c.byAnnotatorText(b)
	b.WriteString("\n\n")
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
				name := code(k)
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
	b.WriteString("### Fields\n\n" + classIDText + "\n\n")
	for _, x := range c.configs {
		fmt.Fprintf(b, "#### `%s`\n\n| key | type | description |\n|---|---|---|\n", x.name)
		fs := x.features(c.e.systems)
		for i, col := range x.layout.cols {
			typ, doc := col.Type, col.Doc
			switch names := classesOf(col); {
			case fs[i].classes != nil:
				typ = "class id (" + classNames(fs[i].classes) + ")"
			case names != nil: // a value outside the schema: plain strings
				doc += fmt.Sprintf(" (%s, or a value kept as imported)", valueList(names))
			}
			if col.Nullable {
				typ += " or null"
			}
			fmt.Fprintf(b, "| %s | %s | %s |\n", cellCode(col.Key), docCell(typ), docCell(doc))
		}
		b.WriteString("\n")
	}
}

// classIDText says what a class-label column holds as `datasets` reads it.
const classIDText = "A column of type *class id* is a `datasets` `ClassLabel`: `load_dataset` returns the integer id of the value, " +
	"whose name is in the list beside it (`ds.features[\"COLUMN\"].int2str(id)` gives it back). " +
	"The Parquet files store that id; with `--data-format jsonl` the files hold the name, which `datasets` turns into the same id."

// classNames lists a class label's ids and names: 0 `valid`, 1 `invalid`.
func classNames(names []string) string {
	parts := make([]string, len(names))
	for i, n := range names {
		parts[i] = fmt.Sprintf("%d %s", i, code(n))
	}
	return strings.Join(parts, ", ")
}

// valueList lists values as code spans: `valid`, `invalid`.
func valueList(vs []string) string {
	parts := make([]string, len(vs))
	for i, v := range vs {
		parts[i] = code(v)
	}
	return strings.Join(parts, ", ")
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
