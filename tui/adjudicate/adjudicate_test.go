package adjudicate

import (
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/annotate-dev/annotate/report"
	"github.com/annotate-dev/annotate/schema"
	"github.com/annotate-dev/annotate/store"
	"github.com/annotate-dev/annotate/store/storetest"
)

// The five claims on which sam's entailment differs from jo's.
var disagree = []int{3, 7, 11, 14, 18}

func joLabel(i int) string { return classes[i%3] }

func samLabel(i int) string {
	if slices.Contains(disagree, i) {
		return classes[(i+1)%3]
	}
	return joLabel(i)
}

// pred is refchecker's prediction of claim i, some spelled as RefChecker
// writes them and one outside the classes.
func pred(i int) string {
	switch {
	case i == 20:
		return "not sure"
	case i%4 == 0:
		return "Entailment"
	}
	return classes[(i/2)%3]
}

// seedTwenty: 20 claims, both annotators judge every claim correct, their
// entailment labels differ on exactly five.
func seedTwenty(t testing.TB, s *store.Store) {
	seedClaims(t, s, 20, pred, func(i int) map[string]map[string]string {
		return map[string]map[string]string{
			"jo":  {schema.ClaimValidity: "correct", schema.Entailment: joLabel(i)},
			"sam": {schema.ClaimValidity: "correct", schema.Entailment: samLabel(i)},
		}
	})
}

// finalPick is the lead's decision on a disagreement: jo's label for the
// first two, sam's for the next two, the third class for the last.
func finalPick(k, i int) string {
	switch {
	case k < 2:
		return joLabel(i)
	case k < 4:
		return samLabel(i)
	}
	for _, c := range classes {
		if c != joLabel(i) && c != samLabel(i) {
			return c
		}
	}
	return ""
}

func digitOf(value string) string {
	return itoa(slices.Index(classes, value) + 1)
}

func TestAdjudicateFiveOfTwenty(t *testing.T) {
	s := openStore(t)
	seedTwenty(t, s)
	h := newHarness(t, s, Options{Lead: "lead"}, 100, 30)

	rev := h.m.e.adj.rev
	var want []string
	for _, i := range disagree {
		want = append(want, claimID(i))
	}
	if got := unitIDs(*rev, schema.Entailment); !reflect.DeepEqual(got, want) {
		t.Fatalf("entailment units %v, want %v", got, want)
	}
	if len(rev.Units) != 5 {
		t.Fatalf("%d units, want only the 5 entailment disagreements: %+v", len(rev.Units), rev.Units)
	}
	if rev.Ready != 35 { // 20 claim_validity agreements, then the 15 entailments they make asked
		t.Errorf("ready %d, want 35", rev.Ready)
	}

	// Walk the disagreements: each digit stores the final label and moves on.
	final := map[int]string{}
	var visited []string
	for k := 0; h.current() != ""; k++ {
		if k >= 10 {
			t.Fatal("review does not move on")
		}
		cur := h.current()
		visited = append(visited, strings.Fields(cur)[0])
		scr := h.screen()
		if !strings.Contains(scr, "entailment · "+itoa(k+1)+" of 5") {
			t.Errorf("header of unit %d: %q", k+1, strings.SplitN(scr, "\n", 2)[0])
		}
		i := slices.Index(want, strings.Fields(cur)[0])
		i = disagree[i]
		final[i] = finalPick(k, i)
		h.keys(digitOf(final[i]))
		if h.m.e.err != "" {
			t.Fatal(h.m.e.err)
		}
	}
	if !reflect.DeepEqual(visited, want) {
		t.Errorf("visited %v, want %v", visited, want)
	}
	if !strings.Contains(h.screen(), "Every disagreement is adjudicated (5 done)") {
		t.Errorf("summary missing:\n%s", h.screen())
	}

	// Accept the agreements in one go.
	h.keys("A")
	if !strings.Contains(h.screen(), "Accept 35 agreeing labels") {
		t.Fatalf("no confirmation:\n%s", h.screen())
	}
	h.keys("y")
	if rev := h.m.e.adj.rev; rev.Ready != 0 || rev.Accepted != 35 || rev.Agreeing != 0 {
		t.Errorf("after A: ready %d accepted %d agreeing %d", rev.Ready, rev.Accepted, rev.Agreeing)
	}
	for i := 1; i <= 20; i++ {
		if _, ok := final[i]; !ok {
			final[i] = joLabel(i)
		}
	}
	checkAdjudicatedMetrics(t, s, final)
}

// checkAdjudicatedMetrics compares report.Metrics on the adjudicated labels
// with the confusion of the final labels against the predictions.
func checkAdjudicatedMetrics(t *testing.T, s *store.Store, final map[int]string) {
	t.Helper()
	rep, err := store.ReadWith(s, report.Metrics, report.MetricsOptions{Selection: report.Selection{Adjudicated: true}})
	if err != nil {
		t.Fatal(err)
	}
	if ex := rep.Extraction["all"]; ex.Judged != 20 || ex.Valid != 20 {
		t.Errorf("extraction judged %d valid %d, want 20 20", ex.Judged, ex.Valid)
	}
	want := map[string]map[string]int{}
	for _, c := range classes {
		want[c] = map[string]int{"entailment": 0, "neutral": 0, "contradiction": 0, "other": 0}
	}
	for i, v := range final {
		p, known := schema.Normalize(schema.Entailment, pred(i))
		if !known {
			p = "other"
		}
		want[v][p]++
	}
	v := rep.Verification["all"]
	if v.N != 20 || !reflect.DeepEqual(v.Confusion, want) {
		t.Errorf("adjudicated verification n=%d confusion %v, want 20 %v", v.N, v.Confusion, want)
	}
	jo, err := store.ReadWith(s, report.Metrics, report.MetricsOptions{Selection: report.Selection{Annotator: "jo"}})
	if err != nil {
		t.Fatal(err)
	}
	if reflect.DeepEqual(jo.Verification["all"].Confusion, v.Confusion) {
		t.Error("the adjudicated confusion equals jo's: the final labels were not used")
	}
}

// u takes back the last adjudication and shows its unit again; after an
// acceptance it takes back the whole acceptance.
func TestUndoAdjudication(t *testing.T) {
	s := openStore(t)
	seedTwenty(t, s)
	h := newHarness(t, s, Options{Lead: "lead"}, 100, 30)
	first := h.current()
	h.keys("1")
	if h.current() == first {
		t.Fatal("did not move on")
	}
	h.keys("u")
	if h.current() != first {
		t.Fatalf("after undo on %q, want %q", h.current(), first)
	}
	if u := h.m.e.adj.unit(); u.State != store.UnitPending || u.Final != "" {
		t.Errorf("undone unit: %+v", u)
	}
	h.keys("A", "y")
	if h.m.e.adj.rev.Accepted != 35 {
		t.Fatalf("accepted %d", h.m.e.adj.rev.Accepted)
	}
	h.keys("u")
	if rev := h.m.e.adj.rev; rev.Accepted != 0 || rev.Ready != 35 {
		t.Errorf("after undoing the acceptance: accepted %d ready %d", rev.Accepted, rev.Ready)
	}
	if !strings.Contains(h.m.e.status, "35 agreeing labels") {
		t.Errorf("status %q", h.m.e.status)
	}
	h.keys("u")
	if !strings.Contains(h.m.e.status, "Nothing to undo") {
		t.Errorf("status %q", h.m.e.status)
	}
	// n at the confirmation accepts nothing.
	h.keys("A", "n")
	if h.m.e.adj.rev.Accepted != 0 {
		t.Error("n accepted")
	}
}

// A decision on claim_validity makes entailment asked (a follow-up when
// fewer than two annotators labelled it) or moot.
func TestFollowUpAndMoot(t *testing.T) {
	s := openStore(t)
	seedClaims(t, s, 2, func(int) string { return "" }, func(i int) map[string]map[string]string {
		if i == 1 {
			return map[string]map[string]string{
				"jo": {schema.ClaimValidity: "correct", schema.Entailment: "neutral"},
				// An entailment left from before sam judged the claim incorrect: it does not count.
				"sam": {schema.ClaimValidity: "incorrect", schema.Entailment: "contradiction"},
			}
		}
		return map[string]map[string]string{
			"jo":  {schema.ClaimValidity: "correct", schema.Entailment: "neutral"},
			"sam": {schema.ClaimValidity: "correct", schema.Entailment: "entailment"},
			"kim": {schema.ClaimValidity: "incorrect"},
		}
	})
	h := newHarness(t, s, Options{Lead: "lead"}, 100, 30)
	rev := h.m.e.adj.rev
	if got := unitIDs(*rev, schema.ClaimValidity); !reflect.DeepEqual(got, []string{claimID(1), claimID(2)}) {
		t.Fatalf("validity units %v", got)
	}
	if got := unitIDs(*rev, schema.Entailment); !reflect.DeepEqual(got, []string{claimID(2)}) {
		t.Fatalf("entailment units %v (c01 has one label that counts)", got)
	}
	h.keys("y") // c01 correct: its entailment is now asked, jo's label alone
	h.keys("n") // c02 incorrect: its entailment disagreement is moot
	rev = h.m.e.adj.rev
	var got []string
	for _, u := range rev.Units {
		got = append(got, u.ExtID+" "+u.Field+" "+u.State.String()+" "+boolStr(u.FollowUp))
	}
	want := []string{
		claimID(1) + " claim_validity done 0",
		claimID(2) + " claim_validity done 0",
		claimID(1) + " entailment pending 1",
		claimID(2) + " entailment not_asked 0",
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("units\n%v\nwant\n%v", got, want)
	}
	if h.current() != claimID(1)+" entailment" {
		t.Fatalf("on %q, want the follow-up", h.current())
	}
	scr := h.screen()
	for _, want := range []string{"sam  — not asked given their labels (claim_validity incorrect)", "Asked given the adjudicated labels (claim_validity correct)"} {
		if !strings.Contains(scr, want) {
			t.Errorf("missing %q:\n%s", want, scr)
		}
	}
	h.keys("2")
	if h.current() != "" {
		t.Errorf("still on %q", h.current())
	}
	// A moot unit takes no decision.
	h.keys("left")
	if h.current() != claimID(2)+" entailment" {
		t.Fatalf("on %q", h.current())
	}
	h.keys("1")
	if !strings.Contains(h.m.e.status, "nothing to decide") {
		t.Errorf("status %q", h.m.e.status)
	}
}

// --field restricts the units; A accepts the field and what it depends on.
func TestFieldAndBatch(t *testing.T) {
	s := openStore(t)
	seedTwenty(t, s)
	rev, err := storetest.Read(t, s).Adjudication(store.AdjudicationQuery{Field: schema.ClaimValidity})
	if err != nil {
		t.Fatal(err)
	}
	if len(rev.Units) != 0 || rev.Ready != 20 {
		t.Errorf("claim_validity: %d units, %d ready", len(rev.Units), rev.Ready)
	}
	rev, err = storetest.Read(t, s).Adjudication(store.AdjudicationQuery{Field: schema.Entailment})
	if err != nil {
		t.Fatal(err)
	}
	if len(rev.Units) != 5 || rev.Ready != 35 {
		t.Errorf("entailment: %d units, %d ready", len(rev.Units), rev.Ready)
	}
	if _, err := s.CreateBatch(store.BatchSpec{Name: "b", Kind: "claim", Size: 10}); err != nil {
		t.Fatal(err)
	}
	rev, err = storetest.Read(t, s).Adjudication(store.AdjudicationQuery{Batch: "b"})
	if err != nil {
		t.Fatal(err)
	}
	if got := unitIDs(rev, schema.Entailment); !reflect.DeepEqual(got, []string{claimID(3), claimID(7)}) {
		t.Errorf("batch units %v", got)
	}
	if _, err := storetest.Read(t, s).Adjudication(store.AdjudicationQuery{Batch: "nope"}); err == nil {
		t.Error("unknown batch accepted")
	}
	if _, err := storetest.Read(t, s).Adjudication(store.AdjudicationQuery{Annotators: []string{"jo"}}); err == nil {
		t.Error("one annotator accepted")
	}
	if _, err := storetest.Read(t, s).Adjudication(store.AdjudicationQuery{Annotators: []string{"jo", "nobody"}}); err == nil {
		t.Error("unknown annotator accepted")
	}
}

// The lead's flag and note are stored under the lead and shown.
func TestFlagAndNote(t *testing.T) {
	s := openStore(t)
	seedTwenty(t, s)
	h := newHarness(t, s, Options{Lead: "lead"}, 100, 30)
	h.keys("f", "m")
	h.typeText("ask the pilot group")
	h.keys("enter")
	ref, _ := storetest.Read(t, s).Resolve(claimID(3))
	note, flagged, err := storetest.Read(t, s).ItemNote("lead", ref.ItemID)
	if err != nil || !flagged || note != "ask the pilot group" {
		t.Fatalf("note %q flagged %v err %v", note, flagged, err)
	}
	if scr := h.screen(); !strings.Contains(scr, "⚑ flagged ✎ ask the pilot group") {
		t.Errorf("lead's flag and note not shown:\n%s", scr)
	}
}

// A QA pair: units for the fields where the annotators differ, in schema
// order, with the question and answer on screen; values outside the schema
// are never accepted in bulk.
func TestQAPair(t *testing.T) {
	s := openStore(t)
	err := s.Import(func(tx *store.Tx) error {
		qa := store.QAPair{ID: "civil-001", Source: "CIVIL", Language: "fr", Question: "Qui peut contracter ?",
			Answer: "Toute personne peut contracter si elle n'en est pas déclarée incapable par la loi.", Category: "factual_recall",
			Contexts: []store.Context{{ID: "civil-1123", Text: "Toute personne peut contracter si elle n'en est pas déclarée incapable par la loi."}}}
		id, _, err := tx.PutQA(qa, "h", "f", false)
		if err != nil {
			return err
		}
		for _, l := range []struct{ who, field, value string }{
			{"jo", schema.QuestionValidity, "valid"}, {"sam", schema.QuestionValidity, "valid"},
			{"jo", schema.Category, "factual_recall"}, {"sam", schema.Category, "false_premise"},
			{"jo", schema.Persona, "Citizen-ish"}, {"sam", schema.Persona, "Citizen-ish"},
			{"jo", schema.AnswerCorrectness, "correct"}, {"sam", schema.AnswerCorrectness, "correct"},
		} {
			if _, err := tx.PutLabel(store.Label{Annotator: l.who, ItemID: id, Field: l.field, Value: l.value}); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	h := newHarness(t, s, Options{Lead: "lead"}, 100, 30)
	var got []string
	for _, u := range h.m.e.adj.rev.Units {
		got = append(got, u.Field)
	}
	if want := []string{schema.Category, schema.Persona}; !reflect.DeepEqual(got, want) {
		t.Fatalf("units %v, want %v", got, want)
	}
	if rev := h.m.e.adj.rev; rev.Ready != 2 { // question_validity, then answer_correctness
		t.Errorf("ready %d, want 2", rev.Ready)
	}
	scr := h.screen()
	// The generator's category is tagged (the QA kind's render says which it is).
	for _, w := range []string{"Question Qui peut contracter", "[2] factual_recall · jo (generated)", "[3] false_premise · sam", "¶ civil-1123"} {
		if !strings.Contains(scr, w) {
			t.Errorf("missing %q:\n%s", w, scr)
		}
	}
	h.keys("9")
	if !strings.Contains(h.m.e.status, "press 1 to 4") {
		t.Errorf("status %q", h.m.e.status)
	}
	h.keys("3", "1") // category false_premise, persona citizen
	h.keys("A", "y")
	final := map[string]string{}
	for _, f := range schema.Fields(schema.KindQA) {
		ref, _ := storetest.Read(t, s).Resolve("civil-001")
		d, err := storetest.Read(t, s).AdjudicationItem(ref, nil, "lead", false)
		if err != nil {
			t.Fatal(err)
		}
		final[f.Name] = d.Final[f.Name]
	}
	want := map[string]string{schema.QuestionValidity: "valid", schema.InvalidReason: "", schema.Category: "false_premise",
		schema.Persona: "citizen", schema.AnswerCorrectness: "correct"}
	if !reflect.DeepEqual(final, want) {
		t.Errorf("final %v, want %v", final, want)
	}
}

// No key acts on a unit the screen does not show: under the help, a digit
// adjudicates nothing and the screen says it was ignored. (Under the
// "please enlarge" screen of the root model, keys do not reach the review
// at all: tui's TestReviewTooSmallIgnoresKeys.)
func TestHiddenUnitIgnoresKeys(t *testing.T) {
	s := openStore(t)
	seedTwenty(t, s)
	h := newHarness(t, s, Options{Lead: "lead"}, 100, 30)
	first := h.current()
	h.keys("?", "2")
	if got := h.screen(); !strings.Contains(got, "2 ignored while the help is open") {
		t.Fatalf("the help does not say the key was ignored:\n%s", got)
	}
	h.keys("esc")
	if cur := h.current(); cur != first {
		t.Fatalf("on %q, want %q still", cur, first)
	}
	ref, _ := storetest.Read(t, s).Resolve(strings.Fields(first)[0])
	if _, flagged, _ := storetest.Read(t, s).ItemNote("lead", ref.ItemID); flagged {
		t.Fatal("f flagged the hidden unit")
	}
	var n int
	if err := storetest.DB(t, s).QueryRow("SELECT COUNT(*) FROM label_events e JOIN annotators a ON a.id=e.annotator_id WHERE a.name='lead'").Scan(&n); err != nil {
		t.Fatal(err)
	}
	if n != 0 {
		t.Fatalf("%d events of the lead: keys on the hidden unit were applied", n)
	}
}

// The lead's notes are per field too: a note written on the entailment
// unit starts empty when the lead's note on the claim's claim_validity
// exists, and saving it leaves that one alone.
func TestLeadNotesPerField(t *testing.T) {
	s := openStore(t)
	seedTwenty(t, s)
	ref, _ := storetest.Read(t, s).Resolve(claimID(3))
	if err := s.SetNote("lead", ref.ItemID, schema.ClaimValidity, "well formed?", 0); err != nil {
		t.Fatal(err)
	}
	h := newHarness(t, s, Options{Lead: "lead"}, 100, 30)
	if cur := h.current(); cur != claimID(3)+" "+schema.Entailment {
		t.Fatalf("on %q", cur)
	}
	h.keys("m")
	n, ok := h.m.cur.(*noteInput)
	if !ok || n.in.Value() != "" {
		t.Fatalf("the entailment note does not start empty: %T", h.m.cur)
	}
	h.typeText("ask the pilot group")
	h.keys("enter")
	notes, err := storetest.Read(t, s).FieldNotes("lead", ref.ItemID)
	if err != nil {
		t.Fatal(err)
	}
	if len(notes) != 2 || notes[schema.ClaimValidity] != "well formed?" || notes[schema.Entailment] != "ask the pilot group" {
		t.Fatalf("lead's notes %v", notes)
	}
	if scr := h.screen(); !strings.Contains(scr, "✎ well formed?") {
		t.Errorf("the lead's notes are not shown:\n%s", scr)
	}
}

// A unit in which the lead gave a label is shown, marked as theirs, and a
// digit on it is refused with the reason and writes nothing; A leaves it
// for another lead and says so; with AllowOwn the digit decides it.
func TestLeadsOwnUnitIsRefused(t *testing.T) {
	s := openStore(t)
	err := s.Import(func(tx *store.Tx) error {
		qa := store.QAPair{ID: "gdpr-001", Source: "GDPR", Language: "en", Question: "Who is a controller?", Answer: "The body that decides.",
			Category: "factual_recall", Contexts: []store.Context{{ID: "art4", Text: "'controller' means…"}}}
		id, _, err := tx.PutQA(qa, "h", "f", false)
		if err != nil {
			return err
		}
		for _, l := range []struct{ who, field, value string }{
			{"jo", schema.QuestionValidity, "valid"}, {"ana", schema.QuestionValidity, "valid"},
			{"jo", schema.Category, "factual_recall"}, {"ana", schema.Category, "false_premise"},
			{"jo", schema.Persona, "citizen"}, {"ana", schema.Persona, "citizen"},
			{"jo", schema.AnswerCorrectness, "correct"}, {"ana", schema.AnswerCorrectness, "correct"},
		} {
			if _, err := tx.PutLabel(store.Label{Annotator: l.who, ItemID: id, Field: l.field, Value: l.value}); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	h := newHarness(t, s, Options{Lead: "ana"}, 100, 30)
	if scr := h.screen(); !strings.Contains(scr, "Your own unit: you labelled it, so another lead decides it") {
		t.Errorf("the own unit is not marked:\n%s", scr)
	}
	h.keys("3")
	if !strings.Contains(h.m.e.err, "ana labelled category of gdpr-001: a lead never adjudicates a unit in which they gave a label") {
		t.Errorf("error %q, want the refusal", h.m.e.err)
	}
	if d, _ := storetest.Read(t, s).AdjudicationItem(store.ItemRef{ItemID: h.m.e.adj.unit().ItemID}, nil, "ana", false); d.Final[schema.Category] != "" {
		t.Errorf("the refused pick was written: %v", d.Final)
	}
	h.keys("A", "y")
	if !strings.Contains(h.m.e.status, "0 agreeing labels accepted") || !strings.Contains(h.m.e.status, "3 units left for another lead: you labelled them") {
		t.Errorf("status %q", h.m.e.status)
	}

	h = newHarness(t, s, Options{Lead: "ana", AllowOwn: true}, 100, 30)
	if scr := h.screen(); strings.Contains(scr, "Your own unit") {
		t.Errorf("with --allow-own the unit is still marked refused:\n%s", scr)
	}
	h.keys("3")
	ref, _ := storetest.Read(t, s).Resolve("gdpr-001")
	if d, _ := storetest.Read(t, s).AdjudicationItem(ref, nil, "ana", false); d.Final[schema.Category] != "false_premise" {
		t.Errorf("--allow-own: final %v, want category false_premise", d.Final)
	}
	if own, _ := storetest.Read(t, s).OwnAdjudications(); own[schema.Category] != 1 {
		t.Errorf("own adjudications %v", own)
	}
}
