package report

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/annotate-dev/annotate/store"
)

// paperSource is one row of the paper's Table 1 (ClaimRAG-LAW, Section 3.3),
// and for CIVIL the confusion matrix behind Table 3.
type paperSource struct {
	name, lang      string
	qa              int
	persona         [3]int // citizen, civil_officer, legal_expert
	category        [4]int // general_legal_research, factual_recall, false_premise, jurisdiction_time_specific
	answers, claims int
	valid           int
	ent             [3]int     // entailment, neutral, contradiction over valid claims
	confusion       *[3][3]int // expert (rows) x RefChecker (columns); nil: no predictions
}

// civilConfusion is RefChecker against the expert on CIVIL's 385 valid claims,
// derived from the paper:
//
//	Table 1, CIVIL: valid claims by expert class ε 284, η 77, ζ 24 (the row
//	totals, = Table 3's ΣC).
//	Table 3, CIVIL: recall R = diagonal / row total, precision P = diagonal /
//	column total.
//	  ε: R 82.4% of 284 -> 234 (233/284 = 82.0, 235/284 = 82.7); P 89.3%
//	     -> column 262 (234/262 = 89.31; 261 -> 89.7, 263 -> 89.0).
//	  η: R 62.3% of 77 -> 48 (48/77 = 62.34); P 53.3% -> column 90 (48/90).
//	  ζ: R 33.3% of 24 -> 8; P 24.2% -> column 33 (8/33 = 24.24).
//	Columns add up to 262 + 90 + 33 = 385, so no prediction is "other".
//	Off the diagonal, rows leave ε 50, η 29, ζ 16 and columns need ε 28,
//	η 42, ζ 25. With x = ε->η: ε->ζ = 50-x, ζ->η = 42-x, ζ->ε = x-26,
//	η->ε = 54-x, η->ζ = x-25, integral and non-negative for 26 <= x <= 42.
//	Every such x gives the same P, R and F1 (they only read the diagonal and
//	the totals); x = 34 is the middle. F1 = 2·diag/(row+column):
//	468/546 = 85.7, 96/167 = 57.5, 16/57 = 28.1, as printed.
var civilConfusion = [3][3]int{
	{234, 34, 16},
	{20, 48, 9},
	{8, 8, 8},
}

var paperSources = []paperSource{
	{"GDPR", "en", 149, [3]int{20, 77, 52}, [4]int{131, 9, 8, 1}, 63, 520, 453, [3]int{295, 151, 7}, nil},
	{"CIVIL", "fr", 168, [3]int{35, 29, 104}, [4]int{137, 24, 5, 2}, 89, 448, 385, [3]int{284, 77, 24}, &civilConfusion},
}

// pick returns the class of the i-th item when classes take consecutive
// blocks of the given sizes.
func pick(i int, sizes []int, names []string) string {
	for c, n := range sizes {
		if i < n {
			return names[c]
		}
		i -= n
	}
	panic("pick: out of range")
}

var (
	personas   = []string{"citizen", "civil_officer", "legal_expert"}
	categories = []string{"general_legal_research", "factual_recall", "false_premise", "jurisdiction_time_specific"}
	nli        = []string{"entailment", "neutral", "contradiction"}
)

// seedPaper builds ClaimRAG-LAW's label set as annotator "expert": every QA
// pair valid with the persona and category counts of Table 1, the first Σ_A
// answers judged correct and their claims spread over them, the first `valid` claims correct with Table 1's classes,
// and for CIVIL RefChecker's predictions per civilConfusion (incorrect claims
// get a prediction too: they must be left out as judged incorrect).
func seedPaper(t testing.TB, s *store.Store) {
	seed(t, s, func(b *builder) {
		for _, src := range paperSources {
			for i := range src.qa {
				id := fmt.Sprintf("%s-q%03d", src.name, i)
				// The generator said factual_recall for every pair; the expert's
				// category labels give Table 1's counts.
				b.QA(id, src.name, src.lang, "factual_recall")
				// Claims were extracted from the answers judged correct
				// (Table 1's Σ_A); the other answers were judged
				// partially correct or incorrect and have no claims.
				answer := "answer_correctness=correct"
				if i >= src.answers {
					answer = []string{"answer_correctness=partially_correct", "answer_correctness=incorrect"}[i%2]
				}
				b.Labels("expert", id, "question_validity=valid",
					"persona="+pick(i, src.persona[:], personas),
					"category="+pick(i, src.category[:], categories), answer)
			}
			inClass := [3]int{}
			for j := range src.claims {
				id := fmt.Sprintf("%s-c%03d", src.name, j)
				qa := fmt.Sprintf("%s-q%03d", src.name, j%src.answers)
				var preds map[string]string
				var ent string
				if j < src.valid {
					ent = pick(j, src.ent[:], nli)
				}
				if src.confusion != nil {
					p := "neutral"
					if ent != "" {
						c := slices.Index(nli, ent)
						p = pick(inClass[c], src.confusion[c][:], nli)
						inClass[c]++
					}
					preds = map[string]string{"refchecker": p}
				}
				b.Claim(qa, id, preds)
				if ent != "" {
					b.Labels("expert", id, "claim_validity=correct", "entailment="+ent)
				} else {
					b.Labels("expert", id, "claim_validity=incorrect")
				}
			}
		}
	})
}

// section returns the text after the first line equal to (or starting with) head.
func section(t *testing.T, out, head string) string {
	t.Helper()
	i := strings.Index(out, head)
	if i < 0 {
		t.Fatalf("no %q in\n%s", head, out)
	}
	return out[i+len(head):]
}

func TestStatsTable1(t *testing.T) {
	s := openStore(t)
	seedPaper(t, s)
	rep, err := store.ReadWith(s, Stats, Selection{}) // the only annotator
	if err != nil {
		t.Fatal(err)
	}
	out := render(t, rep.WriteText)
	t.Log("\n" + out)
	// Table 1, read across: ΣQA P1 P2 P3 CG1..CG4 Σ_A Σ_C Valid ε η ζ.
	table1 := section(t, out, "Dataset statistics")
	qa := section(t, out, "QA pairs\n")
	claims := section(t, out, "Claims\n")
	for _, c := range []struct {
		row               string
		table1, qa, claim string
	}{
		{"GDPR (EN)", "149 20 77 52 131 9 8 1 63 520 453 295 151 7", "149 149 149 149 0 63 43 43", "520 0 520 453 0"},
		{"CIVIL (FR)", "168 35 29 104 137 24 5 2 89 448 385 284 77 24", "168 168 168 168 0 89 39 40", "448 0 448 385 0"},
		{"Total", "317 55 106 156 268 33 13 3 152 968 838 579 228 31", "317 317 317 317 0 152 82 83", "968 0 968 838 0"},
	} {
		if got := strings.Join(lineFields(t, table1, c.row), " "); got != c.table1 {
			t.Errorf("Table 1 row %s = %s, want %s", c.row, got, c.table1)
		}
		// imported judged valid single multi | correct partial incorrect:
		// pairs past Σ_A alternate partial (even index) and incorrect (odd);
		// GDPR 63..148 has 43 of each, CIVIL 89..167 39 even and 40 odd.
		if got := strings.Join(lineFields(t, qa, c.row), " "); got != c.qa {
			t.Errorf("QA row %s = %s, want %s", c.row, got, c.qa)
		}
		// extracted, not asked, judged, valid, added.
		if got := strings.Join(lineFields(t, claims, c.row), " "); got != c.claim {
			t.Errorf("claims row %s = %s, want %s", c.row, got, c.claim)
		}
	}
	g := rep.Sources["GDPR"]
	if g.QA != 149 || g.QAValid != 149 || g.Persona["citizen"] != 20 || g.Category["general_legal_research"] != 131 ||
		g.AnswersWithClaims != 63 || g.Claims != 520 || g.ValidClaims != 453 || g.Entailment["entailment"] != 295 {
		t.Errorf("GDPR = %+v", g)
	}
	// Every pair was generated as factual_recall; the expert kept 9 (GDPR)
	// and 24 (CIVIL).
	if g.GeneratedCategory["factual_recall"] != 149 || g.CategoryChanged != 140 || rep.All.CategoryChanged != 140+144 {
		t.Errorf("generated %v, changed %d / %d", g.GeneratedCategory, g.CategoryChanged, rep.All.CategoryChanged)
	}
}

func TestMetricsTable3Civil(t *testing.T) {
	s := openStore(t)
	seedPaper(t, s)
	rep, err := store.ReadWith(s, Metrics, MetricsOptions{Selection: Selection{Annotator: "expert"}})
	if err != nil {
		t.Fatal(err)
	}
	out := render(t, rep.WriteText)
	t.Log("\n" + out)
	civil := section(t, out, "CIVIL (FR): 385 claims\n")
	for class, want := range map[string]string{
		"entailment":    "284 89.3 82.4 85.7",
		"neutral":       "77 53.3 62.3 57.5",
		"contradiction": "24 24.2 33.3 28.1",
	} {
		if got := strings.Join(lineFields(t, civil, class), " "); got != want {
			t.Errorf("CIVIL %s: support P R F1 = %s, want %s", class, got, want)
		}
	}
	v := rep.Verification["CIVIL"]
	// scikit-learn 1.x on the 385 (expert, RefChecker) pairs of civilConfusion:
	// precision_recall_fscore_support(y, p, labels=[ε,η,ζ], average=...,
	// zero_division=0), accuracy_score, cohen_kappa_score.
	near(t, "macro P", v.Macro.Precision, 0.5562957822499807, 1e-12)
	near(t, "macro R", v.Macro.Recall, 0.5935512062272625, 1e-12)
	near(t, "macro F1", v.MacroF1, 0.5708983036433398, 1e-12)
	near(t, "weighted P", v.Weighted.Precision, 0.7806070219394301, 1e-12)
	near(t, "weighted F1", v.WeightedF1, 0.7647503547733164, 1e-12)
	near(t, "accuracy", v.Accuracy, 0.7532467532467533, 1e-12)
	near(t, "kappa", v.Kappa, 0.44662985097208563, 1e-12)
	if v.N != 385 || v.LeftOut.JudgedIncorrect != 63 || v.LeftOut.Claims != 448 || v.Confusion["neutral"]["contradiction"] != 9 {
		t.Errorf("CIVIL n %d left %+v confusion %v", v.N, v.LeftOut, v.Confusion)
	}
	// GDPR has no predictions: all 453 valid claims are left out for that.
	if g := rep.Verification["GDPR"]; g.N != 0 || g.LeftOut.NoPrediction != 453 || g.LeftOut.JudgedIncorrect != 67 {
		t.Errorf("GDPR verification %+v", g.LeftOut)
	}
	if !strings.Contains(out, "left out 67 of 520 extracted claims: 0 not asked, 0 not judged, 67 judged incorrect, 0 without an entailment label, 453 without a refchecker prediction") &&
		!strings.Contains(out, "left out 520 of 520") {
		t.Errorf("GDPR left-out line missing")
	}
	// Extraction accuracy (Section 3.3: 86.6% = 838/968 overall), Wilson
	// interval from statsmodels proportion_confint(k, n, method="wilson").
	for _, c := range []struct {
		key    string
		k, n   int
		lo, hi float64
	}{
		{"GDPR", 453, 520, 0.8396132179004122, 0.8972509487292933},
		{"CIVIL", 385, 448, 0.8241207208181427, 0.8885186213980845},
		{"all", 838, 968, 0.8427710304531338, 0.8857428578709358},
	} {
		e := rep.Extraction[c.key]
		if e.Valid != c.k || e.Judged != c.n {
			t.Errorf("%s extraction %d/%d, want %d/%d", c.key, e.Valid, e.Judged, c.k, c.n)
		}
		near(t, c.key+" accuracy", e.Accuracy, float64(c.k)/float64(c.n), 1e-15)
		near(t, c.key+" ci lo", e.CI95[0], c.lo, 1e-12)
		near(t, c.key+" ci hi", e.CI95[1], c.hi, 1e-12)
	}
	if got := strings.Join(lineFields(t, out, "Total"), " "); got != "968 0 968 838 86.6 [84.3, 88.6]" {
		t.Errorf("extraction Total row = %s", got)
	}
}
