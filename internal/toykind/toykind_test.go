package toykind

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/exp/teatest/v2"

	"github.com/annotate-dev/annotate/exporter"
	"github.com/annotate-dev/annotate/importer"
	"github.com/annotate-dev/annotate/report"
	"github.com/annotate-dev/annotate/store"
	"github.com/annotate-dev/annotate/store/storetest"
	"github.com/annotate-dev/annotate/tui"
	"github.com/annotate-dev/annotate/tui/adjudicate"
	"github.com/annotate-dev/annotate/tui/tuitest"
)

// Four citations, three labelled by jo and sam in the file; jo checks the
// fourth on the screen. Each says what it is cited for (the toy's own
// table), but c3.
const citations = `{"kind":"citation_check","id":"c1","cited":"a lease binds the landlord's successor","labels":{"jo":{"citation_ok":"yes"},"sam":{"citation_ok":"yes"}}}
{"kind":"citation_check","id":"c2","cited":"rent may be withheld for repairs","labels":{"jo":{"citation_ok":"yes"},"sam":{"citation_ok":"no"}}}
{"kind":"citation_check","id":"c3","labels":{"jo":{"citation_ok":"no"},"sam":{"citation_ok":"no"}}}
{"kind":"citation_check","id":"c4","cited":"notice to quit must be written"}
`

func TestToyKindEndToEnd(t *testing.T) {
	s := storetest.Open(t)
	dir := t.TempDir()
	in := filepath.Join(dir, "citations.jsonl")
	if err := os.WriteFile(in, []byte(citations), 0o644); err != nil {
		t.Fatal(err)
	}

	// Import from a file.
	sum, err := importer.Import(s, []string{in}, importer.Options{})
	if err != nil {
		t.Fatal(err)
	}
	tot := sum.Total()
	if c := tot.Items[string(kindCitation)]; c == nil || c.Added != 4 || tot.LabelsAdded != 6 {
		t.Fatalf("import: items %+v, %d labels added; want 4 citations and 6 labels", tot.Items, tot.LabelsAdded)
	}

	// The queue: jo has c4 left of four.
	q := store.QueueQuery{Annotator: "jo", Kind: string(kindCitation)}
	left, err := storetest.Read(t, s).Queue(q)
	if err != nil || len(left) != 1 || left[0].ExtID != "c4" {
		t.Fatalf("jo's queue: %+v %v, want c4", left, err)
	}
	if done, err := storetest.Read(t, s).QueueDone(q); err != nil || done != 3 {
		t.Fatalf("jo's citations done: %d %v, want 3", done, err)
	}

	// The screen: the queue opens on c4, y records yes.
	labelOnScreen(t, s)
	ref, err := storetest.Read(t, s).Resolve("c4")
	if err != nil {
		t.Fatal(err)
	}
	if cur, err := storetest.Read(t, s).CurrentLabels("jo", ref.ItemID); err != nil || cur[citationOK] != "yes" {
		t.Fatalf("jo's label of c4: %v %v, want yes", cur, err)
	}
	if done, _ := storetest.Read(t, s).QueueDone(q); done != 4 {
		t.Errorf("jo's citations done after the screen: %d, want 4", done)
	}

	// Kept counts: what the label writes kept equals a recount.
	checkKept(t, s)

	// Agreement on citation_ok, jo and sam on c1..c3 (c4: jo alone).
	// By hand: jo yes,yes,no; sam yes,no,no. p_o = 2/3; jo says yes 2/3,
	// sam 1/3: p_e = 2/3·1/3 + 1/3·2/3 = 4/9; κ = (2/3-4/9)/(1-4/9) = 0.4.
	rep, err := store.ReadWith(s, report.Agreement, report.AgreementOptions{Field: citationOK})
	if err != nil {
		t.Fatal(err)
	}
	fa := rep.Fields[citationOK]
	if fa == nil || fa.Items != 3 || len(fa.Pairs) != 1 {
		t.Fatalf("agreement: %+v, want 3 items and one pair", fa)
	}
	p := fa.Pairs[0]
	if p.A != "jo" || p.B != "sam" || p.N != 3 || !near(p.PercentAgreement, 2.0/3) || !near(p.CohenKappa, 0.4) {
		t.Errorf("jo/sam: n=%d, agreement %v, κ %v; want 3, 2/3, 0.4", p.N, deref(p.PercentAgreement), deref(p.CohenKappa))
	}

	// Review: c2 is the one disagreement; c1 and c3 agree.
	rev, err := storetest.Read(t, s).Adjudication(store.AdjudicationQuery{Field: citationOK})
	if err != nil {
		t.Fatal(err)
	}
	var units []string
	for _, u := range rev.Units {
		units = append(units, fmt.Sprint(u.ExtID, " ", u.Labels["jo"], "/", u.Labels["sam"]))
	}
	if !slices.Equal(units, []string{"c2 yes/no"}) || rev.Agreeing != 2 {
		t.Errorf("review units %q with %d agreeing; want [c2 yes/no] and 2 agreeing", units, rev.Agreeing)
	}

	adjudicateOnScreen(t, s)

	// Export hf (jo's 4 labels) and the native jsonl (jo's 4, sam's 3 and
	// the lead's adjudication of c2), and import each back: nothing
	// changes, every label exported is met again unchanged.
	for _, x := range []struct {
		format, annotator string
		labels            int
	}{{"hf", "jo", 4}, {"jsonl", "", 8}} {
		format := x.format
		out := filepath.Join(dir, format)
		res, err := exporter.Export(context.Background(), s, exporter.Options{Format: format, Out: out, Annotator: x.annotator,
			LabelsOnly: format == "jsonl"})
		if err != nil {
			t.Fatalf("export %s: %v", format, err)
		}
		if format == "hf" && res.Items["citation_checks"] != 4 {
			t.Errorf("hf export: %v rows, want 4 citation_checks", res.Items)
		}
		again, err := importer.Import(s, []string{out}, importer.Options{})
		if err != nil {
			t.Fatalf("re-import of the %s export: %v", format, err)
		}
		at := again.Total()
		if c := at.Items[string(kindCitation)]; c == nil || c.Unchanged != 4 || c.Added+c.Updated != 0 ||
			at.LabelsAdded != 0 || at.LabelsUnchanged != x.labels {
			t.Errorf("re-import of the %s export: items %+v, labels %d added %d unchanged; want 4 items unchanged, %d labels unchanged",
				format, c, at.LabelsAdded, at.LabelsUnchanged, x.labels)
		}
	}
	// The backup (jsonl) restores onto the same database as a no-op.
	backup := filepath.Join(dir, "backup")
	if _, err := exporter.Export(context.Background(), s, exporter.Options{Format: "jsonl", Out: backup}); err != nil {
		t.Fatal(err)
	}
	restored, err := importer.Import(s, []string{backup}, importer.Options{})
	if err != nil || restored.Backup == nil || !restored.Backup.NoOp() {
		t.Errorf("restoring the backup onto its own database: %+v %v, want a no-op", restored.Backup, err)
	}
	checkKept(t, s)
}

// labelOnScreen opens jo's citation queue on the real program and presses y.
func labelOnScreen(t *testing.T, s *store.Store) {
	t.Helper()
	tm := teatest.NewTestModel(t, tui.New(tui.Options{Store: s, Annotator: "jo", Kind: string(kindCitation), Client: "test"}),
		teatest.WithInitialTermSize(100, 30))
	// The toy's screen draws the citation above the pane, the pane's title,
	// and in it what c4 is cited for, read from the toy's table.
	teatest.WaitFor(t, tm.Output(), func(b []byte) bool {
		return strings.Contains(string(b), "Cites c4") && strings.Contains(string(b), "Cited for") &&
			strings.Contains(string(b), "notice to quit must be written")
	}, teatest.WithDuration(5*time.Second))
	tm.Send(tuitest.Key("y"))
	ref, err := storetest.Read(t, s).Resolve("c4")
	if err != nil {
		t.Fatal(err)
	}
	for deadline := time.Now().Add(5 * time.Second); ; time.Sleep(5 * time.Millisecond) {
		cur, err := storetest.Read(t, s).CurrentLabels("jo", ref.ItemID)
		if err != nil {
			t.Fatal(err)
		}
		if cur[citationOK] != "" {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("no label of c4 five seconds after y")
		}
	}
	tm.Send(tuitest.Key("q"))
	tm.Send(tuitest.Key("q"))
	tm.WaitFinished(t, teatest.WithFinalTimeout(5*time.Second))
}

// adjudicateOnScreen opens the review of citation_ok on the real program,
// where the toy's own drawing shows c2, and picks no (2) as its final label.
func adjudicateOnScreen(t *testing.T, s *store.Store) {
	t.Helper()
	q := store.AdjudicationQuery{Field: citationOK}
	m := tui.New(tui.Options{Store: s, Annotator: "lead", Client: "test",
		Start: tui.Review(adjudicate.Options{Store: s, Lead: "lead", Query: q})})
	tm := teatest.NewTestModel(t, m, teatest.WithInitialTermSize(100, 30))
	teatest.WaitFor(t, tm.Output(), func(b []byte) bool {
		return strings.Contains(string(b), "Cites c2") && strings.Contains(string(b), "Cited for") &&
			strings.Contains(string(b), "rent may be withheld for repairs")
	}, teatest.WithDuration(5*time.Second))
	tm.Send(tuitest.Key("2"))
	for deadline := time.Now().Add(5 * time.Second); ; time.Sleep(5 * time.Millisecond) {
		rev, err := storetest.Read(t, s).Adjudication(q)
		if err != nil {
			t.Fatal(err)
		}
		i := slices.IndexFunc(rev.Units, func(u store.AdjudicationUnit) bool { return u.ExtID == "c2" })
		if i >= 0 && rev.Units[i].Final != "" {
			if rev.Units[i].Final != "no" {
				t.Errorf("c2 adjudicated %q, want no", rev.Units[i].Final)
			}
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("c2 not adjudicated five seconds after 2")
		}
	}
	tm.Send(tuitest.Key("q"))
	tm.Send(tuitest.Key("q"))
	tm.WaitFinished(t, teatest.WithFinalTimeout(5*time.Second))
}

// checkKept compares the kept counts with a recount of the labels.
func checkKept(t *testing.T, s *store.Store) {
	t.Helper()
	read := func() map[string]int {
		out := map[string]int{}
		rows, err := storetest.DB(t, s).Query("SELECT name, rater, source_id, a, b, n FROM kept_counts")
		if err != nil {
			t.Fatal(err)
		}
		defer rows.Close()
		for rows.Next() {
			var name, a, b string
			var r, src, n int64
			if err := rows.Scan(&name, &r, &src, &a, &b, &n); err != nil {
				t.Fatal(err)
			}
			out[fmt.Sprint(name, " ", r, " ", src, " ", a, " ", b)] = int(n)
		}
		return out
	}
	kept := read()
	if len(kept) == 0 {
		t.Fatal("no kept counts")
	}
	storetest.Recount(t, s)
	again := read()
	for k, n := range again {
		if kept[k] != n {
			t.Errorf("kept %s = %d, recount %d", k, kept[k], n)
		}
	}
	if len(kept) != len(again) {
		t.Errorf("%d kept counts, %d after a recount", len(kept), len(again))
	}
}

func near(p *float64, want float64) bool { return p != nil && *p > want-1e-9 && *p < want+1e-9 }

func deref(p *float64) any {
	if p == nil {
		return nil
	}
	return *p
}

// A toy line without its id is refused with file, line and field, and
// nothing of the file is written.
func TestToyLineWithoutIDIsRefused(t *testing.T) {
	s := storetest.Open(t)
	in := filepath.Join(t.TempDir(), "bad.jsonl")
	data := `{"kind":"citation_check","id":"c1","labels":{"jo":{"citation_ok":"yes"}}}
{"kind":"citation_check","labels":{"jo":{"citation_ok":"no"}}}
`
	if err := os.WriteFile(in, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := importer.Import(s, []string{in}, importer.Options{})
	if err == nil || !strings.Contains(err.Error(), "bad.jsonl:2") || !strings.Contains(err.Error(), "id") {
		t.Fatalf("import of a line without id: %v, want an error naming bad.jsonl, line 2 and id", err)
	}
	if _, err := storetest.Read(t, s).Resolve("c1"); err == nil {
		t.Error("c1 was written by a refused import")
	}
}

// The toy's own table: the cited texts of its lines are written into
// citation_checks and read back as its payloads; the same file again
// changes nothing; a changed text is refused without update and replaced
// with it; the backup holds the table, and restores it into a new database
// and onto its own as a no-op.
func TestToyKindOwnTable(t *testing.T) {
	s := storetest.Open(t)
	dir := t.TempDir()
	write := func(name, data string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	in := write("cited.jsonl", `{"kind":"citation_check","id":"k1","cited":"a tenant may withhold rent","labels":{"jo":{"citation_ok":"no"}}}
{"kind":"citation_check","id":"k2","cited":"notice must be in writing"}
`)
	sum, err := importer.Import(s, []string{in}, importer.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if c := sum.Total().Items[string(kindCitation)]; c == nil || c.Added != 2 {
		t.Fatalf("import: %+v, want 2 citations added", sum.Total().Items)
	}
	cited := func(s *store.Store) map[string]string {
		out := map[string]string{}
		for _, id := range []string{"k1", "k2"} {
			ref, err := storetest.Read(t, s).Resolve(id)
			if err != nil {
				t.Fatal(err)
			}
			items, err := storetest.Read(t, s).Items([]int64{ref.ItemID})
			if err != nil {
				t.Fatal(err)
			}
			out[id] = items[ref.ItemID].Payload.(*citation).Cited
		}
		return out
	}
	want := map[string]string{"k1": "a tenant may withhold rent", "k2": "notice must be in writing"}
	if got := cited(s); !maps.Equal(got, want) {
		t.Errorf("payloads read back: %v, want %v", got, want)
	}
	var rows int
	if err := storetest.DB(t, s).QueryRow("SELECT count(*) FROM citation_checks WHERE cited <> ''").Scan(&rows); err != nil || rows != 2 {
		t.Errorf("citation_checks holds %d texts (%v), want 2", rows, err)
	}

	again, err := importer.Import(s, []string{in}, importer.Options{})
	if c := again.Total().Items[string(kindCitation)]; err != nil || c == nil || c.Unchanged != 2 {
		t.Errorf("the same file again: %+v %v, want 2 unchanged", again.Total().Items, err)
	}
	changed := write("changed.jsonl", `{"kind":"citation_check","id":"k2","cited":"notice may be oral"}
`)
	if _, err := importer.Import(s, []string{changed}, importer.Options{}); err == nil || !strings.Contains(err.Error(), "changed.jsonl:1") {
		t.Errorf("a changed text without update: %v, want an error naming changed.jsonl:1", err)
	}
	if got := cited(s)["k2"]; got != want["k2"] {
		t.Errorf("k2 after the refused import: %q, want %q", got, want["k2"])
	}
	if _, err := importer.Import(s, []string{changed}, importer.Options{Update: true}); err != nil {
		t.Fatal(err)
	}
	want["k2"] = "notice may be oral"
	if got := cited(s); !maps.Equal(got, want) {
		t.Errorf("payloads after the update: %v, want %v", got, want)
	}

	backup := filepath.Join(dir, "backup")
	if _, err := exporter.Export(context.Background(), s, exporter.Options{Format: "jsonl", Out: backup}); err != nil {
		t.Fatal(err)
	}
	var manifest store.BackupManifest
	if b, err := os.ReadFile(filepath.Join(backup, "backup.json")); err != nil || json.Unmarshal(b, &manifest) != nil {
		t.Fatalf("backup manifest: %v", err)
	}
	if i := slices.IndexFunc(manifest.Tables, func(r store.BackupManifestRow) bool { return r.Name == "citation_checks" }); i < 0 || manifest.Tables[i].Rows != 2 {
		t.Errorf("the backup's tables %+v: want citation_checks with 2 rows", manifest.Tables)
	}
	fresh := storetest.Open(t)
	if res, err := importer.Import(fresh, []string{backup}, importer.Options{}); err != nil || res.Backup == nil {
		t.Fatalf("restoring the backup into a new database: %+v %v", res, err)
	}
	if got := cited(fresh); !maps.Equal(got, want) {
		t.Errorf("payloads restored: %v, want %v", got, want)
	}
	restored, err := importer.Import(s, []string{backup}, importer.Options{})
	if err != nil || restored.Backup == nil || !restored.Backup.NoOp() {
		t.Errorf("restoring the backup onto its own database: %+v %v, want a no-op", restored.Backup, err)
	}
}
