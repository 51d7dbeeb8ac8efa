package main

import (
	"context"
	"database/sql"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"modernc.org/sqlite"
)

// bench busy: an annotator's save latency while the lead imports a long
// file. The database holds the gen fixture (N claims); the import is a new
// annotator's labels on every pair and claim (generateLabels: 299,000 lines
// at 100k claims), run by the annotate binary measured; meanwhile an
// annotator makes a decision every -every; the decisions are written in
// order, one at a time, each one write transaction (BEGIN IMMEDIATE, the
// label event and the current label, COMMIT) with the store's busy
// timeout, tried again when it fails with SQLITE_BUSY, as the screens do.
// A decision's latency is from the moment it is made to its commit. The
// saves are written in plain SQL, not through the store, so that the same
// annotator runs beside any build of annotate (whatever its schema
// version): what is measured is how long the import keeps the write lock
// from it.

func busyCmd(args []string) error {
	fs := flag.NewFlagSet("busy", flag.ExitOnError)
	annotate := fs.String("annotate", "", "the annotate binary whose import is measured (required)")
	claims := fs.Int("claims", 100_000, "claims of the fixture (five per QA pair)")
	every := fs.Duration("every", 250*time.Millisecond, "pause between two saves")
	work := fs.String("work", filepath.Join(os.TempDir(), "annotate-bench-busy"), "folder for the data and the database")
	fs.Parse(args)
	if *annotate == "" {
		return errors.New("busy: -annotate is required")
	}
	if err := os.MkdirAll(*work, 0o755); err != nil {
		return err
	}
	base, labels := filepath.Join(*work, "items.jsonl"), filepath.Join(*work, "labels.jsonl")
	for _, f := range []struct {
		path string
		gen  func(*os.File) error
	}{
		{base, func(w *os.File) error { _, err := generate(w, *claims); return err }},
		{labels, func(w *os.File) error { _, err := generateLabels(w, *claims); return err }},
	} {
		if _, err := os.Stat(f.path); err == nil {
			continue
		}
		w, err := os.Create(f.path)
		if err != nil {
			return err
		}
		err = f.gen(w)
		if cerr := w.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			return err
		}
	}
	db := filepath.Join(*work, "busy.db")
	for _, suffix := range []string{"", "-wal", "-shm"} {
		os.Remove(db + suffix)
	}
	if out, err := exec.Command(*annotate, "--db", db, "import", base).CombinedOutput(); err != nil {
		return fmt.Errorf("import %s: %v\n%s", base, err, out)
	}
	lines, err := countLines(labels)
	if err != nil {
		return err
	}

	a, err := newBusyAnnotator(db)
	if err != nil {
		return err
	}
	defer a.close()
	loadBefore := loadAverage()
	imp := exec.Command(*annotate, "--db", db, "import", labels)
	began := time.Now()
	if err := imp.Start(); err != nil {
		return err
	}
	done := make(chan error, 1)
	go func() { done <- imp.Wait() }()
	// A decision every -every while the import runs, written in order as
	// the screens write them (those that waited together, in one
	// transaction): a decision's latency is from the moment it was made to
	// its commit.
	made := make(chan time.Time, 1<<16)
	written := make(chan error, 1)
	var lat []time.Duration
	go func() {
		i := 0
		for at := range made {
			batch := []time.Time{at}
			for more := true; more; {
				select {
				case at, ok := <-made:
					if !ok {
						more = false
						break
					}
					batch = append(batch, at)
				default:
					more = false
				}
			}
			if err := a.save(i, len(batch)); err != nil {
				written <- fmt.Errorf("save %d: %w", i+1, err)
				return
			}
			for _, at := range batch {
				lat = append(lat, time.Since(at))
			}
			i += len(batch)
		}
		written <- nil
	}()
	var importErr error
	tick := time.NewTicker(*every)
	for running := true; running; {
		select {
		case importErr = <-done:
			running = false
		case at := <-tick.C:
			made <- at
		}
	}
	tick.Stop()
	close(made)
	if err := <-written; err != nil {
		return err
	}
	took := time.Since(began)
	if importErr != nil {
		return fmt.Errorf("the import failed: %w", importErr)
	}
	slices.Sort(lat)
	q := func(p float64) time.Duration {
		if len(lat) == 0 {
			return 0
		}
		return lat[min(len(lat)-1, int(p*float64(len(lat))))]
	}
	fmt.Printf("| %s | %s claims | %d lines | %.1f s | %d | %v | %v | %v | %v | %s → %s |\n",
		*annotate, sizeName(*claims), lines, took.Seconds(), len(lat),
		q(0.5).Round(time.Millisecond), q(0.9).Round(time.Millisecond), q(0.99).Round(time.Millisecond),
		lat[len(lat)-1].Round(time.Millisecond), loadBefore, loadAverage())
	return nil
}

func countLines(path string) (int, error) {
	b, err := os.ReadFile(path)
	return strings.Count(string(b), "\n"), err
}

// busyAnnotator saves decisions on the fixture's QA pairs as one annotator.
type busyAnnotator struct {
	db    *sql.DB
	who   int64
	items []int64
}

func newBusyAnnotator(path string) (*busyAnnotator, error) {
	db, err := sql.Open("sqlite", "file:"+path+"?_pragma=busy_timeout(10000)&_pragma=journal_mode(WAL)&_pragma=synchronous(FULL)&_txlock=immediate")
	if err != nil {
		return nil, err
	}
	db.SetMaxOpenConns(1)
	a := &busyAnnotator{db: db}
	if _, err := db.Exec("INSERT OR IGNORE INTO annotators(name, human, created_at) VALUES ('bench-jo', 1, ?)", time.Now().UTC().Format(time.RFC3339Nano)); err != nil {
		db.Close()
		return nil, err
	}
	if err := db.QueryRow("SELECT id FROM annotators WHERE name='bench-jo'").Scan(&a.who); err != nil {
		db.Close()
		return nil, err
	}
	// The annotator's screen holds its lease, as a screen does (a build
	// that keeps screens' leases in the database gives its imports' steps
	// the pause a screen needs then); a build without them has no table.
	var leases bool
	db.QueryRow("SELECT EXISTS (SELECT 1 FROM sqlite_schema WHERE name='screen_leases')").Scan(&leases)
	if leases {
		host, _ := os.Hostname()
		now := time.Now().UTC().Format(time.RFC3339)
		if _, err := db.Exec(`INSERT OR REPLACE INTO screen_leases(name, token, host, pid, place, since, heartbeat)
			VALUES ('bench-jo', 'bench', ?, ?, 'bench', ?, ?)`, host, os.Getpid(), now, now); err != nil {
			db.Close()
			return nil, err
		}
	}
	rows, err := db.Query("SELECT id FROM items WHERE kind='qa' ORDER BY id LIMIT 5000")
	if err != nil {
		db.Close()
		return nil, err
	}
	defer rows.Close()
	for rows.Next() {
		var id int64
		if err := rows.Scan(&id); err != nil {
			db.Close()
			return nil, err
		}
		a.items = append(a.items, id)
	}
	return a, rows.Err()
}

func (a *busyAnnotator) close() { a.db.Close() }

// save writes the decisions i to i+n-1 in one transaction, trying again
// while the lock is busy.
func (a *busyAnnotator) save(i, n int) error {
	for {
		err := a.write(i, n)
		var se *sqlite.Error
		if errors.As(err, &se) && se.Code()&0xff == 5 { // SQLITE_BUSY: try again
			continue
		}
		return err
	}
}

func (a *busyAnnotator) write(i, n int) error {
	tx, err := a.db.BeginTx(context.Background(), nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	for k := i; k < i+n; k++ {
		item := a.items[k%len(a.items)]
		value := []string{"valid", "invalid"}[k/len(a.items)%2]
		now := time.Now().UTC().Format(time.RFC3339Nano)
		res, err := tx.Exec(`INSERT INTO label_events(annotator_id, item_id, field, value, role, created_at, active_ms)
			VALUES (?, ?, 'question_validity', ?, 'annotate', ?, 1000)`, a.who, item, value, now)
		if err != nil {
			return err
		}
		id, _ := res.LastInsertId()
		if _, err := tx.Exec(`INSERT OR REPLACE INTO current_labels(role, annotator_id, item_id, field, value, event_id)
			VALUES ('annotate', ?, ?, 'question_validity', ?, ?)`, a.who, item, value, id); err != nil {
			return err
		}
	}
	return tx.Commit()
}
