package main

import (
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
)

// The rival of annotate cost: the sqlite3 shell computing the same work
// from the label log with SQL, as cost did before it read kept totals
// (store's recountCostWork and report/cost.go): per annotator and task
// (an item's kind, "review" for adjudications) the active time of the
// decisions not retracted, each session's wall-clock length (end, or its
// last decision, note or flag, minus start) shared out among its tasks by
// their active time (evenly when it has none), and the items. An item
// "done" is a domain rule (every asked field answered, gates applied) that
// the shell does not re-derive: it counts the rows of done_items, the table
// annotate keeps, not gated, as the report does; review items are the
// distinct items adjudicated.
const costSQL = `
WITH ev AS (
  SELECT e.annotator_id, e.item_id, e.session_id, e.active_ms,
         CASE WHEN e.role='adjudicate' THEN 'review' ELSE i.kind END AS task
  FROM label_events e JOIN items i ON i.id = e.item_id WHERE e.retracts IS NULL),
work AS (SELECT annotator_id, task, COUNT(DISTINCT item_id) AS labelled, SUM(active_ms) AS ms FROM ev GROUP BY 1, 2),
done AS (SELECT d.annotator_id, i.kind AS task, COUNT(*) AS n FROM done_items d JOIN items i ON i.id = d.item_id
         WHERE d.gated = 0 GROUP BY 1, 2),
last AS (SELECT session_id, MAX(created_at) AS at FROM (
           SELECT session_id, created_at FROM label_events WHERE session_id IS NOT NULL
           UNION ALL SELECT session_id, created_at FROM notes WHERE session_id IS NOT NULL
           UNION ALL SELECT session_id, created_at FROM flags WHERE session_id IS NOT NULL) GROUP BY 1),
span AS (SELECT s.id, s.annotator_id,
           COALESCE(MAX(0, CAST((julianday(COALESCE(s.ended_at, l.at)) - julianday(s.started_at)) * 86400000 AS INTEGER)), 0) AS ms
         FROM sessions s LEFT JOIN last l ON l.session_id = s.id),
part AS (SELECT session_id, task, SUM(active_ms) AS ms FROM ev WHERE session_id IS NOT NULL GROUP BY 1, 2),
whole AS (SELECT session_id, SUM(ms) AS ms, COUNT(*) AS n FROM part GROUP BY 1),
share AS (SELECT sp.annotator_id, p.task,
            SUM(CASE WHEN w.ms > 0 THEN sp.ms * 1.0 * p.ms / w.ms ELSE sp.ms * 1.0 / w.n END) AS ms
          FROM part p JOIN whole w ON w.session_id = p.session_id JOIN span sp ON sp.id = p.session_id GROUP BY 1, 2)
SELECT a.name, w.task, CASE w.task WHEN 'review' THEN w.labelled ELSE COALESCE(d.n, 0) END, w.ms, COALESCE(sh.ms, 0)
FROM work w JOIN annotators a ON a.id = w.annotator_id
LEFT JOIN done d ON d.annotator_id = w.annotator_id AND d.task = w.task
LEFT JOIN share sh ON sh.annotator_id = w.annotator_id AND sh.task = w.task
UNION ALL
SELECT a.name, '', 0, 0, SUM(sp.ms) FROM span sp JOIN annotators a ON a.id = sp.annotator_id GROUP BY a.id
ORDER BY 1, 2;
`

// costRival runs costSQL in the shell (timed, whole process) and compares
// its numbers with annotate cost --json (the file costJSON): "yes (N
// numbers)" or the first that differ. Hours are equal to 1e-6 h: annotate
// cuts a session's length to whole milliseconds from nanosecond stamps,
// the shell from julianday, which can differ by a millisecond.
func (r *runner) costRival(dir, db, costJSON string) (measure, string, error) {
	script := filepath.Join(dir, "cost.sql")
	if err := os.WriteFile(script, []byte(".mode list\n"+costSQL), 0o644); err != nil {
		return measure{}, "", err
	}
	out := filepath.Join(dir, "cost-shell.txt")
	m, err := r.timed("", script, out, r.sqlite, "-readonly", db)
	if err != nil {
		return m, "", err
	}
	shell, err := os.ReadFile(out)
	if err != nil {
		return m, "", err
	}
	mine, err := os.ReadFile(costJSON)
	if err != nil {
		return m, "", err
	}
	same, err := compareCost(mine, shell)
	return m, same, err
}

type costNums struct {
	Items        int                 `json:"items"`
	ActiveHours  float64             `json:"active_hours"`
	SessionHours float64             `json:"session_hours"`
	Kinds        map[string]costNums `json:"kinds"`
}

// compareCost checks annotate's JSON against the shell's rows: each
// annotator's session hours and per task items, active and session hours;
// the totals, overall and per task.
func compareCost(mine, shell []byte) (string, error) {
	var a struct {
		Annotators map[string]costNums `json:"annotators"`
		Total      costNums            `json:"total"`
	}
	if err := json.Unmarshal(mine, &a); err != nil {
		return "", fmt.Errorf("annotate cost --json: %w", err)
	}
	want := map[string]*costNums{}
	total := costNums{Kinds: map[string]costNums{}}
	sessions := map[string]float64{}
	person := func(name string) *costNums {
		if want[name] == nil {
			want[name] = &costNums{Kinds: map[string]costNums{}}
		}
		return want[name]
	}
	for i, line := range strings.Split(strings.TrimSpace(string(shell)), "\n") {
		f := strings.Split(line, "|")
		if len(f) != 5 {
			return "", fmt.Errorf("the shell's cost, line %d: %d fields, want 5: %q", i+1, len(f), line)
		}
		items, err1 := strconv.Atoi(f[2])
		active, err2 := strconv.ParseFloat(f[3], 64)
		session, err3 := strconv.ParseFloat(f[4], 64)
		if err := cmpErr(err1, err2, err3); err != nil {
			return "", fmt.Errorf("the shell's cost, line %d: %w", i+1, err)
		}
		if f[1] == "" { // the annotator's sessions
			sessions[f[0]] = session / 3.6e6
			continue
		}
		if items == 0 && active == 0 && session == 0 {
			continue // labels that are not work (a gold set), as the report leaves them out
		}
		k := costNums{Items: items, ActiveHours: active / 3.6e6, SessionHours: session / 3.6e6}
		p := person(f[0])
		p.Kinds[f[1]] = k
		p.Items += k.Items
		p.ActiveHours += k.ActiveHours
		t := total.Kinds[f[1]]
		t.Items += k.Items
		t.ActiveHours += k.ActiveHours
		t.SessionHours += k.SessionHours
		total.Kinds[f[1]] = t
		total.Items += k.Items
		total.ActiveHours += k.ActiveHours
	}
	// An annotator with work, or with session time and no decision, is in
	// the report with the time of all their sessions.
	for name, h := range sessions {
		if h > 0 || want[name] != nil {
			person(name).SessionHours = h
		}
		total.SessionHours += h
	}
	var diffs []string
	n := 0
	check := func(path string, got, exp costNums, kinds bool) {
		n += 3
		if got.Items != exp.Items {
			diffs = append(diffs, fmt.Sprintf("%s items: annotate %d, shell %d", path, got.Items, exp.Items))
		}
		if math.Abs(got.ActiveHours-exp.ActiveHours) > 1e-6 {
			diffs = append(diffs, fmt.Sprintf("%s active_hours: annotate %g, shell %g", path, got.ActiveHours, exp.ActiveHours))
		}
		if math.Abs(got.SessionHours-exp.SessionHours) > 1e-6 {
			diffs = append(diffs, fmt.Sprintf("%s session_hours: annotate %g, shell %g", path, got.SessionHours, exp.SessionHours))
		}
		if !kinds {
			return
		}
		for _, k := range union(got.Kinds, exp.Kinds) {
			g, ok1 := got.Kinds[k]
			e, ok2 := exp.Kinds[k]
			if !ok1 || !ok2 {
				diffs = append(diffs, fmt.Sprintf("%s task %s: in annotate's %v, in the shell's %v", path, k, ok1, ok2))
				continue
			}
			n += 3
			if g.Items != e.Items || math.Abs(g.ActiveHours-e.ActiveHours) > 1e-6 || math.Abs(g.SessionHours-e.SessionHours) > 1e-6 {
				diffs = append(diffs, fmt.Sprintf("%s task %s: annotate %+v, shell %+v", path, k, g, e))
			}
		}
	}
	check("total", a.Total, total, true)
	for _, name := range union(a.Annotators, want) {
		exp := want[name]
		if exp == nil {
			exp = &costNums{}
		}
		check(name, a.Annotators[name], *exp, true)
	}
	if len(diffs) > 0 {
		return fmt.Sprintf("NO: %d of %d differ, first: %s", len(diffs), n, diffs[0]), nil
	}
	return fmt.Sprintf("yes (%d numbers)", n), nil
}

func union[V any, W any](a map[string]V, b map[string]W) []string {
	var keys []string
	for k := range a {
		keys = append(keys, k)
	}
	for k := range b {
		if _, ok := a[k]; !ok {
			keys = append(keys, k)
		}
	}
	slices.Sort(keys)
	return keys
}

func cmpErr(errs ...error) error {
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}
