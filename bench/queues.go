package main

import (
	"errors"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"
)

// bench queues: keys on every kind's annotation screen, in a pty, on a
// database of the size the claims give it (genkinds.go): the QA pairs
// (the control: a new annotator), jo's claims (the claims of the answers jo
// judged correct), the relevance pool, the queries, the answer tasks and
// the generated claims (new annotators); and how long a new annotator's
// claim queue, which asks nothing yet, takes to open. Of one build, or of
// two (before and after a change) interleaved kind by kind on copies of
// one fixture, built once per size and kept in -work: a 1M fixture takes
// many minutes to import, so a second run reuses it.

// queueKind is a kind's queue measured and whose it is ("": a new
// annotator for each build).
type queueKind struct{ Kind, Who string }

var queueKinds = []queueKind{{"qa", ""}, {"claim", "jo"}, {"relevance", ""}, {"query", ""}, {"answer_task", ""}, {"gen_claim", ""}}

// queuesResult is one size's figures, by build.
type queuesResult struct {
	Claims int
	Keys   map[string]map[string]keyFigures // build -> kind -> figures
	// Fresh is, per build, launch → a new annotator's claim queue on
	// screen (it asks nothing yet) and launch → home for a new annotator,
	// the median of three each.
	Fresh   map[string][2]float64
	Migrate map[string]measure // the build's first open of its copy of the fixture
	Built   string             // how long the fixture took, or that it was reused
	Load    [2]string
}

func queuesCmd(args []string) error {
	fs := flag.NewFlagSet("queues", flag.ExitOnError)
	before := fs.String("before", "", "the annotate binary before the change (optional: measure it beside -after)")
	after := fs.String("after", "", "the annotate binary to measure (required)")
	work := fs.String("work", filepath.Join(os.TempDir(), "annotate-queues"), "folder for the fixtures (kept) and the builds' copies")
	sizes := fs.String("sizes", "10000,100000,1000000", "numbers of claims, comma-separated")
	keys := fs.Int("keys", 200, "key presses measured per kind, build and size")
	results := fs.String("results", "", "write the table into this markdown file's queues section too")
	command := fs.String("command", "", "the command line to record in the results")
	fs.Parse(args)
	if *after == "" {
		return errors.New("queues: -after is required")
	}
	builds := []speedBuild{{"after", *after}}
	if *before != "" {
		builds = []speedBuild{{"before", *before}, {"after", *after}}
	}
	r := &runner{work: *work, log: os.Stderr}
	started := time.Now()
	var out []*queuesResult
	for _, s := range strings.Split(*sizes, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(s))
		if err != nil || n < claimsPerPair {
			return fmt.Errorf("queues: bad size %q", s)
		}
		res, err := r.queuesSize(builds, n, *keys)
		if err != nil {
			return fmt.Errorf("%s: %w", sizeName(n), err)
		}
		out = append(out, res)
		if *results != "" {
			if err := writeSection(*results, queuesStart, queuesEnd, queuesSection(*command, started, out, builds)); err != nil {
				return err
			}
		}
	}
	fmt.Print(queuesTable(out, builds))
	return nil
}

// queuesSize measures one size: the fixture built (by the first build) or
// reused, a copy for each build, then kind by kind each build in turn.
func (r *runner) queuesSize(builds []speedBuild, n, keys int) (*queuesResult, error) {
	res := &queuesResult{Claims: n, Keys: map[string]map[string]keyFigures{}, Fresh: map[string][2]float64{}, Migrate: map[string]measure{}}
	res.Load[0] = loadAverage()
	dir := filepath.Join(r.work, sizeName(n))
	var err error
	if res.Built, err = r.queuesFixture(builds[0].Bin, dir, n); err != nil {
		return nil, err
	}
	dbs := map[string]string{}
	for _, b := range builds {
		db := filepath.Join(dir, b.Name+".db")
		if err := copyDB(filepath.Join(dir, "fixture.db"), db); err != nil {
			return nil, err
		}
		// The first open migrates the copy (the after build's new tables).
		if res.Migrate[b.Name], err = r.timed("", "", "", b.Bin, "--db", db, "stats", "--annotator", "a1"); err != nil {
			return nil, err
		}
		dbs[b.Name] = db
		res.Keys[b.Name] = map[string]keyFigures{}
		r.logf("%s %s: first open %.2f s", sizeName(n), b.Name, res.Migrate[b.Name].Wall)
	}
	for _, k := range queueKinds {
		for _, b := range builds {
			who := k.Who
			if who == "" {
				who = newName()
			}
			kf, err := kindKeyLatency(b.Bin, dbs[b.Name], who, k.Kind, keys)
			if err != nil {
				return nil, fmt.Errorf("%s %s: %w", b.Name, k.Kind, err)
			}
			res.Keys[b.Name][k.Kind] = kf
			r.logf("%s %s %s: first frame p50 %.1f p99 %.1f, next p50 %.1f p99 %.1f ms (load %s)", sizeName(n), b.Name, k.Kind,
				kf.First[0], kf.First[2], kf.Committed[0], kf.Committed[2], loadAverage())
		}
	}
	for _, b := range builds {
		var f [2]float64
		var runs [2][]float64
		for range 3 {
			for i, kind := range []string{"claim", ""} {
				d, err := launchToQueue(b.Bin, dbs[b.Name], newName(), kind)
				if err != nil {
					return nil, fmt.Errorf("%s: %w", b.Name, err)
				}
				runs[i] = append(runs[i], d)
			}
		}
		for i := range runs {
			slices.Sort(runs[i])
			f[i] = runs[i][1]
		}
		res.Fresh[b.Name] = f
		r.logf("%s %s: a new annotator's claim queue %.1f ms, home %.1f ms", sizeName(n), b.Name, f[0], f[1])
	}
	for _, db := range dbs {
		for _, suffix := range []string{"", "-wal", "-shm"} {
			os.Remove(db + suffix)
		}
	}
	res.Load[1] = loadAverage()
	return res, nil
}

// queuesFixture builds dir/fixture.db with bin unless a finished one is
// there: gen.go's QA pairs and claims, the other kinds and jo's labels
// (genkinds.go), and the relevance pool cut from the run.
func (r *runner) queuesFixture(bin, dir string, n int) (string, error) {
	db := filepath.Join(dir, "fixture.db")
	ready := filepath.Join(dir, "fixture.ready")
	if b, err := os.ReadFile(ready); err == nil {
		r.logf("%s: reusing %s (%s)", sizeName(n), db, strings.TrimSpace(string(b)))
		return "reused (" + strings.TrimSpace(string(b)) + ")", nil
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", err
	}
	for _, suffix := range []string{"", "-wal", "-shm"} {
		os.Remove(db + suffix)
	}
	t0 := time.Now()
	data := filepath.Join(dir, "bench.jsonl")
	f, err := os.Create(data)
	if err != nil {
		return "", err
	}
	if _, err := generate(f, n); err != nil {
		return "", err
	}
	if err := f.Close(); err != nil {
		return "", err
	}
	r.logf("%s: importing the fixture", sizeName(n))
	if _, err := r.timed("", "", "", bin, "--db", db, "import", data); err != nil {
		return "", err
	}
	if err := r.addKinds(bin, dir, db, n); err != nil {
		return "", err
	}
	built := fmt.Sprintf("built in %s by %s, load %s", time.Since(t0).Round(time.Second), filepath.Base(bin), loadAverage())
	return built, os.WriteFile(ready, []byte(built+"\n"), 0o644)
}

// addKinds imports the other kinds' items and jo's labels into db and cuts
// the relevance pool.
func (r *runner) addKinds(bin, dir, db string, n int) error {
	if _, _, err := writeKinds(dir, n); err != nil {
		return err
	}
	for _, args := range [][]string{
		{"import", filepath.Join(dir, "kinds.jsonl")},
		{"import", "--format", "trec-run", filepath.Join(dir, "kinds.run")},
		{"import", filepath.Join(dir, "jo.jsonl")},
		// Cutting a batch is the lead's; the fixture has none yet.
		{"annotator", "add", "bench-lead", "--lead"},
		{"batch", "create", "pool", "--kind", "relevance", "--runs", "bench-run", "--as", "bench-lead"},
	} {
		m, err := r.timed("", "", os.DevNull, append([]string{bin, "--db", db}, args...)...)
		if err != nil {
			return err
		}
		r.logf("%s: %s %.1f s", sizeName(n), strings.Join(args[:2], " "), m.Wall)
	}
	return nil
}

// newName is a new annotator's name, unlike any other (a name within two
// edits of a known one is refused as a typo).
func newName() string { return fmt.Sprintf("k%08x", rand.Uint32()) }

var queueOpen = regexp.MustCompile(`Nothing left in this queue|\d%`)

// launchToQueue starts annotate on a terminal with --kind kind ("": home)
// and returns the milliseconds until its first item, or the screen saying
// the queue holds nothing, or home's progress, is on screen.
func launchToQueue(bin, db, who, kind string) (float64, error) {
	args := []string{"--db", db, "--as", who}
	if kind != "" {
		args = append(args, "--kind", kind)
	}
	t0 := time.Now()
	p, err := startPty(bin, args...)
	if err != nil {
		return 0, err
	}
	defer p.close()
	err = p.waitScreen(func(l []string) bool {
		s, _ := question(l)
		return s != "" || queueOpen.MatchString(strings.Join(l, "\n"))
	}, time.Minute)
	return float64(time.Since(t0).Microseconds()) / 1000, err
}

// queuesTable is the per-kind table: a row per kind and figure, a column
// per size and build.
func queuesTable(res []*queuesResult, builds []speedBuild) string {
	var b strings.Builder
	head := []string{"figure"}
	for _, s := range res {
		for _, bd := range builds {
			name := sizeName(s.Claims)
			if len(builds) > 1 {
				name += " " + bd.Name
			}
			head = append(head, name)
		}
	}
	head = append(head, "target")
	b.WriteString("| " + strings.Join(head, " | ") + " |\n")
	b.WriteString(strings.Repeat("|---", len(head)) + "|\n")
	row := func(name, target string, f func(*queuesResult, string) string) {
		cells := []string{name}
		for _, s := range res {
			for _, bd := range builds {
				cells = append(cells, f(s, bd.Name))
			}
		}
		b.WriteString("| " + strings.Join(append(cells, target), " | ") + " |\n")
	}
	pct := func(p [3]float64) string { return fmt.Sprintf("%.1f / %.1f / %.1f", p[0], p[1], p[2]) }
	row("load average (1 min) at the start / end of the size", "", func(s *queuesResult, _ string) string { return s.Load[0] + " / " + s.Load[1] })
	for _, k := range queueKinds {
		who := "a new annotator"
		if k.Who != "" {
			who = k.Who
		}
		row(fmt.Sprintf("**%s** (%s): key → first frame, p50 / p90 / p99 ms", k.Kind, who), "≤ 8 / — / ≤ 16", func(s *queuesResult, bd string) string {
			return pct(s.Keys[bd][k.Kind].First)
		})
		row(fmt.Sprintf("%s: key → next question, p50 / p90 / p99 ms", k.Kind), "p99 ≤ 20", func(s *queuesResult, bd string) string {
			return pct(s.Keys[bd][k.Kind].Committed)
		})
	}
	row("**a new annotator's claim queue** (asks nothing yet): launch → on screen, median of 3", "≤ 100 ms at 1M", func(s *queuesResult, bd string) string {
		return fmt.Sprintf("%.1f ms", s.Fresh[bd][0])
	})
	row("launch → home, new annotator, median of 3 (the same process start)", "", func(s *queuesResult, bd string) string {
		return fmt.Sprintf("%.1f ms", s.Fresh[bd][1])
	})
	row("first open of the build's copy of the fixture (migrations)", "", func(s *queuesResult, bd string) string {
		return fmt.Sprintf("%.2f s", s.Migrate[bd].Wall)
	})
	row("keys per kind", "", func(s *queuesResult, bd string) string { return strconv.Itoa(s.Keys[bd]["qa"].N) })
	return b.String()
}

// queuesStart and queuesEnd mark the section of the results file that
// bench queues writes: bench run keeps it when it writes the rest.
const (
	queuesStart = "<!-- bench queues: from here to the end marker -->"
	queuesEnd   = "<!-- end of bench queues -->"
)

func queuesSection(command string, started time.Time, res []*queuesResult, builds []speedBuild) string {
	var b strings.Builder
	b.WriteString(queuesStart + "\n\n## Every kind's annotation screen (`bench queues`)\n\n")
	if command == "" {
		command = "bench queues"
	}
	fmt.Fprintf(&b, "The last run of `%s`, %s UTC, %s in all, on %d CPUs.\n", command, started.UTC().Format("2006-01-02 15:04"),
		time.Since(started).Round(time.Second), numCPU())
	b.WriteString(`Keys in a pty (bench/pty.go, 120×40, at random phases of the frame clock) on each kind's queue of a
database of the size the claims give it (bench/gen.go's QA pairs and claims, and bench/genkinds.go: n/20 queries each
with an answer task and a generated answer of five claims, n/20 documents, a run of 10 documents a query pooled into
n/2 relevance judgments; jo has judged every answer, not the claims). The next question is read from the screen's
grid (bench/screen.go), since the renderer writes only the cells that change. With two builds, each kind is measured
on both in turn on copies of one fixture; compare within a size (same minutes), not across sizes: the machine is
shared.

`)
	for _, s := range res {
		fmt.Fprintf(&b, "- %s: fixture %s.\n", sizeName(s.Claims), s.Built)
	}
	b.WriteString("\n" + queuesTable(res, builds) + "\n" + queuesEnd + "\n")
	return b.String()
}
