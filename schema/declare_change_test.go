package schema

import (
	"errors"
	"strings"
	"testing"
)

// A change that would orphan the labels of several values names them all,
// with their counts, at the line that made the values (an interval
// scale's max, when it lists none); one value keeps the words of one.
func TestCheckChangeNamesEveryOrphanedValue(t *testing.T) {
	decl := func(max string) Declaration {
		t.Helper()
		d, err := ParseDeclaration("h.yaml", []byte("kind: qa\nfield: helpfulness\nquestion: How helpful?\nscale: interval\nmin: 1\nmax: "+max+"\nguidelines: |\n  1 useless, 5 fully.\n"))
		if err != nil {
			t.Fatal(err)
		}
		return d
	}
	old := decl("5")
	old.Version = 1
	err := CheckChange(old, decl("3"), map[string]int{"2": 1, "4": 2, "5": 3})
	var fe *FileError
	if !errors.As(err, &fe) || fe.Line != 6 || fe.Field != "max" ||
		!strings.Contains(err.Error(), "values of version 1 that labels hold are gone: 4 (2 labels), 5 (3 labels)") {
		t.Errorf("1–5 to 1–3 with labels 4 and 5: %v", err)
	}
	err = CheckChange(old, decl("4"), map[string]int{"5": 1})
	if err == nil || !strings.Contains(err.Error(), `h.yaml:6: field "max": the value 5 (version 1) has 1 label: it stays`) {
		t.Errorf("1–5 to 1–4 with a label 5: %v", err)
	}
	if err := CheckChange(old, decl("3"), map[string]int{"2": 4}); err != nil {
		t.Errorf("1–5 to 1–3 with labels of 2 only: %v", err)
	}
}
