package importer

import (
	"fmt"
	"io"
	"strings"
	"time"
)

// progress draws one line on a terminal, rewritten in place ("\r"), at most
// ten times a second. The command gives a writer only when stderr is a
// terminal; a nil *progress or a nil writer draws nothing.
type progress struct {
	w           io.Writer
	what        string
	done, total int64
	bytes       bool // done and total are bytes (else records)
	start, last time.Time
	drawn       bool
}

func newProgress(w io.Writer) *progress {
	if w == nil {
		return nil
	}
	return &progress{w: w}
}

// begin starts a phase: reading total bytes, or writing total records.
func (p *progress) begin(what string, total int64, bytes bool) {
	if p == nil {
		return
	}
	p.what, p.done, p.total, p.bytes = what, 0, total, bytes
	p.start, p.last = time.Now(), time.Time{}
	p.draw()
}

// add counts n more bytes or records.
func (p *progress) add(n int64) {
	if p == nil {
		return
	}
	p.done += n
	if time.Since(p.last) >= 100*time.Millisecond {
		p.draw()
	}
}

// end clears the line, so the summary prints on a clean one.
func (p *progress) end() {
	if p == nil || !p.drawn {
		return
	}
	fmt.Fprint(p.w, "\r\x1b[K")
}

func (p *progress) draw() {
	p.last, p.drawn = time.Now(), true
	took := time.Since(p.start).Round(100 * time.Millisecond)
	amount := func(n int64) string {
		if p.bytes {
			return mib(n)
		}
		return fmt.Sprint(n)
	}
	if p.total <= 0 {
		fmt.Fprintf(p.w, "\r%-16s %s  %s\x1b[K", p.what, amount(p.done), took)
		return
	}
	const width = 24
	frac := min(float64(p.done)/float64(p.total), 1)
	n := int(frac * width)
	bar := strings.Repeat("█", n) + strings.Repeat("░", width-n)
	fmt.Fprintf(p.w, "\r%-16s %s %3.0f%%  %s of %s  %s\x1b[K", p.what, bar, 100*frac, amount(p.done), amount(p.total), took)
}
