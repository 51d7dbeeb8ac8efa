package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/annotate-dev/annotate/store"
	"github.com/annotate-dev/annotate/store/storetest"
)

// declaredDB is a database where the lead declared the README tour's
// citation_accuracy and jo and sam judged three QA pairs alike but for the
// citation accuracy of q1 (jo exact, sam partial); q3's answer is
// incorrect, so citation_accuracy is not asked there.
func declaredDB(t *testing.T) string {
	t.Helper()
	path, s := storetest.Create(t, "annotate.db")
	defer s.Close()
	storetest.DeclareExample(t, s)
	storetest.Seed(t, s, func(b *storetest.Builder) {
		for _, q := range []struct{ id, correct, jo, sam string }{
			{"q1", "correct", "exact", "partial"}, {"q2", "partially_correct", "wrong", "wrong"}, {"q3", "incorrect", "", ""},
		} {
			b.QA(q.id, "GDPR", "en", "factual_recall")
			for who, v := range map[string]string{"jo": q.jo, "sam": q.sam} {
				labels := []string{"question_validity=valid", "category=factual_recall", "persona=citizen", "answer_correctness=" + q.correct}
				if v != "" {
					labels = append(labels, "citation_accuracy="+v)
				}
				b.Labels(who, q.id, labels...)
			}
		}
	})
	makeLead(t, s, "lead")
	return path
}

// review --field names a declared field (the database declares it, not
// the build): --json lists its disagreement, --accept its agreement.
func TestReviewOfADeclaredField(t *testing.T) {
	db := declaredDB(t)
	out, err := execute(t, "--db", db, "--as", "lead", "review", "--json", "--field", storetest.ExampleField)
	if err != nil {
		t.Fatalf("review --field citation_accuracy: %v\n%s", err, out)
	}
	var got struct {
		Units []struct {
			Item, Field string
			Labels      map[string]string
		}
		Pending int
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatal(err)
	}
	if len(got.Units) != 1 || got.Units[0].Item != "q1" || got.Units[0].Field != storetest.ExampleField ||
		got.Units[0].Labels["jo"] != "exact" || got.Units[0].Labels["sam"] != "partial" || got.Pending != 1 {
		t.Fatalf("units %+v (pending %d)\n%s", got.Units, got.Pending, out)
	}
	if out, err := execute(t, "--db", db, "--as", "lead", "review", "--accept", "--field", storetest.ExampleField); err != nil {
		t.Fatalf("review --accept: %v\n%s", err, out)
	}
	s, err := store.Open(db)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	for id, want := range map[string]string{"q1": "", "q2": "wrong", "q3": ""} {
		ref, err := storetest.Read(t, s).Resolve(id)
		if err != nil {
			t.Fatal(err)
		}
		d, err := storetest.Read(t, s).AdjudicationItem(ref, nil, "lead", false)
		if err != nil {
			t.Fatal(err)
		}
		if got := d.Final[storetest.ExampleField]; got != want {
			t.Errorf("%s: final citation_accuracy %q, want %q", id, got, want)
		}
	}
}

// stats gives a declared field's distribution in the declared order,
// counting the labels where it is asked (q3's answer is incorrect: not
// asked, no label).
func TestStatsOfADeclaredField(t *testing.T) {
	db := declaredDB(t)
	out, err := execute(t, "--db", db, "stats", "--annotator", "jo")
	if err != nil {
		t.Fatalf("stats: %v\n%s", err, out)
	}
	if want := "Declared fields\n  citation_accuracy (QA pairs, ordinal): wrong 1, partial 0, exact 1\n"; !strings.Contains(out, want) {
		t.Errorf("stats misses\n%s\n%s", want, out)
	}
	out, err = execute(t, "--db", db, "stats", "--annotator", "sam", "--json")
	if err != nil {
		t.Fatalf("stats --json: %v\n%s", err, out)
	}
	var got struct {
		DeclaredFields map[string]map[string]int `json:"declared_fields"`
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatal(err)
	}
	want := map[string]int{"wrong": 1, "partial": 1, "exact": 0}
	if g := got.DeclaredFields[storetest.ExampleField]; !reflect.DeepEqual(g, want) {
		t.Errorf("declared_fields.citation_accuracy %v, want %v", g, want)
	}
}

// guidelines FIELD names a declared field; --lang fr gives the French the
// declaration wrote (and the English without it).
func TestGuidelinesOfADeclaredField(t *testing.T) {
	db := declaredDB(t)
	out, err := execute(t, "--db", db, "guidelines", storetest.ExampleField, "--lang", "fr")
	if err != nil {
		t.Fatalf("guidelines --lang fr: %v\n%s", err, out)
	}
	flat := strings.Join(strings.Fields(out), " ")
	if !strings.Contains(flat, "Comparez les dispositions citées par la réponse") || strings.Contains(flat, "Judge the citations only") {
		t.Errorf("the French guidelines of citation_accuracy:\n%s", out)
	}
	out, err = execute(t, "--db", db, "guidelines", storetest.ExampleField)
	if err != nil {
		t.Fatalf("guidelines: %v\n%s", err, out)
	}
	if flat := strings.Join(strings.Fields(out), " "); !strings.Contains(flat, "Judge the citations only") {
		t.Errorf("the English guidelines of citation_accuracy:\n%s", out)
	}
}

// An interval field declared by the lead takes its labels as JSON numbers
// too (4, 4.0), stored as the declared value; a boolean is refused naming
// the file, the line and the field, and changes nothing. (A number for a
// nominal field is refused: testdata/hostile's labels-value-not-a-string.)
func TestLabelsOfAnIntervalFieldAsNumbers(t *testing.T) {
	dir := t.TempDir()
	path, s := storetest.Create(t, "annotate.db")
	storetest.Seed(t, s, func(b *storetest.Builder) {
		b.QA("q1", "GDPR", "en", "factual_recall")
		b.QA("q2", "GDPR", "en", "factual_recall")
	})
	makeLead(t, s, "lead")
	s.Close()
	yaml := writeTemp(t, dir, "helpfulness.yaml", "kind: qa\nfield: helpfulness\nquestion: How helpful is the answer?\nscale: interval\nmin: 1\nmax: 5\nasked_after: question_validity\nrequired: false\nguidelines: |\n  1 useless, 5 answers fully.\n")
	if out, err := execute(t, "--db", path, "--as", "lead", "fields", "add", yaml); err != nil {
		t.Fatalf("fields add: %v\n%s", err, out)
	}
	labels := writeTemp(t, dir, "labels.jsonl",
		`{"annotator":"jo","item":"q1","field":"helpfulness","value":4}`+"\n"+
			`{"annotator":"jo","item":"q2","field":"helpfulness","value":2.0}`+"\n"+
			`{"annotator":"sam","item":"q1","field":"helpfulness","value":"5"}`+"\n")
	if out, err := execute(t, "--db", path, "import", labels); err != nil || strings.Contains(out, "unknown value") {
		t.Fatalf("import: %v\n%s", err, out)
	}
	bad := writeTemp(t, dir, "bad.jsonl", `{"annotator":"sam","item":"q1","field":"helpfulness","value":3}`+"\n"+
		`{"annotator":"sam","item":"q2","field":"helpfulness","value":true}`+"\n")
	_, err := execute(t, "--db", path, "import", bad)
	if err == nil || !strings.Contains(err.Error(), bad+`:2: field "value": want a string (or, for citations and error_category, an array of strings; for an interval field, a number), got a boolean`) {
		t.Errorf("a boolean value: %v", err)
	}
	s, err = store.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	for _, c := range []struct{ who, item, want string }{{"jo", "q1", "4"}, {"jo", "q2", "2"}, {"sam", "q1", "5"}, {"sam", "q2", ""}} {
		if got := currentLabel(t, s, c.who, c.item, "helpfulness"); got != c.want {
			t.Errorf("%s on %s: helpfulness %q, want %q", c.who, c.item, got, c.want)
		}
	}
}

// currentLabel is who's current label of field on the item with that id.
func currentLabel(t *testing.T, s *store.Store, who, item, field string) string {
	t.Helper()
	ref, err := storetest.Read(t, s).Resolve(item)
	if err != nil {
		t.Fatal(err)
	}
	got, err := storetest.Read(t, s).CurrentLabels(who, ref.ItemID)
	if err != nil {
		t.Fatal(err)
	}
	return got[field]
}

func writeTemp(t *testing.T, dir, name, content string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// An interval field with values that are not whole numbers exports as a
// float column and comes back from the hf folder, JSON lines and Parquet,
// as the declared values.
func TestAFloatIntervalFieldRoundTripsThroughHF(t *testing.T) {
	dir := t.TempDir()
	yaml := writeTemp(t, dir, "confidence.yaml", "kind: qa\nfield: confidence\nquestion: How sure?\nscale: interval\nmin: 0\nmax: 1\nvalues: [\"0\", \"0.5\", \"1\"]\nasked_after: question_validity\nrequired: false\nguidelines: |\n  How sure the annotator is.\n")
	declared := func(name string) string {
		path, s := storetest.Create(t, name)
		storetest.Seed(t, s, func(b *storetest.Builder) {
			for _, q := range []string{"q1", "q2", "q3"} {
				b.QA(q, "GDPR", "en", "factual_recall")
			}
		})
		makeLead(t, s, "lead")
		s.Close()
		if out, err := execute(t, "--db", path, "--as", "lead", "fields", "add", yaml); err != nil {
			t.Fatalf("fields add: %v\n%s", err, out)
		}
		return path
	}
	src := declared("src.db")
	labels := writeTemp(t, dir, "labels.jsonl",
		`{"annotator":"jo","item":"q1","field":"confidence","value":0.5}`+"\n"+
			`{"annotator":"jo","item":"q2","field":"confidence","value":1}`+"\n"+
			`{"annotator":"jo","item":"q3","field":"confidence","value":"0"}`+"\n")
	if out, err := execute(t, "--db", src, "import", labels); err != nil {
		t.Fatalf("import: %v\n%s", err, out)
	}
	want := map[string]string{"q1": "0.5", "q2": "1", "q3": "0"}
	for _, format := range []string{"jsonl", "parquet"} {
		out := filepath.Join(dir, "hf-"+format)
		if o, err := execute(t, "--db", src, "export", "--format", "hf", "--data-format", format, "--out", out, "--annotator", "jo"); err != nil {
			t.Fatalf("export %s: %v\n%s", format, err, o)
		}
		dst := declared(format + ".db")
		if o, err := execute(t, "--db", dst, "import", out); err != nil {
			t.Fatalf("import of the %s folder: %v\n%s", format, err, o)
		}
		s, err := store.Open(dst)
		if err != nil {
			t.Fatal(err)
		}
		for item, v := range want {
			if got := currentLabel(t, s, "jo", item, "confidence"); got != v {
				t.Errorf("%s: jo's confidence on %s %q, want %q", format, item, got, v)
			}
		}
		s.Close()
	}
}

// A declaration file with several mistakes gets every one on stderr, a
// line each ("annotate: FILE:LINE: …"), and nothing is declared.
func TestFieldsAddSaysEveryMistake(t *testing.T) {
	path, s := storetest.Create(t, "annotate.db")
	makeLead(t, s, "lead")
	s.Close()
	bad := writeTemp(t, t.TempDir(), "tone.yaml", "kind: qaa\nfield: tone\nquestion: Tone?\nscale: ordnal\nvalues: [harsh, neutral]\n")
	var out, errb lockedBuffer
	if err := runSafely([]string{"--db", path, "--as", "lead", "fields", "add", bad}, &out, &errb); err == nil {
		t.Fatal("accepted")
	}
	lines := strings.Split(strings.TrimSuffix(errb.String(), "\n"), "\n")
	want := []string{bad + `:1: field "guidelines": missing`, bad + `:1: field "kind": unknown kind "qaa"`, bad + `:4: field "scale": unknown scale "ordnal"`}
	if len(lines) != len(want) {
		t.Fatalf("stderr:\n%s\nwant %d lines", errb.String(), len(want))
	}
	for i, w := range want {
		if !strings.HasPrefix(lines[i], "annotate: "+w) {
			t.Errorf("line %d: %s\nwant annotate: %s…", i+1, lines[i], w)
		}
	}
	if o, err := execute(t, "--db", path, "fields", "list"); err != nil || strings.Contains(o, "tone") {
		t.Errorf("fields list after the refusal: %v\n%s", err, o)
	}
}

// review --field compares the annotators with labels of that field: a
// third annotator who labelled other fields only is not among them (the
// review refused, naming her, before), and naming her says of which field
// she has no labels.
func TestReviewOfAFieldComparesWhoLabelledIt(t *testing.T) {
	db := declaredDB(t)
	kim := writeTemp(t, t.TempDir(), "kim.jsonl", `{"annotator":"kim","item":"q1","field":"question_validity","value":"valid"}`+"\n")
	if out, err := execute(t, "--db", db, "import", kim); err != nil {
		t.Fatalf("import: %v\n%s", err, out)
	}
	out, err := execute(t, "--db", db, "--as", "lead", "review", "--json", "--field", storetest.ExampleField)
	if err != nil {
		t.Fatalf("review --field with kim's other labels: %v\n%s", err, out)
	}
	var got struct{ Annotators []string }
	if err := json.Unmarshal([]byte(out), &got); err != nil || strings.Join(got.Annotators, ",") != "jo,sam" {
		t.Errorf("annotators %v (%v), want jo and sam", got.Annotators, err)
	}
	_, err = execute(t, "--db", db, "--as", "lead", "review", "--json", "--field", storetest.ExampleField, "--annotators", "jo,kim")
	if err == nil || !strings.Contains(err.Error(), `no annotator "kim" with labels of citation_accuracy (annotators with labels of it: jo, sam)`) {
		t.Errorf("--annotators jo,kim: %v", err)
	}
}
