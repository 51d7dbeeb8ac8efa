package main

import (
	"encoding/json"
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
