//go:build unix

package store

import (
	"bufio"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/annotate-dev/annotate/schema"
)

// dbDigest is Digest, failing the test on an error.
func dbDigest(t testing.TB, s *Store) string {
	t.Helper()
	d, err := s.Digest()
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// diffLines shows the lines of a digest that differ (at most 20).
func diffLines(a, b string) string {
	la, lb := strings.Split(a, "\n"), strings.Split(b, "\n")
	in := func(ls []string) map[string]bool {
		m := map[string]bool{}
		for _, l := range ls {
			m[l] = true
		}
		return m
	}
	ma, mb := in(la), in(lb)
	var out []string
	for _, l := range la {
		if !mb[l] && len(out) < 20 {
			out = append(out, "- "+l)
		}
	}
	for _, l := range lb {
		if !ma[l] && len(out) < 40 {
			out = append(out, "+ "+l)
		}
	}
	return strings.Join(out, "\n")
}

// importPairs imports pairs from..to, each with two claims, predictions and
// an annotator's labels on the pair and its claims (a3: a new annotator),
// and labels of jo on the pairs that were there before (from is after them).
func importPairs(tx *Tx, from, to int, old int) error {
	for i := from; i <= to; i++ {
		qa := QAPair{ID: fmt.Sprintf("q%d", i), Source: []string{"GDPR", "CIVIL"}[i%2], Question: "Q", Answer: "A", Category: "factual_recall",
			Contexts: []Context{{ID: fmt.Sprintf("p%d", i), Text: "t"}}, Predictions: map[string]string{"refchecker": "Factual"}}
		id, _, err := tx.PutQA(qa, "h"+qa.ID, "f", false)
		if err != nil {
			return err
		}
		for c := 1; c <= 2; c++ {
			cl := Claim{ID: fmt.Sprintf("q%d-c%d", i, c), QAID: qa.ID, Position: c, Triplet: [3]string{"s", "p", "o"},
				Predictions: map[string]string{"refchecker": "Entailment"}}
			cid, _, err := tx.PutClaim(cl, "h"+cl.ID, "f", false)
			if err != nil {
				return err
			}
			if _, err := tx.PutLabel(Label{Annotator: "a3", ItemID: cid, Field: schema.ClaimValidity, Value: "correct"}); err != nil {
				return err
			}
		}
		for _, l := range [][2]string{{schema.QuestionValidity, "valid"}, {schema.Category, "factual_recall"}, {schema.Persona, "citizen"}, {schema.AnswerCorrectness, "correct"}} {
			if _, err := tx.PutLabel(Label{Annotator: "a3", ItemID: id, Field: l[0], Value: l[1]}); err != nil {
				return err
			}
		}
	}
	// Labels on items there before: a new annotator's, and changed ones.
	for i := 1; i <= old; i++ {
		id, _, err := tx.ItemID(fmt.Sprintf("q%d", i))
		if err != nil {
			return err
		}
		for _, who := range []string{"a3", "jo"} {
			if _, err := tx.PutLabel(Label{Annotator: who, ItemID: id, Field: schema.QuestionValidity, Value: "invalid"}); err != nil {
				return err
			}
		}
	}
	return nil
}

// seedForSteps is a database with 5 pairs, two claims each, and jo's
// labels on them (made on screen, with active time).
func seedForSteps(t testing.TB, path string) *Store {
	t.Helper()
	s, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Import(func(tx *Tx) error { return importPairs(tx, 1, 5, 0) }); err != nil {
		t.Fatal(err)
	}
	sess, err := s.StartSession("jo", "test")
	if err != nil {
		t.Fatal(err)
	}
	for i := 1; i <= 5; i++ {
		ref, err := s.Resolve(fmt.Sprintf("q%d", i))
		if err != nil {
			t.Fatal(err)
		}
		if _, err := s.RecordLabel(Label{Annotator: "jo", ItemID: ref.ItemID, Field: schema.QuestionValidity, Value: "valid", ActiveMs: 1500, SessionID: sess.ID}); err != nil {
			t.Fatal(err)
		}
	}
	return s
}

// An import written in many steps that fails at its end is undone: every
// table is as before it, the kept counts equal a recount, nothing of it is
// left (journal, writer); the same import that succeeds lands whole.
func TestImportInStepsIsAllOrNothing(t *testing.T) {
	defer SetImportSteps(time.Nanosecond, 0)()
	s := seedForSteps(t, filepath.Join(t.TempDir(), "t.db"))
	defer s.Close()
	before := dbDigest(t, s)
	steps := 0
	err := s.Import(func(tx *Tx) error {
		if err := importPairs(tx, 6, 40, 5); err != nil {
			return err
		}
		steps = tx.tx.steps.n
		return errFailedOnPurpose
	})
	if !errors.Is(err, errFailedOnPurpose) {
		t.Fatalf("import: %v", err)
	}
	if steps < 100 {
		t.Fatalf("the import committed %d steps: not in steps", steps)
	}
	if after := dbDigest(t, s); after != before {
		t.Fatalf("the failed import left the database changed:\n%s", diffLines(before, after))
	}
	if msg := checkKept(t, s); msg != "" {
		t.Fatal(msg)
	}
	var journal, writers int
	s.db.QueryRow("SELECT COUNT(*) FROM import_undo").Scan(&journal)
	s.db.QueryRow("SELECT COUNT(*) FROM writers").Scan(&writers)
	if journal != 0 || writers != 0 {
		t.Fatalf("left behind: %d journal rows, %d writers", journal, writers)
	}

	if err := s.Import(func(tx *Tx) error { return importPairs(tx, 6, 40, 5) }); err != nil {
		t.Fatal(err)
	}
	if msg := checkKept(t, s); msg != "" {
		t.Fatal(msg)
	}
	if n, err := s.KindItems("qa"); err != nil || n != 40 {
		t.Fatalf("%d pairs after the import (%v), want 40", n, err)
	}
	s.db.QueryRow("SELECT COUNT(*) FROM import_undo").Scan(&journal)
	s.db.QueryRow("SELECT COUNT(*) FROM writers").Scan(&writers)
	if journal != 0 || writers != 0 {
		t.Fatalf("left behind: %d journal rows, %d writers", journal, writers)
	}
	// The work totals follow the log exactly (work_kept_test's recount).
	if msg := checkWork(t, s); msg != "" {
		t.Fatal(msg)
	}
}

// stepChild is the import a child process runs for the kill test: it says
// "step N" after each of its steps, so that the parent can kill it at any
// of them, and "done" once it is done.
func stepChild(db string) int {
	SetImportSteps(time.Nanosecond, 0)
	s, err := Open(db)
	if err != nil {
		fmt.Println("error:", err)
		return 2
	}
	defer s.Close()
	afterStep = func(n int) { fmt.Printf("step %d\n", n) }
	if err := s.Import(func(tx *Tx) error { return importPairs(tx, 6, 30, 5) }); err != nil {
		fmt.Println("error:", err)
		return 2
	}
	fmt.Println("done")
	return 0
}

// An import killed with SIGKILL at any moment (after a seeded number of its
// steps, mid-step) leaves the database, once opened again, as it was before
// the import; one killed after it was done leaves it imported.
func TestImportKilledAtAnyMomentIsUndoneAtTheNextOpen(t *testing.T) {
	dir := t.TempDir()
	base := filepath.Join(dir, "base.db")
	s := seedForSteps(t, base)
	before := dbDigest(t, s)
	s.Close()
	r := rand.New(rand.NewPCG(7, 7))
	for round := range 8 {
		db := filepath.Join(dir, fmt.Sprintf("r%d.db", round))
		copyDB(t, base, db)
		kill := 1 + r.IntN(280) // after this many steps
		if round == 0 {
			kill = 1 << 30 // not before it is done
		}
		child := exec.Command(os.Args[0], "-test.run=^$")
		child.Env = append(os.Environ(), "STEP_CHILD_DB="+db)
		out, err := child.StdoutPipe()
		if err != nil {
			t.Fatal(err)
		}
		if err := child.Start(); err != nil {
			t.Fatal(err)
		}
		lines := bufio.NewScanner(out)
		seen, done := 0, false
		for lines.Scan() {
			l := lines.Text()
			if l == "done" {
				done = true
				break
			}
			if !strings.HasPrefix(l, "step ") {
				t.Fatalf("child: %s", l)
			}
			if seen++; seen == kill {
				time.Sleep(time.Duration(r.IntN(3000)) * time.Microsecond) // somewhere in the next step
				break
			}
		}
		child.Process.Signal(syscall.SIGKILL)
		child.Wait()
		s, err := Open(db)
		if err != nil {
			t.Fatalf("round %d: open after the kill: %v", round, err)
		}
		got := dbDigest(t, s)
		if msg := checkKept(t, s); msg != "" {
			t.Fatalf("round %d: %s", round, msg)
		}
		pairs, _ := s.KindItems("qa")
		s.Close()
		switch {
		case done && pairs != 30:
			t.Fatalf("round %d: done, but %d pairs", round, pairs)
		case !done && got != before:
			// Killed between its last step and its end: done all the same.
			if pairs == 30 {
				t.Logf("round %d: killed after step %d, as the import ended: it is done", round, kill)
				continue
			}
			t.Fatalf("round %d: killed after step %d, the database is not as before:\n%s", round, kill, diffLines(before, got))
		}
		t.Logf("round %d: killed after step %d (done: %v): %d pairs", round, kill, done, pairs)
	}
}

func copyDB(t *testing.T, from, to string) {
	t.Helper()
	src, err := sql.Open("sqlite", "file:"+from)
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	if _, err := src.Exec("VACUUM INTO ?", to); err != nil {
		t.Fatal(err)
	}
}

// Between two steps of an import another writer gets the lock: its write
// commits while the import still runs, and waits for no more than a step.
// While the import runs, the screens do not offer its items, nor take a
// label on one, and the commands that read wait for it; once it is done,
// all of it shows.
func TestImportInProgressLetsWritersInAndIsLeftOutOfScreens(t *testing.T) {
	defer SetImportSteps(time.Nanosecond, 0)()
	s := seedForSteps(t, filepath.Join(t.TempDir(), "t.db"))
	defer s.Close()
	middle := make(chan struct{})
	goOn := make(chan struct{})
	imported := make(chan error, 1)
	// Half way, between two of its steps (the lock is free), the import
	// pauses until the test has looked.
	afterStep = func(n int) {
		if n == 20 {
			close(middle)
			<-goOn
		}
	}
	defer func() { afterStep = nil }()
	go func() { imported <- s.Import(func(tx *Tx) error { return importPairs(tx, 6, 12, 0) }) }()
	<-middle
	// Another writer (a screen's decision on a pair there before) gets in.
	ref, err := s.Resolve("q1")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.RecordLabel(Label{Annotator: "sam", ItemID: ref.ItemID, Field: schema.QuestionValidity, Value: "valid"}); err != nil {
		t.Fatalf("a decision during the import: %v", err)
	}
	// The import's pairs are committed, but nothing shows them yet.
	es, err := s.Queue(QueueQuery{Annotator: "sam", Kind: "qa", Limit: 50})
	if err != nil {
		t.Fatal(err)
	}
	if len(es) != 5 { // q1-q5: q6 and later are the import's
		t.Fatalf("the queue during the import: %v", es)
	}
	if refs, err := s.FindItems("q6", 5); err != nil || len(refs) != 0 {
		t.Fatalf("go-to found an item of the import in progress: %v %v", refs, err)
	}
	six, err := s.Resolve("q6")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.RecordLabel(Label{Annotator: "sam", ItemID: six.ItemID, Field: schema.QuestionValidity, Value: "valid"}); !IsBusy(err) {
		t.Fatalf("a label on an item of the import in progress: %v, want a busy refusal", err)
	}
	if w := s.Writing(nil); !strings.HasPrefix(w, "an import (pid "+strconv.Itoa(os.Getpid())) {
		t.Fatalf("Writing: %q", w)
	}
	waited := make(chan error, 1)
	go func() { waited <- s.WaitForWriters(context.Background(), nil) }()
	select {
	case err := <-waited:
		t.Fatalf("a command did not wait for the import: %v", err)
	case <-time.After(300 * time.Millisecond):
	}
	close(goOn)
	if err := <-imported; err != nil {
		t.Fatal(err)
	}
	if err := <-waited; err != nil {
		t.Fatal(err)
	}
	es, err = s.Queue(QueueQuery{Annotator: "sam", Kind: "qa", Limit: 50})
	if err != nil || len(es) != 12 {
		t.Fatalf("the queue after the import: %v %v", es, err)
	}
	if msg := checkKept(t, s); msg != "" {
		t.Fatal(msg)
	}
}

func init() {
	if db := os.Getenv("STEP_CHILD_DB"); db != "" {
		os.Exit(stepChild(db))
	}
}
