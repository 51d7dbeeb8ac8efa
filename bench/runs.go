package main

import (
	"bufio"
	"errors"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// bench runs: the import of retrieval runs (issue 18, item 6), beside
// trec_eval reading and evaluating the same files. It writes, in -work, the
// documents (each in -chunks chunks) and queries as native JSONL, a qrels
// file, and -runs TREC run files of -queries × -depth lines whose docids are
// chunk ids (distinct per query, often several of one document: the import
// maps them to documents and keeps the chunk-level list); imports the items, then times
//
//	annotate import --format trec-run RUN1 … RUNn   (one transaction)
//	trec_eval -m all_trec QRELS RUNi               (each file, summed)
//
// three times each, and prints the median with lines per second. trec_eval
// is built from github.com/usnistgov/trec_eval (make) by whoever runs this;
// it is not part of this repository. Not run by go test.

func runsCmd(args []string) error {
	fs := flag.NewFlagSet("runs", flag.ExitOnError)
	r := &runner{log: os.Stderr}
	fs.StringVar(&r.annotate, "annotate", "", "the annotate binary to measure (required)")
	trecEval := fs.String("trec-eval", "", "a trec_eval binary (optional: its time beside annotate's)")
	fs.StringVar(&r.work, "work", filepath.Join(os.TempDir(), "annotate-bench-runs"), "folder for the data and databases")
	queries := fs.Int("queries", 5000, "queries")
	docs := fs.Int("docs", 10000, "documents")
	chunks := fs.Int("chunks", 4, "chunks per document")
	runs := fs.Int("runs", 4, "runs (one file each)")
	depth := fs.Int("depth", 100, "lines per query and run")
	repeat := fs.Int("repeat", 3, "measures of each (the median is shown)")
	results := fs.String("results", "", "also write the table to this markdown file")
	fs.Parse(args)
	if r.annotate == "" {
		return errors.New("runs: -annotate is required")
	}
	if err := os.MkdirAll(r.work, 0o755); err != nil {
		return err
	}
	items, qrels := filepath.Join(r.work, "items.jsonl"), filepath.Join(r.work, "gold.qrels")
	var files []string
	for i := range *runs {
		files = append(files, filepath.Join(r.work, fmt.Sprintf("run%d.trec", i)))
	}
	r.logf("writing %d queries, %d documents, %d runs of %d lines", *queries, *docs, *runs, *queries**depth)
	if err := writeRunData(items, qrels, files, *queries, *docs, *chunks, *depth); err != nil {
		return err
	}
	lines := *runs * *queries * *depth
	var size int64
	for _, f := range files {
		st, err := os.Stat(f)
		if err != nil {
			return err
		}
		size += st.Size()
	}
	base := filepath.Join(r.work, "base.db")
	os.Remove(base)
	if _, err := r.run(nil, r.annotate, "--db", base, "import", items); err != nil {
		return err
	}
	var imports, evals []measure
	for i := range *repeat {
		db := filepath.Join(r.work, fmt.Sprintf("runs%d.db", i))
		for _, suffix := range []string{"", "-wal", "-shm"} {
			os.Remove(db + suffix)
		}
		if err := copyFile(base, db); err != nil {
			return err
		}
		r.logf("annotate import of %d lines (%d/%d)", lines, i+1, *repeat)
		m, err := r.timed("", "", "", append([]string{r.annotate, "--db", db, "import", "--format", "trec-run"}, files...)...)
		if err != nil {
			return err
		}
		imports = append(imports, m)
		if *trecEval == "" {
			continue
		}
		var sum measure
		for _, f := range files {
			m, err := r.timed("", "", os.DevNull, *trecEval, "-m", "all_trec", qrels, f)
			if err != nil {
				return err
			}
			sum.Wall, sum.User, sum.Sys, sum.RSS = sum.Wall+m.Wall, sum.User+m.User, sum.Sys+m.Sys, max(sum.RSS, m.RSS)
		}
		evals = append(evals, sum)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "Run import: %d runs × %d queries × %d lines = %d lines (%.1f MiB), docids chunk ids of %d documents × %d chunks; median of %d; load average %s; %s\n\n",
		*runs, *queries, *depth, lines, float64(size)/(1<<20), *docs, *chunks, *repeat, loadAverage(), time.Now().UTC().Format("2006-01-02 15:04 UTC"))
	fmt.Fprintf(&b, "| what | wall s | CPU s | peak RSS MiB | lines/s (wall) |\n|---|---:|---:|---:|---:|\n")
	row := func(what string, ms []measure) {
		m := medianMeasure(ms)
		fmt.Fprintf(&b, "| %s | %.2f | %.2f | %.0f | %.0f |\n", what, m.Wall, m.CPU(), m.RSS, float64(lines)/m.Wall)
	}
	row("annotate import --format trec-run (one transaction, all runs)", imports)
	if len(evals) > 0 {
		row("trec_eval -m all_trec, each run file (summed)", evals)
	} else {
		fmt.Fprintf(&b, "| trec_eval | not measured (-trec-eval not given) | | | |\n")
	}
	fmt.Print(b.String())
	if *results != "" {
		return os.WriteFile(*results, []byte(b.String()), 0o644)
	}
	return nil
}

// medianMeasure is the measure of median wall time.
func medianMeasure(ms []measure) measure {
	s := append([]measure{}, ms...)
	for i := 1; i < len(s); i++ {
		for j := i; j > 0 && s[j].Wall < s[j-1].Wall; j-- {
			s[j], s[j-1] = s[j-1], s[j]
		}
	}
	return s[len(s)/2]
}

// writeRunData writes the items, the qrels (three relevant documents per
// query) and the run files, from a fixed seed.
func writeRunData(items, qrels string, runs []string, queries, docs, chunks, depth int) error {
	rnd := rand.New(rand.NewPCG(18, 6))
	write := func(name string, fn func(w *bufio.Writer)) error {
		f, err := os.Create(name)
		if err != nil {
			return err
		}
		w := bufio.NewWriterSize(f, 1<<20)
		fn(w)
		if err := w.Flush(); err != nil {
			f.Close()
			return err
		}
		return f.Close()
	}
	err := write(items, func(w *bufio.Writer) {
		for d := range docs {
			fmt.Fprintf(w, `{"kind":"document","id":"doc%d","text":"%s","chunks":[`, d, strings.Repeat("x", 100*chunks))
			for c := range chunks {
				if c > 0 {
					w.WriteByte(',')
				}
				fmt.Fprintf(w, `{"id":"doc%d#c%d","start":%d,"end":%d}`, d, c, c*100, c*100+100)
			}
			w.WriteString("]}\n")
		}
		for q := range queries {
			fmt.Fprintf(w, `{"kind":"query","id":"q%d","text":"question %d","persona":"%s","jurisdiction":"%s"}`+"\n",
				q, q, []string{"lay", "professional"}[q%2], []string{"ON", "BC", "AB"}[q%3])
		}
	})
	if err != nil {
		return err
	}
	err = write(qrels, func(w *bufio.Writer) {
		for q := range queries {
			for j := range 3 {
				fmt.Fprintf(w, "q%d 0 doc%d#c0 1\n", q, (q*7+j*13)%docs)
			}
		}
	})
	if err != nil {
		return err
	}
	for i, name := range runs {
		err := write(name, func(w *bufio.Writer) {
			// Distinct chunks per query (trec_eval refuses a docid twice),
			// often of the same document: chunk slots from a random start
			// by a small stride.
			slots := docs * chunks
			for q := range queries {
				start, stride := rnd.IntN(slots), 1+rnd.IntN(5)
				for k := 1; k <= depth; k++ {
					slot := (start + (k-1)*stride) % slots
					fmt.Fprintf(w, "q%d Q0 doc%d#c%d %d %.4f run%d\n", q, slot/chunks, slot%chunks, k, float64(depth-k)+0.5, i)
				}
			}
		})
		if err != nil {
			return err
		}
	}
	return nil
}
