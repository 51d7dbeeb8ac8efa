package importer

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/annotate-dev/annotate/metrics"
	"github.com/annotate-dev/annotate/report"
	"github.com/annotate-dev/annotate/store"
)

// predictionsOf lists "ext_id=value" of one system's predictions, sorted.
func predictionsOf(t *testing.T, s *store.Store, system string) string {
	t.Helper()
	rows, err := s.DB().Query(`SELECT i.ext_id||'='||p.value FROM predictions p JOIN items i ON i.id=p.item_id
		WHERE p.system=? ORDER BY i.ext_id`, system)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var v string
		rows.Scan(&v)
		out = append(out, v)
	}
	return strings.Join(out, " ")
}

// RefChecker's own benchmark files (testdata: the first 6 records of three
// of them): every triplet a claim; its human label an entailment label of
// refchecker-human and, since the annotators judged the relation of a
// well-formed triplet, a claim_validity=correct label (issue 9, 7e).
// Counts by hand from the slices: 6+6+6 pairs; 33+15+9 triplets.
func TestRefCheckerHumanAnnotations(t *testing.T) {
	files := []string{testdata("dolly_gpt4_answers.json"), testdata("msmarco_gpt4_answers.json"), testdata("nq_gpt4_answers.json")}
	s := openDB(t)
	sum := mustImport(t, s, files, Options{})
	if n := count(t, s, "SELECT COUNT(*) FROM items WHERE kind='qa'"); n != 18 {
		t.Fatalf("QA pairs: %d, want 18", n)
	}
	if n := count(t, s, "SELECT COUNT(*) FROM items WHERE kind='claim'"); n != 57 {
		t.Fatalf("claims: %d, want 57 (33+15+9)", n)
	}
	if n := count(t, s, "SELECT COUNT(*) FROM label_events WHERE field='claim_validity' AND value='correct'"); n != 57 {
		t.Fatalf("claim_validity=correct labels: %d, want one per triplet (57)", n)
	}
	if n := labelsOf(t, s, HumanAnnotator); n != 114 {
		t.Fatalf("labels of %s: %d, want 114 (validity and entailment of 57 triplets)", HumanAnnotator, n)
	}
	if !strings.Contains(sum.String(), "testdata/dolly_gpt4_answers.json (refchecker-human): 6 QA pairs added; 33 claims added; 66 labels added") {
		t.Fatalf("summary text:\n%s", sum)
	}
	// Ids carry the file's base name; the first triplet of 12646 is entailed.
	if got := current(t, s, HumanAnnotator, "dolly_gpt4_answers/12646-c1"); got["entailment"] != "entailment" || got["claim_validity"] != "correct" {
		t.Fatalf("labels of dolly_gpt4_answers/12646-c1: %v", got)
	}
	// nq's slice has one Contradiction and one Neutral (by hand).
	if n := count(t, s, "SELECT COUNT(*) FROM current_labels WHERE field='entailment' AND value='contradiction'"); n != 1 {
		t.Fatalf("contradiction labels %d, want 1", n)
	}
	// The labels now count: metrics extraction sees 57 judged claims, all valid.
	m, err := report.Metrics(s, report.MetricsOptions{Selection: report.Selection{Annotator: HumanAnnotator}})
	if err != nil {
		t.Fatal(err)
	}
	if e := m.Extraction["all"]; e == nil || e.Judged != 57 || e.Valid != 57 {
		t.Fatalf("extraction of %s: %+v", HumanAnnotator, e)
	}

	events := count(t, s, "SELECT COUNT(*) FROM label_events")
	again := mustImport(t, s, files, Options{})
	want := "nothing changed: all 18 QA pairs, 57 claims and 114 labels are already in the database"
	if !again.NoOp() || !strings.HasPrefix(again.String(), want) {
		t.Fatalf("re-import summary:\n%s\nwant %q", again, want)
	}
	if n := count(t, s, "SELECT COUNT(*) FROM label_events"); n != events {
		t.Fatalf("label events %d -> %d on re-import", events, n)
	}
}

// A human-annotation file a checker has run over (benchmark/evaluation/
// autocheck.py writes <checker>_label beside human_label): the checker's
// labels are predictions of system <checker>, so metrics --system nli works
// on RefChecker's own benchmark (issue 9, 7c). The slice's 33 triplets are
// all Entailment for the humans; the synthetic nli_label differs on every
// 4th (8 of 33, made Neutral): accuracy 25/33 by hand.
func TestRefCheckerHumanCheckerLabels(t *testing.T) {
	s := openDB(t)
	sum := mustImport(t, s, []string{testdata("autocheck/dolly_gpt4_answers.json")}, Options{})
	if len(sum.Files[0].UnknownKeys) != 0 {
		t.Fatalf("nli_label must be understood, not reported: %v", sum.Files[0].UnknownKeys)
	}
	if n := count(t, s, "SELECT COUNT(*) FROM predictions WHERE system='nli'"); n != 33 {
		t.Fatalf("nli predictions %d, want 33", n)
	}
	if n := count(t, s, "SELECT COUNT(*) FROM predictions WHERE system='nli' AND value='neutral'"); n != 8 {
		t.Fatalf("neutral nli predictions %d, want 8", n)
	}
	m, err := report.Metrics(s, report.MetricsOptions{Selection: report.Selection{Annotator: HumanAnnotator}, System: "nli"})
	if err != nil {
		t.Fatal(err)
	}
	v := m.Verification["all"]
	if v == nil || v.N != 33 {
		t.Fatalf("verification of nli against %s: %+v", HumanAnnotator, v)
	}
	agree := 0
	for _, class := range []string{"entailment", "neutral", "contradiction"} {
		agree += v.Confusion[class][class]
	}
	if agree != 25 || v.Confusion["entailment"]["neutral"] != 8 {
		t.Fatalf("confusion %v: want 25 of 33 agreeing, 8 entailment judged neutral", v.Confusion)
	}

	// autocheck.py also writes the question and the passages it checked
	// against, and claims of other extractors as {"claim": …} without a
	// human label.
	p := writeFile(t, t.TempDir(), "nq_x_answers.json", `[{"id":"7","question":"who sang it?","context":["Passage one.","Passage two."],
	 "response":"Chuck Berry sang it.","claude2_response_kg":[{"triplet":["Chuck Berry","sang","it"],"human_label":"Contradiction","nli_label":"Neutral"}],
	 "gpt4_response_kg":[{"claim":"Chuck Berry sang it.","attributed_sent_ids":[0],"nli_label":"Contradiction"}],"extraction_orig_response":"…"}]`)
	s = openDB(t)
	mustImport(t, s, []string{p}, Options{})
	ref, _ := s.Resolve("nq_x_answers/7")
	q, err := s.QA(ref.ItemID)
	if err != nil || q.Question != "who sang it?" || len(q.Contexts) != 2 || q.Contexts[1].Text != "Passage two." {
		t.Fatalf("QA %+v %v", q, err)
	}
	if got := predictionsOf(t, s, "nli"); got != "nq_x_answers/7-c1=neutral nq_x_answers/7-c2=contradiction" {
		t.Fatalf("nli predictions: %s", got)
	}
	if got := current(t, s, HumanAnnotator, "nq_x_answers/7-c2"); len(got) != 0 {
		t.Fatalf("a claim without human_label has no label: %v", got)
	}
	if c, _ := s.Resolve("nq_x_answers/7-c2"); c.ItemID == 0 {
		t.Fatal("the gpt4 extractor's claim is missing")
	} else if cl, _ := s.Claim(c.ItemID); cl.Text != "Chuck Berry sang it." {
		t.Fatalf("claim %+v", cl)
	}
}

func TestRefCheckerIDsDoNotCollide(t *testing.T) {
	src := string(readFile(t, testdata("refchecker_example_in.json")))
	dir := t.TempDir()
	a := writeFile(t, dir, "run_a.json", src)
	b := writeFile(t, filepath.Join(dir, "other"), "run_b.json", src)
	s := openDB(t)
	mustImport(t, s, []string{a, b}, Options{})
	if n := count(t, s, "SELECT COUNT(*) FROM items WHERE kind='qa'"); n != 6 {
		t.Fatalf("QA pairs %d, want 6: same record numbers in two files must not collide", n)
	}
	for _, id := range []string{"run_a/0", "run_b/0", "run_b/2"} {
		if _, err := s.Resolve(id); err != nil {
			t.Errorf("%s: %v", id, err)
		}
	}
}

// refchecker-cli check's output: claims with their ys verdicts, and Y.
// Expected values from RefChecker's own code (see testdata/LICENSE.md): the
// merged ys of a list is merge_multi_psg_ret's, Y is strict_agg's.
func TestRefCheckerChecker(t *testing.T) {
	s := openDB(t)
	sum := mustImport(t, s, []string{testdata("refchecker_example_in.json")}, Options{})
	if f := sum.Files[0]; f.Format != FormatChecker || f.QA.Added != 3 || f.Claims.Added != 0 {
		t.Fatalf("summary %+v", f)
	}
	ref, _ := s.Resolve("refchecker_example_in/1")
	q, err := s.QA(ref.ItemID)
	if err != nil || q.Question != "who sang i ran all the way home" || len(q.Contexts) != 1 || !strings.HasPrefix(q.Contexts[0].Text, "The Impalas") {
		t.Fatalf("QA %+v %v", q, err)
	}

	// The strict aggregator: ys of one passage are strings (the aggregator
	// flattens them), of two passages lists; the 3rd record has no question.
	s = openDB(t)
	sum = mustImport(t, s, []string{testdata("refchecker_check_strict.json")}, Options{})
	if f := sum.Files[0]; f.QA.Added != 3 || f.Claims.Added != 7 || len(f.UnknownKeys) != 0 {
		t.Fatalf("summary %+v", f)
	}
	want := "refchecker_check_strict/0=contradiction " +
		"refchecker_check_strict/0-c1=contradiction refchecker_check_strict/0-c2=neutral refchecker_check_strict/0-c3=neutral " +
		// strict_agg compares each list to a string, so Y of lists is Entailment
		"refchecker_check_strict/1=entailment " +
		// [Neutral, Contradiction] -> Contradiction; [Neutral, Neutral] -> Neutral
		"refchecker_check_strict/1-c1=contradiction refchecker_check_strict/1-c2=neutral " +
		// [Entailment, Neutral] -> Entailment
		"refchecker_check_strict/2=entailment refchecker_check_strict/2-c1=entailment refchecker_check_strict/2-c2=neutral"
	if got := predictionsOf(t, s, RefCheckerSystem); got != want {
		t.Fatalf("predictions\n got %s\nwant %s", got, want)
	}
	ref, _ = s.Resolve("refchecker_check_strict/2")
	if q, err := s.QA(ref.ItemID); err != nil || q.Question != "" || len(q.Contexts) != 2 || q.Hop != "multi" {
		t.Fatalf("a record without question: %+v %v", q, err)
	}
	if again := mustImport(t, s, []string{testdata("refchecker_check_strict.json")}, Options{}); !again.NoOp() {
		t.Fatalf("re-import: %s", again)
	}

	// The soft aggregator's Y is the share of each class, not a verdict.
	s = openDB(t)
	sum = mustImport(t, s, []string{testdata("refchecker_check_soft.json")}, Options{})
	if n := count(t, s, "SELECT COUNT(*) FROM predictions p JOIN items i ON i.id=p.item_id WHERE i.kind='qa'"); n != 0 {
		t.Fatalf("%d response-level predictions from soft Y, want none", n)
	}
	if n := count(t, s, "SELECT COUNT(*) FROM predictions"); n != 7 {
		t.Fatalf("claim predictions %d, want 7", n)
	}
	if !strings.Contains(sum.String(), `refchecker_check_soft.json: "Y" left out: it gives class shares (RefChecker's soft aggregator), not a verdict; run the check with --aggregator_name strict or major (3 records)`) {
		t.Fatalf("want a warning about the soft Y:\n%s", sum)
	}

	// Inline: a verdict list merged, a string kept, an unknown value warned.
	p := writeFile(t, t.TempDir(), "checked.json", `[
 {"question":"Who wrote it?","response":"Paul Stookey wrote it in 1967.","reference":["It is a 1967 song.","Written by Paul Stookey."],
  "claims":[["song","written by","Paul Stookey"],["song","released in","1967"],"It is a folk song.",["song","sung by","Mary"]],
  "ys":[["Neutral","Entailment"],"contradiction","Unsure",[]],"Y":"Abstain"}]`)
	s = openDB(t)
	sum = mustImport(t, s, []string{p}, Options{})
	if got := predictionsOf(t, s, RefCheckerSystem); got != "checked/0=Abstain checked/0-c1=entailment checked/0-c2=contradiction checked/0-c3=Unsure" {
		t.Fatalf("predictions %s", got)
	}
	if !strings.Contains(sum.String(), `1 prediction of refchecker has unknown value "Unsure"`) {
		t.Fatalf("want a warning about Unsure:\n%s", sum)
	}
	c, _ := s.Resolve("checked/0-c3")
	if cl, _ := s.Claim(c.ItemID); cl.Text != "It is a folk song." {
		t.Fatalf("text claim %+v", cl)
	}
}

// mergePassages against RefChecker's merge_multi_psg_ret
// (refchecker/checker/checker_base.py), whose answers were obtained by
// running it on these lists.
func TestMergePassages(t *testing.T) {
	for _, c := range []struct {
		in   []string
		want string
	}{
		{[]string{"Neutral", "Entailment"}, "entailment"},
		{[]string{"Contradiction", "Entailment"}, "entailment"},
		{[]string{"Neutral", "Contradiction"}, "contradiction"},
		{[]string{"Neutral", "Neutral"}, "neutral"},
		{[]string{"Abstain"}, "neutral"},
		{[]string{"entailment"}, "entailment"}, // RefChecker's labels are capitalised; ours are matched case-insensitively
		{nil, ""},
	} {
		if got := mergePassages(c.in); got != c.want {
			t.Errorf("mergePassages(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

// RAGChecker's checking output: retrieved2response[claim][chunk] become
// predictions of system ragchecker. A claim entailed by any chunk is
// entailment: per pair, the share of entailment predictions is then
// RAGChecker's own faithfulness, which the file carries (0.3636… = 4/11 and
// 1.0).
func TestRAGChecker(t *testing.T) {
	s := openDB(t)
	sum := mustImport(t, s, []string{testdata("ragchecker_checking_outputs.json")}, Options{})
	f := sum.Files[0]
	// Two responses with 11 + 5 claims, two ground-truth answers with 22 + 8.
	if f.Format != FormatRAGChecker || f.QA.Added != 4 || f.Claims.Added != 46 || len(f.UnknownKeys) != 0 {
		t.Fatalf("summary %+v", f)
	}
	// 4 + 3 retrieved chunks, and each ground-truth answer as its pair's context.
	if n := count(t, s, "SELECT COUNT(*) FROM context_units"); n != 9 {
		t.Fatalf("context units %d, want 9", n)
	}
	for _, c := range []struct {
		qa     string
		claims int
		faith  float64 // metrics.faithfulness in the file
	}{{"ragchecker_checking_outputs/0", 11, 0.36363636363636365}, {"ragchecker_checking_outputs/1", 5, 1.0}} {
		entailed := count(t, s, `SELECT COUNT(*) FROM predictions p JOIN items i ON i.id=p.item_id JOIN items q ON q.id=i.parent_id
			WHERE q.ext_id=? AND p.system='ragchecker' AND p.value='entailment'`, c.qa)
		all := count(t, s, `SELECT COUNT(*) FROM predictions p JOIN items i ON i.id=p.item_id JOIN items q ON q.id=i.parent_id
			WHERE q.ext_id=? AND p.system='ragchecker'`, c.qa)
		if all != c.claims || float64(entailed)/float64(all) != c.faith {
			t.Errorf("%s: %d of %d claims entailed, want faithfulness %v", c.qa, entailed, all, c.faith)
		}
	}
	// The first claim of query 0 is entailed by the second chunk only.
	if got := predictionsOf(t, s, RAGCheckerSystem); !strings.HasPrefix(got, "ragchecker_checking_outputs/0-c1=entailment ragchecker_checking_outputs/0-c10=entailment ragchecker_checking_outputs/0-c11=neutral") {
		t.Fatalf("predictions %s", got)
	}
	ref, _ := s.Resolve("ragchecker_checking_outputs/0")
	q, _ := s.QA(ref.ItemID)
	if q.Question != "What's the longest river in the world?" || !strings.HasPrefix(q.Answer, "The longest river") || !strings.Contains(q.Extra, "gt_answer") {
		t.Fatalf("QA %+v", q)
	}

	// RAGChecker's checking input: the same pairs, before checking. The
	// answer under review is the response, never the reference gt_answer.
	s = openDB(t)
	sum = mustImport(t, s, []string{testdata("ragchecker_checking_inputs.json")}, Options{})
	if f := sum.Files[0]; f.Format != FormatRAGChecker || f.QA.Added != 2 || f.Claims.Added != 0 {
		t.Fatalf("summary %+v", f)
	}
	ref, _ = s.Resolve("ragchecker_checking_inputs/1")
	if q, _ := s.QA(ref.ItemID); !strings.HasPrefix(q.Answer, "The flag of the Democratic Republic of the Congo (DRC) features") || len(q.Contexts) != 3 {
		t.Fatalf("QA %+v", q)
	}
}

// ragVariant writes RAGChecker's example checking output, changed by edit,
// to dir/name.
func ragVariant(t *testing.T, dir, name string, edit func(results []map[string]any)) string {
	t.Helper()
	b, err := os.ReadFile(testdata("ragchecker_checking_outputs.json"))
	if err != nil {
		t.Fatal(err)
	}
	var doc map[string]any
	if err := json.Unmarshal(b, &doc); err != nil {
		t.Fatal(err)
	}
	var results []map[string]any
	for _, r := range doc["results"].([]any) {
		results = append(results, r.(map[string]any))
	}
	if edit != nil {
		edit(results)
	}
	out, _ := json.Marshal(doc)
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, out, 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestRAGCheckerMatrices: the four matrices are stored as the file has
// them, per system; the ground-truth claims are claim items
// <source>/<query_id>-g<n> that two systems' files of one source share; a
// changed ground-truth claim, or a matrix that does not fit its claims and
// chunks, is refused with the file, record and field, and changes nothing.
func TestRAGCheckerMatrices(t *testing.T) {
	s := openDB(t)
	dir := t.TempDir()
	a := ragVariant(t, dir, "bm25_gpt4.json", nil)
	sum := mustImport(t, s, []string{a}, Options{Source: "NILE"})
	if f := sum.Files[0]; f.QA.Added != 4 || f.Claims.Added != 46 {
		t.Fatalf("summary %+v", f)
	}
	rows, err := s.RAGResults("")
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != 2 || rows[0].Pair != "NILE/bm25_gpt4/0" || rows[0].System != "bm25_gpt4" || rows[0].Source != "NILE" ||
		rows[0].AnswerPair != "NILE/0/gt" || len(rows[0].AnswerClaims) != 22 || rows[0].AnswerClaims[0] != "NILE/0-g1" ||
		rows[1].AnswerClaims[7] != "NILE/1-g8" {
		t.Fatalf("rows %+v", rows)
	}
	// Stored as imported: the first result's matrices are the file's.
	var file struct {
		Results []metrics.RAGMatrices `json:"results"`
	}
	b, _ := os.ReadFile(a)
	if err := json.Unmarshal(b, &file); err != nil {
		t.Fatal(err)
	}
	for i, r := range rows {
		var got metrics.RAGMatrices
		for _, m := range []struct {
			js  string
			dst any
		}{{r.AnswerToResponse, &got.AnswerToResponse}, {r.ResponseToAnswer, &got.ResponseToAnswer},
			{r.RetrievedToResponse, &got.RetrievedToResponse}, {r.RetrievedToAnswer, &got.RetrievedToAnswer}} {
			if err := json.Unmarshal([]byte(m.js), m.dst); err != nil {
				t.Fatalf("result %d: %q: %v", i, m.js, err)
			}
		}
		if !reflect.DeepEqual(got, file.Results[i]) {
			t.Errorf("result %d stored %+v, the file has %+v", i, got, file.Results[i])
		}
	}
	// The ground-truth claim as the extractor gave it.
	ref, err := s.Resolve("NILE/0-g1")
	if err != nil {
		t.Fatal(err)
	}
	if c, _ := s.Claim(ref.ItemID); c.QAID != "NILE/0/gt" || c.Position != 1 || c.Triplet != [3]string{"The Nile", "is", "a major north-flowing river"} {
		t.Fatalf("claim %+v", c)
	}

	// A second system's file of the same source: its responses are new, the
	// ground-truth answers and claims are the same items.
	b2 := ragVariant(t, dir, "e5_gpt4.json", nil)
	sum = mustImport(t, s, []string{b2}, Options{Source: "NILE"})
	if f := sum.Files[0]; f.QA.Added != 2 || f.QA.Unchanged != 2 || f.Claims.Added != 16 || f.Claims.Unchanged != 30 {
		t.Fatalf("second system %+v", f)
	}
	if n := count(t, s, "SELECT COUNT(*) FROM rag_results"); n != 4 {
		t.Fatalf("%d results, want 4", n)
	}
	// Importing it again changes nothing.
	if sum = mustImport(t, s, []string{b2}, Options{Source: "NILE"}); !sum.NoOp() {
		t.Fatalf("re-import %+v", sum.Files[0])
	}

	before := count(t, s, "SELECT COUNT(*) FROM items") + 1000*count(t, s, "SELECT COUNT(*) FROM rag_results")
	for _, c := range []struct {
		name string
		edit func([]map[string]any)
		want string
	}{
		{"changed_gt.json", func(rs []map[string]any) {
			rs[0]["gt_answer_claims"].([]any)[0] = []any{"The Nile", "is", "a minor river"}
		}, `changed_gt.json: record 1: field "gt_answer_claims[0]": item "NILE/0-g1" is already in the database with different content`},
		{"short_row.json", func(rs []map[string]any) {
			rs[1]["retrieved2answer"].([]any)[3] = []any{"Entailment", "Neutral"}
		}, `short_row.json: record 2: field "retrieved2answer[3]": has 2 verdicts for the 3 chunks of retrieved_context`},
		{"rows.json", func(rs []map[string]any) {
			rs[1]["response2answer"] = []any{"Entailment"}
		}, `rows.json: record 2: field "response2answer": has 1 rows for the 8 claims of gt_answer_claims`},
		{"verdict.json", func(rs []map[string]any) {
			rs[0]["answer2response"].([]any)[2] = 1
		}, `verdict.json: record 1: field "answer2response[2]": want a verdict string, got a number`},
	} {
		p := ragVariant(t, dir, c.name, c.edit)
		_, err := Import(s, []string{p}, Options{Source: "NILE"})
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want %q", c.name, err, c.want)
		}
	}
	if after := count(t, s, "SELECT COUNT(*) FROM items") + 1000*count(t, s, "SELECT COUNT(*) FROM rag_results"); after != before {
		t.Errorf("the refused imports changed the database: %d → %d", before, after)
	}
	// A changed matrix under an existing response is refused, --update
	// replaces it.
	changed := ragVariant(t, dir, "e5_gpt4.json", func(rs []map[string]any) {
		rs[0]["retrieved2response"].([]any)[1] = []any{"Entailment", "Neutral", "Neutral", "Neutral"}
	})
	if _, err := Import(s, []string{changed}, Options{Source: "NILE"}); err == nil || !strings.Contains(err.Error(), `record 1: field "retrieved2response": the result of "NILE/e5_gpt4/0" is already in the database with other content`) {
		t.Errorf("changed matrix: %v", err)
	}
	mustImport(t, s, []string{changed}, Options{Source: "NILE", Update: true})
	rows, _ = s.RAGResults("")
	if !strings.HasPrefix(rows[2].RetrievedToResponse, `[["Neutral","Entailment","Neutral","Neutral"],["Entailment","Neutral"`) {
		t.Errorf("after --update: %s", rows[2].RetrievedToResponse)
	}
}
