package main

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"sync"
	"time"

	"github.com/charmbracelet/x/ansi"
	"github.com/creack/pty"
)

// A screen of annotate on a pseudo-terminal, as a user's terminal sees it:
// the figures measured here include Bubble Tea's frame clock, the write to
// the terminal and the kernel's pty, which calling View() in-process never
// sees.
type ptyScreen struct {
	cmd  *exec.Cmd
	f    *os.File
	mu   sync.Mutex
	out  bytes.Buffer
	vt   *vscreen      // what the terminal shows
	got  chan struct{} // a signal per chunk read
	done chan struct{}
}

func startPty(bin string, args ...string) (*ptyScreen, error) {
	cmd := exec.Command(bin, args...)
	cmd.Env = append(os.Environ(), "TERM=xterm-256color", "NO_COLOR=1")
	f, err := pty.StartWithSize(cmd, &pty.Winsize{Rows: 40, Cols: 120})
	if err != nil {
		return nil, err
	}
	p := &ptyScreen{cmd: cmd, f: f, vt: newVscreen(120, 40), got: make(chan struct{}, 1), done: make(chan struct{})}
	go func() {
		defer close(p.done)
		buf := make([]byte, 1<<16)
		for {
			n, err := f.Read(buf)
			p.mu.Lock()
			p.out.Write(buf[:n])
			p.vt.write(buf[:n])
			p.mu.Unlock()
			select {
			case p.got <- struct{}{}:
			default:
			}
			if err != nil {
				return
			}
		}
	}()
	return p, nil
}

// size is how many bytes the terminal has received.
func (p *ptyScreen) size() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.out.Len()
}

// text is what the terminal received after byte from, escapes stripped.
func (p *ptyScreen) text(from int) string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return ansi.Strip(string(p.out.Bytes()[from:]))
}

// lines is the screen as it stands, a string a row.
func (p *ptyScreen) lines() []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.vt.lines()
}

// grid is the screen as it stands, as text.
func (p *ptyScreen) grid() string { return strings.Join(p.lines(), "\n") }

// unknown names the sequences met that the grid does not follow.
func (p *ptyScreen) unknown() string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.vt.unknownSeen()
}

// waitScreen waits until the screen meets ok.
func (p *ptyScreen) waitScreen(ok func([]string) bool, limit time.Duration) error {
	deadline := time.After(limit)
	for !ok(p.lines()) {
		select {
		case <-p.got:
		case <-p.done:
			if ok(p.lines()) {
				return nil
			}
			return fmt.Errorf("annotate ended:\n%s", p.grid())
		case <-deadline:
			return fmt.Errorf("not shown within %v:\n%s", limit, p.grid())
		}
	}
	return nil
}

// waitFor waits until the output after byte from matches re.
func (p *ptyScreen) waitFor(from int, re *regexp.Regexp, limit time.Duration) error {
	deadline := time.After(limit)
	for {
		if re.MatchString(p.text(from)) {
			return nil
		}
		select {
		case <-p.got:
		case <-p.done:
			if re.MatchString(p.text(from)) {
				return nil
			}
			return fmt.Errorf("annotate ended before %q showed:\n%s", re, tail(p.text(0), 2000))
		case <-deadline:
			return fmt.Errorf("%q did not show within %v:\n%s", re, limit, tail(p.text(0), 2000))
		}
	}
}

func (p *ptyScreen) close() {
	p.cmd.Process.Kill()
	p.f.Close()
	p.cmd.Wait()
	<-p.done
}
