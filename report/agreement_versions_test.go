package report

import (
	"bytes"
	"strings"
	"testing"

	"github.com/annotate-dev/annotate/store"
	"github.com/annotate-dev/annotate/store/storetest"
)

// TestAgreementByGuidelinesVersion: jo and sam judge entailment; the lead
// changes the entailment guidelines halfway. Made under each version:
//
//	          c1 c2 c3 c8 | c4 c5 c6 | c7
//	v1  jo    E  E  N  -  |          | E
//	    sam   E  N  N  E  |          |
//	v2  jo                | E  C  N  |
//	    sam               | E  C  E  | N
//
// jo judged c8 incorrect, so jo's entailment there is not asked; c7 was
// labelled under different versions, so it is compared under neither.
// Cohen's kappa by hand: v1 over c1-c3, po 2/3, jo E2 N1, sam E1 N2,
// pe 2/3*1/3 + 1/3*2/3 = 4/9, kappa (2/3-4/9)/(5/9) = 0.4. v2 over c4-c6,
// po 2/3, jo E1 C1 N1, sam E2 C1, pe 1/3*2/3 + 1/3*1/3 = 1/3, kappa 0.5.
func TestAgreementByGuidelinesVersion(t *testing.T) {
	s := openStore(t)
	v1 := map[string][2]string{"c1": {"entailment", "entailment"}, "c2": {"entailment", "neutral"}, "c3": {"neutral", "neutral"},
		"c8": {"entailment", "entailment"}, "c7": {"entailment", ""}}
	seed(t, s, func(b *builder) {
		b.QA("q", "GDPR", "en", "factual_recall")
		for _, id := range []string{"c1", "c2", "c3", "c4", "c5", "c6", "c7", "c8"} {
			b.Claim("q", id, nil)
			b.Label("jo", id, "claim_validity", "correct")
			b.Label("sam", id, "claim_validity", "correct")
			for i, who := range []string{"jo", "sam"} {
				if v := v1[id][i]; v != "" {
					b.Label(who, id, "entailment", v)
				}
			}
		}
		b.Label("jo", "c8", "claim_validity", "incorrect")
	})
	if _, err := s.AddGuidelines("lead", "edit", []store.GuidelineText{{Field: "entailment", Text: "## entailment — v2\n\nNew rules.\n"}}); err != nil {
		t.Fatal(err)
	}
	for _, l := range [][3]string{{"jo", "c4", "entailment"}, {"sam", "c4", "entailment"}, {"jo", "c5", "contradiction"},
		{"sam", "c5", "contradiction"}, {"jo", "c6", "neutral"}, {"sam", "c6", "entailment"}, {"sam", "c7", "neutral"}} {
		ref, err := storetest.Read(t, s).Resolve(l[1])
		if err != nil {
			t.Fatal(err)
		}
		if _, err := s.RecordLabel(store.Label{Annotator: l[0], ItemID: ref.ItemID, Field: "entailment", Value: l[2]}); err != nil {
			t.Fatal(err)
		}
	}
	rep, err := store.ReadWith(s, Agreement, AgreementOptions{Field: "entailment", ByGuidelinesVersion: true})
	if err != nil {
		t.Fatal(err)
	}
	fa := rep.Fields["entailment"]
	if fa.Items != 7 {
		t.Errorf("the whole field: %d items, want 7 (c1-c7)", fa.Items)
	}
	vs := fa.ByGuidelinesVersion
	if len(vs) != 2 || vs[0].Version != "1" || vs[1].Version != "2" {
		t.Fatalf("versions %+v, want 1 and 2", vs)
	}
	if vs[0].Author != store.SeedAuthor || vs[1].Author != "lead" {
		t.Errorf("authors %q, %q", vs[0].Author, vs[1].Author)
	}
	// v1: c1-c3 with both, c8 (sam) and c7 (jo) alone; v2: c4-c6, c7 (sam).
	if vs[0].Items != 3 || vs[0].Units != 5 || vs[1].Items != 3 || vs[1].Units != 4 {
		t.Errorf("items/units: v1 %d/%d, v2 %d/%d; want 3/5 and 3/4", vs[0].Items, vs[0].Units, vs[1].Items, vs[1].Units)
	}
	if vs[0].Labels["jo"] != 4 || vs[0].Labels["sam"] != 4 || vs[1].Labels["jo"] != 3 || vs[1].Labels["sam"] != 4 {
		t.Errorf("labels %v %v", vs[0].Labels, vs[1].Labels)
	}
	near(t, "v1 Cohen's kappa", vs[0].Pairs[0].CohenKappa, 0.4, 1e-12)
	near(t, "v2 Cohen's kappa", vs[1].Pairs[0].CohenKappa, 0.5, 1e-12)
	near(t, "v1 percent agreement", vs[0].PercentAgreement, 2.0/3, 1e-12)
	if vs[0].Pairs[0].N != 3 || vs[1].Pairs[0].N != 3 {
		t.Errorf("pair n: %d, %d; want 3", vs[0].Pairs[0].N, vs[1].Pairs[0].N)
	}

	var b bytes.Buffer
	if err := rep.WriteText(&b); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"by guidelines version", "guidelines version 1 (annotate, ", "guidelines version 2 (lead, "} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("text lacks %q:\n%s", want, b.String())
		}
	}

	// Without the option, the JSON has no split.
	rep, _ = store.ReadWith(s, Agreement, AgreementOptions{Field: "entailment"})
	if rep.Fields["entailment"].ByGuidelinesVersion != nil {
		t.Error("split without --by-guidelines-version")
	}
}
