package main

import (
	"bytes"
	"cmp"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"
)

// measure is one process run: wall time measured here, CPU time and peak
// memory as /usr/bin/time -v reports them.
type measure struct {
	Wall, User, Sys float64 // seconds
	RSS             float64 // MiB, maximum resident set size
}

func (m measure) CPU() float64 { return m.User + m.Sys }

// sizeResult is everything measured on one size.
type sizeResult struct {
	Claims, Pairs, Labels int
	FileMiB               float64

	Import, Rival measure
	// Same lists the tables whose rows are identical in annotate's file
	// and the shell's; Differ those that are not (a failed check).
	Same, Differ []string

	Reports   map[string]measure // stats, metrics, agreement: median of three
	Python    map[string]measure
	PyCompute map[string]float64 // the rival's own time without start-up and CSV reading
	Mismatch  map[string][]string

	// What a user waits for, in a pty (user.go): launch → home for a1 (every
	// decision imported today) and for a new annotator; keys.
	Home [2]float64
	Keys keyFigures
	// Every kind's queue (queues.go), on this file with the other kinds
	// and jo's labels added: keys by kind, and launch → a new annotator's
	// claim queue (median of three).
	KindKeys   map[string]keyFigures
	FreshClaim float64

	Cost, CostShell measure
	SameCost        string

	Export           map[string]measure      // hf, jsonl, csv; "sqlite3 jsonl", "sqlite3 csv"
	Streamed         map[string]exportFigure // the exports that stream (exports.go), by name
	SameJSONL        string
	SameCSV          string
	BackupLeavesOut  []string // schema tables the backup does not write
	LabelsOnly       measure
	LabelsOnlyLabels int
	Gen2             importRow     // the second fixture, its import beside the shell's
	Restore          []restorePair // import, restore of the same data (restore.go)
	Load             [2]string     // load average at the start and end of the size
}

type runner struct {
	annotate, sqlite, python string
	work, results            string
	sizes                    []int
	tui                      bool
	keys                     int
	command                  string
	loadStart                string
	log                      io.Writer
}

func runCmd(args []string) error {
	fs := flag.NewFlagSet("run", flag.ExitOnError)
	r := &runner{log: os.Stderr}
	sizes := fs.String("sizes", "10000,100000,1000000", "numbers of claims, comma-separated")
	fs.StringVar(&r.annotate, "annotate", "", "the annotate binary to measure (required)")
	fs.StringVar(&r.sqlite, "sqlite3", "/usr/bin/sqlite3", "the sqlite3 shell")
	fs.StringVar(&r.python, "python", "/usr/bin/python3", "a Python with pandas, scikit-learn, statsmodels and NLTK")
	fs.StringVar(&r.work, "work", filepath.Join(os.TempDir(), "annotate-bench"), "folder for the data and databases")
	fs.StringVar(&r.results, "results", "", "write the table to this markdown file too")
	fs.BoolVar(&r.tui, "tui", true, "also run the TUI benchmarks (go test -bench in tui/)")
	fs.StringVar(&r.command, "command", "", "the command line to record in the results")
	fs.IntVar(&r.keys, "keys", 200, "key presses measured in the pty per size")
	fs.Parse(args)
	if r.annotate == "" {
		return errors.New("run: -annotate is required")
	}
	for _, s := range strings.Split(*sizes, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(s))
		if err != nil || n < claimsPerPair {
			return fmt.Errorf("run: bad size %q", s)
		}
		r.sizes = append(r.sizes, n)
	}
	if err := os.MkdirAll(r.work, 0o755); err != nil {
		return err
	}
	started := time.Now()
	r.loadStart = loadAverage()
	var results []*sizeResult
	for _, n := range r.sizes {
		res, err := r.size(n)
		if err != nil {
			return fmt.Errorf("%d claims: %w", n, err)
		}
		results = append(results, res)
	}
	var tui map[string]float64
	if r.tui {
		var err error
		if tui, err = r.tuiBench(); err != nil {
			return err
		}
	}
	table := r.table(results, tui)
	fmt.Print(table)
	if r.results != "" {
		return r.writeResults(table, results, started)
	}
	return nil
}

func (r *runner) logf(format string, args ...any) {
	fmt.Fprintf(r.log, "%s  "+format+"\n", append([]any{time.Now().Format("15:04:05")}, args...)...)
}

// timed runs a command under /usr/bin/time -v, stdin and stdout from and to
// files ("" for none), in dir ("" for the current folder).
func (r *runner) timed(dir, stdin, stdout string, args ...string) (measure, error) {
	tf, err := os.CreateTemp(r.work, "time-*.txt")
	if err != nil {
		return measure{}, err
	}
	tf.Close()
	defer os.Remove(tf.Name())
	cmd := exec.Command("/usr/bin/time", append([]string{"-v", "-o", tf.Name()}, args...)...)
	cmd.Dir = dir
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if stdin != "" {
		f, err := os.Open(stdin)
		if err != nil {
			return measure{}, err
		}
		defer f.Close()
		cmd.Stdin = f
	}
	if stdout != "" {
		f, err := os.Create(stdout)
		if err != nil {
			return measure{}, err
		}
		defer f.Close()
		cmd.Stdout = f
	}
	t0 := time.Now()
	err = cmd.Run()
	m := measure{Wall: time.Since(t0).Seconds()}
	if err != nil {
		return m, fmt.Errorf("%s: %v\n%s", strings.Join(args, " "), err, tail(stderr.String(), 2000))
	}
	b, err := os.ReadFile(tf.Name())
	if err != nil {
		return m, err
	}
	for _, line := range strings.Split(string(b), "\n") {
		k, v, ok := strings.Cut(strings.TrimSpace(line), ": ")
		if !ok {
			continue
		}
		f, _ := strconv.ParseFloat(strings.TrimSpace(v), 64)
		switch k {
		case "User time (seconds)":
			m.User = f
		case "System time (seconds)":
			m.Sys = f
		case "Maximum resident set size (kbytes)":
			m.RSS = f / 1024
		}
	}
	return m, nil
}

// median3 runs a command three times (stdout to a file) and returns the
// run of median wall time.
func (r *runner) median3(stdout string, args ...string) (measure, error) {
	var runs []measure
	for range 3 {
		m, err := r.timed("", "", stdout, args...)
		if err != nil {
			return m, err
		}
		runs = append(runs, m)
	}
	slices.SortFunc(runs, func(a, b measure) int { return cmp.Compare(a.Wall, b.Wall) })
	return runs[1], nil
}

func tail(s string, n int) string {
	if len(s) > n {
		return "…" + s[len(s)-n:]
	}
	return s
}

// run runs a command that is not measured and returns its output.
func (r *runner) run(stdin io.Reader, name string, args ...string) ([]byte, error) {
	cmd := exec.Command(name, args...)
	cmd.Stdin = stdin
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return out, fmt.Errorf("%s %s: %v\n%s", name, strings.Join(args, " "), err, tail(stderr.String(), 2000))
	}
	return out, nil
}

// tables are annotate's tables that an import fills, in the order the
// shell loads them (parents before children: foreign keys are on).
var tables = []string{"sources", "annotators", "items", "context_units", "qa_pairs", "qa_contexts", "claims",
	"predictions", "label_events", "current_labels", "done_items", "asked_items", "kept_counts", "meta"}

// nullable are the tables with columns that may be NULL: the shell reads
// them into a TEMP table first (cols) and turns empty fields into NULL (sel).
var nullable = map[string]struct{ cols, sel string }{
	"annotators": {"id, name, human, created_at, rate, currency, role",
		"id, name, human, created_at, NULLIF(rate,''), currency, role"},
	"items": {"id, ext_id, kind, source_id, parent_id, hash, origin_file, imported_at",
		"id, ext_id, kind, NULLIF(source_id,''), NULLIF(parent_id,''), hash, origin_file, imported_at"},
	"claims": {"item_id, position, subject, predicate, object, text, origin, added_by, extractor",
		"item_id, position, subject, predicate, object, text, origin, NULLIF(added_by,''), extractor"},
	"label_events": {"id, annotator_id, item_id, field, value, role, created_at, active_ms, session_id, guidelines_version, retracts, suggested_by, own_unit",
		"id, annotator_id, item_id, field, NULLIF(value,''), role, created_at, active_ms, NULLIF(session_id,''), guidelines_version, NULLIF(retracts,''), NULLIF(suggested_by,''), own_unit"},
}

// importPragmas are the connection settings annotate's import runs with
// (store.Open and store's import): the shell gets the same.
const importPragmas = `PRAGMA journal_mode=WAL;
PRAGMA synchronous=FULL;
PRAGMA foreign_keys=ON;
PRAGMA busy_timeout=10000;
PRAGMA cache_size=-16384;
`

func (r *runner) size(n int) (*sizeResult, error) {
	res := &sizeResult{Claims: n, Pairs: n / claimsPerPair, Reports: map[string]measure{}, Python: map[string]measure{},
		PyCompute: map[string]float64{}, Mismatch: map[string][]string{}, Export: map[string]measure{}}
	res.Load[0] = loadAverage()
	dir := filepath.Join(r.work, strconv.Itoa(n))
	if err := os.RemoveAll(dir); err != nil {
		return nil, err
	}
	if err := os.MkdirAll(filepath.Join(dir, "csv"), 0o755); err != nil {
		return nil, err
	}
	data := filepath.Join(dir, "items.jsonl")
	f, err := os.Create(data)
	if err != nil {
		return nil, err
	}
	if res.Labels, err = generate(f, n); err != nil {
		return nil, err
	}
	f.Close()
	st, _ := os.Stat(data)
	res.FileMiB = float64(st.Size()) / (1 << 20)
	r.logf("%d claims: %d pairs, %d labels, %.0f MiB of JSONL", n, res.Pairs, res.Labels, res.FileMiB)

	db := filepath.Join(dir, "annotate.db")
	if res.Import, err = r.timed("", "", "", r.annotate, "--db", db, "import", data); err != nil {
		return nil, err
	}
	r.logf("annotate import: %.2f s, %.0f MiB", res.Import.Wall, res.Import.RSS)

	if err := r.rival(dir, db, res); err != nil {
		return nil, err
	}
	if err := r.reports(dir, db, res); err != nil {
		return nil, err
	}
	if err := r.userWaits(db, res); err != nil {
		return nil, err
	}
	// Cost after the keys: their session and active time are in it.
	if err := r.cost(dir, db, res); err != nil {
		return nil, err
	}
	if err := r.exports(dir, db, res); err != nil {
		return nil, err
	}
	if res.Streamed, err = r.streamedExports(dir, db, n); err != nil {
		return nil, fmt.Errorf("streamed exports: %w", err)
	}
	// Last on this file: it adds a third annotator's labels.
	if res.LabelsOnly, res.LabelsOnlyLabels, err = r.labelsOnly(dir, db, n); err != nil {
		return nil, err
	}
	if err := r.kindQueues(dir, db, n, res); err != nil {
		return nil, fmt.Errorf("queues: %w", err)
	}
	if res.Gen2, err = r.importSize("gen2", n); err != nil {
		return nil, fmt.Errorf("gen2: %w", err)
	}
	if res.Restore, err = r.restoreBeside(dir, data); err != nil {
		return nil, fmt.Errorf("restore: %w", err)
	}
	res.Load[1] = loadAverage()
	// The data of the largest size is kept for profiling; the rest goes.
	if n != slices.Max(r.sizes) {
		os.RemoveAll(dir)
	}
	return res, nil
}

// tuiBench runs the TUI's benchmarks on their million-claim store.
func (r *runner) tuiBench() (map[string]float64, error) {
	r.logf("TUI benchmarks (go test -bench in tui/; the store of 1M claims is built first)")
	out, err := r.run(nil, "go", "test", "-run", "^$", "-bench", "BenchmarkHomeFirstFrame|BenchmarkKeypressToNextFrame",
		"-benchtime", "100x", "-timeout", "60m", "./tui/")
	if err != nil {
		return nil, err
	}
	got := map[string]float64{}
	for _, line := range strings.Split(string(out), "\n") {
		fields := strings.Fields(line)
		if len(fields) < 3 || !strings.HasPrefix(fields[0], "Benchmark") {
			continue
		}
		name := strings.TrimPrefix(fields[0], "Benchmark")
		if i := strings.LastIndexByte(name, '-'); i > 0 {
			name = name[:i]
		}
		for i := 2; i+1 < len(fields); i += 2 {
			v, err := strconv.ParseFloat(fields[i], 64)
			if err == nil {
				got[name+" "+fields[i+1]] = v
			}
		}
	}
	r.logf("TUI: %v", got)
	return got, nil
}

// userWaits measures, in a pty, launch → home for a1 and for a new
// annotator (the median of three each), and keys answered as a new
// annotator.
func (r *runner) userWaits(db string, res *sizeResult) error {
	for i, who := range []string{"a1", "newcomer"} {
		var err error
		if res.Home[i], err = homeMedian(r.annotate, db, who); err != nil {
			return err
		}
	}
	r.logf("home: a1 %.1f ms, new annotator %.1f ms", res.Home[0], res.Home[1])
	if r.keys == 0 {
		return nil
	}
	var err error
	if res.Keys, err = keyLatency(r.annotate, db, "keys", r.keys); err != nil {
		return fmt.Errorf("keys: %w", err)
	}
	k := res.Keys
	r.logf("keys: first frame p50 %.1f p99 %.1f ms, next question p50 %.1f p99 %.1f ms", k.First[0], k.First[2], k.Committed[0], k.Committed[2])
	return nil
}

// kindQueues adds the other kinds and jo's labels to the file and
// measures keys on every kind's queue and a new annotator's claim queue
// opening (queues.go).
func (r *runner) kindQueues(dir, db string, n int, res *sizeResult) error {
	if r.keys == 0 {
		return nil
	}
	if err := r.addKinds(r.annotate, dir, db, n); err != nil {
		return err
	}
	res.KindKeys = map[string]keyFigures{}
	for _, k := range queueKinds {
		who := k.Who
		if who == "" {
			who = newName()
		}
		kf, err := kindKeyLatency(r.annotate, db, who, k.Kind, r.keys)
		if err != nil {
			return err
		}
		res.KindKeys[k.Kind] = kf
		r.logf("keys, %s: first frame p50 %.1f p99 %.1f ms, next question p50 %.1f p99 %.1f ms", k.Kind, kf.First[0], kf.First[2], kf.Committed[0], kf.Committed[2])
	}
	var runs []float64
	for range 3 {
		d, err := launchToQueue(r.annotate, db, newName(), "claim")
		if err != nil {
			return err
		}
		runs = append(runs, d)
	}
	slices.Sort(runs)
	res.FreshClaim = runs[1]
	r.logf("a new annotator's claim queue: %.1f ms", res.FreshClaim)
	return nil
}

// cost times annotate cost --json (the median of three) and the shell's
// recomputation, and compares their numbers.
func (r *runner) cost(dir, db string, res *sizeResult) error {
	out := filepath.Join(dir, "cost.json")
	var err error
	if res.Cost, err = r.median3(out, r.annotate, "--db", db, "cost", "--json"); err != nil {
		return err
	}
	if res.CostShell, res.SameCost, err = r.costRival(dir, db, out); err != nil {
		return err
	}
	r.logf("cost: annotate %.3f s, shell %.3f s, same numbers: %s", res.Cost.Wall, res.CostShell.Wall, res.SameCost)
	return nil
}

// streamedExports measures the exports that stream (exports.go) on this
// size's file, TREC on a retrieval fixture of the same size.
func (r *runner) streamedExports(dir, db string, n int) (map[string]exportFigure, error) {
	trecDB, err := r.trecFixture(r.annotate, dir, n)
	if err != nil {
		return nil, err
	}
	figs, err := r.measureExports(streamedExports, []speedBuild{{"annotate", r.annotate}}, db, trecDB, dir)
	return figs["annotate"], err
}

// exports times the hf, jsonl and csv exports and the sqlite3 shell
// writing the jsonl backup's files (json_object) and the csv files (.mode
// csv), and checks the shell's files against annotate's.
func (r *runner) exports(dir, db string, res *sizeResult) error {
	for _, format := range []string{"hf", "jsonl", "csv"} {
		out := filepath.Join(dir, "export-"+format)
		os.RemoveAll(out)
		args := []string{r.annotate, "--db", db, "export", "--format", format, "--out", out}
		if format != "jsonl" {
			args = append(args, "--annotator", "a1")
		}
		m, err := r.timed("", "", "", args...)
		if err != nil {
			return err
		}
		res.Export[format] = m
		r.logf("export %s: %.2f s, %.0f MiB", format, m.Wall, m.RSS)
	}
	shellJSONL := filepath.Join(dir, "sqlite3-jsonl")
	m, left, err := r.shellBackup(db, filepath.Join(dir, "export-jsonl"), shellJSONL)
	if err != nil {
		return err
	}
	res.Export["sqlite3 jsonl"], res.BackupLeavesOut = m, left
	res.SameJSONL = sameFiles(filepath.Join(dir, "export-jsonl", "tables"), shellJSONL)
	r.logf("export jsonl, sqlite3 shell: %.2f s; same bytes: %s", m.Wall, res.SameJSONL)
	shellCSV := filepath.Join(dir, "sqlite3-csv")
	if res.Export["sqlite3 csv"], res.SameCSV, err = r.shellCSV(db, "a1", filepath.Join(dir, "export-csv"), shellCSV); err != nil {
		return err
	}
	r.logf("export csv, sqlite3 shell: %.2f s; same: %s", res.Export["sqlite3 csv"].Wall, res.SameCSV)
	for _, d := range []string{"export-hf", "export-jsonl", "export-csv", shellJSONL, shellCSV} {
		os.RemoveAll(filepath.Join(dir, filepath.Base(d)))
	}
	return nil
}
