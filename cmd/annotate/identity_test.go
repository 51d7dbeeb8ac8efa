package main

import (
	"bytes"
	"strings"
	"testing"

	"github.com/annotate-dev/annotate/store"
	"github.com/annotate-dev/annotate/store/storetest"
)

// A second local screen of jo is refused before it draws, naming where the
// first one runs; sam's screen is not concerned by jo's lock.
func TestLocalSecondScreenRefused(t *testing.T) {
	path, s := storetest.Create(t, "annotate.db")
	if err := s.EnsureAnnotator("jo"); err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	l, err := s.AcquireScreen("jo", "", "tty /dev/pts/7")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Release()
	var out, errb bytes.Buffer
	if err := runSafely([]string{"--db", path, "--as", "jo"}, &out, &errb); err == nil {
		t.Fatal("a second screen of jo opened")
	}
	for _, want := range []string{"annotate: jo already has a screen open on annotate.db (host ", "tty /dev/pts/7", "close that one first"} {
		if !strings.Contains(errb.String(), want) {
			t.Errorf("stderr %q lacks %q", errb.String(), want)
		}
	}
	if out.Len() != 0 {
		t.Errorf("the refused screen drew %q", out.String())
	}
}

// checkIdentity applies the rule of names (internal/names, tested there)
// to the database's annotators, naming the flag.
func TestCheckIdentity(t *testing.T) {
	_, s := storetest.Create(t, "annotate.db")
	defer s.Close()
	for _, n := range []string{"jo", "sam"} {
		if err := s.EnsureAnnotator(n); err != nil {
			t.Fatal(err)
		}
	}
	for name, want := range map[string]string{
		"jo":  "",
		"kim": "new",
		"JO":  `--as: no annotator "JO" yet; did you mean "jo"? (to create "JO" on purpose: annotate annotator add JO)`,
		"a,b": `--as: "a,b" is not a name: it holds ','`,
	} {
		isNew, err := checkIdentity(s, "--as", name)
		switch {
		case want == "" && (err != nil || isNew):
			t.Errorf("%s: %v new=%v, want known", name, err, isNew)
		case want == "new" && (err != nil || !isNew):
			t.Errorf("%s: %v new=%v, want new", name, err, isNew)
		case want != "" && want != "new" && (err == nil || !strings.Contains(err.Error(), want)):
			t.Errorf("%s: %v, want %q", name, err, want)
		}
	}
}

// One review screen per lead and database: a second is refused before it
// draws, naming where the first runs.
func TestSecondReviewScreenRefused(t *testing.T) {
	path := rvSeed(t)
	s, err := store.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	l, err := s.AcquireScreen("lead", "review", "tty /dev/pts/5")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Release()
	var out, errb bytes.Buffer
	if err := runSafely([]string{"--db", path, "--as", "lead", "review"}, &out, &errb); err == nil {
		t.Fatal("a second review screen opened")
	}
	if want := "annotate: lead (review) already has a screen open on annotate.db (host "; !strings.Contains(errb.String(), want) || !strings.Contains(errb.String(), "tty /dev/pts/5") {
		t.Errorf("stderr %q, want %q and the tty", errb.String(), want)
	}
}
