package exporter

import (
	"fmt"
	"io"
	"strings"
	"time"
)

// progress draws one line on a terminal, rewritten in place ("\r"), at most
// ten times a second so drawing never costs more than the export. The command
// passes a writer only when stderr is a terminal: piped or redirected output
// gets nothing.
type progress struct {
	w     io.Writer // nil: silent
	what  string
	total int
	done  int
	start time.Time
	last  time.Time
}

func newProgress(w io.Writer) *progress { return &progress{w: w} }

// begin starts a phase of total rows.
func (p *progress) begin(what string, total int) {
	p.what, p.total, p.done = what, total, 0
	p.start = time.Now()
	p.last = time.Time{}
	p.draw()
}

// step counts one row; the clock is read every 1024 rows only.
func (p *progress) step() {
	p.done++
	if p.w == nil || p.done&1023 != 0 {
		return
	}
	if time.Since(p.last) >= 100*time.Millisecond {
		p.draw()
	}
}

// advance counts n rows at once (the backup's readers, under their lock).
func (p *progress) advance(n int) {
	p.done += n
	if p.w != nil && time.Since(p.last) >= 100*time.Millisecond {
		p.draw()
	}
}

// end draws the phase complete and moves to the next line.
func (p *progress) end() {
	if p.w == nil {
		return
	}
	p.draw()
	fmt.Fprintln(p.w)
}

func (p *progress) draw() {
	if p.w == nil {
		return
	}
	p.last = time.Now()
	took := time.Since(p.start).Round(100 * time.Millisecond)
	if p.total <= 0 { // unknown total: a count
		fmt.Fprintf(p.w, "\r%-14s %d  %s\x1b[K", p.what, p.done, took)
		return
	}
	const width = 24
	frac := min(float64(p.done)/float64(p.total), 1)
	n := int(frac * width)
	bar := strings.Repeat("█", n) + strings.Repeat("░", width-n)
	fmt.Fprintf(p.w, "\r%-14s %s %3.0f%%  %d/%d  %s\x1b[K", p.what, bar, 100*frac, p.done, p.total, took)
}
