package importer

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/parquet-go/parquet-go"

	"github.com/annotate-dev/annotate/store"
)

// CanLegalRAGBench's release files. The public repository
// (github.com/NLP-UBC/CanLegalRAGBench, MIT) holds no data file: the data
// are on the Hugging Face Hub. The fixtures are written here in the shape
// its evaluate_retrieval/data/README.md gives (documents.parquet columns,
// queries.json keys) and its evaluate_generation/prepare_eval_input.py and
// ragas_answer_eval.py write (outputs/answers.jsonl, the per-row scores);
// the Parquet file is written by parquet-go with the types pandas and
// pyarrow give those columns (strings optional, year float64 with gaps,
// ground_truth_query_ids a list of strings), Snappy-compressed and
// dictionary-encoded where pyarrow would dictionary-encode.

// releaseDoc is one row of documents.parquet.
type releaseDoc struct {
	Citation        *string  `parquet:"citation,optional,dict"`
	Name            *string  `parquet:"name,optional"`
	OriginalSource  *string  `parquet:"original_source,optional,dict"`
	Year            *float64 `parquet:"year,optional"`
	Text            *string  `parquet:"text,optional"`
	URL             *string  `parquet:"url,optional"`
	UpstreamLicense *string  `parquet:"upstream_license,optional"`
	IsGroundTruth   *bool    `parquet:"is_ground_truth,optional"`
	DatasetSource   *string  `parquet:"dataset_source,optional,dict"`
	QueryIDs        []string `parquet:"ground_truth_query_ids,list"`
}

func sp(s string) *string   { return &s }
func fp(f float64) *float64 { return &f }
func bp(b bool) *bool       { return &b }
func yearOf(y int) *float64 { return fp(float64(y)) }
func noYear() *float64      { return nil }

// releaseDocs are three documents: two cases an annotator linked to queries
// (the second without a year), and a statute of the sampled corpus.
var releaseDocs = []releaseDoc{
	{sp("2019 ONCA 123"), sp("Smith v. Jones"), sp("ONCA"), yearOf(2019), sp("The landlord must give 24 hours' written notice before entering."),
		sp("https://www.canlii.org/en/on/onca/doc/2019/2019onca123/2019onca123.html"), sp(""), bp(true), sp("annotator"), []string{"q1", "q2"}},
	{sp("2020 BCSC 45"), sp("Brown v. Green"), sp("BCSC"), noYear(), sp("A tenant may dispute a notice to end tenancy within 10 days."),
		sp("https://www.bccourts.ca/2020bcsc45"), sp("unofficial reproduction"), bp(true), sp("caseway"), []string{"q1"}},
	{sp("RSO 1990 c L.7"), sp("Landlord and Tenant Act"), sp("STATUTE"), yearOf(1990), sp("Statute text."),
		sp(""), sp("Open Government Licence - Ontario"), bp(false), sp("canadian_case_law"), nil},
}

// writeParquet writes rows to dir/name with parquet-go, two rows per row
// group, so a file of three rows has two groups.
func writeParquet[T any](t testing.TB, dir, name string, rows []T) string {
	t.Helper()
	p := filepath.Join(dir, name)
	f, err := os.Create(p)
	if err != nil {
		t.Fatal(err)
	}
	w := parquet.NewGenericWriter[T](f, parquet.Compression(&parquet.Snappy), // pyarrow's default codec
		parquet.MaxRowsPerRowGroup(2))
	if _, err := w.Write(rows); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	return p
}

// releaseQueries is queries.json: q3 has no reference answer and no
// citation; batch_id is kept.
const releaseQueries = `{"query_id": "q1", "query_text": "Can my landlord enter my apartment without notice?", "answer": "No. Except in an emergency, the landlord must give 24 hours' written notice (Smith v. Jones).", "batch_id": 3, "ground_truth_citations": ["2019 ONCA 123", "2020 BCSC 45"], "province": "ON"}
{"query_id": "q2", "query_text": "How long do I have to dispute an eviction notice?", "answer": "Ten days.", "batch_id": 3, "ground_truth_citations": ["2019 ONCA 123"], "province": "BC"}
{"query_id": "q3", "query_text": "Is a verbal lease binding?", "answer": "", "batch_id": 4, "ground_truth_citations": [], "province": "AB"}
`

// releaseAnswers are prepare_eval_input.py's answers.jsonl (q1) and a row
// of ragas_answer_eval.py's scores with --keep-answers (q2).
const releaseAnswers = `{"query_id": "q1", "query_text": "I am in ON. Can my landlord enter my apartment without notice?", "generated_answer": "No, 24 hours' notice is required.", "ground_truth_answer": "No. Except in an emergency, the landlord must give 24 hours' written notice (Smith v. Jones).", "condition": "pipeline", "generator": "gemini-2.5-flash", "retrieval_method": "qwen_recursive_8192"}
{"row_index": 1, "query_id": "q2", "condition": "oracle", "generator": "gemma", "retrieval_method": "", "query_text": "How long do I have to dispute an eviction notice?", "groundedness_gold": 0.75, "groundedness_error": null, "generated_answer": "You have 10 days.", "ground_truth_answer": "Ten days.", "factual_precision_gold": 0.5, "factual_precision_error": null}
`

func releaseFiles(t *testing.T, dir string) (docs, queries, answers string) {
	return writeParquet(t, dir, "documents.parquet", releaseDocs),
		writeFile(t, dir, "queries.json", releaseQueries),
		writeFile(t, dir, "answers.jsonl", releaseAnswers)
}

func TestReleaseFormatsAreDetected(t *testing.T) {
	docs, queries, answers := releaseFiles(t, t.TempDir())
	for p, want := range map[string]string{docs: FormatReleaseDocuments, queries: FormatReleaseQueries, answers: FormatReleaseAnswers} {
		in, err := fileInput(p, nil)
		if err != nil {
			t.Fatal(err)
		}
		if got, err := detect(in); err != nil || got != want {
			t.Errorf("%s: %q, %v; want %q", filepath.Base(p), got, err, want)
		}
	}
	// A Parquet file of other columns is refused with what it has.
	type other struct {
		ID   string `parquet:"id"`
		Text string `parquet:"text"`
	}
	p := writeParquet(t, t.TempDir(), "data.parquet", []other{{"a", "b"}})
	in, _ := fileInput(p, nil)
	_, err := detect(in)
	if err == nil || !strings.Contains(err.Error(), p+": cannot tell the format: a Parquet file with the columns id, text") {
		t.Errorf("other parquet: %v", err)
	}
}

func TestReleaseImportsItemsAndLabels(t *testing.T) {
	dir := t.TempDir()
	docs, queries, answers := releaseFiles(t, dir)
	s := openDB(t)
	// One invocation, the queries before the documents they cite and the
	// answers before their queries: the judgments and answers wait.
	if f, err := os.Open(docs); err != nil {
		t.Fatal(err)
	} else if st, _ := f.Stat(); st != nil {
		pf, err := parquet.OpenFile(f, st.Size())
		if err != nil || len(pf.RowGroups()) != 2 {
			t.Fatalf("the fixture should have 2 row groups: %v", err)
		}
		f.Close()
	}
	sum := mustImport(t, s, []string{answers, queries, docs}, Options{})
	t.Log(sum.String())
	for kind, want := range map[string]int{"document": 3, "query": 3, "answer_task": 2, "relevance": 3, "gen_answer": 2} {
		if n := count(t, s, "SELECT COUNT(*) FROM items WHERE kind=?", kind); n != want {
			t.Errorf("%d %s items, want %d", n, kind, want)
		}
	}
	// Documents: every column kept, url and upstream_license as the
	// document's url and license, the others with it under their names.
	type docRow struct {
		title, citation, court, text, url, license, extra string
		year                                              int
	}
	rows, err := s.DB().Query(`SELECT i.ext_id, d.title, d.citation, d.court, COALESCE(d.year,0), d.text, d.url, d.license, d.extra FROM documents d JOIN items i ON i.id=d.item_id`)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]docRow{}
	for rows.Next() {
		var id string
		var r docRow
		if err := rows.Scan(&id, &r.title, &r.citation, &r.court, &r.year, &r.text, &r.url, &r.license, &r.extra); err != nil {
			t.Fatal(err)
		}
		got[id] = r
	}
	rows.Close()
	want := map[string]docRow{
		"2019 ONCA 123": {"Smith v. Jones", "2019 ONCA 123", "ONCA", "The landlord must give 24 hours' written notice before entering.",
			"https://www.canlii.org/en/on/onca/doc/2019/2019onca123/2019onca123.html", "",
			`{"dataset_source":"annotator","ground_truth_query_ids":["q1","q2"],"is_ground_truth":true}`, 2019},
		"2020 BCSC 45": {"Brown v. Green", "2020 BCSC 45", "BCSC", "A tenant may dispute a notice to end tenancy within 10 days.",
			"https://www.bccourts.ca/2020bcsc45", "unofficial reproduction",
			`{"dataset_source":"caseway","ground_truth_query_ids":["q1"],"is_ground_truth":true}`, 0},
		"RSO 1990 c L.7": {"Landlord and Tenant Act", "RSO 1990 c L.7", "STATUTE", "Statute text.",
			"", "Open Government Licence - Ontario",
			`{"dataset_source":"canadian_case_law","ground_truth_query_ids":[],"is_ground_truth":false}`, 1990},
	}
	for id, w := range want {
		if got[id] != w {
			t.Errorf("document %q:\n got %+v\nwant %+v", id, got[id], w)
		}
	}
	// Queries: province → jurisdiction, batch_id kept.
	if n := count(t, s, `SELECT COUNT(*) FROM queries q JOIN items i ON i.id=q.item_id WHERE i.ext_id='q2' AND q.jurisdiction='BC'
		AND q.text='How long do I have to dispute an eviction notice?' AND q.extra='{"batch_id":3}'`); n != 1 {
		t.Error("q2 not stored with its jurisdiction and batch_id")
	}
	// Ground-truth citations: relevance judgments of gold, as qrels.
	for _, id := range []string{"q1/2019 ONCA 123", "q1/2020 BCSC 45", "q2/2019 ONCA 123"} {
		if c := current(t, s, GoldAnnotator, id); c["relevance"] != "relevant" || c["relevance_grade"] != "1" {
			t.Errorf("%s: gold labels %v", id, c)
		}
	}
	// 3 judgments × 2 labels of gold; per reference answer, 2 labels of
	// canlegalragbench and 3 adjudicated: 6 + 2×5 = 16 events.
	if n := labelsOf(t, s, GoldAnnotator); n != 6 {
		t.Errorf("%d labels of gold, want 6", n)
	}
	if n := labelsOf(t, s, DefaultReleaseAnnotator); n != 10 {
		t.Errorf("%d labels of %s, want 10", n, DefaultReleaseAnnotator)
	}
	// The reference answers are accepted gold answers of canlegalragbench.
	units, err := s.AnswerUnits("")
	if err != nil {
		t.Fatal(err)
	}
	if len(units) != 2 {
		t.Fatalf("%d answer units, want 2", len(units))
	}
	for _, u := range units {
		if u.Annotator != DefaultReleaseAnnotator || u.Review != store.ReviewAccepted {
			t.Errorf("%s: annotator %q review %q", u.ExtID, u.Annotator, u.Review)
		}
	}
	if u := units[1]; u.ExtID != "q2/answer" || u.Answer != "Ten days." || strings.Join(u.Citations, "|") != "2019 ONCA 123" {
		t.Errorf("q2's answer: %+v", u)
	}
	// Generated answers: system from generator, condition from the row,
	// every other key (the judge's scores) kept with the answer.
	for _, c := range []struct{ id, system, condition, answer, extra string }{
		{"q1/gemini-2.5-flash/pipeline", "gemini-2.5-flash", "pipeline", "No, 24 hours' notice is required.",
			`{"generator":"gemini-2.5-flash","ground_truth_answer":"No. Except in an emergency, the landlord must give 24 hours' written notice (Smith v. Jones).","query_text":"I am in ON. Can my landlord enter my apartment without notice?","retrieval_method":"qwen_recursive_8192"}`},
		{"q2/gemma/oracle", "gemma", "oracle", "You have 10 days.",
			`{"factual_precision_error":null,"factual_precision_gold":0.5,"generator":"gemma","ground_truth_answer":"Ten days.","groundedness_error":null,"groundedness_gold":0.75,"query_text":"How long do I have to dispute an eviction notice?","retrieval_method":"","row_index":1}`},
	} {
		var system, condition, answer, extra, jur string
		err := s.DB().QueryRow(`SELECT g.system, g.condition, g.answer, g.extra, g.jurisdiction FROM gen_answers g JOIN items i ON i.id=g.item_id WHERE i.ext_id=?`, c.id).
			Scan(&system, &condition, &answer, &extra, &jur)
		if err != nil {
			t.Errorf("%s: %v", c.id, err)
			continue
		}
		if system != c.system || condition != c.condition || answer != c.answer || extra != c.extra {
			t.Errorf("%s: %q %q %q\n  extra %s\n   want %s", c.id, system, condition, answer, extra, c.extra)
		}
	}
	// Re-import, in another order: nothing changed.
	again := mustImport(t, s, []string{docs, queries, answers}, Options{})
	if !again.NoOp() || !strings.Contains(again.String(), "nothing changed") {
		t.Errorf("re-import: %s", again)
	}
}

func TestReleaseAnswersFlagsAndJudgements(t *testing.T) {
	dir := t.TempDir()
	docs, queries, _ := releaseFiles(t, dir)
	// A manual-evaluation row (compacted to one line): its judgements are
	// the answer's claims, the verdicts predictions of the judge.
	manual := writeFile(t, dir, "manual.jsonl", `{"row_index": 0, "query_id": "q1", "generator": "", "generated_answer": "Notice is required. It is 48 hours.", "factual_precision": {"mode": "precision", "judgements": [{"statement": "Notice is required.", "verdict": 1, "supported": true, "reason": "The reference says so."}, {"statement": "It is 48 hours.", "verdict": 0, "supported": false, "reason": "24 hours."}], "precision": 0.5}}
`)
	s := openDB(t)
	_, err := Import(s, []string{docs, queries, manual}, Options{})
	if err == nil || !strings.Contains(err.Error(), manual+`:1: field "generator": empty: the row does not name its system`) {
		t.Fatalf("no system: %v", err)
	}
	mustImport(t, s, []string{docs, queries, manual}, Options{System: "qwen", Condition: "oracle"})
	for _, c := range []struct{ id, value string }{{"q1/qwen/oracle-c1", "supported"}, {"q1/qwen/oracle-c2", "not_supported"}} {
		if n := count(t, s, `SELECT COUNT(*) FROM predictions p JOIN items i ON i.id=p.item_id WHERE i.ext_id=? AND p.system=? AND p.field='accuracy_support' AND p.value=?`,
			c.id, ReleaseJudge, c.value); n != 1 {
			t.Errorf("%s: no prediction %s", c.id, c.value)
		}
	}
	if n := count(t, s, `SELECT COUNT(*) FROM gen_answers WHERE system='qwen' AND condition='oracle' AND extra='{"factual_precision":{"mode":"precision","precision":0.5},"generator":"","row_index":0}'`); n != 1 {
		t.Error("the manual row's answer was not stored with the flags' system and condition and its other keys")
	}
}

// releaseSeed is a database with the release imported, for the hostile
// files: each must fail naming file, row or line and field, and leave the
// file byte for byte as it was.
func TestReleaseHostileFilesChangeNothing(t *testing.T) {
	seedDir := t.TempDir()
	docs, queries, _ := releaseFiles(t, seedDir)
	seedDB := filepath.Join(seedDir, "seed.db")
	s, err := store.Open(seedDB)
	if err != nil {
		t.Fatal(err)
	}
	mustImport(t, s, []string{docs, queries}, Options{})
	s.Close()

	type noText struct {
		Citation        string   `parquet:"citation"`
		Name            string   `parquet:"name"`
		OriginalSource  string   `parquet:"original_source"`
		Year            int64    `parquet:"year"`
		URL             string   `parquet:"url"`
		UpstreamLicense string   `parquet:"upstream_license"`
		IsGroundTruth   bool     `parquet:"is_ground_truth"`
		DatasetSource   string   `parquet:"dataset_source"`
		QueryIDs        []string `parquet:"ground_truth_query_ids,list"`
	}
	type intCitation struct {
		Citation        int64  `parquet:"citation"`
		Name            string `parquet:"name"`
		OriginalSource  string `parquet:"original_source"`
		Year            int64  `parquet:"year"`
		Text            string `parquet:"text"`
		URL             string `parquet:"url"`
		UpstreamLicense string `parquet:"upstream_license"`
		IsGroundTruth   bool   `parquet:"is_ground_truth"`
		DatasetSource   string `parquet:"dataset_source"`
		QueryIDs        string `parquet:"ground_truth_query_ids"` // JSON text, as the build script writes it
	}
	type textYear struct {
		Citation        string `parquet:"citation"`
		Name            string `parquet:"name"`
		OriginalSource  string `parquet:"original_source"`
		Year            string `parquet:"year"`
		Text            string `parquet:"text"`
		URL             string `parquet:"url"`
		UpstreamLicense string `parquet:"upstream_license"`
		IsGroundTruth   bool   `parquet:"is_ground_truth"`
		DatasetSource   string `parquet:"dataset_source"`
		QueryIDs        string `parquet:"ground_truth_query_ids"`
	}
	newDoc := releaseDoc{sp("2021 ABQB 9"), sp("X v Y"), sp("ABQB"), yearOf(2021), sp("New."), sp(""), sp(""), bp(false), sp("caseway"), nil}
	cases := []struct {
		name  string
		write func(dir string) string
		want  string
	}{
		{"missing column", func(dir string) string {
			return writeParquet(t, dir, "documents.parquet", []noText{{Citation: "2021 ABQB 9", URL: "x"}})
		}, `FILE: cannot tell the format: a Parquet file with the columns citation, name, original_source, year, url, upstream_license, is_ground_truth, dataset_source, ground_truth_query_ids; the only Parquet file annotate imports is CanLegalRAGBench documents.parquet (Parquet with the columns citation and text, and any of name,`},
		{"wrong type", func(dir string) string {
			return writeParquet(t, dir, "documents.parquet", []intCitation{{Citation: 42, Text: "x", QueryIDs: "[]"}})
		}, `FILE:1: field "citation": want a string, got INT64 "42"`},
		{"bad year on row 2", func(dir string) string {
			return writeParquet(t, dir, "documents.parquet", []textYear{{Citation: "a", Text: "x", Year: "2019", QueryIDs: `["q1", 7]`}, {Citation: "b", Text: "y", Year: "MMXX"}})
		}, `FILE:2: field "year": want a year such as 2019, got "MMXX"`},
		{"null text on row 2", func(dir string) string {
			return writeParquet(t, dir, "documents.parquet", []releaseDoc{newDoc, {Citation: sp("2021 ABQB 10"), Year: yearOf(2021)}})
		}, `FILE:2: field "text": missing (required): the value is null`},
		{"bad row in the second row group", func(dir string) string {
			return writeParquet(t, dir, "documents.parquet", []textYear{{Citation: "a", Text: "x"}, {Citation: "b", Text: "y"}, {Citation: "c\x1b[2J", Text: "z"}})
		}, `FILE:3: field "citation": the citation "c\x1b[2J" has the control character U+001B at character 2`},
		{"citation repeated", func(dir string) string {
			return writeParquet(t, dir, "documents.parquet", []releaseDoc{newDoc, newDoc})
		}, `FILE:2: field "citation": duplicate id "2021 ABQB 9"`},
		{"answer an array", func(dir string) string {
			return writeFile(t, dir, "queries.json", `{"query_id": "q9", "query_text": "New?", "answer": ["Yes."], "batch_id": 5, "ground_truth_citations": ["2019 ONCA 123"], "province": "ON"}`+"\n")
		}, `FILE:1: field "answer": want a string, got an array (the benchmark reads a null, a number, true or false as its Python text)`},
		{"query id repeated with other text", func(dir string) string {
			return writeFile(t, dir, "queries.json", `{"query_id": "q1", "query_text": "Another question?", "answer": "", "batch_id": 3, "ground_truth_citations": [], "province": "ON"}`+"\n")
		}, `FILE:1: field "query_id": item "q1" is already in the database with different content (use --update to replace it)`},
		{"query id repeated in the file", func(dir string) string {
			return writeFile(t, dir, "queries.json", `{"query_id": "q8", "query_text": "A?", "ground_truth_citations": []}`+"\n"+`{"query_id": "q8", "query_text": "B?", "ground_truth_citations": []}`+"\n")
		}, `FILE:2: field "query_id": duplicate id "q8" (first at line 1)`},
		{"citations not a list", func(dir string) string {
			return writeFile(t, dir, "queries.json", `{"query_id": "q8", "query_text": "A?", "ground_truth_citations": {"a": 1}}`+"\n")
		}, `FILE:1: field "ground_truth_citations": want a string or an array of strings, got an object`},
		{"answer of an unknown query", func(dir string) string {
			return writeFile(t, dir, "answers.jsonl", `{"query_id": "q404", "generated_answer": "x", "generator": "g", "condition": "pipeline"}`+"\n")
		}, `FILE:1: field "query_id": unknown query "q404": it is neither in the database nor in this import`},
		{"answer of an unknown condition", func(dir string) string {
			return writeFile(t, dir, "answers.jsonl", `{"query_id": "q1", "generated_answer": "x", "generator": "g", "condition": "closed-book"}`+"\n")
		}, `FILE:1: field "condition": want "oracle" or "pipeline", got "closed-book"`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			db := filepath.Join(dir, "t.db")
			writeFile(t, dir, "t.db", string(readFile(t, seedDB)))
			before := contentOf(t, db)
			p := c.write(dir)
			// A valid new document alongside: one invocation is all or nothing.
			good := writeParquet(t, t.TempDir(), "more.parquet", []releaseDoc{{sp("2022 ONSC 1"), sp(""), sp("ONSC"), yearOf(2022), sp("Good."), sp(""), sp(""), bp(false), sp("caseway"), nil}})
			s, err := store.Open(db)
			if err != nil {
				t.Fatal(err)
			}
			_, err = Import(s, []string{good, p}, Options{})
			s.Close()
			if w := strings.ReplaceAll(c.want, "FILE", p); err == nil || !strings.Contains(err.Error(), w) {
				t.Errorf("error\n  %v\nwant it to contain\n  %s", err, w)
			}
			if contentOf(t, db) != before {
				t.Error("the database changed")
			}
		})
	}
}

// A gold citation naming no document (in neither the database nor the
// import, once every file is read: here the documents come after the
// queries) is imported with a warning as an absent document, which the
// benchmark's metrics count as a relevant document no run retrieves
// (report/ir_release_test.go checks the figures). The document itself,
// imported later, replaces it without --update.
func TestReleaseCitationNamingNoDocument(t *testing.T) {
	dir := t.TempDir()
	docs, _, _ := releaseFiles(t, dir)
	queries := writeFile(t, dir, "queries.json", releaseQueries+
		`{"query_id": "q4", "query_text": "New?", "answer": "Yes.", "batch_id": 5, "ground_truth_citations": ["2099 ONCA 1", "2019 ONCA 123", "2099 ONCA 2"], "province": "ON"}`+"\n"+
		`{"query_id": "q5", "query_text": "Newer?", "answer": "No.", "batch_id": 5, "ground_truth_citations": ["2099 ONCA 1"], "province": "ON"}`+"\n")
	s := openDB(t)
	sum := mustImport(t, s, []string{queries, docs}, Options{})
	q := sum.Files[0]
	if q.AbsentDocuments != 2 || q.Items["document"].Added != 2 || q.Items["relevance"].Added != 7 {
		t.Errorf("summary %+v %+v %+v", q, q.Items["document"], q.Items["relevance"])
	}
	want := `warning: ` + queries + `: 2 citations name no document, neither in the database nor in this import ("2099 ONCA 1", "2099 ONCA 2"): ` +
		`each is kept as an absent document, relevant and retrieved by no run, as the benchmark scores it; importing the document later replaces it`
	if w := sum.Warnings(); !slices.Contains(w, want) {
		t.Errorf("warnings %q\nwant %q", w, want)
	}
	if n := count(t, s, `SELECT COUNT(*) FROM items i JOIN documents d ON d.item_id = i.id WHERE i.ext_id IN ('2099 ONCA 1', '2099 ONCA 2') AND d.text = '' AND d.citation = i.ext_id`); n != 2 {
		t.Errorf("%d absent documents, want 2", n)
	}
	if n := count(t, s, `SELECT COUNT(*) FROM current_labels l JOIN items i ON i.id = l.item_id JOIN annotators a ON a.id = l.annotator_id
		WHERE i.ext_id IN ('q4/2099 ONCA 1', 'q5/2099 ONCA 1', 'q4/2099 ONCA 2') AND a.name = 'gold' AND l.field = 'relevance' AND l.value = 'relevant'`); n != 3 {
		t.Errorf("%d gold judgments of absent documents, want 3", n)
	}
	// The same files again change nothing; the document, once published,
	// replaces the absent one.
	if again := mustImport(t, s, []string{queries, docs}, Options{}); !again.NoOp() {
		t.Errorf("again: %+v", again)
	}
	found := writeParquet(t, t.TempDir(), "documents.parquet", []releaseDoc{{Citation: sp("2099 ONCA 1"), Text: sp("Found at last.")}})
	if got := mustImport(t, s, []string{found}, Options{}).Files[0]; got.Items["document"].Updated != 1 {
		t.Errorf("the published document: %+v", got.Items["document"])
	}
	if n := count(t, s, `SELECT COUNT(*) FROM documents d JOIN items i ON i.id = d.item_id WHERE i.ext_id = '2099 ONCA 1' AND d.text = 'Found at last.'`); n != 1 {
		t.Error("the absent document was not replaced")
	}
}

// An absent document's native line (what a native export writes):
// "absent": true and no text; with a text it is refused.
func TestAbsentDocumentNativeLine(t *testing.T) {
	dir := t.TempDir()
	s := openDB(t)
	good := writeFile(t, dir, "docs.jsonl", `{"kind":"document","id":"2099 ONCA 1","citation":"2099 ONCA 1","absent":true}`+"\n")
	mustImport(t, s, []string{good}, Options{})
	if n := count(t, s, `SELECT COUNT(*) FROM documents d JOIN items i ON i.id = d.item_id WHERE i.ext_id = '2099 ONCA 1' AND d.text = ''`); n != 1 {
		t.Error("no absent document")
	}
	bad := writeFile(t, dir, "bad.jsonl", `{"kind":"document","id":"2099 ONCA 2","absent":true,"text":"Found."}`+"\n")
	if _, err := Import(s, []string{bad}, Options{}); err == nil || !strings.Contains(err.Error(), bad+`:1: field "text": an absent document has no text (drop "absent" or the text)`) {
		t.Errorf("%v", err)
	}
	empty := writeFile(t, dir, "empty.jsonl", `{"kind":"document","id":"2099 ONCA 3","text":""}`+"\n")
	if _, err := Import(s, []string{empty}, Options{}); err == nil || !strings.Contains(err.Error(), `field "text": empty (required)`) {
		t.Errorf("an empty text without \"absent\": %v", err)
	}
}

// documents.parquet needs only citation and text, the two columns the
// benchmark's indexing reads; any other column is kept with the document.
func TestReleaseDocumentsWithCitationAndTextOnly(t *testing.T) {
	type minimal struct {
		Citation string `parquet:"citation"`
		Text     string `parquet:"text"`
		Court    string `parquet:"court"`
	}
	p := writeParquet(t, t.TempDir(), "documents.parquet", []minimal{{"2019 ONCA 123", "The landlord must give notice.", "ONCA"}, {"2020 BCSC 45", "Ten days.", ""}})
	s := openDB(t)
	sum := mustImport(t, s, []string{p}, Options{})
	if got := sum.Files[0]; got.Format != FormatReleaseDocuments || got.Items["document"].Added != 2 {
		t.Fatalf("summary %+v", got)
	}
	if n := count(t, s, `SELECT COUNT(*) FROM documents d JOIN items i ON i.id = d.item_id
		WHERE i.ext_id = '2019 ONCA 123' AND d.citation = i.ext_id AND d.text = 'The landlord must give notice.' AND d.title = '' AND d.year IS NULL
		AND d.extra = '{"court":"ONCA"}'`); n != 1 {
		t.Error("the document is not as the row gives it")
	}
}

// is_query_usable reads str(q.get("answer", q.get("user_answer", ""))):
// "answer" when the key is there, even empty or null, and Python's str()
// of what it holds. Values: /usr/bin/python3 (3.11) on the same lines,
//
//	python3 -c 'import json,sys; [print(repr(str(q.get("answer", q.get("user_answer", ""))))) for q in map(json.loads, sys.stdin)]'
func TestReleaseReferenceAnswerAsTheBenchmarkReadsIt(t *testing.T) {
	for _, c := range []struct{ line, key, answer string }{
		{`{"answer": "Ten days.", "user_answer": "Two weeks."}`, "answer", "Ten days."},
		{`{"answer": "", "user_answer": "Two weeks."}`, "answer", ""},
		{`{"user_answer": "Two weeks."}`, "user_answer", "Two weeks."},
		{`{"answer": null, "user_answer": "Two weeks."}`, "answer", "None"},
		{`{"user_answer": null}`, "user_answer", "None"},
		{`{}`, "", ""},
		{`{"answer": true}`, "answer", "True"},
		{`{"answer": false}`, "answer", "False"},
		{`{"answer": 0}`, "answer", "0"},
		{`{"answer": -0}`, "answer", "0"},
		{`{"answer": 12345678901234567890}`, "answer", "12345678901234567890"},
		{`{"answer": 1.0}`, "answer", "1.0"},
		{`{"answer": 1e2}`, "answer", "100.0"},
		{`{"answer": 0.0001}`, "answer", "0.0001"},
		{`{"answer": 0.00001}`, "answer", "1e-05"},
		{`{"answer": 123456789012345.6}`, "answer", "123456789012345.6"},
		{`{"answer": 1e16}`, "answer", "1e+16"},
		{`{"answer": -2.5E-7}`, "answer", "-2.5e-07"},
		{`{"answer": -0.0}`, "answer", "-0.0"},
	} {
		m, err := object(loc{}, []byte(c.line))
		if err != nil {
			t.Fatal(err)
		}
		f := &fileData{sum: &FileSummary{}}
		key, answer, err := f.releaseReference(newRec(loc{}, "", m))
		if err != nil || key != c.key || answer != c.answer {
			t.Errorf("%s: %q %q %v, want %q %q", c.line, key, answer, err, c.key, c.answer)
		}
	}
}

// A document's url and license are left out of its content hash when
// empty: a document imported before they were recorded has the hash of its
// fields then, so re-importing its file is still a no-op.
func TestDocumentHashWithoutURLAndLicense(t *testing.T) {
	type before struct { // store.Document's fields before url and license
		ID, Source, Title, Citation, Court, Jurisdiction string
		Year                                             int
		Text                                             string
		Chunks                                           []store.Chunk
		Extra                                            string
		ItemID                                           int64
	}
	d := store.Document{ID: "d", Title: "T", Year: 2019, Text: "x", Chunks: []store.Chunk{{ID: "d#0", Start: 0, End: 1}}}
	old := before{ID: "d", Title: "T", Year: 2019, Text: "x", Chunks: d.Chunks}
	if contentHash(d) != contentHash(old) {
		t.Error("a document without url and license changed its hash")
	}
	d.URL = "https://example.org/d"
	if contentHash(d) == contentHash(old) {
		t.Error("the url is not in the hash")
	}
}

// A line with some of the release's keys but not those that define a
// format is refused with the formats it resembles.
func TestReleaseLookalikeIsRefused(t *testing.T) {
	in := bytesInput("q.jsonl", []byte(`{"query_id":"q1","query_text":"x","province":"ON"}`+"\n"), nil)
	_, err := detect(in)
	if err == nil || !strings.Contains(err.Error(), `q.jsonl: cannot tell the format: the first record resembles CanLegalRAGBench queries.json (JSON lines with "query_id", "query_text", "ground_truth_citations")`) {
		t.Errorf("%v", err)
	}
}

// queries.json may also be one JSON array (the benchmark's loaders read
// either; its build script writes one, indented): the same items, and
// errors name the record (0-based, as a JSON viewer shows it).
func TestReleaseQueriesAsAnArray(t *testing.T) {
	dir := t.TempDir()
	docs, _, _ := releaseFiles(t, dir)
	lines := strings.Split(strings.TrimSpace(releaseQueries), "\n")
	array := writeFile(t, dir, "queries.json", "[\n  "+strings.Join(lines, ",\n  ")+"\n]\n")
	s := openDB(t)
	sum := mustImport(t, s, []string{array, docs}, Options{})
	if got := sum.Files[0]; got.Format != FormatReleaseQueries || got.Items["query"].Added != 3 || got.Items["relevance"].Added != 3 || got.LabelsAdded != 16 {
		t.Errorf("array: %+v", got)
	}
	bad := writeFile(t, dir, "bad.json", `[{"query_id": "q7", "query_text": "A?", "ground_truth_citations": []}, {"query_id": "q8", "query_text": "", "ground_truth_citations": []}]`)
	_, err := Import(s, []string{bad}, Options{})
	if err == nil || !strings.Contains(err.Error(), bad+`: record 2: field "query_text": empty (required)`) {
		t.Errorf("%v", err)
	}
}
