package main

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// bench speed (issue 19): what a user waits for, measured on two builds of
// annotate side by side in one run ("before" and "after" a change), on the
// benchmark data imported today:
//
//   - launch → home in a pseudo-terminal, for a1 (every imported decision
//     dated today) and for a new annotator;
//   - keypress → changed screen in a pseudo-terminal (the first frame after
//     the key, and the frame with the next question once the decision is
//     committed), p50/p90/p99;
//   - annotate cost (whole process), and whether both builds print the same
//     JSON;
//   - the jsonl export (a backup: one JSONL file a table) beside the
//     sqlite3 shell writing the same files with json_object, checked byte
//     for byte; the csv export of both builds, checked identical.

type speedBuild struct {
	Name, Bin string
}

type speedResult struct {
	Claims                         int
	Import                         map[string]measure // build -> import of the fixture
	Home                           map[string][2]float64
	Keys                           map[string]keyFigures
	Cost                           map[string]measure
	SameCost                       bool
	Export                         map[string]measure // "build jsonl", "build csv", "sqlite3 jsonl"
	SameJSONL, SameBefore, SameCSV string
	Migrate                        measure   // the after build's first open of the before build's file
	Load                           [2]string // load average before and after the size
}

func speedCmd(args []string) error {
	fs := flag.NewFlagSet("speed", flag.ExitOnError)
	before := fs.String("before", "", "the annotate binary before the change (required)")
	after := fs.String("after", "", "the annotate binary after the change (required)")
	sqlite := fs.String("sqlite3", "/usr/bin/sqlite3", "the sqlite3 shell")
	work := fs.String("work", filepath.Join(os.TempDir(), "annotate-speed"), "folder for the data and databases")
	sizes := fs.String("sizes", "10000,100000", "numbers of claims, comma-separated")
	keys := fs.Int("keys", 200, "key presses measured per build and size")
	results := fs.String("results", "", "write the table to this markdown file too")
	command := fs.String("command", "", "the command line to record in the results")
	fs.Parse(args)
	if *before == "" || *after == "" {
		return errors.New("speed: -before and -after are required")
	}
	if err := os.MkdirAll(*work, 0o755); err != nil {
		return err
	}
	r := &runner{sqlite: *sqlite, work: *work, log: os.Stderr}
	builds := []speedBuild{{"before", *before}, {"after", *after}}
	started := time.Now()
	var out []*speedResult
	for _, s := range strings.Split(*sizes, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(s))
		if err != nil {
			return fmt.Errorf("speed: bad size %q", s)
		}
		res, err := r.speedSize(builds, n, *keys)
		if err != nil {
			return fmt.Errorf("%d claims: %w", n, err)
		}
		out = append(out, res)
		if err := writeSpeed(*results, *command, started, out, builds); err != nil {
			return err
		}
	}
	fmt.Print(speedTable(out, builds))
	return nil
}

// writeSpeed writes the table of the sizes measured so far (a long run
// leaves its smaller sizes behind if it is stopped).
func writeSpeed(results, command string, started time.Time, out []*speedResult, builds []speedBuild) error {
	table := speedTable(out, builds)
	if results != "" {
		head := fmt.Sprintf("# Speed where a user feels it (issue 19)\n\nThe last run of `%s`, %s UTC, %s in all, on %d CPUs.\n"+
			"Load average (1 min) at the start and end of each size is in its column: the machine is shared, so\n"+
			"compare the two builds within a column (same run, same minutes), not across runs.\n\n",
			command, started.UTC().Format("2006-01-02 15:04"), time.Since(started).Round(time.Second), numCPU())
		return os.WriteFile(results, []byte(head+table), 0o644)
	}
	return nil
}

func numCPU() int {
	b, _ := os.ReadFile("/proc/cpuinfo")
	return bytes.Count(b, []byte("\nprocessor")) + 1
}

func (r *runner) speedSize(builds []speedBuild, n, keys int) (*speedResult, error) {
	res := &speedResult{Claims: n, Import: map[string]measure{}, Home: map[string][2]float64{}, Keys: map[string]keyFigures{},
		Cost: map[string]measure{}, Export: map[string]measure{}}
	res.Load[0] = loadAverage()
	dir := filepath.Join(r.work, sizeName(n))
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	data := filepath.Join(dir, "bench.jsonl")
	if _, err := os.Stat(data); err != nil {
		f, err := os.Create(data)
		if err != nil {
			return nil, err
		}
		if _, err := generate(f, n); err != nil {
			return nil, err
		}
		f.Close()
	}
	costs := map[string][]byte{}
	exports := map[string]string{}
	for _, b := range builds {
		db := filepath.Join(dir, b.Name+".db")
		for _, suffix := range []string{"", "-wal", "-shm"} {
			os.Remove(db + suffix)
		}
		// Imported now: every decision of a1 and a2 is dated today.
		m, err := r.timed("", "", "", b.Bin, "--db", db, "import", data)
		if err != nil {
			return nil, err
		}
		res.Import[b.Name] = m
		r.logf("%s %s: import %.2f s", sizeName(n), b.Name, m.Wall)
		var home [2]float64
		for i, who := range []string{"a1", "newcomer"} {
			if home[i], err = homeMedian(b.Bin, db, who); err != nil {
				return nil, fmt.Errorf("%s: %w", b.Name, err)
			}
		}
		res.Home[b.Name] = home
		r.logf("%s %s: home a1 %.1f ms, new %.1f ms", sizeName(n), b.Name, home[0], home[1])
		kf, err := keyLatency(b.Bin, db, "keys-"+b.Name, keys)
		if err != nil {
			return nil, fmt.Errorf("%s keys: %w", b.Name, err)
		}
		res.Keys[b.Name] = kf
		r.logf("%s %s: keys first p50 %.1f p99 %.1f, committed p50 %.1f p99 %.1f ms", sizeName(n), b.Name, kf.First[0], kf.First[2], kf.Committed[0], kf.Committed[2])
		costOut := filepath.Join(dir, b.Name+"-cost.json")
		if res.Cost[b.Name], err = r.median3(costOut, b.Bin, "--db", db, "cost", "--json"); err != nil {
			return nil, err
		}
		costs[b.Name], _ = os.ReadFile(costOut)
		for _, format := range []string{"jsonl", "csv"} {
			out := filepath.Join(dir, b.Name+"-export-"+format)
			os.RemoveAll(out)
			args := []string{b.Bin, "--db", db, "export", "--format", format, "--out", out}
			if format == "csv" {
				args = append(args, "--annotator", "a1")
			}
			m, err := r.timed("", "", "", args...)
			if err != nil {
				return nil, err
			}
			res.Export[b.Name+" "+format] = m
			exports[b.Name+" "+format] = out
			r.logf("%s %s: export %s %.2f s", sizeName(n), b.Name, format, m.Wall)
		}
	}
	// The same file for both builds: the after build opens (migrates) a
	// copy of the before build's database; cost and exports must not change.
	migrated := filepath.Join(dir, "migrated.db")
	if err := copyDB(filepath.Join(dir, "before.db"), migrated); err != nil {
		return nil, err
	}
	after := builds[len(builds)-1].Bin
	var err error
	if res.Migrate, err = r.timed("", "", "", after, "--db", migrated, "stats", "--annotator", "a1"); err != nil {
		return nil, err
	}
	costOut := filepath.Join(dir, "migrated-cost.json")
	if _, err := r.timed("", "", costOut, after, "--db", migrated, "cost", "--json"); err != nil {
		return nil, err
	}
	migratedCost, _ := os.ReadFile(costOut)
	res.SameCost = bytes.Equal(costs["before"], migratedCost)
	for _, format := range []string{"jsonl", "csv"} {
		out := filepath.Join(dir, "migrated-export-"+format)
		os.RemoveAll(out)
		args := []string{after, "--db", migrated, "export", "--format", format, "--out", out}
		if format == "csv" {
			args = append(args, "--annotator", "a1")
		}
		if _, err := r.timed("", "", "", args...); err != nil {
			return nil, err
		}
		exports["migrated "+format] = out
	}
	// The shell writes the backup's tables from the after build's database.
	shellOut := filepath.Join(dir, "sqlite3-export-jsonl")
	m, _, err := r.shellBackup(filepath.Join(dir, "after.db"), exports["after jsonl"], shellOut)
	if err != nil {
		return nil, err
	}
	res.Export["sqlite3 jsonl"] = m
	r.logf("%s sqlite3: jsonl %.2f s", sizeName(n), m.Wall)
	res.SameJSONL = sameFiles(filepath.Join(exports["after jsonl"], "tables"), shellOut)
	res.SameBefore = sameFiles(filepath.Join(exports["migrated jsonl"], "tables"), filepath.Join(exports["before jsonl"], "tables"))
	res.SameCSV = sameFiles(exports["migrated csv"], exports["before csv"])
	for _, out := range exports {
		os.RemoveAll(out)
	}
	os.RemoveAll(shellOut)
	res.Load[1] = loadAverage()
	return res, nil
}

func speedTable(rs []*speedResult, builds []speedBuild) string {
	var b strings.Builder
	b.WriteString("| figure |")
	for _, r := range rs {
		fmt.Fprintf(&b, " %s |", sizeName(r.Claims))
	}
	b.WriteString("\n|---|")
	for range rs {
		b.WriteString("---|")
	}
	b.WriteString("\n")
	row := func(name string, f func(r *speedResult) string) {
		b.WriteString("| " + name + " |")
		for _, r := range rs {
			b.WriteString(" " + f(r) + " |")
		}
		b.WriteString("\n")
	}
	row("load average at start / end", func(r *speedResult) string { return r.Load[0] + " / " + r.Load[1] })
	ms := func(x float64) string { return strconv.FormatFloat(x, 'f', 1, 64) + " ms" }
	sec := func(m measure) string {
		return fmt.Sprintf("%.2f s (CPU %.2f s, %.0f MiB)", m.Wall, m.CPU(), m.RSS)
	}
	for _, bd := range builds {
		n := bd.Name
		row("import, "+n, func(r *speedResult) string { return sec(r.Import[n]) })
	}
	for _, bd := range builds {
		n := bd.Name
		row("**launch → home**, a1 (all decisions today), "+n, func(r *speedResult) string { return ms(r.Home[n][0]) })
		row("launch → home, new annotator, "+n, func(r *speedResult) string { return ms(r.Home[n][1]) })
		row("home a1 / new annotator, "+n, func(r *speedResult) string { return fmt.Sprintf("%.2f×", r.Home[n][0]/r.Home[n][1]) })
	}
	for _, bd := range builds {
		n := bd.Name
		row("**key → first frame** p50 / p90 / p99, "+n, func(r *speedResult) string {
			k := r.Keys[n]
			return fmt.Sprintf("%.1f / %.1f / %.1f ms", k.First[0], k.First[1], k.First[2])
		})
		row("key → next question drawn (committed) p50 / p90 / p99, "+n, func(r *speedResult) string {
			k := r.Keys[n]
			return fmt.Sprintf("%.1f / %.1f / %.1f ms", k.Committed[0], k.Committed[1], k.Committed[2])
		})
	}
	for _, bd := range builds {
		n := bd.Name
		row("**cost** (whole process, median of 3), "+n, func(r *speedResult) string { return sec(r.Cost[n]) })
	}
	row("after build's first open of the before build's file (migration 0011 backfill)", func(r *speedResult) string { return sec(r.Migrate) })
	row("cost: both builds print the same JSON on the same file", func(r *speedResult) string {
		if r.SameCost {
			return "yes"
		}
		return "NO"
	})
	for _, bd := range builds {
		n := bd.Name
		row("**export jsonl** (backup), "+n, func(r *speedResult) string { return sec(r.Export[n+" jsonl"]) })
	}
	row("export jsonl, sqlite3 shell (json_object)", func(r *speedResult) string { return sec(r.Export["sqlite3 jsonl"]) })
	for _, bd := range builds {
		n := bd.Name
		row("export jsonl wall, "+n+" / sqlite3", func(r *speedResult) string {
			return fmt.Sprintf("%.2f×", r.Export[n+" jsonl"].Wall/r.Export["sqlite3 jsonl"].Wall)
		})
	}
	row("jsonl: after and sqlite3 write the same bytes", func(r *speedResult) string { return r.SameJSONL })
	row("jsonl: after and before write the same bytes from the same file", func(r *speedResult) string { return r.SameBefore })
	for _, bd := range builds {
		n := bd.Name
		row("**export csv** (--annotator a1), "+n, func(r *speedResult) string { return sec(r.Export[n+" csv"]) })
	}
	row("csv: after and before write the same bytes from the same file", func(r *speedResult) string { return r.SameCSV })
	return b.String()
}

// copyDB copies a database file (checkpointed: no -wal beside it once its
// last connection closed).
func copyDB(from, to string) error {
	for _, suffix := range []string{"", "-wal", "-shm"} {
		os.Remove(to + suffix)
	}
	if err := copyFile(from, to); err != nil {
		return err
	}
	if st, err := os.Stat(from + "-wal"); err == nil && st.Size() > 0 {
		return copyFile(from+"-wal", to+"-wal")
	}
	return nil
}

// copyFile copies a file a buffer at a time (a 1M fixture is gigabytes).
func copyFile(from, to string) error {
	in, err := os.Open(from)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.Create(to)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}
