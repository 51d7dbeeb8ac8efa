package main

import (
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// bench import: the import alone, on both fixtures, beside the sqlite3 shell
// loading the same rows into the same schema (rival, run.go), and a
// labels-only import onto the first fixture's items (a new annotator's
// labels, generateLabels) beside the first import. Each size prints one
// table row; the load average is read before and after each size.

type importRow struct {
	fixture                    string
	claims, pairs, labels      int
	fileMiB                    float64
	annotate, shell, labelsRun measure
	labelCount                 int
	differ                     []string
	loadBefore, loadAfter      string
}

func importCmd(args []string) error {
	fs := flag.NewFlagSet("import", flag.ExitOnError)
	r := &runner{log: os.Stderr}
	sizes := fs.String("sizes", "10000,100000", "numbers of claims, comma-separated")
	fixtures := fs.String("fixtures", "gen,gen2", "fixtures: gen (gen.go, with the labels-only import) and gen2 (gen2.go)")
	fs.StringVar(&r.annotate, "annotate", "", "the annotate binary to measure (required)")
	fs.StringVar(&r.sqlite, "sqlite3", "/usr/bin/sqlite3", "the sqlite3 shell")
	fs.StringVar(&r.work, "work", filepath.Join(os.TempDir(), "annotate-bench-import"), "folder for the data and databases")
	fs.Parse(args)
	if r.annotate == "" {
		return errors.New("import: -annotate is required")
	}
	var rows []importRow
	for _, s := range strings.Split(*sizes, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(s))
		if err != nil || n < claimsPerPair {
			return fmt.Errorf("import: bad size %q", s)
		}
		for _, fx := range strings.Split(*fixtures, ",") {
			row, err := r.importSize(strings.TrimSpace(fx), n)
			if err != nil {
				return fmt.Errorf("%s, %d claims: %w", fx, n, err)
			}
			rows = append(rows, row)
			fmt.Println(row.line())
		}
	}
	fmt.Println()
	fmt.Println(importHeader)
	for _, row := range rows {
		fmt.Println(row.line())
	}
	return nil
}

const importHeader = `| fixture | claims | labels | JSONL | annotate import: wall (CPU) | sqlite3 shell: wall (CPU) | ratio: wall (CPU) | peak RSS annotate / shell | labels-only import: wall (CPU), labels | labels-only / first: wall (CPU) | same rows | load avg before → after |
|---|---|---|---|---|---|---|---|---|---|---|---|`

func (row importRow) line() string {
	labelsOnly, ratio := "", ""
	if row.labelCount > 0 {
		labelsOnly = fmt.Sprintf("%.2f s (%.2f s), %d", row.labelsRun.Wall, row.labelsRun.CPU(), row.labelCount)
		ratio = fmt.Sprintf("%.2f× (%.2f×)", row.labelsRun.Wall/row.annotate.Wall, row.labelsRun.CPU()/row.annotate.CPU())
	}
	same := "yes"
	if len(row.differ) > 0 {
		same = "NO: " + strings.Join(row.differ, ", ")
	}
	return fmt.Sprintf("| %s | %s | %d | %.0f MiB | %.2f s (%.2f s) | %.2f s (%.2f s) | %.2f× (%.2f×) | %.0f / %.0f MiB | %s | %s | %s | %s → %s |",
		row.fixture, sizeName(row.claims), row.labels, row.fileMiB, row.annotate.Wall, row.annotate.CPU(), row.shell.Wall, row.shell.CPU(),
		row.annotate.Wall/row.shell.Wall, row.annotate.CPU()/row.shell.CPU(), row.annotate.RSS, row.shell.RSS, labelsOnly, ratio, same, row.loadBefore, row.loadAfter)
}

func (r *runner) importSize(fixture string, n int) (importRow, error) {
	row := importRow{fixture: fixture, claims: n, loadBefore: loadAverage()}
	dir := filepath.Join(r.work, fixture+"-"+strconv.Itoa(n))
	if err := os.RemoveAll(dir); err != nil {
		return row, err
	}
	if err := os.MkdirAll(filepath.Join(dir, "csv"), 0o755); err != nil {
		return row, err
	}
	defer os.RemoveAll(dir)
	data := filepath.Join(dir, "items.jsonl")
	f, err := os.Create(data)
	if err != nil {
		return row, err
	}
	switch fixture {
	case "gen":
		row.labels, err = generate(f, n)
		row.pairs = n / claimsPerPair
	case "gen2":
		row.pairs, _, row.labels, err = generate2(f, n)
	default:
		err = fmt.Errorf("unknown fixture %q", fixture)
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return row, err
	}
	st, _ := os.Stat(data)
	row.fileMiB = float64(st.Size()) / (1 << 20)
	db := filepath.Join(dir, "annotate.db")
	if row.annotate, err = r.timed("", "", "", r.annotate, "--db", db, "import", data); err != nil {
		return row, err
	}
	r.logf("%s %d: annotate import %.2f s, %.0f MiB", fixture, n, row.annotate.Wall, row.annotate.RSS)
	res := &sizeResult{}
	if err := r.rival(dir, db, res); err != nil {
		return row, err
	}
	row.shell, row.differ = res.Rival, res.Differ
	if fixture == "gen" {
		if row.labelsRun, row.labelCount, err = r.labelsOnly(dir, db, n); err != nil {
			return row, err
		}
	}
	row.loadAfter = loadAverage()
	return row, nil
}

// labelsOnly imports a new annotator's labels (a3, generateLabels) onto the
// items of the gen fixture already in db: the second import of a file that
// adds no item.
func (r *runner) labelsOnly(dir, db string, n int) (measure, int, error) {
	labels := filepath.Join(dir, "labels.jsonl")
	f, err := os.Create(labels)
	if err != nil {
		return measure{}, 0, err
	}
	count, err := generateLabels(f, n)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return measure{}, 0, err
	}
	m, err := r.timed("", "", "", r.annotate, "--db", db, "import", labels)
	if err != nil {
		return m, 0, err
	}
	r.logf("%d: labels-only import %.2f s, %.0f MiB", n, m.Wall, m.RSS)
	return m, count, nil
}
