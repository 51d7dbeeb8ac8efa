package importer

import (
	"strconv"
	"strings"
	"testing"
)

// The array reader finds each element's end by brackets and strings only:
// brackets and quotes inside strings, escapes and bare values must not
// mislead it, and each element starts where a text editor shows it (columns
// counted by hand, in characters: "é" is one).
func TestEachElement(t *testing.T) {
	in := "\xef\xbb\xbf[ {\"a\":\"x]}\\\"{[\"},\n  [1,[2]] ,\"s\\\\\",-1.5e3,true,null ,\n{\"é\":\"ü\"}]  \n"
	r, err := bytesInput("f.json", []byte(in), nil).reader()
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	n, err := r.eachElement(func(i int, raw []byte, at pos) error {
		got = append(got, string(raw)+"@"+itoa(at.line)+":"+itoa(at.col))
		return nil
	})
	if err != nil || n != 7 {
		t.Fatalf("%d elements, %v", n, err)
	}
	want := `{"a":"x]}\"{["}@1:3 [1,[2]]@2:3 "s\\"@2:12 -1.5e3@2:18 true@2:25 null@2:30 {"é":"ü"}@3:1`
	if s := strings.Join(got, " "); s != want {
		t.Fatalf("elements\n got %s\nwant %s", s, want)
	}
	if err := r.atEnd(); err != nil {
		t.Fatal(err)
	}
}

func itoa(n int) string { return strconv.Itoa(n) }

// Broken arrays and documents are placed by line, column and record.
func TestBrokenJSON(t *testing.T) {
	for _, c := range []struct{ content, want string }{
		{"[{\"id\":\"1\",\"response\":\"r\",\"m_response_kg\":[]},\n{\"id\":\"2\",\"response\":\"r\",\"m_response_kg\":[]}", // cut short
			`f.json:2: record 2: bad JSON at column 45: unexpected end of the file after record 2`},
		{"[{\"id\":\"1\",\"response\":\"r\",\"m_response_kg\":[]}\n{\"id\":\"2\"}]", // a comma missing
			`f.json:2: record 2: bad JSON at column 1: want ',' or ']' after record 1, got '{'`},
		{"[{\"id\":\"1\",\"response\":\"r\",\"m_response_kg\":[]}, 5]",
			`f.json: record 2: want a JSON object, got a number`},
		{"[{\"id\":\"1\",\"response\":\"r\",\"m_response_kg\":[]}] trailing",
			`f.json:1: bad JSON at column 48: 't' after the end of the JSON document`},
		{"{\"results\":[{\"query_id\":\"1\",\"query\":\"q\",\"response\":\"r\"}],\"metrics\":{\"f1\":",
			`f.json:1: bad JSON at column 74: unexpected end of the file inside a value that starts at line 1`},
		{"{\"results\":[{\"query_id\":\"1\",\"query\":\"q\",\"response\":\"r\",\n\"response_claims\":[[\"a\",\"b\"]]}]}",
			`f.json: record 1: field "response_claims[0]": want 3 strings (subject, predicate, object), got 2 elements`},
	} {
		_, err := ImportReader(openDB(t), "f.json", []byte(c.content), Options{})
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q:\n  %v\nwant\n  %s", c.content, err, c.want)
		}
	}
}
