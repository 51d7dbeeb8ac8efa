package schema

import (
	"slices"
	"strings"
	"testing"
)

func TestLevelDefaults(t *testing.T) {
	for _, tc := range []struct {
		field string
		want  Level
	}{
		{Persona, Nominal},          // values, no scale given
		{GoldAnswer, Text},          // no values
		{RelevanceGrade, Ordinal},   // declared
		{QuestionValidity, Nominal}, // y/n, no scale given
	} {
		f, ok := Lookup(tc.field)
		if !ok {
			t.Fatalf("no field %s", tc.field)
		}
		if got := f.Level(); got != tc.want {
			t.Errorf("%s: level %s, want %s", tc.field, got, tc.want)
		}
	}
}

func TestNumbers(t *testing.T) {
	grade, _ := Lookup(RelevanceGrade)
	// Ordinal: the ranks of the declared order.
	if got := grade.Numbers(); !slices.Equal(got, []float64{0, 1, 2, 3, 4}) {
		t.Errorf("relevance_grade numbers %v", got)
	}
	// An ordinal scale ranks in the declared order, not alphabetically.
	f := Field{Name: "helpful", Values: []string{"low", "medium", "high"}, Scale: Scale{Level: Ordinal}}
	if got := f.Numbers(); !slices.Equal(got, []float64{0, 1, 2}) {
		t.Errorf("ordinal numbers %v", got)
	}
	// Interval: the values read as numbers.
	f = Field{Name: "hours", Values: []string{"0.5", "1", "4"}, Scale: Scale{Level: Interval, Min: 0, Max: 8}}
	if err := f.CheckScale(); err != nil {
		t.Fatal(err)
	}
	if got := f.Numbers(); !slices.Equal(got, []float64{0.5, 1, 4}) {
		t.Errorf("interval numbers %v", got)
	}
	if got := (Field{Name: "p", Values: []string{"a", "b"}}).Numbers(); got != nil {
		t.Errorf("nominal numbers %v, want nil", got)
	}
}

func TestCompared(t *testing.T) {
	for _, tc := range []struct {
		field string
		want  bool
	}{
		{Persona, true},
		{GoldAnswer, false},          // free text
		{ErrorCategory, false},       // a list per label
		{MissedClaimsChecked, false}, // a marker of the flow
		{RelevanceGrade, true},       // a marker holding a graded judgment
	} {
		f, _ := Lookup(tc.field)
		if got := f.Compared(); got != tc.want {
			t.Errorf("%s: compared %v, want %v", tc.field, got, tc.want)
		}
	}
	names := AgreementFieldNames()
	i := slices.Index(names, RelevanceGrade)
	if i < 1 || names[i-1] != IrrelevanceReason {
		t.Errorf("relevance_grade not after irrelevance_reason: %v", names)
	}
	for _, n := range FieldNames() {
		if !slices.Contains(names, n) {
			t.Errorf("asked field %s missing from the agreement fields", n)
		}
	}
	if slices.Contains(names, MissedClaimsChecked) {
		t.Error("a marker of the flow among the agreement fields")
	}
}

func TestCheckScale(t *testing.T) {
	two := []string{"a", "b"}
	for _, tc := range []struct {
		f    Field
		want string // "" no error, else a part of the message
	}{
		{Field{Name: "x", Values: two}, ""},
		{Field{Name: "x"}, ""},
		{Field{Name: "x", Values: two, Scale: Scale{Level: Ordinal}}, ""},
		{Field{Name: "x", Values: two, Scale: Scale{Level: Boolean}}, ""},
		{Field{Name: "x", Scale: Scale{Level: Text}}, ""},
		{Field{Name: "x", Values: []string{"1", "2", "5"}, Scale: Scale{Level: Interval, Min: 1, Max: 5}}, ""},
		{Field{Name: "x", Values: two, Scale: Scale{Level: "ordnial"}}, `unknown scale "ordnial"; did you mean "ordinal"?`},
		{Field{Name: "x", Values: []string{"a"}, Scale: Scale{Level: Ordinal}}, "needs at least two values, has 1"},
		{Field{Name: "x", Values: two, Multi: true, Scale: Scale{Level: Ordinal}}, "one value, not a list"},
		{Field{Name: "x", Values: []string{"a", "b", "c"}, Scale: Scale{Level: Boolean}}, "has two values, not 3"},
		{Field{Name: "x", Values: two, Scale: Scale{Level: Text}}, "free text has no values"},
		{Field{Name: "x", Values: two, Scale: Scale{Level: Ordinal, Max: 3}}, "only an interval scale has bounds"},
		{Field{Name: "x", Values: []string{"1", "high"}, Scale: Scale{Level: Interval}}, `the values are numbers; "high" is not`},
		{Field{Name: "x", Values: []string{"2", "1"}, Scale: Scale{Level: Interval}}, "increasing order; 1 comes after 2"},
		{Field{Name: "x", Values: []string{"1", "9"}, Scale: Scale{Level: Interval, Min: 1, Max: 5}}, "the value 9 is outside the bounds 1 to 5"},
		{Field{Name: "x", Values: []string{"1", "2"}, Scale: Scale{Level: Interval, Min: 5, Max: 1}}, "lower bound 5 is not below the upper bound 1"},
	} {
		err := tc.f.CheckScale()
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("%+v: %v", tc.f, err)
		case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
			t.Errorf("%+v: error %v, want one saying %q", tc.f, err, tc.want)
		}
	}
}

// An interval field's value is its number however it is written (a label
// file may give 4, 4.0 or "4e0"); a number no value has, and a number for
// a field that is not interval, stay unknown.
func TestIntervalValuesNormaliseAsNumbers(t *testing.T) {
	rating := Field{Name: "helpfulness", Values: []string{"1", "2", "3", "4", "5"}, Scale: Scale{Level: Interval, Min: 1, Max: 5}}
	for _, tc := range []struct {
		in, want string
		known    bool
	}{
		{"4", "4", true},
		{"4.0", "4", true},
		{" 4e0 ", "4", true},
		{"6", "6", false},
		{"4.5", "4.5", false},
		{"four", "four", false},
	} {
		if got, known := NormalizeFor(rating, tc.in); got != tc.want || known != tc.known {
			t.Errorf("interval %q: %q %v, want %q %v", tc.in, got, known, tc.want, tc.known)
		}
	}
	grades := Field{Name: "grade", Values: []string{"0", "1", "2"}, Scale: Scale{Level: Ordinal}}
	if got, known := NormalizeFor(grades, "1.0"); known {
		t.Errorf("ordinal %q read as %q: only an interval value is a number", "1.0", got)
	}
}
