package exporter

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/annotate-dev/annotate/importer"
	"github.com/annotate-dev/annotate/store"
	"github.com/parquet-go/parquet-go"
	"gopkg.in/yaml.v3"
)

// The Hub's metadata vocabularies, copied from huggingface/huggingface.js,
// packages/tasks/src/pipelines.ts at commit
// fe42e68017ffc76d09922ea8f9b38a6964345710 (the keys of PIPELINE_DATA: the
// task categories; their subtasks' "type": the task ids). Only the ones of
// text data are listed: a card of this tool never names another.
var (
	hubTaskCategories = []string{"text-classification", "token-classification", "table-question-answering", "question-answering",
		"zero-shot-classification", "feature-extraction", "text-generation", "fill-mask", "sentence-similarity",
		"multiple-choice", "text-ranking", "text-retrieval", "table-to-text", "document-question-answering"}
	hubTaskIDList = []string{"acceptability-classification", "entity-linking-classification", "fact-checking", "intent-classification",
		"language-identification", "multi-class-classification", "multi-label-classification", "multi-input-text-classification",
		"natural-language-inference", "semantic-similarity-classification", "sentiment-classification", "topic-classification",
		"extractive-qa", "open-domain-qa", "closed-domain-qa", "abstractive-qa", "open-domain-abstractive-qa", "open-book-qa",
		"closed-book-qa", "document-retrieval", "utterance-retrieval", "entity-linking-retrieval", "fact-checking-retrieval"}
	// The buckets of the Hub's size_categories (hub-docs, datasets-cards.md).
	hubSizes = []string{"n<1K", "1K<n<10K", "10K<n<100K", "100K<n<1M", "1M<n<10M", "10M<n<100M", "100M<n<1B", "1B<n<10B", "10B<n<100B", "100B<n<1T", "n>1T"}
	// annotations_creators and language_creators (hub-docs' dataset card metadata).
	hubCreators = []string{"found", "crowdsourced", "expert-generated", "machine-generated", "no-annotation", "other"}
	bcp47       = regexp.MustCompile(`^[a-z]{2,3}(-[A-Za-z0-9]{2,8})*$`)
)

// hubCard is the card's YAML header as the Hub reads it.
type hubCard struct {
	PrettyName          string   `yaml:"pretty_name"`
	License             string   `yaml:"license"`
	Language            []string `yaml:"language"`
	Multilinguality     []string `yaml:"multilinguality"`
	SizeCategories      []string `yaml:"size_categories"`
	TaskCategories      []string `yaml:"task_categories"`
	TaskIDs             []string `yaml:"task_ids"`
	AnnotationsCreators []string `yaml:"annotations_creators"`
	LanguageCreators    []string `yaml:"language_creators"`
	SourceDatasets      []string `yaml:"source_datasets"`
	Configs             []struct {
		Name      string `yaml:"config_name"`
		Default   bool   `yaml:"default"`
		DataFiles []struct {
			Split string `yaml:"split"`
			Path  string `yaml:"path"`
		} `yaml:"data_files"`
	} `yaml:"configs"`
}

// hubHeader parses a card's header with yaml.v3 and checks the Hub's rules;
// rows is the number of rows the export reports writing.
func hubHeader(t *testing.T, dir string, rows int) (hubCard, string) {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	y, err := frontMatter(string(b))
	if err != nil {
		t.Fatal(err)
	}
	var h hubCard
	if err := yaml.Unmarshal([]byte(y), &h); err != nil {
		t.Fatalf("yaml.v3: %v\n%s", err, y)
	}
	if !slices.Contains(hubLicenses, h.License) {
		t.Errorf("license %q is not a Hub license id", h.License)
	}
	if len(h.Language) == 0 {
		t.Error("no language")
	}
	for _, l := range h.Language {
		if !bcp47.MatchString(l) {
			t.Errorf("language %q is no ISO 639-1 / BCP-47 code", l)
		}
	}
	if want := sizeBucket(rows); len(h.SizeCategories) != 1 || h.SizeCategories[0] != want || !slices.Contains(hubSizes, want) {
		t.Errorf("size_categories %v, want [%s] for %d rows", h.SizeCategories, want, rows)
	}
	if len(h.TaskCategories) == 0 {
		t.Error("no task_categories")
	}
	for _, c := range h.TaskCategories {
		if !slices.Contains(hubTaskCategories, c) {
			t.Errorf("task category %q is not the Hub's", c)
		}
	}
	for _, c := range h.TaskIDs {
		if !slices.Contains(hubTaskIDList, c) {
			t.Errorf("task id %q is not the Hub's", c)
		}
	}
	for _, c := range append(slices.Clone(h.AnnotationsCreators), h.LanguageCreators...) {
		if !slices.Contains(hubCreators, c) {
			t.Errorf("creator %q is not the Hub's", c)
		}
	}
	defaults := 0
	for _, c := range h.Configs {
		if c.Default {
			defaults++
		}
		if len(c.DataFiles) == 0 || c.DataFiles[0].Path == "" || c.DataFiles[0].Split == "" {
			t.Errorf("config %q without data_files", c.Name)
		}
		for _, f := range c.DataFiles {
			if _, err := os.Stat(filepath.Join(dir, f.Path)); err != nil {
				t.Errorf("config %q: data file %s: %v", c.Name, f.Path, err)
			}
		}
	}
	if len(h.Configs) == 0 || defaults != 1 || !h.Configs[0].Default {
		t.Errorf("configs %+v: want exactly one default, the first", h.Configs)
	}
	return h, string(b)
}

// sizeBucket is written apart from sizeCategory, from the Hub's bucket
// names: n<1K is below 1,000, 1K<n<10K below 10,000, and so on.
func sizeBucket(n int) string {
	bound := 1000
	for _, s := range hubSizes[:len(hubSizes)-1] {
		if n < bound {
			return s
		}
		bound *= 10
	}
	return "n>1T"
}

func rowsOf(r Result) int {
	n := r.QA + r.Claims
	for _, v := range r.Items {
		n += v
	}
	return n
}

func TestHubCardDemo(t *testing.T) {
	s := demoStore(t)
	out := filepath.Join(t.TempDir(), "ds")
	res := export(t, s, Options{Out: out, Annotator: "jo", Contact: "lead@example.org"})
	h, card := hubHeader(t, out, rowsOf(res))
	// The demo: native JSONL of QA pairs (GDPR in English, the Code civil
	// in French) with claims and RefChecker's predictions.
	if !slices.Equal(h.Language, []string{"en", "fr"}) || !slices.Equal(h.Multilinguality, []string{"multilingual"}) {
		t.Errorf("language %v %v", h.Language, h.Multilinguality)
	}
	if !slices.Equal(h.TaskCategories, []string{"question-answering", "text-classification"}) {
		t.Errorf("task_categories %v", h.TaskCategories)
	}
	if !slices.Equal(h.SourceDatasets, []string{"original"}) {
		t.Errorf("source_datasets %v", h.SourceDatasets)
	}
	for _, want := range []string{"## Dataset Description", "## Uses", "## Dataset Structure", "## Dataset Creation", "#### Annotation process",
		"#### Who are the annotators?", "#### Personal and Sensitive Information", "## Bias, Risks, and Limitations", "## Citation",
		"## Dataset Card Contact\n\nlead\\@example.org\n", "## Statistics (Table 1)",
		"Languages (ISO 639-1): QA pairs: en 16, fr 15 as declared.", "ClaimRAG-LAW (Appendix A)", "@misc{das2026claimraglaw",
		"@misc{hu2024refchecker", // the claims carry system refchecker's predictions
	} {
		if !strings.Contains(card, want) {
			t.Errorf("card lacks %q", want)
		}
	}
	for _, not := range []string{"CanLegalRAGBench", "text-retrieval", "## Retrieval"} {
		if strings.Contains(card, not) {
			t.Errorf("the demo's card names %q", not)
		}
	}
}

// canLegalDoc is a row of CanLegalRAGBench's documents.parquet (the columns
// its evaluate_retrieval/data/README.md lists).
type canLegalDoc struct {
	Citation *string  `parquet:"citation,optional"`
	Name     *string  `parquet:"name,optional"`
	Source   *string  `parquet:"original_source,optional"`
	Year     *float64 `parquet:"year,optional"`
	Text     *string  `parquet:"text,optional"`
	URL      *string  `parquet:"url,optional"`
	License  *string  `parquet:"upstream_license,optional"`
	Ground   *bool    `parquet:"is_ground_truth,optional"`
	Dataset  *string  `parquet:"dataset_source,optional"`
	QueryIDs []string `parquet:"ground_truth_query_ids,list"`
}

func strp(s string) *string { return &s }

// canLegalStore imports a CanLegalRAGBench-shaped release (three documents,
// two queries with reference answers and citations: the gold set), as
// importer/release_test.go does, and an expert's relevance judgment.
func canLegalStore(t *testing.T) *store.Store {
	t.Helper()
	dir := t.TempDir()
	year := 2019.0
	yes := true
	docs := []canLegalDoc{
		{strp("2019 ONCA 123"), strp("Smith v. Jones"), strp("ONCA"), &year, strp("The landlord must give 24 hours' written notice before entering the unit, and the tenant may refuse entry without it."),
			strp("https://example.org/2019onca123"), strp(""), &yes, strp("annotator"), []string{"q1", "q2"}},
		{strp("2020 BCSC 45"), strp("Brown v. Green"), strp("BCSC"), nil, strp("A tenant may dispute a notice to end the tenancy within 10 days of receiving it."),
			strp("https://example.org/2020bcsc45"), strp(""), &yes, strp("caseway"), []string{"q1"}},
		{strp("2021 ABQB 9"), strp("White v. Black"), strp("ABQB"), nil, strp("The court held that a verbal lease is binding for a term of less than three years."),
			strp(""), strp(""), nil, strp("canadian_case_law"), nil},
	}
	pq := filepath.Join(dir, "documents.parquet")
	f, err := os.Create(pq)
	if err != nil {
		t.Fatal(err)
	}
	w := parquet.NewGenericWriter[canLegalDoc](f)
	if _, err := w.Write(docs); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	f.Close()
	queries := filepath.Join(dir, "queries.json")
	if err := os.WriteFile(queries, []byte(`{"query_id": "q1", "query_text": "Can my landlord enter my apartment without notice?", "answer": "No. The landlord must give 24 hours' written notice (Smith v. Jones).", "batch_id": 3, "ground_truth_citations": ["2019 ONCA 123", "2020 BCSC 45"], "province": "ON"}
{"query_id": "q2", "query_text": "How long do I have to dispute an eviction notice?", "answer": "Ten days.", "batch_id": 3, "ground_truth_citations": ["2019 ONCA 123"], "province": "BC"}
`), 0o644); err != nil {
		t.Fatal(err)
	}
	s := openStore(t)
	if _, err := importer.Import(s, []string{pq, queries}, importer.Options{}); err != nil {
		t.Fatal(err)
	}
	l := &labeler{t: t, s: s, session: map[string]int64{}}
	l.set("jo", "q1/2020 BCSC 45", "relevance", "relevant")
	return s
}

func TestHubCardCanLegalRAGBenchOnly(t *testing.T) {
	s := canLegalStore(t)
	out := filepath.Join(t.TempDir(), "ds")
	res := export(t, s, Options{Out: out, Annotator: "jo"})
	h, card := hubHeader(t, out, rowsOf(res))
	// The queries and documents declare no language: told English from
	// their words.
	if !slices.Equal(h.Language, []string{"en"}) {
		t.Errorf("language %v", h.Language)
	}
	if !slices.Contains(h.TaskCategories, "text-retrieval") || !slices.Contains(h.TaskCategories, "question-answering") || slices.Contains(h.TaskCategories, "text-classification") {
		t.Errorf("task_categories %v", h.TaskCategories)
	}
	if !slices.Equal(h.SourceDatasets, []string{"extended|UBC-VL/CanLegalRAGBench"}) {
		t.Errorf("source_datasets %v", h.SourceDatasets)
	}
	text := intro(card)
	for _, not := range []string{"question–answer pair", "0 ", "annotators (jo, gold)", "ClaimRAG-LAW"} {
		if strings.Contains(text, not) {
			t.Errorf("intro says %q:\n%s", not, text)
		}
	}
	for _, want := range []string{"2 queries, ", ", 3 documents and 2 gold answers with their citations.",
		"Labelled by 1 annotator (canlegalragbench) outside annotate: the labels were imported as given. Labelled by 1 annotator (jo) with the annotate tool", "`gold` names that set, not a person"} {
		if !strings.Contains(text, want) {
			t.Errorf("intro lacks %q:\n%s", want, text)
		}
	}
	for _, not := range []string{"## Statistics (Table 1)", "Question validity", "das2026claimraglaw", "| gold |"} {
		if strings.Contains(card, not) {
			t.Errorf("card has %q", not)
		}
	}
	for _, want := range []string{"**Relevance** (`relevance`)", "## Retrieval", "@misc{canlegalragbench", "<https://github.com/NLP-UBC/CanLegalRAGBench>",
		"queries: 2 declaring none, told en from their words", "court decisions may name parties"} {
		if !strings.Contains(card, want) {
			t.Errorf("card lacks %q", want)
		}
	}
}

func TestHubCardRefCheckerOnly(t *testing.T) {
	s := openStore(t)
	// RefChecker's human annotations (importer/testdata, Apache-2.0, see
	// its LICENSE.md): responses with claims and their human labels.
	if _, err := importer.Import(s, []string{filepath.Join("..", "importer", "testdata", "dolly_gpt4_answers.json")}, importer.Options{}); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "ds")
	res := export(t, s, Options{Out: out})
	h, card := hubHeader(t, out, rowsOf(res))
	if !slices.Equal(h.SourceDatasets, []string{"extended|amazon-science/RefChecker"}) {
		t.Errorf("source_datasets %v", h.SourceDatasets)
	}
	if !slices.Equal(h.Language, []string{"en"}) {
		t.Errorf("language %v", h.Language)
	}
	if !strings.Contains(card, "@misc{hu2024refchecker") || !strings.Contains(card, "Data imported from RefChecker: <https://github.com/amazon-science/RefChecker>") {
		t.Error("card does not cite RefChecker")
	}
	if strings.Contains(card, "native format") {
		t.Error("card calls RefChecker's data native")
	}
	// Nobody labelled in annotate: ClaimRAG-LAW's protocol was not used.
	for _, want := range []string{"The labels of refchecker-human were made outside annotate and imported as given: they follow the protocol of RefChecker",
		"Labelled by 1 annotator (refchecker-human) outside annotate"} {
		if !strings.Contains(card, want) {
			t.Errorf("card lacks %q", want)
		}
	}
	if strings.Contains(card, "das2026claimraglaw") || strings.Contains(card, "with the annotate tool") {
		t.Error("card cites a protocol nobody followed")
	}
	// Every label was imported: the card says so and claims nothing of
	// annotate's screens for them.
	for _, not := range []string{"blind", "one decision per keystroke", "one decision at a time", "0 annotators", "annotators ()"} {
		if strings.Contains(card, not) {
			t.Errorf("card of imported labels says %q", not)
		}
	}
	for _, want := range []string{"Labels in the rows: those of annotator **refchecker-human** (column `annotator`), imported as given.",
		"No label in this database was made in annotate: every label was imported as given",
		"No label was made in annotate: the list above is what the fields mean"} {
		if !strings.Contains(card, want) {
			t.Errorf("card lacks %q", want)
		}
	}
	// Class-label columns are ids (what load_dataset returns) with their names.
	for _, want := range []string{"| `claim_validity` | class id (0 `correct`, 1 `incorrect`) or null | has the claim all required elements",
		"| `entailment` | class id (0 `entailment`, 1 `neutral`, 2 `contradiction`) or null |", "`load_dataset` returns the integer id of the value"} {
		if !strings.Contains(card, want) {
			t.Errorf("card lacks %q", want)
		}
	}

	// A lead who adjudicates imported labels is named as such, never as
	// "0 annotators ()".
	var claim string
	if err := s.DB().QueryRow(`SELECT ext_id FROM items WHERE kind = 'claim' ORDER BY id LIMIT 1`).Scan(&claim); err != nil {
		t.Fatal(err)
	}
	(&labeler{t: t, s: s, session: map[string]int64{}}).adjudicate(claim, "entailment", "neutral")
	out = filepath.Join(t.TempDir(), "adj")
	res = export(t, s, Options{Out: out, Adjudicated: true})
	_, card = hubHeader(t, out, rowsOf(res))
	if strings.Contains(card, "0 annotators") || strings.Contains(card, "annotators ()") {
		t.Error("card of adjudicated imported labels counts 0 annotators")
	}
	for _, want := range []string{"Adjudicated in annotate by lead.", "No item has been labelled in annotate yet; lead adjudicated there."} {
		if !strings.Contains(card, want) {
			t.Errorf("card lacks %q", want)
		}
	}
}

// A name or contact the card would print broken is refused before anything
// is written; data strings are escaped in the Markdown.
func TestCardTextRefused(t *testing.T) {
	s := demoStore(t)
	for _, o := range []Options{{Name: "Mine\n# injected"}, {Name: "a\x1b[2Jb"}, {Name: "ok", Contact: "x\ry"}, {Name: "rtl\u202eevil"}} {
		out := filepath.Join(t.TempDir(), "ds")
		o.Out = out
		_, err := Export(t.Context(), s, o)
		if err == nil || !strings.Contains(err.Error(), "control character") {
			t.Errorf("%q: err %v", o.Name+o.Contact, err)
		}
		if _, serr := os.Stat(out); !os.IsNotExist(serr) {
			t.Errorf("%q: %s was written", o.Name, out)
		}
	}
	if got := md("a|b *c* `d` <e> [f](g) _h_\nnext"); got != `a\|b \*c\* \`+"`"+`d\`+"`"+` \<e\> \[f\](g) \_h\_ next` {
		t.Errorf("md: %s", got)
	}
	if got := code("a`b"); got != "``a`b``" {
		t.Errorf("code: %s", got)
	}
}

// A source name holding Markdown and HTML shows as stored, escaped, in the
// intro and the tables alike: never as markup.
func TestCardEscapesDataStrings(t *testing.T) {
	s := openStore(t)
	err := s.Import(func(tx *store.Tx) error {
		_, _, err := tx.PutQA(store.QAPair{ID: "x-1", Source: "A|*B*<i>", Language: "en", Question: "Who wrote Hamlet?", Answer: "Shakespeare.",
			Contexts: []store.Context{{ID: "c-1", Text: "Hamlet is a tragedy by William Shakespeare."}}}, "hx", "f", false)
		if err != nil {
			return err
		}
		qid, _, err := tx.ItemID("x-1")
		if err != nil {
			return err
		}
		_, err = tx.PutLabel(store.Label{Annotator: "jo", ItemID: qid, Field: "question_validity", Value: "valid"})
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "ds")
	export(t, s, Options{Out: out})
	_, card := readCard(t, out)
	if strings.Contains(card, "<i>") || strings.Contains(card, "*B*") {
		t.Errorf("raw markup in the card:\n%s", card)
	}
	if n := strings.Count(card, `A\|\*B\*\<i\>`); n < 2 {
		t.Errorf("escaped source name %d times, want it in the intro and the sources table", n)
	}
}

// Declared languages that are codes reach the header (fr_CA as fr-ca); one
// that is not ("English") stays out of it and the body says so.
func TestCardLanguageCodes(t *testing.T) {
	s := openStore(t)
	err := s.Import(func(tx *store.Tx) error {
		for i, lang := range []string{"English", "fr_CA"} {
			id := []string{"a", "b"}[i]
			if _, _, err := tx.PutQA(store.QAPair{ID: id, Source: "S" + id, Language: lang, Question: "Q?", Answer: "A.",
				Contexts: []store.Context{{ID: "c" + id, Text: "Text."}}}, "h"+id, "f", false); err != nil {
				return err
			}
			qid, _, err := tx.ItemID(id)
			if err != nil {
				return err
			}
			if _, err := tx.PutLabel(store.Label{Annotator: "jo", ItemID: qid, Field: "question_validity", Value: "valid"}); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "ds")
	res := export(t, s, Options{Out: out})
	h, card := hubHeader(t, out, rowsOf(res))
	if !slices.Equal(h.Language, []string{"fr-ca"}) {
		t.Errorf("language %v", h.Language)
	}
	if !strings.Contains(card, "Not a language code, so not in the header's `language`: `english`.") {
		t.Error("the body does not name the value left out")
	}
}
