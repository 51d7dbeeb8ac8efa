package main

import (
	"testing"

	"github.com/annotate-dev/annotate/store"
	"github.com/annotate-dev/annotate/store/storetest"
)

// annotate notes lists each note under the field it was written on: two
// notes of jo on two fields of q1 are two entries, and a flag set on a
// third field is listed there (issue 16: a note on category was listed
// under question_validity).
func TestNotesPerField(t *testing.T) {
	path := seedReportDB(t)
	s, err := store.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	q1, _ := storetest.Read(t, s).Resolve("q1")
	for _, n := range [][2]string{{"question_validity", "ambiguous wording"}, {"category", "old text"}, {"category", "rather false premise"}} {
		if err := s.SetNote("jo", q1.ItemID, n[0], n[1], 0); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.SetFlag("jo", q1.ItemID, "persona", true, 0); err != nil {
		t.Fatal(err)
	}
	s.Close()
	out, err := execute(t, "--db", path, "notes")
	if err != nil {
		t.Fatal(err)
	}
	// The fields in name order, the latest note of each (hand-written).
	want := "## category\n" +
		"  q1                     jo         rather false premise\n" +
		"\n## persona\n" +
		"⚑ q1                     jo         \n" +
		"\n## question_validity\n" +
		"  q1                     jo         ambiguous wording\n"
	if out != want {
		t.Fatalf("annotate notes:\n%q\nwant\n%q", out, want)
	}
}
