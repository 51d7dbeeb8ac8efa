package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/annotate-dev/annotate/report"
	"github.com/annotate-dev/annotate/schema"
	"github.com/annotate-dev/annotate/store"
	"github.com/annotate-dev/annotate/store/storetest"
	"github.com/annotate-dev/annotate/tui"
	"github.com/annotate-dev/annotate/tui/adjudicate"
)

var rvClasses = []string{"entailment", "neutral", "contradiction"}

// rvDisagree are the claims on which sam's entailment differs from jo's.
var rvDisagree = []int{2, 5, 9, 13, 17}

func rvJo(i int) string { return rvClasses[i%3] }

func rvSam(i int) string {
	if slices.Contains(rvDisagree, i) {
		return rvClasses[(i+2)%3]
	}
	return rvJo(i)
}

func rvPred(i int) string { return rvClasses[(i*2)%3] }

func rvClaim(i int) string { return fmt.Sprintf("gdpr-007-c%02d", i) }

// rvSeed writes a database with 20 claims that jo and sam both judge
// correct, their entailment labels differing on exactly five.
func rvSeed(t *testing.T) string {
	t.Helper()
	path, s := storetest.Create(t, "annotate.db")
	defer s.Close()
	err := s.Import(func(tx *store.Tx) error {
		qa := store.QAPair{ID: "gdpr-007", Source: "GDPR", Language: "en", Question: "Who is a controller?",
			Answer: "The body that determines the purposes and means of the processing.", Category: "factual_recall",
			Contexts: []store.Context{{ID: "gdpr-art4-7", Text: "'controller' means the natural or legal person which determines the purposes and means of the processing of personal data"}}}
		if _, _, err := tx.PutQA(qa, "hq", "f", false); err != nil {
			return err
		}
		for i := 1; i <= 20; i++ {
			id, _, err := tx.PutClaim(store.Claim{ID: rvClaim(i), QAID: qa.ID, Position: i, Triplet: [3]string{"controller", "determines", fmt.Sprint("purpose ", i)},
				Predictions: map[string]string{"refchecker": rvPred(i)}}, "h"+rvClaim(i), "f", false)
			if err != nil {
				return err
			}
			for _, who := range [][2]string{{"jo", rvJo(i)}, {"sam", rvSam(i)}} {
				for _, l := range [][2]string{{schema.ClaimValidity, "correct"}, {schema.Entailment, who[1]}} {
					if _, err := tx.PutLabel(store.Label{Annotator: who[0], ItemID: id, Field: l[0], Value: l[1]}); err != nil {
						return err
					}
				}
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	makeLead(t, s, "lead")
	return path
}

// rvDrive sends a message to the model and runs what it returns.
func rvDrive(m tea.Model, msg tea.Msg) {
	_, cmd := m.Update(msg)
	rvExec(m, cmd)
}

// rvExec runs a command synchronously and feeds its messages back.
func rvExec(m tea.Model, c tea.Cmd) {
	if c == nil {
		return
	}
	switch msg := c().(type) {
	case nil, tea.QuitMsg:
	case tea.BatchMsg:
		for _, c := range msg {
			rvExec(m, c)
		}
	default:
		rvDrive(m, msg)
	}
}

func rvKey(k string) tea.KeyPressMsg { return tea.KeyPressMsg{Code: []rune(k)[0], Text: k} }

// rvRun runs the command line in-process (run) and returns its stdout.
func rvRun(t *testing.T, args ...string) (string, int) {
	t.Helper()
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	old := os.Stdout
	os.Stdout = w
	out := make(chan string)
	go func() {
		b, _ := io.ReadAll(r)
		out <- string(b)
	}()
	code := run(args)
	w.Close()
	os.Stdout = old
	return <-out, code
}

// The review TUI shows exactly the five disagreements; once they are
// adjudicated and the agreements accepted, the adjudicated metrics use the
// final labels, and `annotate metrics --adjudicated --json` says the same.
func TestReviewThenAdjudicatedMetrics(t *testing.T) {
	db := rvSeed(t)

	out, code := rvRun(t, "--db", db, "--as", "lead", "review", "--json")
	if code != 0 {
		t.Fatalf("review --json: exit %d", code)
	}
	var listed struct {
		Units []struct{ Item, Field, State string }
	}
	if err := json.Unmarshal([]byte(out), &listed); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	var want, got []string
	for _, i := range rvDisagree {
		want = append(want, rvClaim(i)+" entailment pending")
	}
	for _, u := range listed.Units {
		got = append(got, u.Item+" "+u.Field+" "+u.State)
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("review --json lists %v, want %v", got, want)
	}

	// The TUI, driven key by key: the lead takes sam's label each time.
	s, err := store.Open(db)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	m := tui.New(tui.Options{Store: s, Annotator: "lead", Start: tui.Review(adjudicate.Options{Store: s, Lead: "lead", Query: store.AdjudicationQuery{Annotators: []string{"jo", "sam"}}})})
	rvDrive(m, tea.WindowSizeMsg{Width: 100, Height: 30})
	rvExec(m, m.Init())
	final := map[int]string{}
	var visited []string
	for k := range 5 {
		scr := m.View().Content
		i := -1
		for _, d := range rvDisagree {
			if strings.Contains(scr, "Claim "+rvClaim(d)+" ") {
				i = d
			}
		}
		if i < 0 {
			t.Fatalf("step %d: no disagreement on screen:\n%s", k, scr)
		}
		visited = append(visited, rvClaim(i))
		final[i] = rvSam(i)
		rvDrive(m, rvKey(fmt.Sprint(slices.Index(rvClasses, final[i])+1)))
	}
	if want := []string{rvClaim(2), rvClaim(5), rvClaim(9), rvClaim(13), rvClaim(17)}; !reflect.DeepEqual(visited, want) {
		t.Errorf("visited %v, want %v", visited, want)
	}
	rvDrive(m, rvKey("A"))
	rvDrive(m, rvKey("y"))
	for i := 1; i <= 20; i++ {
		if final[i] == "" {
			final[i] = rvJo(i)
		}
	}

	rep, err := store.ReadWith(s, report.Metrics, report.MetricsOptions{Selection: report.Selection{Adjudicated: true}})
	if err != nil {
		t.Fatal(err)
	}
	wantConf := map[string]map[string]int{}
	for _, c := range rvClasses {
		wantConf[c] = map[string]int{"entailment": 0, "neutral": 0, "contradiction": 0, "other": 0}
	}
	for i, v := range final {
		wantConf[v][rvPred(i)]++
	}
	all := rep.Verification["all"]
	if all.N != 20 || !reflect.DeepEqual(all.Confusion, wantConf) || rep.Extraction["all"].Valid != 20 {
		t.Fatalf("adjudicated metrics: n %d valid %d confusion %v, want 20 20 %v", all.N, rep.Extraction["all"].Valid, all.Confusion, wantConf)
	}

	out, code = rvRun(t, "--db", db, "metrics", "--adjudicated", "--json")
	if code != 0 {
		t.Fatalf("metrics --adjudicated --json: exit %d", code)
	}
	var cli, lib map[string]any
	if err := json.Unmarshal([]byte(out), &cli); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	b, _ := json.Marshal(rep)
	json.Unmarshal(b, &lib)
	for _, k := range []string{"adjudicated", "verification", "extraction"} {
		if !reflect.DeepEqual(cli[k], lib[k]) {
			t.Errorf("metrics --adjudicated --json %s:\n%v\nreport.Metrics:\n%v", k, cli[k], lib[k])
		}
	}

	// stats and export read the same final labels.
	out, code = rvRun(t, "--db", db, "stats", "--adjudicated", "--json")
	var st struct {
		All struct {
			ValidClaims int            `json:"valid_claims"`
			Entailment  map[string]int `json:"entailment"`
		}
	}
	if err := json.Unmarshal([]byte(out), &st); code != 0 || err != nil {
		t.Fatalf("stats --adjudicated: exit %d %v: %s", code, err, out)
	}
	wantEnt := map[string]int{}
	for _, v := range final {
		wantEnt[v]++
	}
	if st.All.ValidClaims != 20 || !reflect.DeepEqual(st.All.Entailment, wantEnt) {
		t.Errorf("stats --adjudicated: valid %d entailment %v, want 20 %v", st.All.ValidClaims, st.All.Entailment, wantEnt)
	}
	dir := filepath.Join(t.TempDir(), "hf")
	if _, code := rvRun(t, "--db", db, "export", "--adjudicated", "--data-format", "jsonl", "--out", dir); code != 0 {
		t.Fatalf("export --adjudicated: exit %d", code)
	}
	rows, err := os.ReadFile(filepath.Join(dir, "data", "claims", "test.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, line := range strings.Split(strings.TrimSpace(string(rows)), "\n") {
		var row struct{ ID, Annotator, Entailment string }
		if err := json.Unmarshal([]byte(line), &row); err != nil {
			t.Fatal(err)
		}
		var i int
		fmt.Sscanf(strings.TrimPrefix(row.ID, "gdpr-007-c"), "%d", &i)
		if row.Annotator != "adjudicated" || row.Entailment != final[i] {
			t.Errorf("exported %s: %s %s, want adjudicated %s", row.ID, row.Annotator, row.Entailment, final[i])
		}
		n++
	}
	if n != 20 {
		t.Errorf("exported %d claims", n)
	}

	out, _ = rvRun(t, "--db", db, "--as", "lead", "review", "--json")
	if !strings.Contains(out, `"done":5`) || !strings.Contains(out, `"accepted":35`) || !strings.Contains(out, `"pending":0`) {
		t.Errorf("review --json after adjudication: %s", out)
	}
}

// The system view's class pairs, as JSON.
func TestReviewSystemJSON(t *testing.T) {
	db := rvSeed(t)
	out, code := rvRun(t, "--db", db, "--as", "lead", "review", "--system", "refchecker", "--annotator", "sam", "--json")
	if code != 0 {
		t.Fatalf("exit %d", code)
	}
	var got struct {
		N, Agree int
		Cells    []struct {
			Expert, System string
			Count          int
			Items          []string
		}
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatal(err)
	}
	want := map[string][]string{}
	agree := 0
	for i := 1; i <= 20; i++ {
		if rvSam(i) == rvPred(i) {
			agree++
			continue
		}
		k := rvSam(i) + "→" + rvPred(i)
		want[k] = append(want[k], rvClaim(i))
	}
	have := map[string][]string{}
	total := 0
	for i, c := range got.Cells {
		have[c.Expert+"→"+c.System] = c.Items
		total += c.Count
		if i > 0 && c.Count > got.Cells[i-1].Count {
			t.Errorf("cells not sorted by count: %+v", got.Cells)
		}
	}
	if !reflect.DeepEqual(have, want) || got.N != 20 || got.Agree != agree || total != 20-agree {
		t.Errorf("cells %v (n %d agree %d), want %v (agree %d)", have, got.N, got.Agree, want, agree)
	}
}

func TestReviewErrors(t *testing.T) {
	db := rvSeed(t)
	for _, args := range [][]string{
		{"review", "--json", "--annotators", "jo"},
		{"review", "--json", "--annotators", "jo,nobody"},
		{"review", "--json", "--field", "nonsense"},
		{"review", "--json", "--batch", "nope"},
		{"review", "--json", "--system", "refchecker"}, // two annotators: which expert?
		{"review", "--json", "--annotator", "jo", "--adjudicated"},
		{"review", "--json", "--annotator", "nobody"},
	} {
		if _, code := rvRun(t, append([]string{"--db", db, "--as", "lead"}, args...)...); code == 0 {
			t.Errorf("%v: exit 0", args)
		}
	}
	if _, code := rvRun(t, "--db", filepath.Join(t.TempDir(), "none.db"), "--as", "lead", "review", "--json"); code == 0 {
		t.Error("a missing database was accepted")
	}
}

// The lead's adjudication has its time: the review screen's session and
// active time appear in progress --sessions and in cost, task "review".
func TestReviewSessionInReports(t *testing.T) {
	db := rvSeed(t)
	s, err := store.Open(db)
	if err != nil {
		t.Fatal(err)
	}
	clock := time.Date(2026, 3, 2, 9, 0, 0, 0, time.UTC)
	m := tui.New(tui.Options{Store: s, Annotator: "lead", Start: tui.Review(adjudicate.Options{Store: s, Lead: "lead",
		Query: store.AdjudicationQuery{Annotators: []string{"jo", "sam"}}, Now: func() time.Time { return clock }})})
	rvDrive(m, tea.WindowSizeMsg{Width: 100, Height: 30})
	rvExec(m, m.Init())
	// Two gaps before the first decision: 50 s, then 9 min (counts 5 min).
	clock = clock.Add(50 * time.Second)
	rvDrive(m, tea.KeyPressMsg{Code: tea.KeyRight})
	clock = clock.Add(9 * time.Minute)
	rvDrive(m, tea.KeyPressMsg{Code: tea.KeyLeft})
	rvDrive(m, rvKey("1"))
	if err := m.EndSession(); err != nil {
		t.Fatal(err)
	}
	s.Close()

	out, code := rvRun(t, "--db", db, "progress", "--sessions", "--annotator", "lead", "--json")
	if code != 0 {
		t.Fatalf("progress --sessions: exit %d", code)
	}
	var sess struct {
		Annotators map[string]struct {
			Sessions []struct {
				Client        string
				ActiveSeconds float64 `json:"active_seconds"`
				Decisions     int
			}
		}
	}
	if err := json.Unmarshal([]byte(out), &sess); err != nil {
		t.Fatal(err)
	}
	ss := sess.Annotators["lead"].Sessions
	if len(ss) != 1 || ss[0].Client != "review" || ss[0].ActiveSeconds != 350 || ss[0].Decisions != 1 {
		t.Fatalf("lead's sessions %+v, want one review session of 350 s and 1 decision: %s", ss, out)
	}
	out, code = rvRun(t, "--db", db, "cost", "--json")
	if code != 0 {
		t.Fatalf("cost: exit %d", code)
	}
	var cost struct {
		Annotators map[string]struct {
			ActiveHours float64 `json:"active_hours"`
			Kinds       map[string]struct {
				Items       int
				ActiveHours float64 `json:"active_hours"`
			}
		}
	}
	if err := json.Unmarshal([]byte(out), &cost); err != nil {
		t.Fatal(err)
	}
	if k := cost.Annotators["lead"].Kinds["review"]; k.Items != 1 || k.ActiveHours != 350.0/3600 {
		t.Fatalf("cost of the lead's review %+v, want 1 item, 350 s: %s", k, out)
	}
}

// makeLead gives name the role lead: the lead's commands need one.
func makeLead(t *testing.T, s *store.Store, name string) {
	t.Helper()
	if _, err := s.SetAnnotator(nil, name, nil, "", "lead"); err != nil {
		t.Fatal(err)
	}
}
