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

func TestCheckIdentity(t *testing.T) {
	_, s := storetest.Create(t, "annotate.db")
	defer s.Close()
	for _, n := range []string{"jo", "sam", "claimrag-expert"} {
		if err := s.EnsureAnnotator(n); err != nil {
			t.Fatal(err)
		}
	}
	for name, want := range map[string]string{
		// Edits allowed: 2, 1 for names of 2-3 characters (suggest.Edits);
		// distances by hand (Levenshtein, case folded).
		"jo":             "",                  // known
		"JO":             "did you mean jo?",  // case
		"jon":            "did you mean jo?",  // 1 edit, 3 characters
		"al":             "new",               // 2 edits from jo, but 2 characters allow 1
		"sma":            "new",               // 2 edits from sam, 3 characters allow 1
		"samm":           "did you mean sam?", // 1 edit
		"claimrag-exprt": "did you mean claimrag-expert?",
		"claimrag-exp":   "new", // 3 deletions
		"kim":            "new",
	} {
		isNew, err := checkIdentity(s, name)
		switch {
		case want == "" && (err != nil || isNew):
			t.Errorf("%s: %v new=%v, want known", name, err, isNew)
		case want == "new" && (err != nil || !isNew):
			t.Errorf("%s: %v new=%v, want new", name, err, isNew)
		case want != "" && want != "new" && (err == nil || !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), "annotate annotator add "+name)):
			t.Errorf("%s: %v, want %q and the add command", name, err, want)
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
