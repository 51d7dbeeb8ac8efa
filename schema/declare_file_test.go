package schema

import (
	"errors"
	"strings"
	"testing"
)

const goodDecl = `kind: qa
field: helpfulness
question: How helpful is the answer?
scale: interval
min: 1
max: 5
asked_after: answer_correctness
guidelines: |
  1 is no help, 5 answers the question fully.
`

// A declaration file's errors name the file, the line and the key, and a
// misspelt name gets the nearest known one; the defaults are filled in.
func TestParseDeclaration(t *testing.T) {
	d, err := ParseDeclaration("h.yaml", []byte(goodDecl))
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(d.ValueNames(), " ") != "1 2 3 4 5" || !d.Required || d.Values[4].Key != "5" {
		t.Fatalf("defaults: %+v", d)
	}
	for _, c := range []struct{ name, from, to, want string }{
		{"unknown key", "asked_after:", "asked_afterr:", `h.yaml:7: field "asked_afterr": unknown key; did you mean "asked_after"?`},
		{"unknown kind", "kind: qa", "kind: qaa", `h.yaml:1: field "kind": unknown kind "qaa"; did you mean "qa"?`},
		{"unknown scale", "scale: interval", "scale: intervall", `h.yaml:4: field "scale": unknown scale "intervall"; did you mean "interval"?`},
		{"a built-in name", "field: helpfulness", "field: persona", `h.yaml:2: field "field": persona is a built-in field of qa`},
		{"no identifier", "field: helpfulness", "field: Help ful", `h.yaml:2: field "field": "Help ful": a field's name is lower-case`},
		{"asked after a misspelt field", "asked_after: answer_correctness", "asked_after: answer_corectness", `h.yaml:7: field "asked_after": "answer_corectness" is not a field asked on qa; did you mean "answer_correctness"?`},
		{"bounds reversed", "max: 5", "max: 0", `h.yaml:6: field "max": the upper bound 0 is not above the lower bound 1`},
		{"too many points", "max: 5", "max: 12", `h.yaml:6: field "max": 1 to 12 is 12 points`},
		{"no guidelines", "guidelines: |\n  1 is no help, 5 answers the question fully.\n", "", `h.yaml:1: field "guidelines": missing (required)`},
		{"given twice", "min: 1\n", "min: 1\nmin: 2\n", `h.yaml:6: field "min": given twice (first on line 5)`},
		{"asked_when a wrong value", "asked_after: answer_correctness\n", "asked_after: answer_correctness\nasked_when: [corect]\n", `h.yaml:8: field "asked_when[0]": "corect" is not a value of answer_correctness; did you mean "correct"?`},
		{"not YAML", "min: 1", "min: [1", `h.yaml:`},
	} {
		text := strings.Replace(goodDecl, c.from, c.to, 1)
		_, err := ParseDeclaration("h.yaml", []byte(text))
		if err == nil || !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("%s: got %v\nwant %s…", c.name, err, c.want)
		}
	}
}

// Values of a closed scale: keys distinct digits, values identifiers given
// once, at least two.
func TestParseDeclarationValues(t *testing.T) {
	base := `kind: qa
field: tone
question: What is the tone?
scale: nominal
values:
  - {value: neutral, key: "1"}
  - {value: harsh, key: "2"}
guidelines: tone
`
	if _, err := ParseDeclaration("t.yaml", []byte(base)); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ from, to, want string }{
		{`key: "2"`, `key: "1"`, `t.yaml:7: field "values[1].key": the key 1 picks neutral already`},
		{`key: "2"`, `key: "0"`, `t.yaml:7: field "values[1].key": the key "0" is not a digit 1 to 9`},
		{`value: harsh`, `value: neutral`, `t.yaml:7: field "values[1]": the value neutral is given twice`},
		{`value: harsh`, `value: Harsh Tone`, `t.yaml:7: field "values[1]": "Harsh Tone": a value is lower-case`},
		{"  - {value: harsh, key: \"2\"}\n", "", `t.yaml:5: field "values": a nominal field has at least two values, this one has 1`},
		{`{value: harsh, key: "2"}`, `{value: harsh, kee: "2"}`, `t.yaml:7: field "values[1].kee": unknown key; did you mean "key"?`},
	} {
		_, err := ParseDeclaration("t.yaml", []byte(strings.Replace(base, c.from, c.to, 1)))
		if err == nil || !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("%s → %s: got %v\nwant %s…", c.from, c.to, err, c.want)
		}
	}
}

// Every error of a file that does not hide another is reported at once,
// in the order of its lines: a misspelt scale, a misspelt kind, an unknown
// key and a missing guidelines section, from one run.
func TestParseDeclarationReportsEveryError(t *testing.T) {
	text := "kind: qaa\nfield: tone\nquestion: Tone?\nscale: ordnal\nvalues: [harsh, neutral]\nasked_afterr: answer_correctness\n"
	_, err := ParseDeclaration("t.yaml", []byte(text))
	if err == nil {
		t.Fatal("accepted")
	}
	want := []string{
		`t.yaml:1: field "guidelines": missing (required)`,
		`t.yaml:1: field "kind": unknown kind "qaa"; did you mean "qa"?`,
		`t.yaml:4: field "scale": unknown scale "ordnal"; did you mean "ordinal"?`,
		`t.yaml:6: field "asked_afterr": unknown key; did you mean "asked_after"?`,
	}
	lines := strings.Split(err.Error(), "\n")
	if len(lines) != len(want) {
		t.Fatalf("%d errors, want %d:\n%v", len(lines), len(want), err)
	}
	for i, w := range want {
		if !strings.HasPrefix(lines[i], w) {
			t.Errorf("error %d: %s\nwant %s…", i+1, lines[i], w)
		}
	}
	var fe *FileError
	if !errors.As(err, &fe) || fe.File != "t.yaml" {
		t.Errorf("not a FileError: %T", err)
	}
}
