package main

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"regexp"
	"slices"
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

// The prompts of the QA pair and claim flow, and the key that answers each.
var prompts = []struct {
	re  *regexp.Regexp
	key string
}{
	{regexp.MustCompile(`question_validity Is the question`), "y"},
	{regexp.MustCompile(`category Which category`), "\r"},
	{regexp.MustCompile(`persona Who would ask`), "1"},
	{regexp.MustCompile(`answer_correctness Is the answer`), "1"},
	{regexp.MustCompile(`claim_validity Is the claim`), "y"},
	{regexp.MustCompile(`entailment How does the claim`), "1"},
	{regexp.MustCompile(`missed_claims Did the extractor`), "\r"},
}

// nextPrompt is the index of the last prompt in s, or -1.
func nextPrompt(s string) int {
	best, at := -1, -1
	for i, p := range prompts {
		if loc := p.re.FindAllStringIndex(s, -1); len(loc) > 0 && loc[len(loc)-1][0] > at {
			best, at = i, loc[len(loc)-1][0]
		}
	}
	return best
}

// keyLatency answers n questions of the QA queue as a new annotator and
// measures each key to the first frame after it and to the frame showing
// the next question (the decision committed).
func keyLatency(bin, db, who string, n int) (keyFigures, error) {
	p, err := startPty(bin, "--db", db, "--as", who, "--kind", "qa")
	if err != nil {
		return keyFigures{}, err
	}
	defer p.close()
	anyPrompt := regexp.MustCompile(`Is the question|Which category|Who would ask|Is the answer|Is the claim|How does the claim|Did the extractor`)
	if err := p.waitFor(0, anyPrompt, time.Minute); err != nil {
		return keyFigures{}, err
	}
	time.Sleep(300 * time.Millisecond)
	cur := nextPrompt(p.text(0))
	var first, done []float64
	for range n {
		if cur < 0 {
			return keyFigures{}, fmt.Errorf("no question on screen:\n%s", tail(p.text(0), 2000))
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
		from := p.size()
		t0 := time.Now()
		if _, err := p.f.Write([]byte(prompts[cur].key)); err != nil {
			return keyFigures{}, err
		}
		var firstAt time.Duration
		deadline := time.After(10 * time.Second)
		next := -1
		for next < 0 {
			select {
			case <-p.got:
			case <-p.done:
				return keyFigures{}, errors.New("annotate ended")
			case <-deadline:
				return keyFigures{}, fmt.Errorf("no next question within 10 s of %q:\n%s", prompts[cur].key, tail(p.text(0), 2000))
			}
			if firstAt == 0 && p.size() > from {
				firstAt = time.Since(t0)
			}
			next = nextPrompt(p.text(from))
		}
		first = append(first, float64(firstAt.Microseconds())/1000)
		done = append(done, float64(time.Since(t0).Microseconds())/1000)
		cur = next
	}
	return keyFigures{First: percentiles(first), Committed: percentiles(done), N: n}, nil
}

func percentiles(xs []float64) [3]float64 {
	slices.Sort(xs)
	at := func(q float64) float64 { return xs[min(len(xs)-1, int(q*float64(len(xs))))] }
	return [3]float64{at(0.50), at(0.90), at(0.99)}
}
