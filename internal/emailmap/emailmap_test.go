package emailmap

import (
	"strings"
	"testing"
)

func TestParse(t *testing.T) {
	m, err := Parse("emails.txt", strings.NewReader("\ufeff# annotator  e-mail\r\njo\tjo.tremblay@firm.example\r\n\n  Anne Roy   A.Roy@Firm.example  \n"))
	if err != nil {
		t.Fatal(err)
	}
	if m.Email["jo"] != "jo.tremblay@firm.example" || m.Email["Anne Roy"] != "A.Roy@Firm.example" || len(m.Email) != 2 {
		t.Errorf("emails %v", m.Email)
	}
	if m.Name["a.roy@firm.example"] != "Anne Roy" || m.Name["jo.tremblay@firm.example"] != "jo" {
		t.Errorf("names %v", m.Name)
	}
}

// A hostile or mistaken file is refused at its line, whatever it holds.
func TestParseRefuses(t *testing.T) {
	for body, want := range map[string]string{
		"jo jo@firm.example\nsam\n":                            "emails.txt:2: want an annotator's name, then the e-mail",
		"jo not-an-address\n":                                  `emails.txt:1: "not-an-address" is not an e-mail address`,
		"jo <jo@firm.example>\n":                               `emails.txt:1: "<jo@firm.example>" is not an e-mail address`,
		"jo jo@firm.example\njo jo2@firm.example\n":            `emails.txt:2: annotator "jo" is given twice (line 1 too)`,
		"jo jo@firm.example\nsam JO@firm.example\n":            "emails.txt:2: JO@firm.example is given twice (line 1 too)",
		"# ok\njo\x1b[31m jo@firm.example\n":                   "emails.txt:2: character 3 (U+001B) is a control character",
		"jo\u202e jo@firm.example\n":                           "emails.txt:1: character 3 (U+202E) is a control character",
		"jo jo@firm.example\n\xff\xfe x@y.example\n":           "emails.txt:2: not UTF-8 text",
		"jo " + strings.Repeat("a", 2<<20) + "@firm.example\n": "emails.txt: more than 1048576 bytes",
	} {
		_, err := Parse("emails.txt", strings.NewReader(body))
		if err == nil || !strings.Contains(err.Error(), want) {
			name := body
			if len(name) > 40 {
				name = name[:40]
			}
			t.Errorf("%q: %v, want %q", name, err, want)
		}
	}
}
