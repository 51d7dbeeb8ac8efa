package guidelines

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/annotate-dev/annotate/schema"
)

// The French text mirrors the English one, so that a reader of either
// meets the same rules and a program can pair them: these tests hold the
// two together. They read the embedded files, so an English section changed
// without its French one fails here.

// frenchHeadings are the French subsection headings of a field's section,
// by English heading.
var frenchHeadings = map[string]string{
	"### Definition":       "### Définition",
	"### Values":           "### Valeurs",
	"### When it is asked": "### Quand la question est posée",
	"### Decision rules":   "### Règles de décision",
	"### Borderline cases": "### Cas limites",
	"### Examples":         "### Exemples",
}

// headingsIn are the subsection headings every field's section has, in a
// language; and the word that opens an example's heading.
func headingsIn(lang string) (subsections []string, exampleWord string) {
	for _, h := range []string{"### Definition", "### Values", "### When it is asked",
		"### Decision rules", "### Borderline cases", "### Examples"} {
		if lang == French {
			h = frenchHeadings[h]
		}
		subsections = append(subsections, h)
	}
	if lang == French {
		return subsections, "Exemple"
	}
	return subsections, "Example"
}

// pages are the embedded files: the introduction and every section.
func pages() []string { return append([]string{"intro"}, Fields()...) }

func TestEveryEnglishFileHasItsFrench(t *testing.T) {
	names := func(dir string) []string {
		entries, err := files.ReadDir(dir)
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, e := range entries {
			if !e.IsDir() {
				out = append(out, e.Name())
			}
		}
		return out
	}
	en, fr := names("md"), names("md/fr")
	for _, n := range en {
		if !slices.Contains(fr, n) {
			t.Errorf("md/%s has no French text (md/fr/%s)", n, n)
		}
	}
	for _, n := range fr {
		if !slices.Contains(en, n) {
			t.Errorf("md/fr/%s has no English text (md/%s)", n, n)
		}
	}
}

// part is the text under one heading of a page, up to the next heading.
type part struct {
	heading string // "" before the first heading
	lines   []string
}

// outline cuts a page at its headings (outside code fences).
func outline(md string) []part {
	out := []part{{}}
	fence := false
	for _, l := range strings.Split(md, "\n") {
		if strings.HasPrefix(strings.TrimSpace(l), "```") {
			fence = !fence
		}
		if !fence && strings.HasPrefix(l, "#") {
			out = append(out, part{heading: l})
			continue
		}
		out[len(out)-1].lines = append(out[len(out)-1].lines, l)
	}
	return out
}

var (
	codeSpan = regexp.MustCompile("`([^`]+)`")
	example  = regexp.MustCompile(`^#### (Example|Exemple) (\d+) \((EN|FR)[,)]`)
	listItem = regexp.MustCompile(`^(\s*)(-|\d+\.) `)
	// fieldHeading is a section's heading up to its field's name, an
	// identifier in any language.
	fieldHeading = regexp.MustCompile(`^## [a-z][a-z0-9_]*`)
)

// shape is what must be the same under one heading in both languages: the
// kind of heading, the list items (top level and nested), and the tables,
// row by row, as their cell count and the identifiers in backticks.
func shape(p part) string {
	var b strings.Builder
	switch m := example.FindStringSubmatch(p.heading); {
	case m != nil:
		fmt.Fprintf(&b, "example %s (%s)\n", m[2], m[3])
	case strings.HasPrefix(p.heading, "# "):
		b.WriteString("# (title)\n")
	case strings.HasPrefix(p.heading, "## "):
		name, _, _ := strings.Cut(strings.TrimPrefix(p.heading, "## "), " ")
		if _, err := Lookup(name); err != nil {
			name = "(prose heading)"
		}
		fmt.Fprintf(&b, "## %s\n", name)
	default:
		h := p.heading
		if fr, ok := frenchHeadings[h]; ok {
			h = fr
		}
		fmt.Fprintf(&b, "%s\n", h)
	}
	for _, l := range p.lines {
		if m := listItem.FindStringSubmatch(l); m != nil {
			depth := "item"
			if m[1] != "" {
				depth = "  nested item"
			}
			kind := "numbered"
			if m[2] == "-" {
				kind = "bullet"
			}
			fmt.Fprintf(&b, "%s %s\n", depth, kind)
		}
		if strings.HasPrefix(l, "|") {
			var ids []string
			for _, m := range codeSpan.FindAllStringSubmatch(l, -1) {
				ids = append(ids, m[1])
			}
			fmt.Fprintf(&b, "row of %d cells: %s\n", strings.Count(l, "|")-1, strings.Join(ids, " "))
		}
	}
	return b.String()
}

// TestFrenchMirrorsEnglish: under every heading of every page, the French
// text has the same shape as the English one (same headings in the same
// order, the same list items, the same tables with the same identifiers
// and keys in the same order), and the same examples, numbered alike, in
// the same language.
func TestFrenchMirrorsEnglish(t *testing.T) {
	for _, name := range pages() {
		en, _ := EmbeddedIn(name, English)
		fr, ok := EmbeddedIn(name, French)
		if !ok {
			t.Errorf("%s: no French text", name)
			continue
		}
		pe, pf := outline(en), outline(fr)
		if len(pe) != len(pf) {
			t.Errorf("%s: %d headings in English, %d in French", name, len(pe)-1, len(pf)-1)
			continue
		}
		for i := range pe {
			if se, sf := shape(pe[i]), shape(pf[i]); se != sf {
				t.Errorf("%s, under %q / %q: the French differs from the English\nEnglish:\n%s\nFrench:\n%s",
					name, pe[i].heading, pf[i].heading, se, sf)
			}
		}
	}
}

// identifiers are the distinct code spans of a text, white space folded.
func identifiers(s string) []string {
	var out []string
	for _, m := range codeSpan.FindAllStringSubmatch(s, -1) {
		id := strings.Join(strings.Fields(m[1]), " ")
		if !slices.Contains(out, id) {
			out = append(out, id)
		}
	}
	slices.Sort(out)
	return out
}

// TestSameIdentifiersInBothLanguages: an identifier in backticks (a field,
// a value, a key, a flag, a command) in one language's page is in the
// other's too.
func TestSameIdentifiersInBothLanguages(t *testing.T) {
	for _, name := range pages() {
		en, _ := EmbeddedIn(name, English)
		fr, _ := EmbeddedIn(name, French)
		ie, ifr := identifiers(en), identifiers(fr)
		for _, id := range ie {
			if !slices.Contains(ifr, id) {
				t.Errorf("%s: `%s` is in the English text, not in the French", name, id)
			}
		}
		for _, id := range ifr {
			if !slices.Contains(ie, id) {
				t.Errorf("%s: `%s` is in the French text, not in the English", name, id)
			}
		}
	}
}

// folded is a quotation compared across the languages: French spacing
// (no-break spaces, a space before ? or ;) and line breaks folded away.
func folded(s string) string {
	s = strings.NewReplacer("\u00a0", " ", "\u202f", " ").Replace(s)
	s = strings.Join(strings.Fields(s), " ")
	return regexp.MustCompile(` ([?;:!%])`).ReplaceAllString(s, "$1")
}

var (
	quoteLabel = regexp.MustCompile(`^(\*\*[A-Z]\.\*\*|\p{L}+( \([^)]*\))?[\s\x{a0}]?:)\s*`)
	triple     = regexp.MustCompile(`⟨[^⟩]*⟩`)
	quotation  = regexp.MustCompile(`"[^"]*"|«[^»]*»`)
)

// quoted is what an example cites, which keeps its original language in
// both texts: the quoted questions, answers and queries (without their
// label, "**A.**", "Query (lay, ON):"), the triples, and the quotations.
func quoted(p part) []string {
	var out, para []string
	flush := func() {
		if len(para) > 0 {
			out = append(out, "> "+folded(quoteLabel.ReplaceAllString(strings.Join(para, " "), "")))
		}
		para = nil
	}
	var prose []string
	for _, l := range p.lines {
		if strings.HasPrefix(l, ">") {
			if t := strings.TrimSpace(strings.TrimPrefix(l, ">")); t != "" {
				para = append(para, t)
			} else {
				flush()
			}
			continue
		}
		flush()
		prose = append(prose, l)
	}
	flush()
	text := strings.Join(prose, "\n")
	for _, m := range triple.FindAllString(text, -1) {
		out = append(out, folded(m))
	}
	for _, m := range quotation.FindAllString(text, -1) {
		out = append(out, "“"+folded(strings.Trim(m, "\"«»"))+"”")
	}
	return out
}

// TestExamplesKeepTheirOriginalText: what an example quotes (the question,
// answer or query, the claims, the passages) is the same in both texts;
// only what is said about it is in the reader's language.
func TestExamplesKeepTheirOriginalText(t *testing.T) {
	for _, name := range Fields() {
		en, _ := EmbeddedIn(name, English)
		fr, _ := EmbeddedIn(name, French)
		pe, pf := outline(en), outline(fr)
		if len(pe) != len(pf) {
			continue // TestFrenchMirrorsEnglish says so
		}
		for i := range pe {
			if !example.MatchString(pe[i].heading) {
				continue
			}
			qe, qf := quoted(pe[i]), quoted(pf[i])
			if !slices.Equal(qe, qf) {
				t.Errorf("%s, %s: the French quotes other text than the English\nEnglish:\n%s\nFrench:\n%s",
					name, pe[i].heading, strings.Join(qe, "\n"), strings.Join(qf, "\n"))
			}
		}
	}
}

// prose is a French page, line by line, without what is not French prose:
// code, quoted examples, quotations, triples and italics (titles, Latin).
// Each span left out becomes "x", a word that is no English word and that
// punctuation must still be spaced from; lines keep their numbers.
func prose(md string) []string {
	var out []string
	fence, code := false, false
	blank := true
	for _, l := range strings.Split(md, "\n") {
		t := strings.TrimSpace(l)
		if strings.HasPrefix(t, "```") {
			fence = !fence
			out = append(out, "")
			continue
		}
		code = code && strings.HasPrefix(l, "    ") || blank && strings.HasPrefix(l, "    ") && !listItem.MatchString(l)
		blank = t == ""
		if fence || code || strings.HasPrefix(l, ">") {
			out = append(out, "")
			continue
		}
		out = append(out, fieldHeading.ReplaceAllString(l, "## "))
	}
	text := strings.Join(out, "\n")
	keepLines := func(re string) {
		text = regexp.MustCompile(re).ReplaceAllStringFunc(text, func(m string) string {
			return strings.Repeat("\n", strings.Count(m, "\n")) + "x"
		})
	}
	keepLines("`[^`]*`")
	keepLines(`⟨[^⟩]*⟩`)
	keepLines(`«[^»]*»`)
	keepLines(`\*[^*\s][^*]*\*`)
	return strings.Split(text, "\n")
}

// englishWords are common English words that are no French words: one of
// them in French prose is English left untranslated.
var englishWords = []string{"the", "which", "should", "when", "must", "and", "with", "that", "this",
	"what", "where", "whether", "from", "into", "have", "has", "does", "would", "could", "their",
	"they", "is", "are", "of", "to", "it", "by", "not", "you", "your", "if", "be", "answer", "claim",
	"field", "value", "key", "press", "see", "example", "rule"}

// TestFrenchHasNoEnglishProse: outside code, quoted examples, quotations
// and italics, the French text has no English word.
func TestFrenchHasNoEnglishProse(t *testing.T) {
	word := regexp.MustCompile(`\p{L}+`)
	for _, name := range pages() {
		fr, _ := EmbeddedIn(name, French)
		for i, l := range prose(fr) {
			for _, w := range word.FindAllString(strings.ToLower(l), -1) {
				if !slices.Contains(englishWords, w) {
					continue
				}
				t.Errorf("md/fr/%s.md:%d: English word %q in the French text: %s", name, i+1, w, strings.TrimSpace(l))
			}
		}
	}
	for v, c := range taxonomyFR {
		for _, s := range []string{c.Label, c.Definition, c.Example} {
			for _, w := range word.FindAllString(strings.ToLower(regexp.MustCompile(`«[^»]*»`).ReplaceAllString(s, "")), -1) {
				if slices.Contains(englishWords, w) {
					t.Errorf("taxonomyFR[%s]: English word %q: %s", v, w, s)
				}
			}
		}
	}
}

// typography checks one line of French text (code spans left out): the
// no-break spaces French puts before : ; ? ! % and inside « », no straight
// double quotes, digits grouped by a narrow no-break space.
func typography(l string) []string {
	var bad []string
	l = codeSpan.ReplaceAllString(l, "code")
	for _, p := range []struct{ re, why string }{
		{` [:;?!%]`, "an ordinary space before a colon, semicolon, question or exclamation mark or percent sign (want a no-break space, U+00A0 or U+202F)"},
		{`« | »`, "an ordinary space inside « » (want a no-break space)"},
		{`«[^\x{a0}\x{202f}]|[^\x{a0}\x{202f}]»`, "« » without a no-break space inside"},
		{`^[:;?!%»]|«$`, "a line break where a no-break space should hold the punctuation to its word"},
		{`"`, "a straight double quote (French prose quotes with « »)"},
		{`\d \d{3}\b`, "digits grouped with an ordinary space (want U+202F: 20 000 000)"},
	} {
		if regexp.MustCompile(p.re).MatchString(l) {
			bad = append(bad, p.why)
		}
	}
	return bad
}

// TestFrenchTypography: the French pages, the French taxonomy and the
// package's own French words follow French typography; in French prose
// (not what an English example quotes) no : ; ? ! sticks to its word.
func TestFrenchTypography(t *testing.T) {
	stuck := regexp.MustCompile(`[\p{L}\d)][:;?!]`)
	for _, name := range pages() {
		fr, _ := EmbeddedIn(name, French)
		fence := false
		for i, l := range strings.Split(fr, "\n") {
			if strings.HasPrefix(strings.TrimSpace(l), "```") {
				fence = !fence
			}
			if fence || strings.HasPrefix(l, "    ") && !listItem.MatchString(strings.TrimLeft(l, " ")) {
				continue
			}
			for _, why := range typography(l) {
				t.Errorf("md/fr/%s.md:%d: %s: %s", name, i+1, why, l)
			}
		}
		// French prose, and what the French examples quote (the English
		// ones quote English, where ? sticks to its word).
		lines, french := prose(fr), strings.Split(fr, "\n")
		inFrenchExample := false
		for i, l := range french {
			if strings.HasPrefix(l, "#") {
				m := example.FindStringSubmatch(l)
				inFrenchExample = m != nil && m[3] == "FR"
			}
			if inFrenchExample && !strings.HasPrefix(l, "    ") {
				lines[i] = codeSpan.ReplaceAllString(l, "code")
			}
		}
		for i, l := range lines {
			if m := stuck.FindString(l); m != "" {
				t.Errorf("md/fr/%s.md:%d: %q: no no-break space before the punctuation: %s", name, i+1, m, l)
			}
		}
	}
	w := words(French)
	for _, s := range []string{w.none, w.taxonomyHead, w.example} {
		for _, why := range typography(s) {
			t.Errorf("French wording %q: %s", s, why)
		}
	}
	for v, c := range taxonomyFR {
		for _, s := range []string{c.Label, c.Definition, c.Example} {
			for _, why := range typography(s) {
				t.Errorf("taxonomyFR[%s]: %s: %s", v, why, s)
			}
		}
	}
}

// TestTypographyFindsFaults: the checks above find what they look for.
func TestTypographyFindsFaults(t *testing.T) {
	for _, c := range []struct {
		line string
		bad  bool
	}{
		{"Touche `y` ; puis", true},
		{"Touche `y`\u202f; puis « oui\u00a0»", true},
		{"Touche `y`\u202f; puis «\u00a0oui\u00a0»", false},
		{"le \"texte\"", true},
		{"20 000 000 EUR", true},
		{"20\u202f000\u202f000 EUR, 4\u202f%", false},
		{"`a : b` dans le code", false},
	} {
		if got := len(typography(c.line)) > 0; got != c.bad {
			t.Errorf("typography(%q) finds a fault: %v, want %v", c.line, got, c.bad)
		}
	}
	got := prose("Le texte `the code` et « the quote » *the title* ⟨the, claim, here⟩\n> the quoted question\n\n    the code block\nthe end")
	if strings.Contains(strings.Join(got[:3], " "), "the") || got[4] != "the end" {
		t.Errorf("prose keeps %q", got)
	}
}

func TestLanguages(t *testing.T) {
	for _, lang := range []string{"", "en", "fr"} {
		if !Written(lang) {
			t.Errorf("Written(%q) = false", lang)
		}
	}
	for _, lang := range []string{"de", "FR", "fr_CA"} {
		if Written(lang) {
			t.Errorf("Written(%q) = true: the caller resolves a locale to en or fr", lang)
		}
	}
	enSec, _ := Section("persona")
	frSec, _ := SectionIn("persona", French)
	if enSec == frSec || !strings.Contains(frSec, "### Définition") {
		t.Error("SectionIn(persona, fr) is not the French text")
	}
	for _, lang := range []string{"", English, "de"} {
		if s, err := SectionIn("persona", lang); err != nil || s != enSec {
			t.Errorf("SectionIn(persona, %q) is not the English text (err %v)", lang, err)
		}
		if IntroIn(lang) != Intro() || AllIn(lang) != All() {
			t.Errorf("IntroIn/AllIn(%q) is not the English text", lang)
		}
	}
	if _, ok := EmbeddedIn("persona", "de"); ok {
		t.Error("EmbeddedIn(persona, de) found a German text")
	}
	if _, err := SectionIn("relevancy", French); err == nil {
		t.Error("SectionIn(relevancy, fr): no error for an unknown field")
	}
	if got, _ := SectionIn("Answer-Correctness", French); !strings.HasPrefix(got, "## answer_correctness — ") {
		t.Error("SectionIn does not normalise the field's name")
	}
}

func TestAllInFrench(t *testing.T) {
	all := AllIn(French)
	if !strings.HasPrefix(all, "# Guide d'annotation\n") {
		t.Error("AllIn(fr) does not start with the French introduction")
	}
	if !strings.Contains(IntroIn(French), "`"+Version+"`") || strings.Contains(all, "{{") {
		t.Error("the French introduction does not show the version, or a placeholder is left")
	}
	last := -1
	for _, f := range Fields() {
		i := strings.Index(all, "\n## "+f+" — ")
		if i < last {
			t.Errorf("AllIn(fr): section %q missing or out of order", f)
		}
		last = i
	}
}

// TestTaxonomyInFrench: the error_category section in French shows the
// default taxonomy in French; a category of the lead's own (or a default
// one the lead reworded) as the lead wrote it, headed in French.
func TestTaxonomyInFrench(t *testing.T) {
	for _, c := range schema.DefaultTaxonomy() {
		fr, ok := taxonomyFR[c.Value]
		if !ok || fr.Label == "" || fr.Definition == "" || fr.Example == "" {
			t.Errorf("default category %s has no full French text", c.Value)
		}
	}
	if len(taxonomyFR) != len(schema.DefaultTaxonomy()) {
		t.Errorf("%d French categories, %d default ones", len(taxonomyFR), len(schema.DefaultTaxonomy()))
	}
	s, _ := SectionIn("error_category", French)
	for _, want := range []string{"| touche | valeur | groupe | définition |",
		"| `1` | `valid_contextual_statement` | judge_error | **Énoncé contextuel ou de conclusion valable.** ",
		" *Exemple\u00a0:* «\u00a0Chaque situation"} {
		if !strings.Contains(s, want) {
			t.Errorf("the French error_category section lacks %q", want)
		}
	}
	en, _ := Section("error_category")
	if !strings.Contains(en, "| key | value | group | definition |") || !strings.Contains(en, "*Example:* ") {
		t.Error("the English error_category section lost its English table")
	}

	lead := schema.DefaultTaxonomy()[:2]
	lead[1].Definition = "The lead's own wording."
	lead = append(lead, schema.ErrorKind{Value: "wrong_court", Label: "Wrong court", Group: schema.GroupHallucination, Definition: "Cites a court that did not decide it."})
	schema.UseTaxonomy(lead)
	defer schema.UseTaxonomy(nil)
	s, _ = SectionIn("error_category", French)
	for _, want := range []string{"**Énoncé contextuel ou de conclusion valable.**", "The lead's own wording.",
		"| `3` | `wrong_court` | hallucination | **Wrong court.** Cites a court that did not decide it. |"} {
		if !strings.Contains(s, want) {
			t.Errorf("with the lead's taxonomy, the French section lacks %q", want)
		}
	}
	if strings.Contains(s, "Synthèse trop éloignée") {
		t.Error("a default category the lead reworded is shown in the French of the default")
	}
}
