// Command bench measures annotate against its rivals on the same data in the
// same run (issue 11, "Targets"): the sqlite3 shell loading the same rows
// from CSV for the import, pandas, scikit-learn, statsmodels and NLTK for the
// reports. It is driven by bench/run.sh and is not part of the tests.
//
//	bench gen -claims N -out FILE     write the benchmark JSONL (gen.go); -labels: a3's labels on it
//	bench run [flags]                 build the sizes, measure every figure beside its rival, check, print the table (run.sh)
//	bench runs [flags]                the import of retrieval runs beside trec_eval (runs.go)
//	bench speed [flags]               home, keys, cost and exports of two builds side by side (speed.go)
//	bench import [flags]              the import alone on two fixtures beside the shell (importbench.go)
//	bench exports [flags]             the streamed exports' peak memory and sizes, one build or two (exports.go)
//	bench gen2 -claims N -out FILE    write the second, independent fixture (gen2.go)
//	bench genkinds -claims N -out DIR write the other kinds' queues and jo's labels beside gen.go's (genkinds.go)
//	bench queues [flags]              keys on every kind's screen in a pty, of one build or two (queues.go)
//	bench busy -annotate BIN          an annotator's save latency during a long import (busy.go)
//	bench bigcell -annotate NAME=BIN  peak memory of importing the largest text cell, every format (bigcell.go)
//	bench restore [flags]             the restore of a backup beside the import of the same data, of one build or two (restore.go)
package main

import (
	"flag"
	"fmt"
	"os"
)

func main() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: bench gen|gen2 -claims N -out FILE | bench genkinds -claims N -out DIR | bench run|runs|speed|import|queues|busy|exports|bigcell|restore [flags]")
		os.Exit(2)
	}
	var err error
	switch os.Args[1] {
	case "gen":
		err = genCmd(os.Args[2:])
	case "run":
		err = runCmd(os.Args[2:])
	case "speed":
		err = speedCmd(os.Args[2:])
	case "runs":
		err = runsCmd(os.Args[2:])
	case "import":
		err = importCmd(os.Args[2:])
	case "gen2":
		err = gen2Cmd(os.Args[2:])
	case "exports":
		err = exportsCmd(os.Args[2:])
	case "genkinds":
		err = genKindsCmd(os.Args[2:])
	case "queues":
		err = queuesCmd(os.Args[2:])
	case "busy":
		err = busyCmd(os.Args[2:])
	case "bigcell":
		err = bigCellCmd(os.Args[2:])
	case "restore":
		err = restoreCmd(os.Args[2:])
	default:
		err = fmt.Errorf("unknown command %q", os.Args[1])
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "bench:", err)
		os.Exit(1)
	}
}

func genCmd(args []string) error {
	fs := flag.NewFlagSet("gen", flag.ExitOnError)
	claims := fs.Int("claims", 10_000, "number of claims (five per QA pair)")
	out := fs.String("out", "", "file to write")
	labelsOnly := fs.Bool("labels", false, "write the labels file of a new annotator a3 on the same items instead (the labels-only import)")
	fs.Parse(args)
	if *out == "" {
		return fmt.Errorf("gen: -out is required")
	}
	f, err := os.Create(*out)
	if err != nil {
		return err
	}
	gen := generate
	if *labelsOnly {
		gen = generateLabels
	}
	labels, err := gen(f, *claims)
	if err != nil {
		f.Close()
		return err
	}
	fmt.Printf("%d QA pairs, %d claims, %d labels\n", *claims/claimsPerPair, *claims/claimsPerPair*claimsPerPair, labels)
	return f.Close()
}

func gen2Cmd(args []string) error {
	fs := flag.NewFlagSet("gen2", flag.ExitOnError)
	claims := fs.Int("claims", 10_000, "number of claims (one to nine per QA pair)")
	out := fs.String("out", "", "file to write")
	fs.Parse(args)
	if *out == "" {
		return fmt.Errorf("gen2: -out is required")
	}
	f, err := os.Create(*out)
	if err != nil {
		return err
	}
	pairs, claimsN, labels, err := generate2(f, *claims)
	if err != nil {
		f.Close()
		return err
	}
	fmt.Printf("%d QA pairs, %d claims, %d labels\n", pairs, claimsN, labels)
	return f.Close()
}

func genKindsCmd(args []string) error {
	fs := flag.NewFlagSet("genkinds", flag.ExitOnError)
	claims := fs.Int("claims", 10_000, "the claims of the gen.go fixture beside which the kinds go")
	out := fs.String("out", "", "folder to write kinds.jsonl, kinds.run and jo.jsonl into")
	fs.Parse(args)
	if *out == "" {
		return fmt.Errorf("genkinds: -out is required")
	}
	q, labels, err := writeKinds(*out, *claims)
	if err != nil {
		return err
	}
	fmt.Printf("%d queries, documents, answer tasks and generated answers; %d generated claims; jo's %d labels\n", q, q*kindClaimsPer, labels)
	return nil
}
