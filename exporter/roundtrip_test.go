package exporter

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/annotate-dev/annotate/importer"
	"github.com/annotate-dev/annotate/report"
	"github.com/annotate-dev/annotate/schema"
	"github.com/annotate-dev/annotate/store"
	"github.com/annotate-dev/annotate/store/storetest"
)

// items describes every item of a store, one sorted line each: pairs with
// their contexts, claims with origin, adder and predictions.
func items(t *testing.T, s *store.Store) []string {
	t.Helper()
	return lines(t, s, `
		SELECT 'qa '||i.ext_id||' '||src.name||' '||q.hop||' '||q.category||' '||
			(SELECT group_concat(cu.ext_id, ',') FROM qa_contexts x JOIN context_units cu ON cu.id=x.context_id WHERE x.qa_item_id=i.id)||' '||
			length(q.question)||' '||length(q.answer)
		FROM items i JOIN qa_pairs q ON q.item_id=i.id JOIN sources src ON src.id=i.source_id
		UNION ALL
		SELECT 'claim '||i.ext_id||' of '||p.ext_id||' '||c.subject||'|'||c.predicate||'|'||c.object||'|'||c.text||' '||c.origin||' '||COALESCE(a.name,'-')||' '||
			COALESCE((SELECT group_concat(system||'='||value) FROM predictions WHERE item_id=i.id), '-')
		FROM items i JOIN claims c ON c.item_id=i.id JOIN items p ON p.id=i.parent_id LEFT JOIN annotators a ON a.id=c.added_by`)
}

// currentLabels lists every current label as "role annotator item field value",
// adjudicated ones under who adjudicated.
func currentLabels(t *testing.T, s *store.Store) []string {
	t.Helper()
	return lines(t, s, `SELECT l.role||' '||a.name||' '||i.ext_id||' '||l.field||' '||l.value
		FROM current_labels l JOIN label_events e ON e.id=l.event_id JOIN annotators a ON a.id=e.annotator_id JOIN items i ON i.id=l.item_id`)
}

// countedLabels lists the labels of one annotator that count (asked-when rule).
func countedLabels(t *testing.T, s *store.Store, who string) []string {
	t.Helper()
	var out []string
	for _, k := range schema.Kinds() {
		rows, err := storetest.DB(t, s).Query(`SELECT i.id, i.ext_id FROM items i WHERE i.kind=? ORDER BY i.id`, string(k)) // what the export publishes
		if err != nil {
			t.Fatal(err)
		}
		type it struct {
			id  int64
			ext string
		}
		var its []it
		for rows.Next() {
			var x it
			rows.Scan(&x.id, &x.ext)
			its = append(its, x)
		}
		rows.Close()
		for _, x := range its {
			v, err := storetest.Read(t, s).ItemView(who, x.id)
			if err != nil {
				t.Fatal(err)
			}
			var parent map[string]string
			if v.Parent != nil {
				parent = v.LabelsOf(v.Parent.ItemID)
			}
			for f, v := range schema.Counted(k, v.LabelsOf(x.id), parent) {
				out = append(out, fmt.Sprintf("%s %s %s", x.ext, f, v))
			}
		}
	}
	slices.Sort(out)
	return out
}

func lines(t *testing.T, s *store.Store, q string) []string {
	t.Helper()
	rows, err := storetest.DB(t, s).Query(q)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var l string
		if err := rows.Scan(&l); err != nil {
			t.Fatal(err)
		}
		out = append(out, l)
	}
	slices.Sort(out)
	return out
}

func sameLines(t *testing.T, what string, want, got []string) {
	t.Helper()
	if slices.Equal(want, got) {
		return
	}
	var miss, extra []string
	for _, w := range want {
		if !slices.Contains(got, w) {
			miss = append(miss, w)
		}
	}
	for _, g := range got {
		if !slices.Contains(want, g) {
			extra = append(extra, g)
		}
	}
	t.Errorf("%s differ (%d vs %d):\nmissing:\n  %s\nextra:\n  %s", what, len(want), len(got),
		strings.Join(miss, "\n  "), strings.Join(extra, "\n  "))
}

func importInto(t *testing.T, paths ...string) *store.Store {
	t.Helper()
	s := openStore(t)
	if _, err := importer.Import(s, paths, importer.Options{}); err != nil {
		t.Fatal(err)
	}
	return s
}

// The native export is a copy: items, predictions, added claims and every
// current label (not-asked ones and adjudications included) come back.
func TestRoundTripJSONL(t *testing.T) {
	s := demoStore(t)
	out := filepath.Join(t.TempDir(), "native")
	res := export(t, s, Options{Format: "jsonl", LabelsOnly: true, Out: out})
	if res.QA != 31 || res.Claims != 106 {
		t.Errorf("exported %d pairs, %d claims; want 31, 106", res.QA, res.Claims)
	}
	back := importInto(t, out)
	sameLines(t, "items", items(t, s), items(t, back))
	sameLines(t, "current labels", currentLabels(t, s), currentLabels(t, back))
	compareReports(t, s, back, nil, "jo", "sam", "")
	agreement := func(s *store.Store) string {
		a, err := store.ReadWith(s, report.Agreement, report.AgreementOptions{Annotators: []string{"jo", "sam"}, Disagreements: true})
		if err != nil {
			t.Fatal(err)
		}
		b, _ := json.Marshal(a)
		return string(b)
	}
	if a, b := agreement(s), agreement(back); a != b {
		t.Errorf("agreement differs:\n%s\n%s", a, b)
	}

	// --annotator narrows labels.jsonl to one label set.
	sam := filepath.Join(t.TempDir(), "sam")
	if res := export(t, s, Options{Format: "jsonl", Out: sam, Annotator: "sam"}); res.LabelSet != "sam" || res.Labels == 0 {
		t.Fatalf("%+v", res)
	}
	var want []string
	for _, l := range currentLabels(t, s) {
		if strings.HasPrefix(l, "annotate sam ") || strings.Contains(l, " claim_added ") && !strings.HasPrefix(l, "annotate jo ") {
			want = append(want, l)
		}
	}
	sameLines(t, "sam's labels", want, currentLabels(t, importInto(t, sam)))

	// The two files can also be given one by one, items first.
	back2 := importInto(t, filepath.Join(out, "items.jsonl"), filepath.Join(out, "labels.jsonl"))
	sameLines(t, "current labels (files)", currentLabels(t, s), currentLabels(t, back2))
}

// The hf export carries one label set; importing the exports of jo and sam
// into one database gives both back, with the added claims and predictions.
func TestRoundTripHF(t *testing.T) {
	s := demoStore(t)
	dir := t.TempDir()
	jo, sam := filepath.Join(dir, "jo"), filepath.Join(dir, "sam")
	export(t, s, Options{Out: jo, Annotator: "jo", WithNotes: true})
	export(t, s, Options{Out: sam, Annotator: "sam", Split: "validation"})
	back := importInto(t, jo, sam)
	sameLines(t, "items", items(t, s), items(t, back))
	for _, who := range []string{"jo", "sam"} {
		sameLines(t, who+"'s counted labels", countedLabels(t, s, who), countedLabels(t, back, who))
	}
	// Identical but for not_asked, which counts the labels the asked-when
	// rule leaves out (a persona of an invalid question): the published rows
	// never carry those, so there is nothing left for it to count.
	compareReports(t, s, back, []string{"not_asked"}, "jo", "sam")

	// Re-importing the same folder is a no-op.
	sum, err := importer.Import(back, []string{jo}, importer.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if tot := sum.Total(); tot.QA.Added+tot.Claims.Added+tot.LabelsAdded != 0 {
		t.Errorf("re-import added %+v", tot)
	}
}

// An adjudicated hf export comes back as adjudications.
func TestRoundTripHFAdjudicated(t *testing.T) {
	s := demoStore(t)
	out := filepath.Join(t.TempDir(), "adj")
	if res := export(t, s, Options{Out: out, Adjudicated: true}); res.LabelSet != "adjudicated" {
		t.Errorf("label set %q", res.LabelSet)
	}
	back := openStore(t)
	if _, err := importer.Import(back, []string{out}, importer.Options{Annotator: "lead"}); err != nil {
		t.Fatal(err)
	}
	var want []string
	for _, l := range currentLabels(t, s) {
		if strings.HasPrefix(l, "adjudicate ") || strings.Contains(l, " claim_added ") {
			want = append(want, l)
		}
	}
	sameLines(t, "adjudications", want, currentLabels(t, back))
}

// compareReports checks that `stats --json` and `metrics --json` (the
// report structs' JSON) are the same on both stores, for each label set:
// an annotator, or "" for the adjudicated labels. Keys listed in ignore are
// left out of the comparison.
func compareReports(t *testing.T, a, b *store.Store, ignore []string, who ...string) {
	t.Helper()
	asJSON := func(v any, err error) string {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		var m map[string]any
		raw, _ := json.Marshal(v)
		json.Unmarshal(raw, &m)
		for _, k := range ignore {
			if _, ok := m[k]; !ok {
				t.Fatalf("no key %q to ignore in %s", k, raw)
			}
			delete(m, k)
		}
		out, err := json.MarshalIndent(m, "", " ")
		if err != nil {
			t.Fatal(err)
		}
		return string(out)
	}
	for _, w := range who {
		sel := report.Selection{Annotator: w, Adjudicated: w == ""}
		name := w
		if w == "" {
			name = "adjudicated"
		}
		sa, sb := asJSON(store.ReadWith(a, report.Stats, sel)), asJSON(store.ReadWith(b, report.Stats, sel))
		if sa != sb {
			t.Errorf("stats of %s differ:\n%s\n---\n%s", name, sa, sb)
		}
		ma := asJSON(store.ReadWith(a, report.Metrics, report.MetricsOptions{Selection: sel}))
		mb := asJSON(store.ReadWith(b, report.Metrics, report.MetricsOptions{Selection: sel}))
		if ma != mb {
			t.Errorf("metrics of %s differ:\n%s\n---\n%s", name, ma, mb)
		}
		if !strings.Contains(ma, `"verification"`) || !strings.Contains(sa, `"qa_valid"`) {
			t.Errorf("unexpected report shapes:\n%s\n%s", sa, ma)
		}
	}
}
