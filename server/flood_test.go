package server

import (
	"bytes"
	"fmt"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/annotate-dev/annotate/store"
	gossh "golang.org/x/crypto/ssh"
)

// The flood of the issue: four annotators each type 2 MiB of "?", the key
// that opens and closes the guidelines pop-up. The whole of it fits in the
// SSH channel window (2 MiB), so the clients hand it over at once and it is
// up to the server to hold its memory flat while it works through it.
const (
	floodClients = 4
	floodBytes   = 2 << 20
	floodFor     = 6 * time.Second // then the flooding clients leave
	// floodHeapBound is what the test process (server and clients) may hold
	// in its heap during the flood. Before the sessions' commands and input
	// were bounded, the heap passed it within a few seconds (see the report
	// of TestKeyFloodStaysBounded).
	floodHeapBound = 250 << 20
)

func (b *syncBuffer) limit(n int) {
	b.mu.Lock()
	b.keep = n
	b.mu.Unlock()
}

func TestKeyFloodStaysBounded(t *testing.T) {
	keys := map[string]gossh.Signer{}
	for i := 1; i <= floodClients+1; i++ {
		keys[fmt.Sprintf("a%d", i)] = newKey(t)
	}
	f := start(t, 3, keys)
	addr, host := f.srv.Addr().String(), f.srv.HostKey()

	before, _ := goroutines()
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	heapBefore := ms.HeapInuse

	watch := watchHeap(floodHeapBound)
	terms := make([]*terminal, floodClients)
	for i := range terms {
		terms[i] = openTerminalAt(t, addr, host, keys[fmt.Sprintf("a%d", i+1)], 120, 40)
		terms[i].out.limit(64 << 10)
		terms[i].waitFor("QA pairs")
	}
	go func() {
		// Past the bound, cut the flood (the test then fails) so that an
		// unbounded server stops growing.
		select {
		case <-watch.over:
			for _, term := range terms {
				term.client.Close()
			}
		case <-watch.stop:
		}
	}()
	flood := bytes.Repeat([]byte("?"), floodBytes)
	var typed sync.WaitGroup
	sent := make([]time.Duration, floodClients)
	began := time.Now()
	for i, term := range terms {
		typed.Add(1)
		go func() {
			defer typed.Done()
			term.in.Write(flood) // fails once the client is closed
			sent[i] = time.Since(began)
		}()
	}
	for _, term := range terms {
		term.waitFor("Guidelines · all fields") // the keys are read and obeyed
	}

	// Meanwhile another annotator connects and gets their screen.
	time.Sleep(time.Second)
	other := time.Now()
	late := openTerminalAt(t, addr, host, keys[fmt.Sprintf("a%d", floodClients+1)], 120, 40)
	late.waitFor("QA pairs")
	t.Logf("an annotator connecting during the flood had their screen after %v", time.Since(other).Round(time.Millisecond))
	late.press("q")
	late.waitEnd()
	late.client.Close()

	time.Sleep(time.Until(began.Add(floodFor)))
	for _, term := range terms {
		term.client.Close()
	}
	typed.Wait()
	peak := watch.end()
	t.Logf("%d clients × %d MiB of ?: handed over in %v; peak heap in use %d MB (before: %d MB)",
		floodClients, floodBytes>>20, slicesMax(sent).Round(time.Millisecond), peak>>20, heapBefore>>20)
	if peak > floodHeapBound {
		t.Errorf("peak heap in use %d MB during the flood, over the %d MB bound", peak>>20, floodHeapBound>>20)
	}

	// Once they have left, their programs and goroutines end and the
	// memory is let go.
	for i := 1; i <= floodClients; i++ {
		f.waitLog(t, fmt.Sprintf("msg=disconnect annotator=a%d ", i))
	}
	// Once the sessions are gone, no goroutine is left in Bubble Tea, its
	// input parser or a session handler (each would hold a whole program);
	// what may remain are the TUI's clock ticks, sleeping out their last
	// seconds without a program.
	var held string
	deadline := time.Now().Add(wait)
	for {
		held = sessionStacks()
		if held == "" || time.Now().After(deadline) {
			break
		}
		time.Sleep(50 * time.Millisecond)
	}
	if held != "" {
		t.Errorf("goroutines of the ended sessions are left:\n%s", held)
	}
	runtime.GC()
	runtime.ReadMemStats(&ms)
	after, finishing := goroutines()
	t.Logf("after they left: %d goroutines (%d before) and %d commands finishing without their program; heap in use %d MB (%d MB before)",
		after, before, finishing, ms.HeapInuse>>20, heapBefore>>20)
	if after > before+2 {
		t.Errorf("%d goroutines after the flooding clients left, %d before", after, before)
	}
	if ms.HeapInuse > heapBefore+30<<20 {
		t.Errorf("heap in use %d MB after the flooding clients left, %d MB before", ms.HeapInuse>>20, heapBefore>>20)
	}
	f.checkSessionsEnded(t, floodClients+1)
}

func slicesMax(ds []time.Duration) time.Duration {
	var m time.Duration
	for _, d := range ds {
		m = max(m, d)
	}
	return m
}

// goroutines counts the goroutines, apart from the commands finishing on
// their own after their session ended (boundedModel), which it counts
// apart.
func goroutines() (others, finishing int) {
	buf := make([]byte, 4<<20)
	for _, g := range strings.Split(string(buf[:runtime.Stack(buf, true)]), "\n\n") {
		if strings.Contains(g, "created by github.com/annotate-dev/annotate/server.bounded") {
			finishing++
		} else {
			others++
		}
	}
	return others, finishing
}

// sessionStacks is the stacks of the goroutines that run a session or a
// part of its program.
func sessionStacks() string {
	buf := make([]byte, 4<<20)
	var held []string
	for _, g := range strings.Split(string(buf[:runtime.Stack(buf, true)]), "\n\n") {
		if strings.Contains(g, "created by github.com/annotate-dev/annotate/server.bounded") {
			continue // a command's own goroutine, finishing without the program (boundedModel)
		}
		for _, mark := range []string{"bubbletea", "ultraviolet", "server.pumpInput", "server.(*Server).runTUI", "server.(*Server).handle"} {
			if strings.Contains(g, mark) {
				held = append(held, g)
				break
			}
		}
	}
	return strings.Join(held[:min(len(held), 8)], "\n\n")
}

// The same flood against the annotate serve process, whose resident memory
// is what the machine sees, with 8 silent connections held open meanwhile.
func TestKeyFloodServerProcess(t *testing.T) {
	const rssKill = 2 << 30 // stop a runaway server before it eats the machine
	bin := buildAnnotate(t)
	dir := t.TempDir()
	db := filepath.Join(dir, "annotate.db")
	st, err := store.Open(db)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	seed(t, st, 3)
	keys := map[string]gossh.Signer{}
	for i := 1; i <= floodClients+1; i++ {
		keys[fmt.Sprintf("a%d", i)] = newKey(t)
	}
	logs := &syncBuffer{}
	cmd := exec.Command(bin, "serve", "--db", db, "--authorized-keys", writeAuthorizedKeys(t, dir, keys),
		"--listen", "127.0.0.1:0", "--host-key", filepath.Join(dir, "host_ed25519"))
	cmd.Stdout, cmd.Stderr = logs, logs
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan struct{})
	go func() { cmd.Wait(); close(exited) }()
	t.Cleanup(func() {
		cmd.Process.Kill()
		<-exited
		if t.Failed() {
			t.Logf("server log:\n%s", tail(logs.String()))
		}
	})
	var peak atomic.Uint64
	go func() {
		for {
			select {
			case <-exited:
				return
			case <-time.After(20 * time.Millisecond):
			}
			rss, err := procStatus(cmd.Process.Pid, "VmRSS")
			if err != nil {
				continue
			}
			if rss > peak.Load() {
				peak.Store(rss)
			}
			if rss > rssKill {
				cmd.Process.Kill()
				return
			}
		}
	}()
	waitText(t, logs, "msg=listening")
	addr := regexp.MustCompile(`msg=listening addr=(\S+)`).FindStringSubmatch(logs.String())[1]
	host, _, err := loadHostKey(filepath.Join(dir, "host_ed25519"))
	if err != nil {
		t.Fatal(err)
	}
	hostKey := host.PublicKey()
	idle, _ := procStatus(cmd.Process.Pid, "VmRSS")

	terms := make([]*terminal, floodClients)
	for i := range terms {
		terms[i] = openTerminalAt(t, addr, hostKey, keys[fmt.Sprintf("a%d", i+1)], 120, 40)
		terms[i].out.limit(64 << 10)
		terms[i].waitFor("QA pairs")
	}
	flood := bytes.Repeat([]byte("?"), floodBytes)
	began := time.Now()
	for _, term := range terms {
		go term.in.Write(flood)
	}
	raw := rawConns(t, addr)
	for range 8 {
		banner(raw())
	}
	time.Sleep(time.Second)
	other := time.Now()
	late := openTerminalAt(t, addr, hostKey, keys[fmt.Sprintf("a%d", floodClients+1)], 120, 40)
	late.waitFor("QA pairs")
	lateWait := time.Since(other)
	late.press("q")
	late.waitEnd()
	late.client.Close()
	time.Sleep(time.Until(began.Add(floodFor)))
	during := peak.Load()
	for _, term := range terms {
		term.client.Close()
	}
	for i := 1; i <= floodClients; i++ {
		waitText(t, logs, fmt.Sprintf("msg=disconnect annotator=a%d ", i))
	}
	time.Sleep(3 * time.Second)
	after, err := procStatus(cmd.Process.Pid, "VmRSS")
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("server RSS: %d MB idle, peak %d MB during %d clients × %d MiB of ?, %d MB 3 s after they left; "+
		"an annotator connecting during the flood, with 8 silent connections open, had the screen after %v",
		idle>>20, during>>20, floodClients, floodBytes>>20, after>>20, lateWait.Round(time.Millisecond))
	if during > rssBound {
		t.Errorf("the server's peak RSS was %d MB during the flood, over the %d MB bound", during>>20, rssBound>>20)
	}
	// Before the memory of ended sessions was handed back, RSS stayed at
	// its peak for minutes (430 MB 30 s after the clients left, measured
	// before the flood was bounded).
	if after > idle+40<<20 {
		t.Errorf("the server's RSS was %d MB 3 s after the clients left, %d MB idle", after>>20, idle>>20)
	}
	if total, open := sshSessions(t, st); total != floodClients+1 || open != 0 {
		t.Errorf("%d sessions recorded, %d not ended; want %d, all ended", total, open, floodClients+1)
	}
}

// The flood of the issue with its mix of keys (keyMix): four annotators
// each type 2 MiB of it into their session, then leave. The keys open and
// close pop-ups, queues, searches and notes, escapes among them. The mix
// leaves out q: on the home screen it ends the session, whose unread input
// goes with it, and the flood would end at the first one. The heap stays
// flat throughout, when they leave too (a session that ends parses what
// its input still held), and is back where it was once they have left.
func TestMixedKeyFloodStaysBounded(t *testing.T) {
	// Measured here (server and clients): 64 to 78 MB in use at most, most
	// of it garbage of the screens' renderings between two collections.
	// Before the parser's input was bounded (parseBudget), 76 to 387 MB:
	// how much a session's parser held depended on how long it went
	// without a 50 ms pause in its input (TestParserHoldsLittleInput
	// measures that alone).
	const mixHeapBound = 120 << 20
	keys := map[string]gossh.Signer{}
	for i := 1; i <= floodClients; i++ {
		keys[fmt.Sprintf("a%d", i)] = newKey(t)
	}
	f := start(t, 30, keys)
	addr, host := f.srv.Addr().String(), f.srv.HostKey()
	runtime.GC()
	before := heapInUse()
	watch := watchHeap(mixHeapBound)
	terms := make([]*terminal, floodClients)
	for i := range terms {
		terms[i] = openTerminalAt(t, addr, host, keys[fmt.Sprintf("a%d", i+1)], 120, 40)
		terms[i].out.limit(64 << 10)
		terms[i].waitFor("QA pairs")
	}
	go func() {
		select { // past the bound, cut the flood (the test then fails)
		case <-watch.over:
			for _, term := range terms {
				term.client.Close()
			}
		case <-watch.stop:
		}
	}()
	var typed sync.WaitGroup
	began := time.Now()
	for i, term := range terms {
		typed.Add(1)
		go func() {
			defer typed.Done()
			mix, _ := keyMix(uint64(i), floodBytes, "q")
			term.in.Write(mix) // fails once the session or the client is closed
		}()
	}
	time.Sleep(time.Until(began.Add(floodFor)))
	for _, term := range terms {
		select {
		case <-term.done:
			t.Errorf("a session ended during the flood; the screen shows:\n%s", tail(term.screen()))
		default:
		}
		term.client.Close()
	}
	typed.Wait()
	for i := 1; i <= floodClients; i++ {
		f.waitLog(t, fmt.Sprintf("msg=disconnect annotator=a%d ", i))
	}
	// What the sessions' input held is parsed once they have ended: the
	// heap is watched for a while after.
	var after uint64
	for left := time.Now(); time.Since(left) < 10*time.Second; time.Sleep(100 * time.Millisecond) {
		if sessionStacks() != "" {
			continue
		}
		runtime.GC()
		if after = heapInUse(); after < before+20<<20 {
			break
		}
	}
	peak := watch.end()
	t.Logf("%d clients × %d MiB of the mix: heap in use %d MB before, at most %d MB, %d MB once they had left",
		floodClients, floodBytes>>20, before>>20, peak>>20, after>>20)
	if peak > mixHeapBound {
		t.Errorf("peak heap in use %d MB, over the %d MB bound", peak>>20, mixHeapBound>>20)
	}
	if after > before+20<<20 {
		t.Errorf("heap in use %d MB 10 s after the clients left, %d MB before", after>>20, before>>20)
	}
	f.checkSessionsEnded(t, floodClients)
}
