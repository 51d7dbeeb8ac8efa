package main

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"time"
)

// peakMem is what a process held when its resident set was largest, split
// as the kernel counts it: the anonymous memory the process allocated (Go's
// heap and stacks, SQLite's caches) and the pages mapped from files (the
// executable's code and read-only data, shared with the page cache and
// dropped by the kernel when it needs them back).
type peakMem struct {
	RSS, Anon float64 // MiB
}

// File is the resident set mapped from files.
func (p peakMem) File() float64 { return p.RSS - p.Anon }

// sampledPeak runs bin with args and reads /proc/PID/smaps_rollup every
// millisecond until it exits, keeping the sample with the largest resident
// set. A sample can miss the very peak by the memory of a millisecond;
// /usr/bin/time gives the exact maximum, without the split.
func sampledPeak(bin string, args ...string) (peakMem, error) {
	cmd := exec.Command(bin, args...)
	if err := cmd.Start(); err != nil {
		return peakMem{}, err
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	var best peakMem
	rollup := fmt.Sprintf("/proc/%d/smaps_rollup", cmd.Process.Pid)
	for {
		select {
		case err := <-done:
			if err != nil {
				return best, fmt.Errorf("%s %s: %v", bin, strings.Join(args, " "), err)
			}
			return best, nil
		default:
		}
		if m, ok := readRollup(rollup); ok && m.RSS > best.RSS {
			best = m
		}
		time.Sleep(time.Millisecond)
	}
}

// readRollup reads the Rss and Anonymous lines of a smaps_rollup file.
func readRollup(path string) (peakMem, bool) {
	f, err := os.Open(path)
	if err != nil {
		return peakMem{}, false
	}
	defer f.Close()
	var m peakMem
	var seen int
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		k, v, ok := strings.Cut(sc.Text(), ":")
		if !ok {
			continue
		}
		kb, err := strconv.ParseFloat(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 64)
		if err != nil {
			continue
		}
		switch k {
		case "Rss":
			m.RSS, seen = kb/1024, seen+1
		case "Anonymous":
			m.Anon, seen = kb/1024, seen+1
		}
	}
	return m, seen == 2
}
