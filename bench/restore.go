package main

import (
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// The restore beside the import of the same data: gen.go's file imported
// into a new database, that database backed up (export --format jsonl),
// the backup restored into another new database, and both again —
// import, restore, import, restore, so that the two meet the same load —
// each with its wall time, CPU and peak memory and the load average as
// it starts. The restored database must equal the imported one table by
// table, the derived tables (kept counts, done items, work totals, the
// dashboard's days) included.

// restorePair is one import and the restore after it.
type restorePair struct {
	Import, Restore   measure
	LoadAt            [2]string // the load average as each starts
	Same              bool      // the restored database equals the imported one
	Differ            []string  // the tables that do not
	Tables, BackupMiB int
}

// restoreRounds are how many import, restore pairs a size runs.
const restoreRounds = 2

// restorePairOf runs round (from 1) of one build on one size's file, in dir.
func (r *runner) restorePairOf(bin, dir, data string, round int) (restorePair, error) {
	var p restorePair
	db := filepath.Join(dir, "restore-imported.db")
	restored := filepath.Join(dir, "restore-restored.db")
	backup := filepath.Join(dir, "restore-backup")
	clean := func() {
		removeDatabase(db)
		removeDatabase(restored)
		os.RemoveAll(backup)
	}
	clean()
	defer clean()
	var err error
	p.LoadAt[0] = loadAverage()
	if p.Import, err = r.timed("", "", os.DevNull, bin, "--db", db, "import", data); err != nil {
		return p, err
	}
	if _, err := r.run(nil, bin, "--db", db, "export", "--format", "jsonl", "--out", backup); err != nil {
		return p, err
	}
	p.BackupMiB = int(dirSize(backup) >> 20)
	p.LoadAt[1] = loadAverage()
	if p.Restore, err = r.timed("", "", os.DevNull, bin, "--db", restored, "import", backup); err != nil {
		return p, err
	}
	if p.Tables, p.Differ, err = r.sameDatabases(db, restored); err != nil {
		return p, err
	}
	p.Same = len(p.Differ) == 0
	r.logf("%s, round %d: import %.1f s (%.0f MiB, load %s), restore %.1f s (%.0f MiB, load %s): %.2f×, same tables: %v",
		filepath.Base(bin), round, p.Import.Wall, p.Import.RSS, p.LoadAt[0], p.Restore.Wall, p.Restore.RSS, p.LoadAt[1],
		p.Restore.Wall/p.Import.Wall, p.Same)
	if !p.Same {
		r.logf("CHECK FAILED: the restored database differs in %v", p.Differ)
	}
	return p, nil
}

// restoreBeside runs restoreRounds pairs of the build run measures.
func (r *runner) restoreBeside(dir, data string) ([]restorePair, error) {
	var out []restorePair
	for round := 1; round <= restoreRounds; round++ {
		p, err := r.restorePairOf(r.annotate, dir, data, round)
		if err != nil {
			return nil, err
		}
		out = append(out, p)
	}
	return out, nil
}

func removeDatabase(p string) {
	for _, s := range []string{"", "-wal", "-shm", "-journal"} {
		os.Remove(p + s)
	}
}

func dirSize(dir string) int64 {
	var n int64
	filepath.Walk(dir, func(_ string, info os.FileInfo, err error) error {
		if err == nil && info.Mode().IsRegular() {
			n += info.Size()
		}
		return nil
	})
	return n
}

// sameDatabases compares every table of two databases (the schema's
// tables, derived ones included), each table's rows in the order of all
// its columns with their types (the shell's quote mode), and the schema.
func (r *runner) sameDatabases(a, b string) (int, []string, error) {
	out, err := r.run(nil, r.sqlite, a, "SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite%' ORDER BY name")
	if err != nil {
		return 0, nil, err
	}
	names := strings.Fields(string(out))
	var differ []string
	schema := "SELECT type, name, tbl_name, sql FROM sqlite_schema ORDER BY type, name"
	for _, q := range append([]string{schema}, names...) {
		if q != schema {
			cols, err := r.run(nil, r.sqlite, a, "SELECT group_concat(cid + 1, ', ') FROM pragma_table_info('"+q+"')")
			if err != nil {
				return 0, nil, err
			}
			q = "SELECT * FROM \"" + q + "\" ORDER BY " + strings.TrimSpace(string(cols))
		}
		da, err := r.quoteDigest(a, q)
		if err != nil {
			return 0, nil, err
		}
		db, err := r.quoteDigest(b, q)
		if err != nil {
			return 0, nil, err
		}
		if da != db {
			differ = append(differ, strings.Fields(q)[3])
		}
	}
	return len(names), differ, nil
}

// quoteDigest hashes what a query prints in the shell's quote mode (each
// value as an SQL literal: its type shows).
func (r *runner) quoteDigest(db, query string) (string, error) {
	return r.shellDigest(db, query, "-quote")
}

// restoreCells are the restore's figures of one build on one size, each
// round's joined by "; ": the import, the restore, their ratio, the check.
func restoreCells(pairs []restorePair) [4]string {
	var c [4][]string
	for _, p := range pairs {
		c[0] = append(c[0], fmt.Sprintf("%.1f s, CPU %.1f s, %.0f MiB (load %s)", p.Import.Wall, p.Import.CPU(), p.Import.RSS, p.LoadAt[0]))
		c[1] = append(c[1], fmt.Sprintf("%.1f s, CPU %.1f s, %.0f MiB (load %s)", p.Restore.Wall, p.Restore.CPU(), p.Restore.RSS, p.LoadAt[1]))
		c[2] = append(c[2], fmt.Sprintf("%.2f× (CPU %.2f×)", p.Restore.Wall/p.Import.Wall, p.Restore.CPU()/p.Import.CPU()))
		same := fmt.Sprintf("yes (%d tables and the schema; backup %d MiB)", p.Tables, p.BackupMiB)
		if !p.Same {
			same = "NO: " + strings.Join(p.Differ, ", ")
		}
		c[3] = append(c[3], same)
	}
	var out [4]string
	for i := range c {
		out[i] = strings.Join(c[i], "; ")
	}
	return out
}

// restoreFigures names the rows of restoreCells, with their targets.
var restoreFigures = [4][2]string{
	{"**import** of gen.go's file: wall, CPU, peak RSS (load as it starts), each round", ""},
	{"**restore** of its backup into a new database, each round", "memory flat"},
	{"restore / import, wall (CPU), each round", "≤ 1.2× at 100k and 1M"},
	{"restored database = imported, table by table", "yes"},
}

// restoreCmd is bench restore: the pairs alone, of one build or two (the
// build before a change and the build after, interleaved round by round),
// on fixtures kept in the work folder; the table goes to the restore
// section of the results file.
func restoreCmd(args []string) error {
	fs := flag.NewFlagSet("restore", flag.ExitOnError)
	r := &runner{log: os.Stderr}
	sizes := fs.String("sizes", "10000,100000,1000000", "numbers of claims, comma-separated")
	after := fs.String("annotate", "", "the annotate binary to measure (required)")
	before := fs.String("before", "", "a second binary (the build before a change), measured round by round beside -annotate")
	rounds := fs.Int("rounds", restoreRounds, "import, restore pairs per size and build")
	fs.StringVar(&r.sqlite, "sqlite3", "/usr/bin/sqlite3", "the sqlite3 shell (to compare the databases)")
	fs.StringVar(&r.work, "work", filepath.Join(os.TempDir(), "annotate-bench-restore"), "folder for the fixtures (kept) and the databases")
	results := fs.String("results", "", "write the table into this markdown file's restore section too")
	command := fs.String("command", "", "the command line to record in the results")
	fs.Parse(args)
	if *after == "" {
		return errors.New("restore: -annotate is required")
	}
	builds := []string{*after}
	if *before != "" {
		builds = []string{*before, *after}
	}
	var ns []int
	for _, f := range strings.Split(*sizes, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || n < claimsPerPair {
			return fmt.Errorf("restore: bad size %q", f)
		}
		ns = append(ns, n)
	}
	if err := os.MkdirAll(r.work, 0o755); err != nil {
		return err
	}
	started, load := time.Now(), loadAverage()
	pairs := map[string]map[int][]restorePair{}
	for _, n := range ns {
		data := filepath.Join(r.work, "items-"+strconv.Itoa(n)+".jsonl")
		if _, err := os.Stat(data); err != nil {
			f, err := os.Create(data)
			if err != nil {
				return err
			}
			if _, err := generate(f, n); err != nil {
				f.Close()
				return err
			}
			if err := f.Close(); err != nil {
				return err
			}
		}
		for round := 1; round <= *rounds; round++ {
			for _, bin := range builds {
				p, err := r.restorePairOf(bin, r.work, data, round)
				if err != nil {
					return fmt.Errorf("%d claims: %w", n, err)
				}
				if pairs[bin] == nil {
					pairs[bin] = map[int][]restorePair{}
				}
				pairs[bin][n] = append(pairs[bin][n], p)
			}
		}
	}
	var b strings.Builder
	head := []string{"figure"}
	for _, n := range ns {
		head = append(head, sizeName(n))
	}
	b.WriteString("| " + strings.Join(append(head, "target"), " | ") + " |\n" + strings.Repeat("|---", len(head)+1) + "|\n")
	for _, bin := range builds {
		var cells [][4]string
		for _, n := range ns {
			cells = append(cells, restoreCells(pairs[bin][n]))
		}
		for i, f := range restoreFigures {
			name := f[0]
			if len(builds) > 1 {
				name += " — " + filepath.Base(bin)
			}
			row := []string{name}
			for _, c := range cells {
				row = append(row, c[i])
			}
			b.WriteString("| " + strings.Join(append(row, f[1]), " | ") + " |\n")
		}
	}
	fmt.Print(b.String())
	if *results == "" {
		return nil
	}
	if *command == "" {
		*command = "bench restore " + strings.Join(args, " ")
	}
	host, _ := os.Hostname()
	section := fmt.Sprintf(`%s
## A restore beside the import of the same data

The last run of `+"`bench restore`"+` (bench/restore.go), on %s, %s, %s in all; load average at the start %s, at the end
%s. Reproduce with:

`+"```"+`
%s
`+"```"+`

Each round imports gen.go's file into a new database, backs it up (`+"`export --format jsonl`"+`), restores the backup
into another new database and compares the two, every table (the derived ones too) and the schema; the
import and the restore of a round run one after the other, so they meet the same load, and with two builds
the rounds alternate between them. Times are wall clock and CPU (user + sys) of the whole process, memory
its peak resident set (`+"`/usr/bin/time -v`"+`).

%s%s
`, restoreStart, host, started.UTC().Format("2006-01-02 15:04 MST"), time.Since(started).Round(time.Second), load, loadAverage(),
		*command, b.String(), restoreEnd)
	return writeSection(*results, restoreStart, restoreEnd, section)
}

// restoreStart and restoreEnd mark the restore section of the results
// file, which bench run keeps as it rewrites the rest.
const (
	restoreStart = "<!-- bench restore -->"
	restoreEnd   = "<!-- end of bench restore -->"
)
