package main

import (
	"bufio"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// The run's comparison with its rival (the sqlite3 shell loading the same
// rows) and of the reports of the two databases.

// rival dumps annotate's rows to CSV, has the sqlite3 shell load them into
// annotate's own schema in one transaction with the same pragmas (the
// current labels computed by SQL from the events), and checks that both
// files hold the same rows.
func (r *runner) rival(dir, db string, res *sizeResult) error {
	schema, err := r.run(nil, r.sqlite, db, ".schema --nosys")
	if err != nil {
		return err
	}
	for _, t := range tables {
		if t == "current_labels" {
			continue
		}
		out, err := r.run(nil, r.sqlite, "-csv", db, "SELECT * FROM "+t)
		if err != nil {
			return err
		}
		if err := os.WriteFile(filepath.Join(dir, "csv", t+".csv"), out, 0o644); err != nil {
			return err
		}
	}
	// The Python rivals read the current labels as a table (pandas would
	// not replay an event log).
	out, err := r.run(nil, r.sqlite, "-csv", "-header", db, "SELECT * FROM current_labels")
	if err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(dir, "csv", "current_labels.csv"), out, 0o644); err != nil {
		return err
	}
	for _, q := range []struct{ name, sql string }{
		{"items_h", "SELECT i.id, i.ext_id, i.kind, s.name AS source, COALESCE(i.parent_id, 0) AS parent_id FROM items i LEFT JOIN sources s ON s.id = i.source_id"},
		{"qa_h", "SELECT item_id, hop, category FROM qa_pairs"},
		{"claims_h", "SELECT item_id, origin, position FROM claims"},
		{"predictions_h", "SELECT item_id, system, field, value FROM predictions"},
		{"annotators_h", "SELECT id, name, human FROM annotators"},
	} {
		out, err := r.run(nil, r.sqlite, "-csv", "-header", db, q.sql)
		if err != nil {
			return err
		}
		if err := os.WriteFile(filepath.Join(dir, "csv", q.name+".csv"), out, 0o644); err != nil {
			return err
		}
	}

	var load strings.Builder
	load.WriteString(importPragmas)
	load.Write(schema)
	load.WriteString("BEGIN;\n")
	for _, t := range tables {
		csv := filepath.Join(dir, "csv", t+".csv")
		switch {
		case t == "current_labels":
			load.WriteString(`INSERT INTO current_labels(item_id, field, role, annotator_id, value, event_id)
  SELECT item_id, field, role, CASE role WHEN 'adjudicate' THEN 0 ELSE annotator_id END, value, max(id) FROM label_events e
  WHERE retracts IS NULL AND NOT EXISTS (SELECT 1 FROM label_events r WHERE r.retracts = e.id)
  GROUP BY item_id, field, role, CASE role WHEN 'adjudicate' THEN 0 ELSE annotator_id END;
`)
		case nullable[t].cols != "":
			n := nullable[t]
			fmt.Fprintf(&load, "CREATE TEMP TABLE csv_%s(%s);\n.import --csv %s csv_%s\n", t, n.cols, csv, t)
			fmt.Fprintf(&load, "INSERT INTO %s SELECT %s FROM csv_%s;\nDROP TABLE csv_%s;\n", t, n.sel, t, t)
		default:
			fmt.Fprintf(&load, ".import --csv %s %s\n", csv, t)
		}
	}
	load.WriteString("COMMIT;\n")
	script := filepath.Join(dir, "load.sql")
	if err := os.WriteFile(script, []byte(load.String()), 0o644); err != nil {
		return err
	}
	rdb := filepath.Join(dir, "sqlite3.db")
	if res.Rival, err = r.timed("", script, os.DevNull, r.sqlite, rdb); err != nil {
		return err
	}
	r.logf("sqlite3 shell: %.2f s, %.0f MiB", res.Rival.Wall, res.Rival.RSS)
	for _, t := range tables {
		a, err := r.digest(db, t)
		if err != nil {
			return err
		}
		b, err := r.digest(rdb, t)
		if err != nil {
			return err
		}
		if a == b {
			res.Same = append(res.Same, t)
		} else {
			res.Differ = append(res.Differ, t)
		}
	}
	if len(res.Differ) > 0 {
		r.logf("CHECK FAILED: tables differ between annotate and the shell: %v", res.Differ)
	}
	return nil
}

// digest hashes a table's rows as the shell prints them, NULL spelled out,
// in primary key order.
func (r *runner) digest(db, table string) (string, error) {
	order := map[string]string{"qa_contexts": "1, 2", "predictions": "1, 2, 3", "current_labels": "1, 2, 3, 4",
		"done_items": "1, 2", "asked_items": "1, 2", "kept_counts": "1, 2, 3, 4, 5"}[table]
	if order == "" {
		order = "1"
	}
	return r.shellDigest(db, "SELECT * FROM "+table+" ORDER BY "+order, "-csv", "-nullvalue", "<NULL>")
}

// shellDigest hashes what the sqlite3 shell prints of query in db, with
// the shell's output flags.
func (r *runner) shellDigest(db, query string, flags ...string) (string, error) {
	cmd := exec.Command(r.sqlite, append(flags, db, query)...)
	out, err := cmd.StdoutPipe()
	if err != nil {
		return "", err
	}
	if err := cmd.Start(); err != nil {
		return "", err
	}
	h := sha256.New()
	if _, err := io.Copy(h, bufio.NewReaderSize(out, 1<<20)); err != nil {
		return "", err
	}
	if err := cmd.Wait(); err != nil {
		return "", fmt.Errorf("%s in %s: %w", query, db, err)
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// reports runs annotate's reports (the median of three runs) and the Python
// rivals on the same labels, and checks every number the rival computes.
func (r *runner) reports(dir, db string, res *sizeResult) error {
	for _, rep := range []string{"stats", "metrics", "agreement"} {
		args := []string{r.annotate, "--db", db, rep, "--json"}
		if rep != "agreement" {
			args = append(args, "--annotator", "a1")
		}
		out := filepath.Join(dir, rep+".json")
		var err error
		if res.Reports[rep], err = r.median3(out, args...); err != nil {
			return err
		}
		pyOut := filepath.Join(dir, rep+".py.json")
		m, err := r.timed("", "", pyOut, r.python, "bench/rivals.py", rep, filepath.Join(dir, "csv"))
		if err != nil {
			return err
		}
		res.Python[rep] = m
		mine, err := os.ReadFile(out)
		if err != nil {
			return err
		}
		theirs, err := os.ReadFile(pyOut)
		if err != nil {
			return err
		}
		var a, b any
		if err := json.Unmarshal(mine, &a); err != nil {
			return fmt.Errorf("annotate %s --json: %w", rep, err)
		}
		if err := json.Unmarshal(theirs, &b); err != nil {
			return fmt.Errorf("rivals.py %s: %w", rep, err)
		}
		if t, ok := b.(map[string]any)["_seconds"].(map[string]any); ok {
			res.PyCompute[rep], _ = t["compute"].(float64)
		}
		var diffs []string
		compared := compare(rep, a, b, &diffs)
		res.Mismatch[rep] = diffs
		r.logf("%s: annotate %.3f s, %.0f MiB; Python %.2f s (%.2f s computing), %d numbers compared, %d differ",
			rep, res.Reports[rep].Wall, res.Reports[rep].RSS, m.Wall, res.PyCompute[rep], compared, len(diffs))
		for _, d := range diffs[:min(len(diffs), 10)] {
			r.logf("  CHECK FAILED: %s", d)
		}
	}
	return nil
}

// compare checks every leaf of the rival's JSON (theirs) against annotate's
// (mine) at the same path, and returns how many numbers it compared. Keys
// starting with "_" are the rival's own notes.
func compare(path string, mine, theirs any, diffs *[]string) int {
	switch t := theirs.(type) {
	case map[string]any:
		m, ok := mine.(map[string]any)
		if !ok {
			*diffs = append(*diffs, fmt.Sprintf("%s: annotate has %v, the rival an object", path, mine))
			return 0
		}
		n := 0
		for k, v := range t {
			if strings.HasPrefix(k, "_") {
				continue
			}
			mv, ok := m[k]
			if !ok {
				*diffs = append(*diffs, fmt.Sprintf("%s.%s: missing in annotate's output", path, k))
				continue
			}
			n += compare(path+"."+k, mv, v, diffs)
		}
		return n
	case []any:
		m, ok := mine.([]any)
		if !ok || len(m) != len(t) {
			*diffs = append(*diffs, fmt.Sprintf("%s: annotate has %v, the rival %v", path, mine, theirs))
			return 0
		}
		n := 0
		for i := range t {
			n += compare(fmt.Sprintf("%s[%d]", path, i), m[i], t[i], diffs)
		}
		return n
	case float64:
		m, ok := mine.(float64)
		if !ok || !near(m, t) {
			*diffs = append(*diffs, fmt.Sprintf("%s: annotate %v, the rival %v", path, mine, theirs))
		}
		return 1
	case nil:
		if mine != nil {
			*diffs = append(*diffs, fmt.Sprintf("%s: annotate %v, the rival null", path, mine))
		}
		return 1
	default:
		if fmt.Sprint(mine) != fmt.Sprint(theirs) {
			*diffs = append(*diffs, fmt.Sprintf("%s: annotate %v, the rival %v", path, mine, theirs))
		}
		return 0
	}
}

// near compares two statistics computed in different orders.
func near(a, b float64) bool {
	d := a - b
	if d < 0 {
		d = -d
	}
	scale := max(1, max(a, -a), max(b, -b))
	return d <= 1e-9*scale
}
