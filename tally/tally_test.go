package tally

import (
	"fmt"
	"hash/fnv"
	"maps"
	"reflect"
	"slices"
	"strings"
	"testing"
)

// A QA pair with two extracted claims and one claim jo added; jo (7) judged
// the answer correct and its claims, sam (8) judged it incorrect (so his
// claim labels are not asked), and RefChecker predicted both claims. Every
// count below is worked out by hand from docs/metrics.md's definitions.
func demoFamily() *Family {
	return &Family{
		Root: Member{ID: 1, Kind: "qa", Source: 1, Attrs: map[string]string{"hop": "single", "category": "factual_recall"},
			Labels: map[int64]map[string]string{
				7: {"question_validity": "valid", "category": "factual_recall", "persona": "citizen", "answer_correctness": "correct", "missed_claims_checked": "checked"},
				8: {"question_validity": "valid", "category": "factual_recall", "persona": "legal_expert", "answer_correctness": "incorrect"},
			}},
		Children: []Member{
			{ID: 2, Kind: "claim", Source: 1, Attrs: map[string]string{AttrOrigin: "extracted", AttrPosition: "1"},
				Labels: map[int64]map[string]string{
					7: {"claim_validity": "correct", "entailment": "entailment"},
					8: {"claim_validity": "correct", "entailment": "neutral"},
				},
				Predictions: []Prediction{{"refchecker", "entailment", "Entailment"}},
				Queues:      []Queue{{Batch: 5, Assigned: []int64{7, 8}}}},
			{ID: 3, Kind: "claim", Source: 1, Attrs: map[string]string{AttrOrigin: "extracted", AttrPosition: "2"},
				Labels:      map[int64]map[string]string{7: {"claim_validity": "correct", "entailment": "neutral"}},
				Predictions: []Prediction{{"refchecker", "entailment", "contradicted"}},
				Queues:      []Queue{{Batch: 5, Assigned: []int64{8}}}},
			{ID: 4, Kind: "claim", Source: 1, Attrs: map[string]string{AttrOrigin: "annotator", AttrAddedBy: "7", AttrPosition: "3"},
				Labels: map[int64]map[string]string{7: {"claim_added": "yes"}}},
		},
	}
}

// An extractor that found nothing in a response (RefChecker's empty
// <extractor>_response_kg) ran on it as surely as one whose claims it has;
// each counts once per response.
func TestExtractorsThatRan(t *testing.T) {
	f := demoFamily()
	for i := range f.Children {
		f.Children[i].Attrs[AttrExtractor] = "claude2"
	}
	f.Root.Attrs = map[string]string{AttrNoClaimsFrom: "gpt4\nclaude2\ngpt4"}
	got := map[string]int{}
	for k, n := range Compute(f).Counts {
		if k.Name == ExtractorRan {
			got[k.A+" "+k.B] = n
		}
	}
	if want := map[string]int{"claude2 claims": 1, "gpt4 none": 1}; !maps.Equal(got, want) {
		t.Errorf("extractors %v, want %v", got, want)
	}
}

func TestComputeByHand(t *testing.T) {
	got := Compute(demoFamily())
	want := map[string]int{
		"-1 items qa ": 1, "-1 items claim ": 2, "-1 predictions refchecker entailment": 2, "-1 qa_with_claims  ": 1,
		// The extractor of the extracted claims (none named: "") ran on the answer.
		"-1 extractor_ran  claims": 1,
		// jo's QA labels, Table 1 counts, recall and response level.
		"7 label question_validity valid": 1, "7 label category factual_recall": 1, "7 label persona citizen": 1,
		"7 label answer_correctness correct": 1, "7 label missed_claims_checked checked": 1,
		"7 valid_hop  single": 1, "7 valid_generated_category  factual_recall": 1, "7 sigma_a  ": 1, "7 recall_answers  ": 1,
		// expert: entailment, neutral -> 1 of 2 not entailed; RefChecker: Entailment, contradicted -> 1 of 2.
		// The response once for every system, then per system and
		// extractor (none here: "").
		"7 response  1/2":                      1,
		`7 response refchecker 1/2|{"":[1,2]}`: 1,
		// jo's claims.
		"7 label claim_validity correct": 2, "7 label entailment entailment": 1, "7 label entailment neutral": 1,
		"7 sigma_c  ": 2, "7 verification_step  ready": 2, "7 recall_correct  ": 2,
		"7 verification_pair refchecker entailment|entailment": 1, "7 verification_pair refchecker neutral|contradiction": 1,
		"7 claims_added  ": 1, "7 recall_added  ": 1,
		// jo finished the pair and both claims (the last one: the answer is marked).
		"7 queued claim 5": 1, "8 queued claim 5": 2,
		"7 done qa ": 1, "7 done claim ": 2, "7 done_in_batch claim 5": 1,
		// jo judged the answer correct: both claims are asked of jo because of
		// it (not at once), claim 2 also in batch 5, which is assigned to jo.
		"7 offered claim ": 2, "7 offered_in_batch claim 5": 1,
		// sam: the answer is incorrect, so neither claim is asked of him.
		"8 label question_validity valid": 1, "8 label category factual_recall": 1, "8 label persona legal_expert": 1,
		"8 label answer_correctness incorrect": 1, "8 valid_hop  single": 1, "8 valid_generated_category  factual_recall": 1,
		"8 not_asked claim_validity answer_correctness=incorrect": 1, "8 not_asked entailment answer_correctness=incorrect": 1,
		"8 done qa ": 1, "8 gated claim answer_correctness=incorrect": 2, "8 gated_in_batch claim 5": 2,
		// Agreement patterns: sam's claim labels are not counted.
		"-1 agree question_validity 7=valid|8=valid": 1, "-1 agree category 7=factual_recall|8=factual_recall": 1,
		"-1 agree persona 7=citizen|8=legal_expert": 1, "-1 agree answer_correctness 7=correct|8=incorrect": 1,
		"-1 agree claim_validity 7=correct": 2, "-1 agree entailment 7=entailment": 1, "-1 agree entailment 7=neutral": 1,
		"-1 open_disagreement persona ": 1, "-1 open_disagreement answer_correctness ": 1,
	}
	have := map[string]int{}
	for k, n := range got.Counts {
		if k.Source != 1 {
			t.Errorf("%v: source %d", k, k.Source)
		}
		have[fmt.Sprintf("%d %s %s %s", k.Rater, k.Name, k.A, k.B)] = n
	}
	for _, k := range slices.Sorted(maps.Keys(mergeKeys(want, have))) {
		if have[k] != want[k] {
			t.Errorf("%-60q got %d, want %d", k, have[k], want[k])
		}
	}
	skip := map[int64][]Skip{1: {{7, false}, {8, false}}, 2: {{7, false}, {8, true}}, 3: {{7, false}, {8, true}}}
	for id, w := range skip {
		g := slices.Clone(got.Skip[id])
		slices.SortFunc(g, func(a, b Skip) int { return int(a.Annotator - b.Annotator) })
		if !slices.Equal(g, w) {
			t.Errorf("skip of item %d: %v, want %v", id, g, w)
		}
	}
	if len(got.Skip) != len(skip) {
		t.Errorf("skip %v", got.Skip)
	}
}

// queueCounts computes a family's counts of the names the queues read.
func queueCounts(f *Family) map[string]int {
	have := map[string]int{}
	for k, n := range Compute(f).Counts {
		switch strings.TrimSuffix(k.Name, InBatch) {
		case AtOnce, Offered, Withheld, Gated, Done:
			have[fmt.Sprintf("%d %s %s %s", k.Rater, k.Name, k.A, k.B)] = n
		}
	}
	return have
}

func checkQueueCounts(t *testing.T, have, want map[string]int) {
	t.Helper()
	for _, k := range slices.Sorted(maps.Keys(mergeKeys(want, have))) {
		if have[k] != want[k] {
			t.Errorf("%-50q got %d, want %d", k, have[k], want[k])
		}
	}
}

// Claims follow their answer: a claim is asked of an annotator once they
// judged its answer correct, at once when the pair was imported as given or
// the claim is in a batch that asks at once. The counts are worked out by
// hand: a queue holds at_once (everyone's, -1, and the annotator's) +
// offered - withheld items.
func TestClaimsFollowTheirAnswer(t *testing.T) {
	claims := func() []Member {
		return []Member{
			{ID: 2, Kind: "claim", Source: 1, Attrs: map[string]string{AttrOrigin: "extracted", AttrPosition: "1"},
				Labels: map[int64]map[string]string{}, Queues: []Queue{{Batch: 5, Open: true}}},
			{ID: 3, Kind: "claim", Source: 1, Attrs: map[string]string{AttrOrigin: "extracted", AttrPosition: "2"},
				Labels: map[int64]map[string]string{}, Queues: []Queue{{Batch: 6, Assigned: []int64{9}, AtOnce: true}}},
		}
	}
	// Under review: jo (7) judged the answer correct, sam (8) partially
	// correct, kim (9) nothing; claim 3 is in a batch that asks kim at once.
	f := &Family{Root: Member{ID: 1, Kind: "qa", Source: 1, Attrs: map[string]string{},
		Labels: map[int64]map[string]string{
			7: {"question_validity": "valid", "answer_correctness": "correct"},
			8: {"question_validity": "valid", "answer_correctness": "partially_correct"},
		}}, Children: claims()}
	checkQueueCounts(t, queueCounts(f), map[string]int{
		// kim: claim 3 at once (batch 6): 1 claim in kim's queue, 1 in batch 6.
		"9 at_once claim ": 1, "9 at_once_in_batch claim 6": 1,
		// jo: both claims, claim 2 in the open batch 5 (claim 3's batch is kim's).
		"7 offered claim ": 2, "7 offered_in_batch claim 5": 1,
		// sam: neither (the gate), claim 2's batch 5 is open to him.
		"8 gated claim answer_correctness=partially_correct": 2, "8 gated_in_batch claim 5": 1,
	})
	// Imported as given: every claim at once; sam judged the answer
	// incorrect (withheld from him: 2 - 2 = 0 in his queue), jo labelled
	// claim 2 without judging the answer (done: it is not the last claim).
	f = &Family{Root: Member{ID: 1, Kind: "qa", Source: 1, Attrs: map[string]string{AttrAsGiven: "1"},
		Labels: map[int64]map[string]string{
			8: {"question_validity": "valid", "answer_correctness": "incorrect"},
		}}, Children: claims()}
	f.Children[0].Labels[7] = map[string]string{"claim_validity": "correct", "entailment": "entailment"}
	checkQueueCounts(t, queueCounts(f), map[string]int{
		"-1 at_once claim ": 2, "-1 at_once_in_batch claim 5": 1, "9 at_once_in_batch claim 6": 1,
		"7 done claim ": 1, "7 done_in_batch claim 5": 1,
		"8 withheld claim ": 2, "8 withheld_in_batch claim 5": 1,
		"8 gated claim answer_correctness=incorrect": 2, "8 gated_in_batch claim 5": 1,
	})
	// Not given and not judged: jo's label on claim 2 is neither done nor
	// offered (the claim is not asked yet); nothing else is counted.
	f.Root.Attrs[AttrAsGiven] = ""
	delete(f.Root.Labels, 8)
	checkQueueCounts(t, queueCounts(f), map[string]int{"9 at_once claim ": 1, "9 at_once_in_batch claim 6": 1})
}

func mergeKeys(a, b map[string]int) map[string]int {
	m := maps.Clone(a)
	for k := range b {
		m[k] = 0
	}
	return m
}

func TestLastClaimWaitsForMissedClaimsStep(t *testing.T) {
	f := demoFamily()
	delete(f.Root.Labels[7], "missed_claims_checked")
	res := Compute(f)
	if n := res.Counts[Key{Rater: 7, Source: 1, Name: Done, A: "claim"}]; n != 1 {
		t.Errorf("done claims %d: the last claim waits for the missed-claims step", n)
	}
	if n := res.Counts[Key{Rater: 7, Source: 1, Name: RecallNotChecked}]; n != 1 {
		t.Errorf("an answer with claims, not marked, asked of jo: not checked %d", n)
	}
}

func TestAdjudicationSettlesDisagreements(t *testing.T) {
	f := demoFamily()
	f.Root.Labels[Adjudicated] = map[string]string{"question_validity": "valid", "persona": "citizen", "answer_correctness": "correct"}
	res := Compute(f)
	for k, n := range res.Counts {
		if k.Name == OpenDisagreement {
			t.Errorf("still open: %v %d", k, n)
		}
	}
	// The lead judged the question invalid instead: persona is moot.
	f.Root.Labels[Adjudicated] = map[string]string{"question_validity": "invalid"}
	res = Compute(f)
	open := []string{}
	for k := range res.Counts {
		if k.Name == OpenDisagreement {
			open = append(open, k.A)
		}
	}
	if len(open) != 0 {
		t.Errorf("open after an invalid question: %s", strings.Join(open, ", "))
	}
}

func TestParsePattern(t *testing.T) {
	p := ParsePattern("7=valid|12=invalid")
	if len(p) != 2 || p[7] != "valid" || p[12] != "invalid" {
		t.Errorf("%v", p)
	}
}

// TestVersionFingerprint fails when the rules change what a family
// contributes: a database keeps the counts of the rules that wrote them and
// is recounted only when Version differs, so change Version with the rules
// (then copy the new fingerprint here).
func TestVersionFingerprint(t *testing.T) {
	const want = "8 394b4a72588d92bc"
	var lines []string
	for _, f := range []*Family{demoFamily(), func() *Family {
		f := demoFamily()
		f.Root.Labels[Adjudicated] = map[string]string{"question_validity": "invalid", "invalid_reason": "both"}
		delete(f.Root.Labels[7], "missed_claims_checked")
		return f
	}(), genFamily(), answerFamily(), relevanceFamily("1", "2", "relevant")} {
		res := Compute(f)
		for k, n := range res.Counts {
			lines = append(lines, fmt.Sprintf("%v=%d", k, n))
		}
		for id, who := range res.Skip {
			ids := []int64{}
			for _, w := range who {
				ids = append(ids, w.Annotator)
			}
			lines = append(lines, fmt.Sprintf("skip %d %v", id, slices.Sorted(slices.Values(ids))))
		}
		for id, who := range res.Asked {
			lines = append(lines, fmt.Sprintf("asked %d %v", id, slices.Sorted(slices.Values(who))))
		}
	}
	slices.Sort(lines)
	h := fnv.New64a()
	h.Write([]byte(strings.Join(lines, "\n")))
	got := fmt.Sprintf("%s %x", Version, h.Sum64())
	if got != want {
		t.Errorf("fingerprint %q, want %q: the rules changed what families contribute; change Version (databases are recounted when opened) and this fingerprint", got, want)
	}
}

// TestAskedByHand: whom the claims of the demo family are asked of, worked
// out from the rules: jo (7) judged the answer correct, so its two
// extracted claims are asked of jo; sam (8) judged it incorrect, so they
// ask sam nothing; the claim jo added has no queue. Imported as given, the
// claims are asked of everyone; in a batch that asks at once, of its
// assignees, and of jo as before.
func TestAskedByHand(t *testing.T) {
	asked := func(f *Family) map[int64][]int64 {
		out := map[int64][]int64{}
		for id, who := range Compute(f).Asked {
			out[id] = slices.Sorted(slices.Values(who))
		}
		return out
	}
	if got, want := asked(demoFamily()), map[int64][]int64{2: {7}, 3: {7}}; !reflect.DeepEqual(got, want) {
		t.Errorf("asked %v, want %v", got, want)
	}
	given := demoFamily()
	given.Root.Attrs[AttrAsGiven] = "1"
	if got, want := asked(given), map[int64][]int64{2: {Anyone}, 3: {Anyone}}; !reflect.DeepEqual(got, want) {
		t.Errorf("as given: asked %v, want %v", got, want)
	}
	atOnce := demoFamily()
	atOnce.Children[1].Queues = []Queue{{Batch: 6, Assigned: []int64{8, 9}, AtOnce: true}}
	// Claim 3 at once for sam (8) and 9, whatever their labels (sam's
	// gate it: done_items says so, not asked_items), and for jo because
	// jo judged the answer correct.
	if got, want := asked(atOnce), map[int64][]int64{2: {7}, 3: {7, 8, 9}}; !reflect.DeepEqual(got, want) {
		t.Errorf("at once: asked %v, want %v", got, want)
	}
}
