package main

import (
	"fmt"
	"os"
	"runtime"
	"strings"
	"time"
)

// table is the one table of the run: a row per figure, a column per size,
// the growth from the smallest size to the largest, and the target.
func (r *runner) table(res []*sizeResult, tui map[string]float64) string {
	var b strings.Builder
	head := []string{"figure"}
	for _, s := range res {
		head = append(head, sizeName(s.Claims))
	}
	growth := len(res) > 1
	if growth {
		head = append(head, fmt.Sprintf("growth %s→%s", sizeName(res[0].Claims), sizeName(res[len(res)-1].Claims)))
	}
	head = append(head, "target")
	b.WriteString("| " + strings.Join(head, " | ") + " |\n")
	b.WriteString(strings.Repeat("|---", len(head)) + "|\n")
	row := func(name, target string, unit string, f func(*sizeResult) float64) {
		cells := []string{name}
		for _, s := range res {
			cells = append(cells, num(f(s), unit))
		}
		if growth {
			first, last := f(res[0]), f(res[len(res)-1])
			g := "—"
			if first > 0 {
				g = fmt.Sprintf("×%.1f", last/first)
			}
			cells = append(cells, g)
		}
		cells = append(cells, target)
		b.WriteString("| " + strings.Join(cells, " | ") + " |\n")
	}
	info := func(name string, f func(*sizeResult) string) {
		cells := []string{name}
		for _, s := range res {
			cells = append(cells, f(s))
		}
		if growth {
			cells = append(cells, "")
		}
		cells = append(cells, "")
		b.WriteString("| " + strings.Join(cells, " | ") + " |\n")
	}
	// infoT is an info row with a target.
	infoT := func(name, target string, f func(*sizeResult) string) {
		cells := []string{name}
		for _, s := range res {
			cells = append(cells, f(s))
		}
		if growth {
			cells = append(cells, "")
		}
		cells = append(cells, target)
		b.WriteString("| " + strings.Join(cells, " | ") + " |\n")
	}
	sec := func(m measure) string { return fmt.Sprintf("%.2f s (CPU %.2f s, %.0f MiB)", m.Wall, m.CPU(), m.RSS) }
	ratio := func(a, b measure) string { return fmt.Sprintf("%.2f× (CPU %.2f×)", a.Wall/b.Wall, a.CPU()/b.CPU()) }
	pct := func(p [3]float64) string { return fmt.Sprintf("%.1f / %.1f / %.1f ms", p[0], p[1], p[2]) }
	info("load average (1 min) at the start / end of the size", func(s *sizeResult) string { return s.Load[0] + " / " + s.Load[1] })
	info("QA pairs / claims / labels", func(s *sizeResult) string {
		return fmt.Sprintf("%d / %d / %d", s.Pairs, s.Claims, s.Labels)
	})
	row("JSONL size", "", "MiB", func(s *sizeResult) float64 { return s.FileMiB })
	row("**import**, annotate: wall", "", "s", func(s *sizeResult) float64 { return s.Import.Wall })
	row("import, annotate: CPU (user+sys)", "", "s", func(s *sizeResult) float64 { return s.Import.CPU() })
	row("import, annotate: peak RSS", "≤ 300 MB, flat", "MiB", func(s *sizeResult) float64 { return s.Import.RSS })
	row("import, sqlite3 shell from CSV: wall", "", "s", func(s *sizeResult) float64 { return s.Rival.Wall })
	row("import, sqlite3 shell: CPU", "", "s", func(s *sizeResult) float64 { return s.Rival.CPU() })
	row("import, sqlite3 shell: peak RSS", "", "MiB", func(s *sizeResult) float64 { return s.Rival.RSS })
	row("import wall, annotate / sqlite3", "≤ 2×", "×", func(s *sizeResult) float64 { return s.Import.Wall / s.Rival.Wall })
	info("same rows in both files", func(s *sizeResult) string {
		if len(s.Differ) > 0 {
			return "NO: " + strings.Join(s.Differ, ", ")
		}
		return fmt.Sprintf("yes (%d tables)", len(s.Same))
	})
	info("**import, second fixture** (gen2.go): QA pairs / claims / labels", func(s *sizeResult) string {
		return fmt.Sprintf("%d / %d / %d (%.0f MiB)", s.Gen2.pairs, s.Gen2.claims, s.Gen2.labels, s.Gen2.fileMiB)
	})
	info("import gen2, annotate", func(s *sizeResult) string { return sec(s.Gen2.annotate) })
	info("import gen2, sqlite3 shell", func(s *sizeResult) string { return sec(s.Gen2.shell) })
	infoT("import gen2, annotate / sqlite3", "≤ 2×", func(s *sizeResult) string { return ratio(s.Gen2.annotate, s.Gen2.shell) })
	info("import gen2: same rows in both files", func(s *sizeResult) string {
		if len(s.Gen2.differ) > 0 {
			return "NO: " + strings.Join(s.Gen2.differ, ", ")
		}
		return "yes"
	})
	info("**labels-only import** (a new annotator's labels onto the items)", func(s *sizeResult) string {
		return fmt.Sprintf("%s, %d labels", sec(s.LabelsOnly), s.LabelsOnlyLabels)
	})
	infoT("labels-only / first import", "≤ 1.5×", func(s *sizeResult) string { return ratio(s.LabelsOnly, s.Import) })
	for i, f := range restoreFigures {
		infoT(f[0]+" (bench/restore.go)", f[1], func(s *sizeResult) string { return restoreCells(s.Restore)[i] })
	}
	row("**launch → home** in a pty, a1 (every decision dated today), median of 3", "", "ms", func(s *sizeResult) float64 { return s.Home[0] })
	row("launch → home in a pty, new annotator, median of 3", "", "ms", func(s *sizeResult) float64 { return s.Home[1] })
	row("home a1 / new annotator", "≤ 2×", "×", func(s *sizeResult) float64 { return s.Home[0] / s.Home[1] })
	infoT("**key → first frame** in a pty, p50 / p90 / p99", "≤ 8 ms", func(s *sizeResult) string {
		return pct(s.Keys.First) + fmt.Sprintf(" (%d keys)", s.Keys.N)
	})
	info("key → next question drawn (decision committed) in a pty, p50 / p90 / p99", func(s *sizeResult) string { return pct(s.Keys.Committed) })
	if len(res) > 0 && res[0].KindKeys != nil {
		for _, k := range queueKinds {
			who := "a new annotator"
			if k.Who != "" {
				who = k.Who
			}
			infoT(fmt.Sprintf("key → first frame, **%s** queue (%s; the other kinds added: bench/genkinds.go), p50 / p90 / p99", k.Kind, who), "≤ 8 / — / ≤ 16 ms", func(s *sizeResult) string {
				return pct(s.KindKeys[k.Kind].First)
			})
			infoT(fmt.Sprintf("key → next question, %s queue, p50 / p90 / p99", k.Kind), "p99 ≤ 20 ms", func(s *sizeResult) string {
				return pct(s.KindKeys[k.Kind].Committed)
			})
		}
		row("launch → a new annotator's claim queue on screen (it asks nothing yet), median of 3", "≤ 100 ms", "ms", func(s *sizeResult) float64 { return s.FreshClaim })
	}
	if len(tui) > 0 {
		info("key → next frame in process (View() called, no frame clock; go test -bench, store of 1M claims), QA / claim p50 / p99", func(*sizeResult) string {
			return fmt.Sprintf("%.2f / %.2f ms; %.2f / %.2f ms", tui["KeypressToNextFrame/qa p50-ms"], tui["KeypressToNextFrame/qa p99-ms"],
				tui["KeypressToNextFrame/claim p50-ms"], tui["KeypressToNextFrame/claim p99-ms"])
		})
	}
	row("**cost**, annotate (whole process, median of 3): wall", "< 150 ms", "ms", func(s *sizeResult) float64 { return s.Cost.Wall * 1000 })
	row("cost, sqlite3 shell recomputing from the label log: wall", "", "ms", func(s *sizeResult) float64 { return s.CostShell.Wall * 1000 })
	row("cost wall, annotate / sqlite3", "", "×", func(s *sizeResult) float64 { return s.Cost.Wall / s.CostShell.Wall })
	info("cost: the shell's numbers equal cost --json's", func(s *sizeResult) string { return s.SameCost })
	rivals := map[string]string{"stats": "pandas", "metrics": "pandas + scikit-learn", "agreement": "pandas + statsmodels + scikit-learn + NLTK"}
	targets := map[string]string{"stats": "< 150 ms", "metrics": "< 150 ms", "agreement": "< 1.5 s"}
	for _, rep := range []string{"stats", "metrics", "agreement"} {
		row(fmt.Sprintf("**%s**, annotate (whole process): wall", rep), targets[rep], "ms", func(s *sizeResult) float64 { return s.Reports[rep].Wall * 1000 })
		row(rep+", annotate: peak RSS", "", "MiB", func(s *sizeResult) float64 { return s.Reports[rep].RSS })
		row(rep+", "+rivals[rep]+" (whole process): wall", "", "s", func(s *sizeResult) float64 { return s.Python[rep].Wall })
		row(rep+", "+rivals[rep]+": computing only", "", "s", func(s *sizeResult) float64 { return s.PyCompute[rep] })
		row(rep+", rival / annotate (whole process)", map[string]string{"agreement": "≥ 5×"}[rep], "×",
			func(s *sizeResult) float64 { return s.Python[rep].Wall / s.Reports[rep].Wall })
		info(rep+": every number of the rival equals annotate's", func(s *sizeResult) string {
			if d := s.Mismatch[rep]; len(d) > 0 {
				return fmt.Sprintf("NO: %d differ", len(d))
			}
			return "yes"
		})
	}
	for _, f := range []string{"jsonl", "csv"} {
		rival := map[string]string{"jsonl": "json_object", "csv": ".mode csv"}[f]
		info(fmt.Sprintf("**export %s**, annotate", f), func(s *sizeResult) string { return sec(s.Export[f]) })
		info(fmt.Sprintf("export %s, sqlite3 shell (%s)", f, rival), func(s *sizeResult) string { return sec(s.Export["sqlite3 "+f]) })
		infoT(fmt.Sprintf("export %s, annotate / sqlite3", f), "≤ 1.5×, memory flat", func(s *sizeResult) string {
			return ratio(s.Export[f], s.Export["sqlite3 "+f])
		})
	}
	info("jsonl: annotate and the shell write the same bytes", func(s *sizeResult) string { return s.SameJSONL })
	info("csv: annotate and the shell write the same records", func(s *sizeResult) string { return s.SameCSV })
	info("schema tables the backup leaves out (derived from the others)", func(s *sizeResult) string { return strings.Join(s.BackupLeavesOut, ", ") })
	info("export hf (--annotator a1), annotate", func(s *sizeResult) string { return sec(s.Export["hf"]) })
	for _, x := range streamedExports {
		name := fmt.Sprintf("**export %s** (streamed), peak RSS", x.name)
		if x.trec {
			name += " (retrieval fixture of as many run lines: bench/exports.go)"
		}
		row(name, "≤ 100 MB; ≤ 1.2× growth", "MiB", func(s *sizeResult) float64 { return s.Streamed[x.name].RSS })
		info(fmt.Sprintf("export %s: written, wall", x.name), func(s *sizeResult) string {
			f := s.Streamed[x.name]
			return fmt.Sprintf("%s, %.1f s", mib(f.Bytes), f.Wall)
		})
	}
	if len(tui) > 0 {
		b.WriteString("\nTUI (go test -bench in tui/, store of 200,000 pairs / 1,000,000 claims):\n\n")
		b.WriteString("| figure | value | target |\n|---|---|---|\n")
		for _, t := range []struct{ key, name, target string }{
			{"HomeFirstFrame/done800k ms", "home screen first frame, annotator with 800k claims done", "< 300 ms"},
			{"HomeFirstFrame/today2400k ms", "home screen first frame, annotator with the same 2.4M decisions made today", "< 2× new"},
			{"HomeFirstFrame/home-bench ms", "home screen first frame, new annotator", ""},
			{"KeypressToNextFrame/qa p99-ms", "keypress → committed decision → next frame, QA pair, p99", "< 16 ms"},
			{"KeypressToNextFrame/claim p99-ms", "keypress → committed decision → next frame, claim, p99", "< 16 ms"},
			{"KeypressToNextFrame/qa p50-ms", "the same, QA pair, p50", ""},
			{"KeypressToNextFrame/claim p50-ms", "the same, claim, p50", ""},
		} {
			fmt.Fprintf(&b, "| %s | %s | %s |\n", t.name, num(tui[t.key], "ms"), t.target)
		}
	}
	return b.String()
}

// loadAverage is the machine's one-minute load average.
func loadAverage() string {
	b, err := os.ReadFile("/proc/loadavg")
	if f := strings.Fields(string(b)); err == nil && len(f) > 0 {
		return f[0]
	}
	return "unknown"
}

func sizeName(claims int) string {
	switch {
	case claims >= 1_000_000 && claims%1_000_000 == 0:
		return fmt.Sprintf("%dM", claims/1_000_000)
	case claims >= 1000 && claims%1000 == 0:
		return fmt.Sprintf("%dk", claims/1000)
	}
	return fmt.Sprint(claims)
}

func num(v float64, unit string) string {
	switch unit {
	case "ms":
		if v >= 100 {
			return fmt.Sprintf("%.0f ms", v)
		}
		return fmt.Sprintf("%.1f ms", v)
	case "s":
		if v >= 100 {
			return fmt.Sprintf("%.0f s", v)
		}
		return fmt.Sprintf("%.2f s", v)
	case "MiB":
		return fmt.Sprintf("%.0f MiB", v)
	case "×":
		return fmt.Sprintf("%.1f×", v)
	}
	return fmt.Sprint(v)
}

// writeResults writes the table and how it was made to the results file.
func (r *runner) writeResults(table string, res []*sizeResult, started time.Time) error {
	var b strings.Builder
	b.WriteString("# Benchmark results\n\n")
	b.WriteString("The last run of `bench/run.sh` (issue 11, Targets; issue 19, speed where a user feels it): every figure beside\n" +
		"its rival, measured in the same run, with the load average at the start and end of each size. Reproduce with:\n\n")
	cmd := r.command
	if cmd == "" {
		cmd = "bench/run.sh"
	}
	fmt.Fprintf(&b, "```\n%s\n```\n\n", cmd)
	host, _ := os.Hostname()
	fmt.Fprintf(&b, "Run on %s (%d CPUs, %s/%s), %s, %s in all; load average at the start %s, at the end %s (other\nprocesses on the machine slow annotate's two goroutines more than the one-threaded shell).\n\n",
		host, runtime.NumCPU(), runtime.GOOS, runtime.GOARCH, started.UTC().Format("2006-01-02 15:04 MST"),
		time.Since(started).Round(time.Second), r.loadStart, loadAverage())
	b.WriteString(`(` + "`bench/run.sh -sizes 10000 -tui=false`" + ` is the quick check: one size, without the in-process
TUI benchmarks, whose store of 1M claims takes minutes to build.) The machine is shared: compare a figure with its
rival in the same column (same run, same minutes), not across runs.

How each size is measured, in this order on one file:

- **import**: bench/gen.go writes native JSONL (five claims a pair, annotator a1 on everything, a2 on 30% of
  the pairs); ` + "`annotate import`" + ` loads it; annotate's rows are dumped to CSV and loaded by the sqlite3 shell into
  annotate's own schema (same tables, keys and indexes, same pragmas, one transaction; current_labels
  computed with SQL, done_items, asked_items and kept_counts loaded); every table of both files is compared row by row.
  The second fixture (bench/gen2.go: other ids, text lengths and label mix) is imported the same way into a
  file of its own.
- **reports**: three runs each (the median is shown); the Python rivals read CSV dumps of the same current
  labels and every number they print is checked against annotate's ` + "`--json`" + `.
- **launch → home** and **keys**, in a pseudo-terminal (bench/pty.go, 120×40), the way a terminal sees
  them, frame clock included: home for a1, whose decisions were all imported today, and for an annotator
  with none; then keys answering the QA pairs' questions as a new annotator, from the key written to the
  first byte of the next frame and to the frame that shows the next question (the decision committed).
  The in-process figure (` + "`go test -bench`" + ` in tui/, View() called directly) is beside it when the TUI
  benchmarks run.
- **cost**: ` + "`annotate cost --json`" + ` (whole process, median of 3) beside the sqlite3 shell computing the same
  work from the label log with SQL (bench/costrival.go: active time of the decisions not retracted, each
  session's length shared out among its tasks by active time, items done read from done_items, since
  "done" is a domain rule); every number of annotate's JSON is compared with the shell's (hours to 1e-6 h:
  annotate cuts a session's length to whole milliseconds from nanosecond stamps, the shell from julianday).
- **exports**: ` + "`export --format jsonl`" + ` (the backup, one file a table) beside the shell writing every file of
  the backup's manifest with ` + "`json_object`" + `, the queries derived from the schema (a table without a rival
  query is an error), checked byte for byte; ` + "`export --format csv --annotator a1`" + ` beside the shell
  writing qa.csv and claims.csv with ` + "`.mode csv`" + ` (bench/csvrival.go, the asked-when rule in SQL). The csv
  bytes cannot be identical: the shell quotes every field holding a space or a non-ASCII byte, encoding/csv
  only those holding a comma, a quote, a line break or a leading space; so the parsed records are
  compared (header, row count, every cell), and the byte check is shown beside them.
- **streamed exports**: ` + "`export --format label-studio`" + `, ` + "`prodigy`" + ` (entailment, answer_correctness),
  ` + "`trec --annotator a1`" + ` and ` + "`hf`" + ` (` + "`--annotator a1`" + `, ` + "`--all-annotators`" + `): their peak resident set beside what they wrote
  (bench/exports.go); TREC reads a retrieval fixture of its own with as many run lines as the size has claims.
  ` + "`bench exports`" + ` measures them alone, for two builds side by side.
- **labels-only import**: a third annotator's labels on the same items (no item added), beside the first
  import.
- **every kind's queue**: the other kinds (bench/genkinds.go: queries with their answer tasks and generated
  answers, documents, a run pooled into relevance judgments) and jo's judgments of the answers are added to the
  file; then keys on each kind's screen in the pty as above (the claims as jo, the rest as new annotators), the
  next question read from the screen's grid (bench/screen.go), and a new annotator opening the claim queue,
  which asks them nothing yet.
- **restore**: the file imported into a new database, that database backed up and the backup restored into
  another, twice over (import, restore, import, restore: the two meet the same load); the restored database is
  compared with the imported one, every table and the schema (bench/restore.go; ` + "`bench restore`" + ` runs it alone).

Times are wall clock of the whole process; CPU is user + sys and memory the peak resident set
(` + "`/usr/bin/time -v`" + `). Earlier, separate runs are kept as history: [RESULTS-speed.md](RESULTS-speed.md)
(` + "`bench speed`" + `, two builds before and after a change), [RESULTS-import.md](RESULTS-import.md) (` + "`bench import`" + `).

`)
	b.WriteString(table)
	var notes []string
	for _, s := range res {
		for rep, d := range s.Mismatch {
			for _, x := range d {
				notes = append(notes, fmt.Sprintf("- %s, %s: %s", sizeName(s.Claims), rep, x))
			}
		}
	}
	if len(notes) > 0 {
		b.WriteString("\nNumbers that differ:\n\n" + strings.Join(notes[:min(len(notes), 50)], "\n") + "\n")
	}
	// The sections bench queues, bench restore and bench exports wrote
	// (before and after a change) stay.
	old, _ := os.ReadFile(r.results)
	for _, m := range [][2]string{{queuesStart, queuesEnd}, {restoreStart, restoreEnd}} {
		if sec := markedSectionOf(string(old), m[0], m[1]); sec != "" {
			b.WriteString("\n" + sec)
		}
	}
	if x := exportsSectionOf(string(old)); x != "" {
		b.WriteString("\n" + x)
	}
	return os.WriteFile(r.results, []byte(b.String()), 0o644)
}
