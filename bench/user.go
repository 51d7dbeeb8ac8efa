package main

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"regexp"
	"slices"
	"strings"
	"time"
)

// What a user waits for at the terminal, measured in a pseudo-terminal
// (pty.go): launch → home, and keypress → changed screen. Used by bench run
// (beside the in-process go test -bench figures) and bench speed (two
// builds side by side).

type keyFigures struct {
	First, Committed [3]float64 // p50, p90, p99 in ms
	N                int
}

var homeLoaded = regexp.MustCompile(`\d%`)

// launchToHome starts annotate on a terminal and returns the milliseconds
// until the home screen shows its queues (the progress percentages).
func launchToHome(bin, db, who string) (float64, error) {
	t0 := time.Now()
	p, err := startPty(bin, "--db", db, "--as", who)
	if err != nil {
		return 0, err
	}
	defer p.close()
	if err := p.waitFor(0, homeLoaded, time.Minute); err != nil {
		return 0, err
	}
	return float64(time.Since(t0).Microseconds()) / 1000, nil
}

// homeMedian is the median of three launches → home.
func homeMedian(bin, db, who string) (float64, error) {
	var runs []float64
	for range 3 {
		d, err := launchToHome(bin, db, who)
		if err != nil {
			return 0, fmt.Errorf("home of %s: %w", who, err)
		}
		runs = append(runs, d)
	}
	slices.Sort(runs)
	return runs[1], nil
}

// The key that answers each field a screen asks (the field's name follows
// the prompt's bar, "▌ claim_validity Is the claim…"): a valid value, so
// that every key records a decision and the next question follows.
var answerKeys = map[string]string{
	"question_validity": "y", "category": "\r", "persona": "1", "answer_correctness": "1",
	"claim_validity": "y", "entailment": "1", "missed_claims": "\r",
	"relevance": "y", "query_validity": "y", "accuracy_support": "y", "grounded": "y",
}

var (
	promptField = regexp.MustCompile(`^▌ ([a-z_]+)`)
	// The answer editor's counts, in its title: "0 words · 0 characters".
	answerCount = regexp.MustCompile(`(\d+) characters?`)
)

// question is what a screen asks on the grid: the item (its header up to
// the first " · " or gap) and the field asked, or the answer editor's
// character count; and the key that answers it ("" when the screen asks
// nothing: loading, saving, or a screen of no kind's).
func question(lines []string) (state, key string) {
	if len(lines) == 0 {
		return "", ""
	}
	item := strings.TrimSpace(lines[0])
	if i := strings.Index(item, " · "); i >= 0 {
		item = item[:i]
	}
	if i := strings.Index(item, "  "); i >= 0 {
		item = item[:i]
	}
	for _, l := range lines[1:] {
		if m := promptField.FindStringSubmatch(l); m != nil {
			if k, ok := answerKeys[m[1]]; ok {
				return item + " | " + m[1], k
			}
			return "", ""
		}
		if strings.HasPrefix(l, "▶ Answer") {
			if m := answerCount.FindStringSubmatch(l); m != nil {
				// Type a letter into an empty answer, submit one
				// (ctrl+s) that has text.
				if m[1] == "0" {
					return item + " | " + m[1], "a"
				}
				return item + " | " + m[1], "\x13"
			}
		}
	}
	return "", ""
}

// keyLatency answers n questions of the QA queue as a new annotator (the
// figure bench run and bench speed have always printed).
func keyLatency(bin, db, who string, n int) (keyFigures, error) {
	return kindKeyLatency(bin, db, who, "qa", n)
}

// kindKeyLatency answers n questions of a kind's queue as annotator who
// and measures each key to the first frame after it and to the frame
// showing the next question (the decision committed): the grid shows
// another item or another field. In the answer editor a letter typed into
// an empty answer and ctrl+s submitting it take turns.
func kindKeyLatency(bin, db, who, kind string, n int) (keyFigures, error) {
	p, err := startPty(bin, "--db", db, "--as", who, "--kind", kind)
	if err != nil {
		return keyFigures{}, err
	}
	defer p.close()
	if err := p.waitScreen(func(l []string) bool { s, _ := question(l); return s != "" }, time.Minute); err != nil {
		return keyFigures{}, err
	}
	time.Sleep(300 * time.Millisecond)
	var first, done []float64
	for range n {
		cur, key := question(p.lines())
		if cur == "" {
			return keyFigures{}, fmt.Errorf("%s: no question on screen:\n%s", kind, p.grid())
		}
		// A frame in flight lands before the key; the rest of the pause is
		// random over a whole 60 fps frame, so that keys arrive at every
		// phase of the program's frame clock, as a person's do. (A fixed
		// pause locks each key to the same phase: 40 ms after a frame is
		// always 1.7 ms before the next tick at 120 fps, 10 ms at 60, and
		// the figure measured that phase, not the program.)
		time.Sleep(40*time.Millisecond + time.Duration(rand.Int64N(int64(time.Second/60))))
		for len(p.got) > 0 {
			<-p.got
		}
		if cur2, _ := question(p.lines()); cur2 != cur {
			cur, key = question(p.lines())
			if cur == "" {
				return keyFigures{}, fmt.Errorf("%s: the question went away:\n%s", kind, p.grid())
			}
		}
		from := p.size()
		t0 := time.Now()
		if _, err := p.f.Write([]byte(key)); err != nil {
			return keyFigures{}, err
		}
		var firstAt time.Duration
		deadline := time.After(2 * time.Minute)
		for {
			select {
			case <-p.got:
			case <-p.done:
				return keyFigures{}, errors.New("annotate ended")
			case <-deadline:
				return keyFigures{}, fmt.Errorf("%s: no next question within 2 minutes of %q:\n%s", kind, key, p.grid())
			}
			if firstAt == 0 && p.size() > from {
				firstAt = time.Since(t0)
			}
			if next, _ := question(p.lines()); next != "" && next != cur {
				break
			}
		}
		first = append(first, float64(firstAt.Microseconds())/1000)
		done = append(done, float64(time.Since(t0).Microseconds())/1000)
	}
	if u := p.unknown(); u != "" {
		return keyFigures{}, fmt.Errorf("%s: the screen used sequences the bench's grid does not follow (%s): its figures would read a wrong screen", kind, u)
	}
	return keyFigures{First: percentiles(first), Committed: percentiles(done), N: n}, nil
}

func percentiles(xs []float64) [3]float64 {
	slices.Sort(xs)
	at := func(q float64) float64 { return xs[min(len(xs)-1, int(q*float64(len(xs))))] }
	return [3]float64{at(0.50), at(0.90), at(0.99)}
}
