package report

import (
	"errors"
	"strings"
	"testing"

	"github.com/annotate-dev/annotate/store"
	"github.com/annotate-dev/annotate/store/storetest"
)

// seedStale: jo first judged q1 valid with a persona, then changed q1 to
// invalid; jo judged c1 (of q2) correct with an entailment, then changed c1
// to incorrect. The old persona and entailment stay current labels (the log
// keeps them) but are not asked any more, so they must count nowhere.
// sam labelled the same items without changing their mind.
func seedStale(t *testing.T) *store.Store {
	s := openStore(t)
	seed(t, s, func(b *builder) {
		b.QA("q1", "GDPR", "en", "factual_recall")
		b.QA("q2", "GDPR", "en", "factual_recall")
		// Both claims belong to q2, which both judge valid: the claims of
		// an invalid question ask nothing at all (protocol_test.go).
		b.Claim("q2", "c1", map[string]string{"refchecker": "neutral"})
		b.Claim("q2", "c2", map[string]string{"refchecker": "entailment"})
		b.Labels("jo", "q1", "question_validity=valid", "persona=citizen", "question_validity=invalid")
		b.Labels("jo", "q2", "question_validity=valid", "persona=legal_expert")
		b.Labels("jo", "c1", "claim_validity=correct", "entailment=neutral", "claim_validity=incorrect")
		b.Labels("jo", "c2", "claim_validity=correct", "entailment=entailment")
		b.Labels("sam", "q1", "question_validity=valid", "persona=citizen")
		b.Labels("sam", "q2", "question_validity=valid", "persona=legal_expert")
		b.Labels("sam", "c1", "claim_validity=correct", "entailment=neutral")
		b.Labels("sam", "c2", "claim_validity=correct", "entailment=entailment")
	})
	return s
}

func TestAskedWhenRule(t *testing.T) {
	s := seedStale(t)
	// The stale labels are still jo's current labels: the rule is the
	// report's, not the store's.
	ref, _ := storetest.Read(t, s).Resolve("q1")
	if cur, _ := storetest.Read(t, s).CurrentLabels("jo", ref.ItemID); cur["persona"] != "citizen" || cur["question_validity"] != "invalid" {
		t.Fatalf("jo's current labels on q1: %v", cur)
	}

	st, err := store.ReadWith(s, Stats, Selection{Annotator: "jo"})
	if err != nil {
		t.Fatal(err)
	}
	g := st.Sources["GDPR"]
	if g.QAJudged != 2 || g.QAValid != 1 || g.Persona["citizen"] != 0 || g.Persona["legal_expert"] != 1 {
		t.Errorf("jo's QA stats: judged %d valid %d persona %v", g.QAJudged, g.QAValid, g.Persona)
	}
	if g.ClaimsJudged != 2 || g.ValidClaims != 1 || g.Entailment["neutral"] != 0 || g.Entailment["entailment"] != 1 {
		t.Errorf("jo's claim stats: judged %d valid %d entailment %v", g.ClaimsJudged, g.ValidClaims, g.Entailment)
	}
	if st.NotAsked["persona"] != 1 || st.NotAsked["entailment"] != 1 {
		t.Errorf("not asked %v, want persona 1, entailment 1", st.NotAsked)
	}
	if out := render(t, st.WriteText); !strings.Contains(out, "not asked given the other labels (kept in the history): entailment 1, persona 1") {
		t.Errorf("stats text does not say what it left out:\n%s", out)
	}
	// sam's labels are sam's own: the persona of q1 counts for sam.
	st, _ = store.ReadWith(s, Stats, Selection{Annotator: "sam"})
	if p := st.All.Persona; p["citizen"] != 1 || p["legal_expert"] != 1 {
		t.Errorf("sam's persona %v", p)
	}

	m, err := store.ReadWith(s, Metrics, MetricsOptions{Selection: Selection{Annotator: "jo"}})
	if err != nil {
		t.Fatal(err)
	}
	v := m.Verification["all"]
	if v.N != 1 || v.LeftOut.JudgedIncorrect != 1 || v.Confusion["neutral"]["neutral"] != 0 {
		t.Errorf("jo's verification n %d left out %+v", v.N, v.LeftOut)
	}

	a, err := store.ReadWith(s, Agreement, AgreementOptions{})
	if err != nil {
		t.Fatal(err)
	}
	// Only q2's persona and c2's entailment are labelled (asked) by both.
	for _, f := range []string{"persona", "entailment"} {
		fa := a.Fields[f]
		if fa.Items != 1 || fa.Units != 2 || fa.Labels["jo"] != 1 || fa.Labels["sam"] != 2 || fa.NotAsked["jo"] != 1 {
			t.Errorf("%s: items %d units %d labels %v not asked %v", f, fa.Items, fa.Units, fa.Labels, fa.NotAsked)
		}
	}
	// question_validity: jo says invalid, sam valid on q1.
	if qv := a.Fields["question_validity"]; qv.Items != 2 || qv.PercentAgreement == nil || *qv.PercentAgreement != 0.5 {
		t.Errorf("question_validity items %d agreement %v", qv.Items, qv.PercentAgreement)
	}
}

func TestSelection(t *testing.T) {
	empty := openStore(t)
	if _, err := store.ReadWith(empty, Stats, Selection{}); err == nil || !strings.Contains(err.Error(), "no annotator has labels yet") {
		t.Errorf("empty store: %v", err)
	}
	if _, err := store.ReadWith(empty, Agreement, AgreementOptions{}); err == nil || !strings.Contains(err.Error(), "has none") {
		t.Errorf("agreement on an empty store: %v", err)
	}

	s := seedStale(t)
	for _, c := range []struct {
		sel  Selection
		want string
	}{
		{Selection{}, "2 annotators have labels: choose --annotator NAME (jo, sam) or --adjudicated"},
		{Selection{Annotator: "bob"}, `no annotator "bob" (annotators with labels: jo, sam)`},
		{Selection{Annotator: "jo", Adjudicated: true}, "not both"},
		{Selection{Adjudicated: true}, "no adjudicated labels yet"},
	} {
		_, err := store.ReadWith(s, Metrics, MetricsOptions{Selection: c.sel})
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%+v: error %v, want %q", c.sel, err, c.want)
		}
	}
	if _, err := store.ReadWith(s, Stats, Selection{Adjudicated: true}); !errors.Is(err, ErrNoAdjudication) {
		t.Errorf("adjudicated without adjudication: %v", err)
	}
	for _, c := range []struct {
		names []string
		want  string
	}{
		{[]string{"jo"}, "--annotators names 1 (jo)"},
		{[]string{"jo", "jo"}, "--annotators names 1 (jo)"},
		{[]string{"jo", "bob"}, `no annotator "bob"`},
	} {
		_, err := store.ReadWith(s, Agreement, AgreementOptions{Annotators: c.names})
		var few *TooFewAnnotatorsError
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%v: error %v, want %q", c.names, err, c.want)
		}
		if strings.Contains(c.want, "names 1") && !errors.As(err, &few) {
			t.Errorf("%v: %T, want *TooFewAnnotatorsError", c.names, err)
		}
	}
	if _, err := store.ReadWith(s, Agreement, AgreementOptions{Field: "colour"}); err == nil || !strings.Contains(err.Error(), `unknown field "colour"`) {
		t.Errorf("unknown field: %v", err)
	}

	// With one annotator, it is the default.
	one := openStore(t)
	seed(t, one, func(b *builder) {
		b.QA("q1", "GDPR", "en", "factual_recall")
		b.Labels("jo", "q1", "question_validity=valid")
	})
	st, err := store.ReadWith(one, Stats, Selection{})
	if err != nil || st.Annotator != "jo" || st.All.QAValid != 1 {
		t.Errorf("only annotator: %v %+v", err, st)
	}
	if _, err := store.ReadWith(one, Agreement, AgreementOptions{}); err == nil || err.Error() != "agreement needs at least two annotators with labels; the database has one (jo)" {
		t.Errorf("agreement with one annotator: %v", err)
	}
}

// Adjudicated labels are the lead's final labels (role adjudicate), read
// with their own asked-when rule.
func TestAdjudicated(t *testing.T) {
	s := seedStale(t)
	seed(t, s, func(b *builder) {
		for _, id := range []string{"q1", "q2", "c1", "c2"} {
			ref, _ := storetest.Read(t, s).Resolve(id)
			b.IDs[id] = ref.ItemID
		}
		b.Adjudicate("lead", "q1", "question_validity", "valid")
		b.Adjudicate("lead", "q1", "persona", "civil_officer")
		b.Adjudicate("lead", "c1", "claim_validity", "correct")
		b.Adjudicate("lead", "c1", "entailment", "contradiction")
		b.Adjudicate("lead", "c2", "claim_validity", "incorrect")
		b.Adjudicate("lead", "c2", "entailment", "entailment") // not asked: c2 is incorrect
	})
	st, err := store.ReadWith(s, Stats, Selection{Adjudicated: true})
	if err != nil {
		t.Fatal(err)
	}
	a := st.All
	if !st.Adjudicated || st.Annotator != "adjudicated" || a.QAJudged != 1 || a.Persona["civil_officer"] != 1 ||
		a.ValidClaims != 1 || a.Entailment["contradiction"] != 1 || a.Entailment["entailment"] != 0 || st.NotAsked["entailment"] != 1 {
		t.Errorf("adjudicated stats %+v, not asked %v", a, st.NotAsked)
	}
	m, err := store.ReadWith(s, Metrics, MetricsOptions{Selection: Selection{Adjudicated: true}})
	if err != nil {
		t.Fatal(err)
	}
	// c1: expert contradiction, refchecker neutral.
	if v := m.Verification["all"]; v.N != 1 || v.Confusion["contradiction"]["neutral"] != 1 {
		t.Errorf("adjudicated verification %+v", v.Confusion)
	}
}
