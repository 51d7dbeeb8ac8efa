package report

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"testing"

	"github.com/annotate-dev/annotate/store"
)

// The SNLI 1.0 dev pairs (the sBiMPM subset): 1,289 premise/hypothesis
// pairs, each with the labels of five crowd workers (three have four).
const snliDev = "../testdata/snli/snli_1.0_dev_subset_sBiMPM.jsonl"

// seedSNLI imports each SNLI pair as a QA pair (premise as context) with one
// claim (the hypothesis), and its k-th crowd label as annotator ak's
// entailment label, with claim_validity=correct so that it is asked.
func seedSNLI(t *testing.T) (*store.Store, int) {
	t.Helper()
	f, err := os.Open(snliDev)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	type pair struct {
		Labels     []string `json:"annotator_labels"`
		CaptionID  string   `json:"captionID"`
		PairID     string   `json:"pairID"`
		Premise    string   `json:"sentence1"`
		Hypothesis string   `json:"sentence2"`
	}
	var pairs []pair
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 0, 64<<10), 16<<20)
	for sc.Scan() {
		if len(sc.Bytes()) == 0 {
			continue
		}
		var p pair
		if err := json.Unmarshal(sc.Bytes(), &p); err != nil {
			t.Fatal(err)
		}
		pairs = append(pairs, p)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	s := openStore(t)
	seed(t, s, func(b *builder) {
		for _, p := range pairs {
			qa := "snli-" + p.PairID
			q := store.QAPair{ID: qa, Source: "SNLI", Language: "en", Question: "Does the premise entail the hypothesis?",
				Answer: p.Hypothesis, Contexts: []store.Context{{ID: "snli-" + p.CaptionID, Text: p.Premise}}}
			item, _, err := b.Tx.PutQA(q, "h-"+qa, "snli", false)
			b.Fail(err, qa)
			b.IDs[qa] = item
			claim := qa + "-c1"
			c := store.Claim{ID: claim, QAID: qa, Text: p.Hypothesis}
			item, _, err = b.Tx.PutClaim(c, "h-"+claim, "snli", false)
			b.Fail(err, claim)
			b.IDs[claim] = item
			for k, l := range p.Labels {
				who := fmt.Sprintf("a%d", k+1)
				b.Labels(who, claim, "claim_validity=correct", "entailment="+l)
			}
		}
	})
	return s, len(pairs)
}

func TestSNLIAgreement(t *testing.T) {
	s, n := seedSNLI(t)
	if n != 1289 {
		t.Fatalf("%d SNLI pairs, want 1289", n)
	}
	rep, err := store.ReadWith(s, Agreement, AgreementOptions{Field: "entailment"})
	if err != nil {
		t.Fatal(err)
	}
	if got := fmt.Sprint(rep.Annotators); got != "[a1 a2 a3 a4 a5]" {
		t.Fatalf("annotators %s", got)
	}
	e := rep.Fields["entailment"]
	if e.Items != 1289 || e.Complete != 1286 {
		t.Fatalf("items %d, complete %d; want 1289, 1286", e.Items, e.Complete)
	}
	// The values given with the task (5 decimals, to 1e-5): Fleiss' kappa
	// over the 1,286 five-label pairs, per class; Krippendorff's alpha and
	// Gwet's AC1 over all 1,289 pairs.
	near(t, "Fleiss' kappa", e.FleissKappa, 0.66074, 1e-5)
	near(t, "Fleiss entailment", e.PerClass["entailment"].FleissKappa, 0.66472, 1e-5)
	near(t, "Fleiss neutral", e.PerClass["neutral"].FleissKappa, 0.55199, 1e-5)
	near(t, "Fleiss contradiction", e.PerClass["contradiction"].FleissKappa, 0.76755, 1e-5)
	near(t, "Krippendorff's alpha", e.KrippendorffAlpha, 0.66019, 1e-5)
	near(t, "Gwet's AC1", e.GwetAC1, 0.66008, 1e-5)
	// Percent agreement: itertools.combinations over each pair's labels
	// finds 9,962 agreeing label pairs of 12,878.
	near(t, "percent agreement", e.PercentAgreement, 9962.0/12878, 1e-12)
	if len(e.Pairs) != 10 || e.Pairs[0].A != "a1" || e.Pairs[0].B != "a2" {
		t.Fatalf("pairs %+v", e.Pairs)
	}
	// Cohen's kappa from scikit-learn's cohen_kappa_score: a1/a2 over the
	// 1,289 pairs (the first two labels always exist), a1/a5 over the 1,286
	// pairs with a fifth label.
	near(t, "kappa a1/a2", e.Pairs[0].CohenKappa, 0.6916162150547731, 1e-12)
	near(t, "kappa a1/a5", e.Pairs[3].CohenKappa, 0.7223968697677541, 1e-12)
	if e.Pairs[0].N != 1289 || e.Pairs[3].N != 1286 {
		t.Errorf("pair n: a1/a2 %d, a1/a5 %d; want 1289, 1286", e.Pairs[0].N, e.Pairs[3].N)
	}
}
