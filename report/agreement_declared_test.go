package report

import (
	"fmt"
	"github.com/annotate-dev/annotate/store"
	"testing"

	"github.com/annotate-dev/annotate/store/storetest"
)

// The citation accuracy jo and sam give ten QA pairs (wrong 0, partial 1,
// exact 2: the declared order).
var (
	joCitations  = []int{2, 2, 1, 0, 2, 1, 1, 0, 2, 1}
	samCitations = []int{2, 1, 1, 0, 1, 0, 1, 1, 2, 2}
)

// TestDeclaredOrdinalFieldAgreement: a field a lead declared (the demo's
// citation_accuracy, ordinal) has the ordinal statistics with no other
// step. References, on the two lists above (/usr/bin/python3):
//
//	sklearn.metrics.cohen_kappa_score(jo, sam, labels=[0,1,2],
//	  weights=None / "linear" / "quadratic"): 0.21875,
//	  0.35897435897435903, 0.5283018867924528
//	Krippendorff's alpha from the coincidence matrix (Krippendorff 2011,
//	  "Computing Krippendorff's alpha-reliability", nominal and ordinal
//	  metric), written out in numpy: 0.25196850393700787,
//	  0.540777972027972
//	agreeing 5 of 10, within one step 10 of 10 (by hand: no pair is
//	  wrong against exact)
func TestDeclaredOrdinalFieldAgreement(t *testing.T) {
	s := storetest.Open(t)
	storetest.DeclareExample(t, s)
	values := []string{"wrong", "partial", "exact"}
	storetest.Seed(t, s, func(b *storetest.Builder) {
		for i := range joCitations {
			id := fmt.Sprintf("q%d", i+1)
			b.QA(id, "GDPR", "en", "factual_recall")
			for who, v := range map[string]int{"jo": joCitations[i], "sam": samCitations[i]} {
				b.Labels(who, id, "question_validity=valid", "category=factual_recall", "persona=citizen",
					"answer_correctness=correct", "citation_accuracy="+values[v])
			}
		}
	})
	rep, err := store.ReadWith(s, Agreement, AgreementOptions{})
	if err != nil {
		t.Fatal(err)
	}
	g := rep.Fields[storetest.ExampleField]
	if g == nil || g.Scale != "ordinal" || g.Scaled == nil || g.Items != 10 || len(g.Pairs) != 1 {
		t.Fatalf("citation_accuracy: %+v", g)
	}
	near(t, "percent agreement", g.PercentAgreement, 0.5, 1e-12)
	near(t, "nominal alpha", g.KrippendorffAlpha, 0.25196850393700787, 1e-12)
	near(t, "ordinal alpha", g.Scaled.KrippendorffAlpha, 0.540777972027972, 1e-12)
	near(t, "within one", g.Scaled.PercentWithinOne, 1, 1e-12)
	p := g.Pairs[0]
	near(t, "kappa", p.CohenKappa, 0.21875, 1e-12)
	near(t, "linear kappa", p.Scaled.CohenKappaLinear, 0.35897435897435903, 1e-12)
	near(t, "quadratic kappa", p.Scaled.CohenKappaQuadratic, 0.5283018867924528, 1e-12)
}
