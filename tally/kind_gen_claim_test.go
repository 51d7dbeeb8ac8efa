package tally

import (
	"fmt"
	"maps"
	"slices"
	"testing"
	"unicode/utf8"
)

// genFamily: a generated answer of gemma (oracle) to a lay person's query
// in Ontario, 120 characters, with two claims the judge and jo (7) judged.
// The first is unsupported and ungrounded for jo, in two error categories;
// the second is supported and grounded for jo, and its leftover category
// (from before jo changed their mind) is not asked, so it does not count.
func genFamily() *Family {
	return &Family{
		Root: Member{ID: 10, Kind: "gen_answer", Source: 0,
			Attrs:  map[string]string{AttrSystem: "gemma", AttrCondition: "oracle", AttrPersona: "lay", AttrJurisdiction: "ON", AttrChars: "120"},
			Labels: map[int64]map[string]string{}},
		Children: []Member{
			{ID: 11, Kind: "gen_claim", Attrs: map[string]string{},
				Labels: map[int64]map[string]string{7: {"accuracy_support": "not_supported", "grounded": "not_grounded",
					"error_category": `["misapplied_legal_test","document_misattribution"]`}},
				Predictions: []Prediction{{"judge", "accuracy_support", "not_supported"}, {"judge", "grounded", "grounded"}}},
			{ID: 12, Kind: "gen_claim", Attrs: map[string]string{},
				Labels:      map[int64]map[string]string{7: {"accuracy_support": "supported", "grounded": "grounded", "error_category": `["irrelevant"]`}},
				Predictions: []Prediction{{"judge", "accuracy_support", "Supported"}, {"judge", "grounded", "ungrounded"}}},
		},
	}
}

// answerFamily: jo's answer to a professional's query in BC, which the lead
// accepted (copying it into the adjudicated labels, as the review does).
const goldText = "Yes — within 30 days."

func answerFamily() *Family {
	labels := map[string]string{"gold_answer": goldText, "citations": `["doc-1","2019 BCCA 9"]`}
	final := map[string]string{"answer_review": "accept", "gold_answer": goldText, "citations": `["doc-1","2019 BCCA 9"]`}
	return &Family{Root: Member{ID: 20, Kind: "answer_task", Attrs: map[string]string{AttrPersona: "professional", AttrJurisdiction: "BC"},
		Labels: map[int64]map[string]string{7: labels, Adjudicated: final}}}
}

func TestGenCountsByHand(t *testing.T) {
	all, lay, on := GenKey("gemma", "oracle", ""), GenKey("gemma", "oracle", "persona=lay"), GenKey("gemma", "oracle", "jurisdiction=ON")
	want := map[string]int{
		"-1 items gen_answer ": 1, "-1 items gen_claim ": 2,
		"-1 predictions judge accuracy_support": 2, "-1 predictions judge grounded": 2,
		// jo's labels: one key per element of the multi-valued field; the
		// category of the supported, grounded claim is not asked.
		"7 label accuracy_support not_supported": 1, "7 label accuracy_support supported": 1,
		"7 label grounded not_grounded": 1, "7 label grounded grounded": 1,
		"7 label error_category misapplied_legal_test": 1, "7 label error_category document_misattribution": 1,
		"7 not_asked error_category accuracy_support=supported": 1,
		"7 done gen_claim ":                         2,
		"-1 agree accuracy_support 7=not_supported": 1, "-1 agree accuracy_support 7=supported": 1,
		"-1 agree grounded 7=not_grounded": 1, "-1 agree grounded 7=grounded": 1,
		// The judge against jo, overall: the judge's "Supported" and
		// "ungrounded" are read as the field's values.
		"7 gen_pair " + all + " judge|accuracy_support|not_supported|not_supported": 1,
		"7 gen_pair " + all + " judge|grounded|not_grounded|grounded":               1,
		"7 gen_pair " + all + " judge|accuracy_support|supported|supported":         1,
		"7 gen_pair " + all + " judge|grounded|grounded|not_grounded":               1,
	}
	for _, k := range []string{all, lay, on} {
		want["-1 gen_answers "+k+" "] = 1
		want["-1 gen_chars "+k+" "] = 120
		want["-1 gen_claims "+k+" "] = 2
		for _, v := range []string{"accuracy_support=not_supported", "grounded=grounded", "accuracy_support=supported", "grounded=not_grounded"} {
			want["-1 gen_verdict "+k+" judge|"+v] = 1
			want["7 gen_label "+k+" "+v] = 1
		}
		want["7 gen_errors "+k+` ["misapplied_legal_test","document_misattribution"]`] = 1
	}
	checkCounts(t, Compute(genFamily()), want)
}

func TestGoldAnswerCountsByHand(t *testing.T) {
	n := utf8.RuneCountInString(goldText) // 21 characters, the dash one of them
	if n != 21 {
		t.Fatalf("gold text has %d characters", n)
	}
	want := map[string]int{
		"-1 items answer_task ": 1, "-1 items_by answer_task/persona professional": 1, "-1 items_by answer_task/jurisdiction BC": 1,
		// Free text and free citations count that they are there, not by value.
		"7 label gold_answer ": 1, "7 label citations ": 1, "7 done answer_task ": 1,
		"0 label answer_review accept": 1, "0 label gold_answer ": 1, "0 label citations ": 1,
	}
	for _, sl := range []string{"", "persona=professional", "jurisdiction=BC"} {
		for _, r := range []string{"7", "0"} {
			want[r+" gold_answers "+sl+" "] = 1
			want[r+" gold_chars "+sl+" "] = n
		}
	}
	checkCounts(t, Compute(answerFamily()), want)
	// Rejected: the lead's copy of the text is no gold answer.
	f := answerFamily()
	f.Root.Labels[Adjudicated]["answer_review"] = "reject"
	f.Root.Labels[Adjudicated]["reject_reason"] = "off_target"
	res := Compute(f)
	if n := res.Counts[Key{Rater: Adjudicated, Name: GoldAnswers}]; n != 0 {
		t.Errorf("a rejected answer counts as gold: %d", n)
	}
	if n := res.Counts[Key{Rater: Adjudicated, Name: Label, A: "reject_reason", B: "off_target"}]; n != 1 {
		t.Errorf("reject reason counted %d times", n)
	}
}

func checkCounts(t *testing.T, got Result, want map[string]int) {
	t.Helper()
	have := map[string]int{}
	for k, n := range got.Counts {
		have[fmt.Sprintf("%d %s %s %s", k.Rater, k.Name, k.A, k.B)] = n
	}
	for _, k := range slices.Sorted(maps.Keys(mergeKeys(want, have))) {
		if have[k] != want[k] {
			t.Errorf("%-70q got %d, want %d", k, have[k], want[k])
		}
	}
}
