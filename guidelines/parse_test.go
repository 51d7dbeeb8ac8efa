package guidelines

import (
	"errors"
	"strings"
	"testing"
)

// TestParseRoundTrip: what `annotate guidelines` prints (a comment, the
// introduction with its own "## " headings, every section) parses back into
// every field's embedded section, unchanged.
func TestParseRoundTrip(t *testing.T) {
	all := "<!-- guidelines version x -->\n"
	for _, f := range Fields() {
		s, _ := Embedded(f)
		all += "\n" + s
	}
	got, err := Parse("all.md", []byte(Intro()+"\n"+all))
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != len(Fields()) {
		t.Fatalf("%d sections, want %d", len(got), len(Fields()))
	}
	for i, p := range got {
		want, _ := Embedded(Fields()[i])
		if p.Field != Fields()[i] || p.Text != strings.TrimRight(want, "\n")+"\n" {
			t.Errorf("section %d: field %q, text differs: %v", i, p.Field, p.Text != want)
		}
	}
}

func TestParseSections(t *testing.T) {
	md := "intro text\n\n## entailment — New title\n\nRule one.\n\n```\n## not_a_field — inside a fence\n```\n\n" +
		"## Keys\n\nstill entailment\n\n## persona\n\nWho asks.\r\n"
	got, err := Parse("g.md", []byte(md))
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 || got[0].Field != "entailment" || got[0].Line != 3 || got[1].Field != "persona" || got[1].Line != 15 {
		t.Fatalf("got %+v", got)
	}
	wantE := "## entailment — New title\n\nRule one.\n\n```\n## not_a_field — inside a fence\n```\n\n## Keys\n\nstill entailment\n"
	if got[0].Text != wantE {
		t.Errorf("entailment text = %q, want %q", got[0].Text, wantE)
	}
	if got[1].Text != "## persona\n\nWho asks.\n" {
		t.Errorf("persona text = %q", got[1].Text)
	}
}

func TestParseErrors(t *testing.T) {
	for _, c := range []struct{ name, md, want string }{
		{"unknown", "## entailment — a\n\nx\n\n## relevancy — b\n\ny\n", `bad.md:5: field "relevancy": no such field; did you mean "relevance"?`},
		{"twice", "## persona\n\nx\n## persona\n\ny\n", `bad.md:4: field "persona": a second section (the first is on line 1)`},
		{"empty", "## persona — Who\n\n   \n## category\n\nx\n", `bad.md:1: field "persona": the section is empty`},
		{"none", "# Title\n\n## Keys\n", `bad.md:1: no field section`},
		{"utf8", "## persona\n\nok\n\xff\n", `bad.md:4: invalid UTF-8`},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := Parse("bad.md", []byte(c.md))
			var pe *ParseError
			if !errors.As(err, &pe) || !strings.HasPrefix(err.Error(), c.want) {
				t.Fatalf("err = %v, want it to start with %q", err, c.want)
			}
		})
	}
}

// TestParseFrench: the French text, printed whole (introduction and every
// section, as `annotate guidelines` prints it), parses back into every
// field's French section: its subsection headings and the introduction's
// headings are not taken for fields.
func TestParseFrench(t *testing.T) {
	all := IntroIn(French) + "\n<!-- version -->\n"
	for _, f := range Fields() {
		s, _ := EmbeddedIn(f, French)
		all += "\n" + s
	}
	got, err := Parse("tout.md", []byte(all))
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != len(Fields()) {
		t.Fatalf("%d sections, want %d", len(got), len(Fields()))
	}
	for i, p := range got {
		want, _ := EmbeddedIn(Fields()[i], French)
		if p.Field != Fields()[i] || p.Text != strings.TrimRight(want, "\n")+"\n" {
			t.Errorf("section %d: field %q, text differs: %v", i, p.Field, p.Text != want)
		}
	}
}
