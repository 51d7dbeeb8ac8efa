package tui

import (
	"reflect"
	"testing"

	"github.com/annotate-dev/annotate/schema"
)

// The annotation flow without Bubble Tea or a store: each case walks a flow
// with decision keys, applying what the store would commit, and compares
// the steps and the saves with the protocol (the field tables of docs/keys.md
// and the missed-claims step), written out by hand.

// walk feeds inputs to a flow, committing each save as the store would,
// and records "step: key -> action" lines.
func walk(t *testing.T, f flow, ins ...input) (flow, []string) {
	t.Helper()
	var log []string
	for _, in := range ins {
		at := f.Next()
		a := f.Decide(in)
		line := at.String() + ": " + in.key + " -> "
		switch a.kind {
		case actSave:
			line += "save " + a.field + "=" + a.value
			if a.onAnswer {
				line += " (answer)"
				f = f.Apply(event{kind: evMarked, value: a.value})
			} else {
				f = f.Apply(event{kind: evLabelled, field: a.field, value: a.value})
			}
		case actAddOpen:
			line += "add"
		case actClose:
			line += "close"
			f = f.Apply(event{kind: evStepClosed})
		case actNextItem:
			line += "next item"
		case actRefuse:
			line += "refused: " + a.why
		}
		log = append(log, line)
	}
	return f, log
}

func in(k string) input {
	switch k {
	case "y":
		return input{kind: inYes, key: k}
	case "n":
		return input{kind: inNo, key: k}
	case "enter":
		return input{kind: inAccept, key: k}
	case "a":
		return input{kind: inAdd, key: k}
	}
	return input{kind: inPick, n: int(k[0] - '0'), key: k}
}

func ins(ks ...string) []input {
	out := make([]input, len(ks))
	for i, k := range ks {
		out[i] = in(k)
	}
	return out
}

func qaFlow(labels map[string]string) flow {
	return flow{kind: schema.KindQA, labels: labels, preset: map[string]string{schema.Category: "factual_recall"}}
}

func wantLog(t *testing.T, got, want []string) {
	t.Helper()
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("got\n%q\nwant\n%q", got, want)
	}
}

func TestFlowValidQuestion(t *testing.T) {
	f, log := walk(t, qaFlow(nil), ins("y", "enter", "2", "1")...)
	wantLog(t, log, []string{
		"question_validity: y -> save question_validity=valid",
		"category: enter -> save category=factual_recall",
		"persona: 2 -> save persona=civil_officer",
		"answer_correctness: 1 -> save answer_correctness=correct",
	})
	if f.Next().kind != stepDone {
		t.Fatalf("after four fields: %v", f.Next())
	}
	_, log = walk(t, f, ins("y", "enter")...)
	wantLog(t, log, []string{
		"done: y -> refused: Every field of this item is labelled: enter goes to the next item, u undoes the last decision.",
		"done: enter -> next item",
	})
}

func TestFlowInvalidQuestion(t *testing.T) {
	f, log := walk(t, qaFlow(nil), ins("n", "3")...)
	wantLog(t, log, []string{
		"question_validity: n -> save question_validity=invalid",
		"invalid_reason: 3 -> save invalid_reason=both",
	})
	if f.Next().kind != stepDone {
		t.Fatalf("an invalid question asks nothing more, got %v", f.Next())
	}
}

// Keys that belong to no option are refused with a reason (issue 10 item 2).
func TestFlowRefusesKeysOfNoOption(t *testing.T) {
	f := qaFlow(map[string]string{"question_validity": "valid", "category": "false_premise", "persona": "citizen"})
	_, log := walk(t, f, ins("y", "n", "4", "enter", "a", "3")...)
	wantLog(t, log, []string{
		"answer_correctness: y -> refused: y is not an option of answer_correctness: press 1-3.",
		"answer_correctness: n -> refused: n is not an option of answer_correctness: press 1-3.",
		"answer_correctness: 4 -> refused: answer_correctness has 3 options: press 1-3.",
		"answer_correctness: enter -> refused: enter accepts a preselected option; answer_correctness has none: press 1-3.",
		"answer_correctness: a -> refused: a adds a claim the extractor missed, after the last claim of an answer; answer_correctness: press 1-3.",
		"answer_correctness: 3 -> save answer_correctness=incorrect",
	})
	// A two-way field names both ways of answering; no generated category: enter refused.
	_, log = walk(t, flow{kind: schema.KindQA}, ins("5")...)
	wantLog(t, log, []string{"question_validity: 5 -> refused: question_validity has 2 options: press y/n or 1-2."})
	_, log = walk(t, flow{kind: schema.KindQA, labels: map[string]string{"question_validity": "valid"}}, ins("enter")...)
	wantLog(t, log, []string{"category: enter -> refused: enter accepts a preselected option; category has none: press 1-4."})
}

// An undo is a flow built again from the labels that stand: the retracted
// field is asked again, and the fields depending on it only if they apply.
func TestFlowAfterUndo(t *testing.T) {
	f := qaFlow(map[string]string{"persona": "citizen"}) // validity retracted, persona left
	if got := f.Next(); got.field != schema.QuestionValidity {
		t.Fatalf("Next = %v, want question_validity", got)
	}
	_, log := walk(t, f, ins("n", "1")...)
	wantLog(t, log, []string{
		"question_validity: n -> save question_validity=invalid",
		"invalid_reason: 1 -> save invalid_reason=domain",
	})
}

func TestFlowClaimNotLast(t *testing.T) {
	f, log := walk(t, flow{kind: schema.KindClaim}, ins("a", "y", "3")...)
	wantLog(t, log, []string{
		"claim_validity: a -> refused: a adds a claim the extractor missed, after the last claim of an answer; claim_validity: press y/n or 1-2.",
		"claim_validity: y -> save claim_validity=correct",
		"entailment: 3 -> save entailment=contradiction",
	})
	if f.Next().kind != stepDone {
		t.Fatalf("a claim that is not the last has no missed-claims step: %v", f.Next())
	}
}

func TestFlowMissedClaimsNoneMissed(t *testing.T) {
	f, log := walk(t, flow{kind: schema.KindClaim, own: missedClaims}, ins("n", "y", "enter")...)
	wantLog(t, log, []string{
		"claim_validity: n -> save claim_validity=incorrect",
		"own: y -> refused: y answers no question here: a adds a claim the extractor missed, enter says you are done with this answer.",
		"own: enter -> save missed_claims_checked=checked (answer)",
	})
	if f.Next().kind != stepDone || f.marker != "checked" {
		t.Fatalf("after none missed: %v marker %q", f.Next(), f.marker)
	}
}

func TestFlowMissedClaimsAdded(t *testing.T) {
	f := flow{kind: schema.KindClaim, own: missedClaims, labels: map[string]string{"claim_validity": "incorrect"}}
	_, log := walk(t, f, ins("a")...)
	wantLog(t, log, []string{"own: a -> add"})
	// The claim is committed with the answer's marker: the step stays for another.
	f = f.Apply(event{kind: evClaimAdded, value: "added"})
	if f.Next().kind != askOwn || f.added != 1 || f.marker != "added" {
		t.Fatalf("after an added claim: %v added %d marker %q", f.Next(), f.added, f.marker)
	}
	f, log = walk(t, f, ins("enter")...)
	wantLog(t, log, []string{"own: enter -> close"})
	if f.Next().kind != stepDone {
		t.Fatalf("enter after additions closes the step: %v", f.Next())
	}
	// Resumed later with the marker recorded: nothing asked.
	if g := (flow{kind: schema.KindClaim, own: missedClaims, marker: "added", labels: f.labels}); g.Next().kind != stepDone {
		t.Fatalf("resumed: %v", g.Next())
	}
	// Claims added but the marker not recorded (its write failed): enter records "added".
	g := flow{kind: schema.KindClaim, own: missedClaims, added: 2, labels: f.labels}
	_, log = walk(t, g, ins("enter")...)
	wantLog(t, log, []string{"own: enter -> save missed_claims_checked=added (answer)"})
}

// Apply returns a new flow and leaves the one it was given as it was.
func TestFlowApplyIsPure(t *testing.T) {
	labels := map[string]string{"question_validity": "valid"}
	f := qaFlow(labels)
	g := f.Apply(event{kind: evLabelled, field: "category", value: "false_premise"})
	if len(labels) != 1 || len(f.labels) != 1 || f.Next().field != schema.Category {
		t.Fatalf("Apply changed its input: %v %v", labels, f.labels)
	}
	if g.Next().field != schema.Persona {
		t.Fatalf("Apply: %v", g.Next())
	}
}
