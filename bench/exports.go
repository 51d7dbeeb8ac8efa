package main

import (
	"bufio"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"
)

// The exports that must stream (issue 31): Label Studio, Prodigy, TREC and
// hf (with --all-annotators too), their peak resident set and the size of
// what they write, at every size. `bench run` measures them on its own
// fixture after the jsonl and csv exports; `bench exports` measures them
// alone, on fixtures it builds once and keeps in -work, for one build or
// two side by side (before and after a change, interleaved, their files
// compared byte for byte).
//
// The claims fixture is gen.go's; TREC needs runs and qrels, which it has
// not, so each size also gets a retrieval fixture of its own (trecFixture):
// as many run lines as the size has claims.

// streamedExport is one export measured: its name in the tables, the
// fixture it reads (trec: the retrieval one) and its flags.
type streamedExport struct {
	name string
	trec bool
	args []string
}

var streamedExports = []streamedExport{
	{name: "label-studio", args: []string{"--format", "label-studio"}},
	{name: "prodigy entailment", args: []string{"--format", "prodigy", "--field", "entailment"}},
	{name: "prodigy answer_correctness", args: []string{"--format", "prodigy", "--field", "answer_correctness"}},
	{name: "trec", trec: true, args: []string{"--format", "trec", "--annotator", "a1"}},
	{name: "hf", args: []string{"--format", "hf", "--annotator", "a1"}},
	{name: "hf --all-annotators", args: []string{"--format", "hf", "--all-annotators"}},
}

// exportFigure is one export of one build at one size.
type exportFigure struct {
	measure
	Bytes int64             // what it wrote, every file
	Files map[string]string // relative path -> sha256, to compare builds
}

// measureExports runs every streamed export of every build on the claims
// database db and the retrieval database trecDB, the builds one after the
// other for each export (so load falls on both alike), and returns the
// figures by build and export name.
func (r *runner) measureExports(exports []streamedExport, builds []speedBuild, db, trecDB, work string) (map[string]map[string]exportFigure, error) {
	out := map[string]map[string]exportFigure{}
	for _, b := range builds {
		out[b.Name] = map[string]exportFigure{}
	}
	for _, x := range exports {
		for _, b := range builds {
			dir := filepath.Join(work, "export-"+strings.ReplaceAll(x.name, " ", "_")+"-"+b.Name)
			os.RemoveAll(dir)
			from := db
			if x.trec {
				from = trecDB
			}
			m, err := r.timed("", "", "", append([]string{b.Bin, "--db", from, "export", "--out", dir}, x.args...)...)
			if err != nil {
				return nil, fmt.Errorf("%s, %s: %w", b.Name, x.name, err)
			}
			f := exportFigure{measure: m}
			if f.Bytes, f.Files, err = digestFolder(dir); err != nil {
				return nil, err
			}
			os.RemoveAll(dir)
			out[b.Name][x.name] = f
			r.logf("export %s (%s): %.2f s, %.0f MiB peak RSS, %s written", x.name, b.Name, m.Wall, m.RSS, mib(f.Bytes))
		}
	}
	return out, nil
}

// digestFolder is the total size of the files under dir and their sha256,
// read a buffer at a time.
func digestFolder(dir string) (int64, map[string]string, error) {
	var total int64
	sums := map[string]string{}
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		f, err := os.Open(path)
		if err != nil {
			return err
		}
		defer f.Close()
		h := sha256.New()
		n, err := io.Copy(h, bufio.NewReaderSize(f, 1<<20))
		if err != nil {
			return err
		}
		total += n
		rel, _ := filepath.Rel(dir, path)
		sums[rel] = hex.EncodeToString(h.Sum(nil))
		return nil
	})
	return total, sums, err
}

// sameExport says whether two builds wrote the same files; the dataset
// card (README.md) names the day it was written and is left out.
func sameExport(a, b exportFigure) string {
	n, differ := 0, []string{}
	for name, h := range a.Files {
		if name == "README.md" {
			continue
		}
		n++
		if b.Files[name] != h {
			differ = append(differ, name)
		}
	}
	for name := range b.Files {
		if _, ok := a.Files[name]; !ok {
			differ = append(differ, name+" (only in one)")
		}
	}
	if len(differ) > 0 {
		slices.Sort(differ)
		return "NO: " + strings.Join(differ, ", ")
	}
	return fmt.Sprintf("yes (%d files)", n)
}

func mib(n int64) string {
	switch {
	case n >= 10<<20:
		return fmt.Sprintf("%.0f MiB", float64(n)/(1<<20))
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
	}
	return fmt.Sprintf("%.0f KiB", float64(n)/(1<<10))
}

// Retrieval fixture of a size: queries = claims/100, two runs of depth 50
// (as many run lines as claims), documents = claims/20 in two chunks each,
// the gold qrels (three a query) and a1's judgments (five a query, two of
// them relevant).
const (
	trecRuns   = 2
	trecDepth  = 50
	trecChunks = 2
)

// trecFixture builds (once) the retrieval database of a size in dir.
func (r *runner) trecFixture(bin, dir string, claims int) (string, error) {
	db := filepath.Join(dir, "trec.db")
	done := filepath.Join(dir, "trec.done")
	if _, err := os.Stat(done); err == nil {
		return db, nil
	}
	for _, suffix := range []string{"", "-wal", "-shm"} {
		os.Remove(db + suffix)
	}
	queries := max(1, claims/(trecRuns*trecDepth))
	docs := max(trecDepth, claims/20)
	items, gold, expert := filepath.Join(dir, "trec-items.jsonl"), filepath.Join(dir, "trec-gold.qrels"), filepath.Join(dir, "trec-a1.qrels")
	var runs []string
	for i := range trecRuns {
		runs = append(runs, filepath.Join(dir, fmt.Sprintf("trec-run%d.trec", i)))
	}
	if err := writeRunData(items, gold, runs, queries, docs, trecChunks, trecDepth); err != nil {
		return "", err
	}
	// The import reads qrels by document id (writeRunData's are chunk ids,
	// for trec_eval).
	if err := writeQrels(gold, queries, []int{1, 1, 1}, func(q, j int) int { return (q*7 + j*13) % docs }); err != nil {
		return "", err
	}
	if err := writeQrels(expert, queries, []int{2, 1, 0, 0, 0}, func(q, j int) int { return (q*11 + j*17 + 5) % docs }); err != nil {
		return "", err
	}
	steps := [][]string{
		{"import", items},
		append([]string{"import", "--format", "trec-run"}, runs...),
		{"import", "--format", "qrels", gold},
		{"import", "--format", "qrels", "--annotator", "a1", expert},
	}
	for _, s := range steps {
		if _, err := r.run(nil, bin, append([]string{"--db", db}, s...)...); err != nil {
			return "", err
		}
	}
	for _, f := range append([]string{items, gold, expert}, runs...) {
		os.Remove(f)
	}
	r.logf("retrieval fixture of %d claims: %d queries, %d documents, %d run lines", claims, queries, docs, trecRuns*queries*trecDepth)
	return db, os.WriteFile(done, nil, 0o644)
}

// writeQrels writes a qrels file: for each query, len(grades) documents
// (the j-th is doc(q, j)) with those grades.
func writeQrels(name string, queries int, grades []int, doc func(q, j int) int) error {
	f, err := os.Create(name)
	if err != nil {
		return err
	}
	w := bufio.NewWriterSize(f, 1<<20)
	for q := range queries {
		for j, g := range grades {
			fmt.Fprintf(w, "q%d 0 doc%d %d\n", q, doc(q, j), g)
		}
	}
	if err := w.Flush(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// claimsFixture builds (once) the claims database of a size in dir: gen.go's
// data imported.
func (r *runner) claimsFixture(bin, dir string, claims int) (string, error) {
	db := filepath.Join(dir, "annotate.db")
	done := filepath.Join(dir, "done")
	if _, err := os.Stat(done); err == nil {
		return db, nil
	}
	for _, suffix := range []string{"", "-wal", "-shm"} {
		os.Remove(db + suffix)
	}
	data := filepath.Join(dir, "items.jsonl")
	f, err := os.Create(data)
	if err != nil {
		return "", err
	}
	if _, err := generate(f, claims); err != nil {
		f.Close()
		return "", err
	}
	if err := f.Close(); err != nil {
		return "", err
	}
	if _, err := r.run(nil, bin, "--db", db, "import", data); err != nil {
		return "", err
	}
	os.Remove(data)
	return db, os.WriteFile(done, nil, 0o644)
}

// exportsCmd is `bench exports`: the streamed exports of one or two builds
// at every size, on fixtures kept in -work.
func exportsCmd(args []string) error {
	fs := flag.NewFlagSet("exports", flag.ExitOnError)
	r := &runner{log: os.Stderr}
	after := fs.String("annotate", "", "the annotate binary to measure (required)")
	before := fs.String("before", "", "a build to measure beside it (before a change), optional")
	sizes := fs.String("sizes", "10000,100000,1000000", "numbers of claims, comma-separated")
	fs.StringVar(&r.work, "work", filepath.Join(os.TempDir(), "annotate-exports"), "folder for the fixtures (kept: built once)")
	results := fs.String("results", "", "also write the table into this markdown file (between its export markers)")
	command := fs.String("command", "", "the command line to record in the results")
	only := fs.String("only", "", "the exports to measure, by name, comma-separated (default every one)")
	fs.Parse(args)
	exports := streamedExports
	if *only != "" {
		exports = nil
		for _, name := range strings.Split(*only, ",") {
			i := slices.IndexFunc(streamedExports, func(x streamedExport) bool { return x.name == strings.TrimSpace(name) })
			if i < 0 {
				return fmt.Errorf("exports: -only: no export %q", name)
			}
			exports = append(exports, streamedExports[i])
		}
	}
	if *after == "" {
		return errors.New("exports: -annotate is required")
	}
	builds := []speedBuild{{"after", *after}}
	if *before != "" {
		builds = []speedBuild{{"before", *before}, {"after", *after}}
	}
	if len(builds) == 1 {
		builds[0].Name = "annotate"
	}
	started := time.Now()
	var rows []exportSize
	for _, s := range strings.Split(*sizes, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(s))
		if err != nil || n < claimsPerPair {
			return fmt.Errorf("exports: bad size %q", s)
		}
		dir := filepath.Join(r.work, "claims-"+strconv.Itoa(n))
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return err
		}
		// Fixtures are built by the build measured last (the newest).
		db, err := r.claimsFixture(*after, dir, n)
		if err != nil {
			return err
		}
		trecDB, err := r.trecFixture(*after, dir, n)
		if err != nil {
			return err
		}
		load := loadAverage()
		figs, err := r.measureExports(exports, builds, db, trecDB, dir)
		if err != nil {
			return err
		}
		rows = append(rows, exportSize{claims: n, figs: figs, load: [2]string{load, loadAverage()}})
	}
	table := exportsTable(exports, builds, rows)
	fmt.Print(table)
	if *results == "" {
		return nil
	}
	host, _ := os.Hostname()
	cmd := *command
	if cmd == "" {
		cmd = "bench exports " + strings.Join(args, " ")
	}
	section := fmt.Sprintf("## Streamed exports\n\nThe exports that stream (Label Studio, Prodigy, TREC, hf): peak resident set "+
		"(`/usr/bin/time -v`) and what each wrote, at every size, measured by\n\n```\n%s\n```\n\non %s, %s, %s in all. %s\n\n%s",
		cmd, host, started.UTC().Format("2006-01-02 15:04 MST"), time.Since(started).Round(time.Second), exportsHow, table)
	return replaceSection(*results, section)
}

// exportsHow says how the streamed exports are measured.
const exportsHow = "The claims fixture is gen.go's (the claims of `bench/run.sh`); TREC reads a retrieval fixture of its own " +
	"with as many run lines as the size has claims (claims/100 queries, two runs ranking 50 documents each, the gold qrels and " +
	"a1's judgments). With two builds, each export runs under one build then the other before the next export, and their files " +
	"are compared byte for byte (the dataset card, which names the day, aside). Target: peak RSS at 1M ≤ 1.2× the peak at 10k, " +
	"and ≤ 100 MB."

// exportSize is the figures of one size.
type exportSize struct {
	claims int
	figs   map[string]map[string]exportFigure
	load   [2]string
}

// exportsTable is a row per export and build: peak RSS and bytes written
// at each size, the growth of the peak, and whether two builds agree.
func exportsTable(exports []streamedExport, builds []speedBuild, rows []exportSize) string {
	var b strings.Builder
	head := []string{"export", "build"}
	for _, s := range rows {
		head = append(head, sizeName(s.claims)+": peak RSS, written, wall")
	}
	head = append(head, "peak RSS "+sizeName(rows[0].claims)+"→"+sizeName(rows[len(rows)-1].claims))
	if len(builds) > 1 {
		head = append(head, "same files as before")
	}
	b.WriteString("| " + strings.Join(head, " | ") + " |\n" + strings.Repeat("|---", len(head)) + "|\n")
	cells := []string{"load average (1 min) at the start / end", ""}
	for _, s := range rows {
		cells = append(cells, s.load[0]+" / "+s.load[1])
	}
	cells = append(cells, "")
	if len(builds) > 1 {
		cells = append(cells, "")
	}
	b.WriteString("| " + strings.Join(cells, " | ") + " |\n")
	for _, x := range exports {
		for _, bd := range builds {
			cells := []string{"`" + x.name + "`", bd.Name}
			for _, s := range rows {
				f := s.figs[bd.Name][x.name]
				cells = append(cells, fmt.Sprintf("%.0f MiB, %s, %.1f s", f.RSS, mib(f.Bytes), f.Wall))
			}
			first, last := rows[0].figs[bd.Name][x.name], rows[len(rows)-1].figs[bd.Name][x.name]
			cells = append(cells, fmt.Sprintf("×%.2f", last.RSS/first.RSS))
			if len(builds) > 1 {
				same := ""
				if bd.Name != builds[0].Name {
					var verdicts []string
					for _, s := range rows {
						verdicts = append(verdicts, sizeName(s.claims)+" "+sameExport(s.figs[builds[0].Name][x.name], s.figs[bd.Name][x.name]))
					}
					same = strings.Join(verdicts, "; ")
				}
				cells = append(cells, same)
			}
			b.WriteString("| " + strings.Join(cells, " | ") + " |\n")
		}
	}
	return b.String()
}

// The streamed exports' section of a results file sits between these.
const (
	sectionStart = "<!-- bench exports: start -->"
	sectionEnd   = "<!-- bench exports: end -->"
)

// exportsSectionOf is the section bench exports wrote into text, markers
// included, or "".
func exportsSectionOf(text string) string { return markedSectionOf(text, sectionStart, sectionEnd) }

// replaceSection writes section between the markers of file, in place of
// what was there, or at its end.
func replaceSection(file, section string) error {
	b, err := os.ReadFile(file)
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return err
	}
	block := sectionStart + "\n" + section + sectionEnd + "\n"
	return os.WriteFile(file, []byte(withMarkedSection(string(b), sectionStart, sectionEnd, block)), 0o644)
}

// markedSectionOf is the part of text from start to end, markers included
// (and a line break), or "" when text has none.
func markedSectionOf(text, start, end string) string {
	i := strings.Index(text, start)
	if i < 0 {
		return ""
	}
	j := strings.Index(text[i:], end)
	if j < 0 {
		return ""
	}
	return text[i:i+j+len(end)] + "\n"
}

// withMarkedSection is text with its part from start to end replaced by
// section, or section added at its end after a blank line.
func withMarkedSection(text, start, end, section string) string {
	if i := strings.Index(text, start); i >= 0 {
		if j := strings.Index(text[i:], end); j >= 0 {
			return text[:i] + section + strings.TrimPrefix(text[i+j+len(end):], "\n")
		}
	}
	if text != "" && !strings.HasSuffix(text, "\n\n") {
		text = strings.TrimRight(text, "\n") + "\n\n"
	}
	return text + section
}
