//go:build unix

package store

import (
	"bufio"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestMain lets the test binary be a screen of another process: with
// LEASE_CHILD_DB set it opens that database, waits until the file
// LEASE_CHILD_GO exists (so that several children start together), takes
// jo's screen lease, says "held" or "refused", and holds it until its
// standard input closes or it is killed.
func TestMain(m *testing.M) {
	if db := os.Getenv("LEASE_CHILD_DB"); db != "" {
		os.Exit(leaseChild(db, os.Getenv("LEASE_CHILD_GO")))
	}
	os.Exit(m.Run())
}

func leaseChild(db, goFile string) int {
	for goFile != "" {
		if _, err := os.Stat(goFile); err == nil {
			break
		}
		time.Sleep(time.Millisecond)
	}
	s, err := Open(db)
	if err != nil {
		fmt.Println("error:", err)
		return 2
	}
	defer s.Close()
	var l *ScreenLease
	err = s.Retry(context.Background(), nil, func() (err error) {
		l, err = s.AcquireScreen("jo", "", "tty /dev/pts/child")
		return err
	})
	var held *ScreenHeldError
	switch {
	case errors.As(err, &held):
		fmt.Println("refused")
		return 0
	case err != nil:
		fmt.Println("error:", err)
		return 2
	}
	fmt.Println("held")
	io.Copy(io.Discard, os.Stdin)
	l.Release()
	return 0
}

type leaseChildProc struct {
	cmd   *exec.Cmd
	stdin io.WriteCloser
	out   *bufio.Reader
}

// startLeaseChild starts a screen in another process (see TestMain).
func startLeaseChild(t *testing.T, db, goFile string) *leaseChildProc {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), "LEASE_CHILD_DB="+db, "LEASE_CHILD_GO="+goFile)
	in, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	return &leaseChildProc{cmd: cmd, stdin: in, out: bufio.NewReader(out)}
}

func (c *leaseChildProc) said(t *testing.T) string {
	t.Helper()
	line, err := c.out.ReadString('\n')
	if err != nil {
		t.Fatalf("child: %q, %v", line, err)
	}
	return strings.TrimSpace(line)
}

// files lists the names in dir.
func files(t *testing.T, dir string) []string {
	t.Helper()
	es, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range es {
		out = append(out, e.Name())
	}
	return out
}

// The lease is a row of the database: whatever is done to the files beside
// it (deleted, replaced by symlinks to a file or to nowhere), a second
// screen of jo is refused while the first runs; nothing beside the database
// is created, followed or truncated; a screen killed with SIGKILL leaves a
// lease the next launch takes at once.
func TestScreenLeaseHoldsWhateverHappensBesideTheDatabase(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "study.db")
	s, err := Open(db)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	// Files where the earlier builds kept their locks, as symlinks: to a
	// file of the user's, and to a path that does not exist.
	precious := filepath.Join(t.TempDir(), "precious.txt")
	os.WriteFile(precious, []byte("keep me\n"), 0o644)
	dangling := filepath.Join(t.TempDir(), "nowhere", "x")
	for _, name := range []string{"study.db.screen-jo-2a3f2e3c.lock", "study.db.writing.lock"} {
		if err := os.Symlink(precious, filepath.Join(dir, name)); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink(dangling, filepath.Join(dir, "study.db.screen-jo.lock")); err != nil {
		t.Fatal(err)
	}
	before := files(t, dir)

	child := startLeaseChild(t, db, "")
	if got := child.said(t); got != "held" {
		t.Fatalf("child: %q", got)
	}
	_, err = s.AcquireScreen("jo", "", "ssh from 10.0.0.7:5555")
	var held *ScreenHeldError
	if !errors.As(err, &held) {
		t.Fatalf("second screen: %v, want a ScreenHeldError", err)
	}
	if held.Holder.PID != child.cmd.Process.Pid || held.Holder.Where != "tty /dev/pts/child" {
		t.Errorf("holder %+v, want pid %d on tty /dev/pts/child", held.Holder, child.cmd.Process.Pid)
	}
	for _, want := range []string{"jo already has a screen open on study.db", "pid " + strconv.Itoa(child.cmd.Process.Pid), "tty /dev/pts/child", "host "} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("message %q lacks %q", err.Error(), want)
		}
	}
	// Every file beside the database but its own goes: still refused.
	for _, name := range files(t, dir) {
		if name != "study.db" && name != "study.db-wal" && name != "study.db-shm" {
			os.Remove(filepath.Join(dir, name))
		}
	}
	if _, err := s.AcquireScreen("jo", "", ""); !errors.As(err, &held) {
		t.Fatalf("after deleting the files beside the database: %v", err)
	}
	// Another annotator is not concerned.
	sam, err := s.AcquireScreen("sam", "", "")
	if err != nil {
		t.Fatalf("sam: %v", err)
	}
	sam.Release()

	// SIGKILL: no chance to clean up. The relaunch gets in at once.
	child.cmd.Process.Signal(syscall.SIGKILL)
	child.cmd.Wait()
	start := time.Now()
	l, err := s.AcquireScreen("jo", "", "ssh from 10.0.0.7:5555")
	if err != nil {
		t.Fatalf("after SIGKILL: %v (a stale lease)", err)
	}
	t.Logf("taken %v after the kill", time.Since(start))
	// This process holds it now: a second screen in the same process is
	// refused too (annotate serve's sessions share one process).
	if _, err := s.AcquireScreen("jo", "", ""); !errors.As(err, &held) || held.Holder.PID != os.Getpid() || held.Holder.Where != "ssh from 10.0.0.7:5555" {
		t.Fatalf("same process: %v %+v", err, held)
	}
	l.Release()
	l2, err := s.AcquireScreen("jo", "", "")
	if err != nil {
		t.Fatalf("after Release: %v", err)
	}
	l2.Release()

	// Nothing was created, followed or truncated.
	if b, _ := os.ReadFile(precious); string(b) != "keep me\n" {
		t.Errorf("the symlinks' target was changed: %q", b)
	}
	if _, err := os.Lstat(filepath.Dir(dangling)); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the dangling symlink's target was created: %v", err)
	}
	for _, name := range files(t, dir) {
		if name != "study.db" && name != "study.db-wal" && name != "study.db-shm" && !slices.Contains(before, name) {
			t.Errorf("a file appeared beside the database: %s", name)
		}
	}
}

// Ten launches at once: exactly one gets the screen.
func TestScreenLeaseRaceOfTenLaunches(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "study.db")
	s, err := Open(db) // created and migrated before the race
	if err != nil {
		t.Fatal(err)
	}
	s.Close()
	goFile := filepath.Join(dir, "go")
	var kids []*leaseChildProc
	for range 10 {
		kids = append(kids, startLeaseChild(t, db, goFile))
	}
	os.WriteFile(goFile, nil, 0o644)
	got := map[string]int{}
	for _, k := range kids {
		got[k.said(t)]++
	}
	if got["held"] != 1 || got["refused"] != 9 {
		t.Fatalf("ten launches: %v, want one held and nine refused", got)
	}
}

// Every write for jo of the process holding jo's lease checks it before it
// commits: a row deleted by hand is taken back; a row another screen holds
// refuses the write, which leaves nothing.
func TestScreenLeaseCheckedByEveryWrite(t *testing.T) {
	s := openTemp(t)
	seed(t, s, 1, 0)
	l, err := s.AcquireScreen("jo", "", "tty /dev/pts/1")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Release()
	ref, err := s.pooled().Resolve("q1")
	if err != nil {
		t.Fatal(err)
	}
	other, err := sql.Open("sqlite", "file:"+s.Path)
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	if _, err := other.Exec("DELETE FROM screen_leases"); err != nil {
		t.Fatal(err)
	}
	if _, err := s.RecordLabel(Label{Annotator: "jo", ItemID: ref.ItemID, Field: "question_validity", Value: "valid"}); err != nil {
		t.Fatalf("with the row deleted: %v", err)
	}
	var tok string
	if err := other.QueryRow("SELECT token FROM screen_leases WHERE name='jo'").Scan(&tok); err != nil || tok != l.token {
		t.Fatalf("the row was not taken back: %q %v", tok, err)
	}
	// Another screen took it over (as if it had judged this one dead).
	if _, err := other.Exec("UPDATE screen_leases SET token='theirs', pid=1, place='tty /dev/pts/2'"); err != nil {
		t.Fatal(err)
	}
	_, err = s.RecordLabel(Label{Annotator: "jo", ItemID: ref.ItemID, Field: "category", Value: "factual_recall"})
	var taken *ScreenTakenError
	if !errors.As(err, &taken) || !strings.Contains(err.Error(), "tty /dev/pts/2") {
		t.Fatalf("write under a lease taken over: %v", err)
	}
	if labels, err := s.pooled().CurrentLabels("jo", ref.ItemID); err != nil || labels["category"] != "" || labels["question_validity"] != "valid" {
		t.Errorf("labels %v %v: the refused write left something", labels, err)
	}
	// sam's writes are not jo's screen's concern.
	if _, err := s.RecordLabel(Label{Annotator: "sam", ItemID: ref.ItemID, Field: "question_validity", Value: "valid"}); err != nil {
		t.Errorf("sam: %v", err)
	}
}

// A lease of another machine is judged by its heartbeat; a heartbeat that
// meets a long write is late, never lost, and the lease stays.
func TestScreenLeaseHeartbeat(t *testing.T) {
	s := openTemp(t)
	other, err := sql.Open("sqlite", "file:"+s.Path)
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	put := func(beat time.Time) {
		t.Helper()
		_, err := other.Exec(`INSERT OR REPLACE INTO screen_leases(name, token, host, pid, place, since, heartbeat)
			VALUES ('jo', 'far', 'elsewhere.example', 4242, 'ssh from 10.1.1.1:22', ?, ?)`, beat.UTC().Format(time.RFC3339), beat.UTC().Format(time.RFC3339))
		if err != nil {
			t.Fatal(err)
		}
	}
	put(time.Now().Add(-time.Minute))
	var held *ScreenHeldError
	if _, err := s.AcquireScreen("jo", "", ""); !errors.As(err, &held) || held.Holder.Host != "elsewhere.example" {
		t.Fatalf("a lease of another machine beating a minute ago: %v", err)
	}
	put(time.Now().Add(-staleAfter - time.Minute))
	l, err := s.AcquireScreen("jo", "", "")
	if err != nil {
		t.Fatalf("a lease of another machine silent for longer than %v: %v", staleAfter, err)
	}
	defer l.Release()

	// The holder's heartbeats meet a write lock held by another connection.
	was := heartbeatEvery
	heartbeatEvery = 5 * time.Millisecond
	defer func() { heartbeatEvery = was }()
	l2, err := s.AcquireScreen("sam", "", "")
	if err != nil {
		t.Fatal(err)
	}
	defer l2.Release()
	conn, err := other.Conn(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	conn.ExecContext(context.Background(), "PRAGMA busy_timeout=10000")
	if _, err := conn.ExecContext(context.Background(), "BEGIN IMMEDIATE"); err != nil {
		t.Fatal(err)
	}
	time.Sleep(50 * time.Millisecond) // several heartbeats wait
	if _, err := conn.ExecContext(context.Background(), "COMMIT"); err != nil {
		t.Fatal(err)
	}
	var tok string
	if err := other.QueryRow("SELECT token FROM screen_leases WHERE name='sam'").Scan(&tok); err != nil || tok != l2.token {
		t.Fatalf("after heartbeats met a write: %q %v", tok, err)
	}
	if _, err := s.AcquireScreen("sam", "", ""); !errors.As(err, &held) {
		t.Fatalf("a second screen of sam after the write: %v", err)
	}
}
