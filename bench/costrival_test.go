package main

import (
	"strings"
	"testing"
)

// The cost JSON below is what report/cost.go prints for one annotator a1
// with 3 claims done, 3,600 ms of active time and one session of 7,200 ms
// (0.001 h and 0.002 h), and a2 with a session of 3,600 ms and no decision;
// the shell's rows are what costSQL prints on such a file (annotator, task,
// items, active ms, session ms; the task "" is the annotator's sessions).
const costJSON = `{"annotators":{
 "a1":{"items":3,"active_hours":0.001,"session_hours":0.002,"kinds":{"claim":{"items":3,"active_hours":0.001,"session_hours":0.002}}},
 "a2":{"items":0,"active_hours":0,"session_hours":0.001,"kinds":{}}},
 "total":{"items":3,"active_hours":0.001,"session_hours":0.003,"kinds":{"claim":{"items":3,"active_hours":0.001,"session_hours":0.002}}}}`

func TestCompareCost(t *testing.T) {
	shell := "a1||0|0|7200\na1|claim|3|3600|7200\na1|qrels|0|0|0\na2||0|0|3600\n"
	got, err := compareCost([]byte(costJSON), []byte(shell))
	if err != nil {
		t.Fatal(err)
	}
	// total: 3 numbers + 3 for claim; a1: 3 + 3; a2: 3 (no task).
	if got != "yes (15 numbers)" {
		t.Errorf("same numbers: got %q", got)
	}
	// One claim fewer in the shell, and 1 ms more of a1's session (within 1e-6 h).
	got, err = compareCost([]byte(costJSON), []byte("a1||0|0|7201\na1|claim|2|3600|7201\na2||0|0|3600\n"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(got, "NO: 4 of 15 differ, first: total items: annotate 3, shell 2") {
		t.Errorf("a claim fewer: got %q", got)
	}
	// a2's session missing from the shell: its hours and the total's differ.
	got, _ = compareCost([]byte(costJSON), []byte("a1||0|0|7200\na1|claim|3|3600|7200\n"))
	if !strings.HasPrefix(got, "NO: 2 of 15 differ, first: total session_hours: annotate 0.003, shell 0.002") {
		t.Errorf("a session missing: got %q", got)
	}
	if _, err := compareCost([]byte(costJSON), []byte("a1|claim|3\n")); err == nil || !strings.Contains(err.Error(), "line 1: 3 fields, want 5") {
		t.Errorf("a short line: got %v", err)
	}
}
