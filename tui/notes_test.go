package tui

import (
	"fmt"
	"strings"
	"testing"

	"github.com/annotate-dev/annotate/store/storetest"

	"github.com/annotate-dev/annotate/schema"
)

// The report of issue 16: a note written on category was filed under
// question_validity (one note per item, the latest replacing the others).
// A note is filed under the field on screen when it was written; each field
// has its own, the note input opens on that field's note, and `annotate
// notes` (store.Notes) lists each under its field.
func TestNotesLandOnTheirField(t *testing.T) {
	s := openStore(t)
	seedQA(t, s, 0)
	h := newHarness(t, s, Options{Kind: "qa"})
	h.keys("m")
	h.typeText("ambiguous wording")
	h.keys("enter")
	h.keys("y") // category is asked now
	h.at("q1", schema.Category)
	h.keys("m")
	if in, ok := h.m.cur.(*inputScreen); !ok || in.in.Value() != "" {
		t.Fatalf("the category note does not start empty (%T):\n%s", h.m.cur, h.view())
	}
	if !strings.Contains(h.view(), "Note on q1 · category") {
		t.Fatalf("the note input does not name its field:\n%s", h.view())
	}
	h.typeText("rather false premise")
	h.keys("enter")
	h.at("q1", schema.Category)
	if !strings.Contains(h.view(), "✎ 2 notes") {
		t.Fatalf("no marker of the two notes:\n%s", h.view())
	}
	h.keys("enter", "f") // persona is asked; flag it there
	notes := func() string {
		ns, err := storetest.Read(t, s).Notes("")
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, n := range ns {
			out = append(out, fmt.Sprintf("%s/%s/%v/%s", n.Field, n.ItemExtID, n.Flagged, n.Text))
		}
		return strings.Join(out, " | ")
	}
	want := "category/q1/false/rather false premise | persona/q1/true/ | question_validity/q1/false/ambiguous wording"
	if got := notes(); got != want {
		t.Fatalf("notes:\n %s\nwant\n %s", got, want)
	}
	// Editing the category note again opens it with its own text and
	// replaces only it; clearing it leaves the other.
	h.keys("u") // back to category
	h.at("q1", schema.Category)
	h.keys("m")
	for range len("rather false premise") {
		h.keys("backspace")
	}
	h.keys("enter")
	want = "persona/q1/true/ | question_validity/q1/false/ambiguous wording"
	if got := notes(); got != want {
		t.Fatalf("after clearing the category note:\n %s\nwant\n %s", got, want)
	}
	if text, _, _ := storetest.Read(t, s).ItemNote("jo", h.labelsItem("q1")); text != "ambiguous wording" {
		t.Fatalf("ItemNote %q", text)
	}
}

// A note written once nothing is left to ask is about the item as a whole
// (field ""), not about its first field.
func TestNoteOnCompleteItem(t *testing.T) {
	s := openStore(t)
	seedQA(t, s, 0, 0)
	h := newHarness(t, s, Options{Kind: "qa"})
	h.keys("n", "1") // q1 done
	h.at("q2", schema.QuestionValidity)
	h.keys("g")
	h.typeText("q1")
	h.keys("enter")
	h.at("q1", "complete")
	h.keys("m")
	h.typeText("whole item")
	h.keys("enter")
	ns, _ := storetest.Read(t, s).Notes("")
	if len(ns) != 1 || ns[0].Field != "" || ns[0].Text != "whole item" {
		t.Fatalf("notes %+v, want one on the item as a whole", ns)
	}
}
