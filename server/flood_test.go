package server

import (
	"bytes"
	"fmt"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

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

	runtime.GC()
	before := runtime.NumGoroutine()
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
	after := runtime.NumGoroutine()
	t.Logf("after they left: %d goroutines (%d before), heap in use %d MB (%d MB before)",
		after, before, ms.HeapInuse>>20, heapBefore>>20)
	if after > before+floodClients+1 {
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
