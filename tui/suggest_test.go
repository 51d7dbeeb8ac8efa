package tui

import (
	"database/sql"
	"strings"
	"testing"
	"time"

	"github.com/annotate-dev/annotate/store/storetest"

	"github.com/charmbracelet/x/exp/teatest/v2"

	"github.com/annotate-dev/annotate/schema"
	"github.com/annotate-dev/annotate/store"
)

// The flow preselects the suggested system's prediction where the field has
// one: enter accepts it; a field without one still has nothing to accept.
func TestFlowPreselectsTheSuggestion(t *testing.T) {
	f := flow{kind: schema.KindClaim, suggested: map[string]string{schema.Entailment: "neutral"}}
	_, log := walk(t, f, ins("enter", "y", "enter")...)
	wantLog(t, log, []string{
		"claim_validity: enter -> refused: enter accepts a preselected option; claim_validity has none: press y/n or 1-2.",
		"claim_validity: y -> save claim_validity=correct",
		"entailment: enter -> save entailment=neutral",
	})
	// A suggested category comes before the generated one.
	q := qaFlow(map[string]string{schema.QuestionValidity: "valid"})
	q.suggested = map[string]string{schema.Category: "false_premise"}
	_, log = walk(t, q, ins("enter")...)
	wantLog(t, log, []string{"category: enter -> save category=false_premise"})
	// Blind, the generated category is what enter accepts, as before.
	_, log = walk(t, qaFlow(map[string]string{schema.QuestionValidity: "valid"}), ins("enter")...)
	wantLog(t, log, []string{"category: enter -> save category=factual_recall"})
}

// annotate --suggest refchecker through the real program: the claim's
// entailment shows RefChecker's "Neutral" preselected, enter accepts it, and
// the label records that it was made with refchecker's suggestion; the
// claim_validity before it (no prediction) is blind.
func TestTeatestSuggestionRecorded(t *testing.T) {
	s := openStore(t)
	err := s.Import(func(tx *store.Tx) error {
		qa := store.QAPair{ID: "q1", Source: "GDPR", Language: "en", Hop: "single", Question: "What does Article 1 protect?",
			Answer: "Natural persons.", Category: "factual_recall"}
		if _, _, err := tx.PutQA(qa, "hq1", "seed", false); err != nil {
			return err
		}
		c := store.Claim{ID: "q1-c1", QAID: "q1", Position: 1, Triplet: [3]string{"Article 1", "protects", "natural persons"},
			Predictions: map[string]string{"refchecker": "Neutral", "ragchecker": "Entailment"}}
		_, _, err := tx.PutClaim(c, "hc1", "seed", false)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	judgeCorrect(t, s, "jo", "q1")
	o := &framed{observed: observed{Model: New(Options{Store: s, Annotator: "jo", Kind: "claim", Client: "test", Suggest: "refchecker"})}}
	tm := teatest.NewTestModel(t, o, teatest.WithInitialTermSize(100, 30))
	waitAt := func(want string) {
		t.Helper()
		deadline := time.Now().Add(5 * time.Second)
		for o.at() != want {
			if time.Now().After(deadline) {
				t.Fatalf("waiting for %s, on %q:\n%s", want, o.at(), o.screen())
			}
			time.Sleep(2 * time.Millisecond)
		}
	}
	waitAt("q1-c1/" + schema.ClaimValidity)
	tm.Send(keyMsg("y"))
	waitAt("q1-c1/" + schema.Entailment)
	for _, want := range []string{"◆ [2] neutral (enter)", "◆ refchecker's suggestion"} {
		deadline := time.Now().Add(5 * time.Second)
		for !strings.Contains(o.screen(), want) {
			if time.Now().After(deadline) {
				t.Fatalf("%q not on screen:\n%s", want, o.screen())
			}
			time.Sleep(2 * time.Millisecond)
		}
	}
	tm.Send(keyMsg("enter"))
	waitAt("q1-c1/own")
	tm.Send(keyMsg("q"))
	tm.Send(keyMsg("q"))
	tm.WaitFinished(t, teatest.WithFinalTimeout(5*time.Second))

	rows, err := storetest.DB(t, s).Query(`SELECT e.field, e.value, e.suggested_by FROM label_events e JOIN items i ON i.id = e.item_id
		WHERE i.ext_id = 'q1-c1' ORDER BY e.id`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var got []string
	for rows.Next() {
		var f, v string
		var by sql.NullString
		if err := rows.Scan(&f, &v, &by); err != nil {
			t.Fatal(err)
		}
		got = append(got, f+"="+v+" by "+by.String)
	}
	want := []string{"claim_validity=correct by ", "entailment=neutral by refchecker"}
	wantLog(t, got, want)
}
