package report

import (
	"slices"
	"testing"

	"github.com/annotate-dev/annotate/store"
)

// The bulk reads of store/reportdata.go, on the asked-when fixture.
func TestReportReader(t *testing.T) {
	s := seedStale(t)
	seed(t, s, func(b *builder) {
		ref, _ := s.Resolve("q2")
		b.ids["q2"] = ref.ItemID
		b.added("q2", "q2-jo", "jo")
		b.qa("q3", "GDPR", "en", "false_premise")
		b.added("q3", "q3-jo", "jo") // only an added claim: no extracted claim
	})
	r, err := s.ReportReader()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()

	srcs, err := r.Sources()
	if err != nil || len(srcs) != 1 || srcs[0].Name != "GDPR" || srcs[0].Language != "en" {
		t.Fatalf("sources %+v %v", srcs, err)
	}
	as, err := r.Annotators()
	if err != nil || len(as) != 2 || as[0].Name != "jo" || !as[1].Human {
		t.Fatalf("annotators %+v %v", as, err)
	}
	qas, err := r.QAs(true)
	if err != nil || len(qas) != 3 || qas[2].HasClaims || qas[2].Category != "false_premise" || qas[0].ExtID != "q1" || qas[0].Category != "factual_recall" || !qas[0].HasClaims || qas[0].SourceID != srcs[0].ID {
		t.Fatalf("qas %+v %v", qas, err)
	}
	claims, err := r.Claims(true)
	if err != nil || len(claims) != 4 {
		t.Fatalf("claims %+v %v", claims, err)
	}
	if c := claims[2]; c.ExtID != "q2-jo" || c.Origin != store.OriginAnnotator || c.AddedBy != as[0].ID || c.QAItemID != qas[1].ItemID {
		t.Errorf("added claim %+v", c)
	}
	if c := claims[0]; c.ExtID != "c1" || c.Origin != store.OriginExtracted || c.AddedBy != 0 || c.QAItemID != qas[0].ItemID {
		t.Errorf("extracted claim %+v", c)
	}
	if claims, _ := r.Claims(false); claims[0].ExtID != "" {
		t.Errorf("ext ids read without asking")
	}
	if qas, _ := r.QAs(false); qas[0].ExtID != "" || !qas[0].HasClaims || !qas[1].HasClaims {
		t.Errorf("QA pairs without ext ids %+v", qas)
	}
	preds, err := r.Predictions("refchecker")
	if err != nil || len(preds) != 2 || preds[0].Value != "neutral" || preds[0].ItemID != claims[0].ItemID {
		t.Errorf("predictions %+v %v", preds, err)
	}
	if sys, _ := r.Systems(); !slices.Equal(sys, []string{"refchecker"}) {
		t.Errorf("systems %v", sys)
	}

	// Current labels: jo 2 on each of q1 q2 c1 c2 and claim_added on q2-jo
	// and q3-jo; sam 2 on each.
	all, err := r.Labels(store.LabelQuery{})
	if err != nil || len(all) != 18 {
		t.Fatalf("%d labels, %v", len(all), err)
	}
	jo, _ := r.Labels(store.LabelQuery{Annotators: []int64{as[0].ID}, Fields: []string{"persona", "entailment"}})
	if len(jo) != 4 || jo[0].Field != "persona" || jo[0].Value != "citizen" || jo[0].AnnotatorID != as[0].ID {
		t.Errorf("jo's persona and entailment labels %+v", jo)
	}
	if none, _ := r.Labels(store.LabelQuery{Annotators: []int64{}}); len(none) != 0 {
		t.Errorf("no annotator, %d labels", len(none))
	}
	if ok, _ := r.HasAdjudicated(); ok {
		t.Errorf("adjudicated labels in a store without")
	}
	ext, err := r.ExtIDs([]int64{claims[1].ItemID, qas[0].ItemID, 999})
	if err != nil || !slices.Equal(ext, []string{"c2", "q1", ""}) {
		t.Errorf("ext ids %v %v", ext, err)
	}

	// A reader is one snapshot: a label recorded meanwhile (the reader does
	// not block writers) shows up only in a new reader.
	if _, err := s.RecordLabel(store.Label{Annotator: "kim", ItemID: qas[0].ItemID, Field: "question_validity", Value: "valid"}); err != nil {
		t.Fatal(err)
	}
	if again, _ := r.Labels(store.LabelQuery{}); len(again) != 18 {
		t.Errorf("the snapshot moved: %d labels", len(again))
	}
	r2, err := s.ReportReader()
	if err != nil {
		t.Fatal(err)
	}
	defer r2.Close()
	if now, _ := r2.Labels(store.LabelQuery{}); len(now) != 19 {
		t.Errorf("a new reader sees %d labels, want 19", len(now))
	}
}
