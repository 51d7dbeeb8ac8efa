package exporter

import (
	"bufio"
	"bytes"
	"encoding/json"
	stdhtml "html"
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/annotate-dev/annotate/importer"
	"github.com/annotate-dev/annotate/schema"
	"github.com/annotate-dev/annotate/store"
	"github.com/annotate-dev/annotate/store/storetest"
	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	east "github.com/yuin/goldmark/extension/ast"
	"github.com/yuin/goldmark/renderer/html"
	"github.com/yuin/goldmark/text"
	"gopkg.in/yaml.v3"
)

// The card is inert: a name from the data or the flags shows as stored and
// never becomes Markdown or HTML of its own. The card is parsed as the Hub
// renders it: CommonMark with GitHub's tables, autolinks of bare URLs and
// strikethrough (goldmark with its GFM extension).

// cardNames are the strings of a database and an export that reach the card.
type cardNames struct {
	annotator string // labels in annotate, the exported label set
	imported  string // labels imported as given (a line of its own starts with it)
	lead      string // adjudicates
	source    string
	system    string // predicts the claims, answers and judges the generated claims
	run       string // a retrieval run (TREC format: no spaces)
	author    string // of a guidelines version
	value     string // a label value outside the schema
	currency  string
	name      string // --name
	contact   string // --contact
	link      string // --license-link of --license other
}

var (
	hostileNames = cardNames{
		annotator: `<script>alert(1)</script>`,
		imported:  `1. [x](javascript:alert(1))`,
		lead:      `![i](https://evil.example/i.png) <!-- c -->`,
		source:    "# src | a|b\n===",
		system:    "`tick` <b>sys</b> www.evil.example",
		run:       `<img/src=x/onerror=alert(1)>`,
		author:    "- *em* _u_ ~~s~~ [^1] &amp; \\\n## h",
		value:     "`v` | <b>x</b> ~~s~~",
		currency:  "$x^2$ &lt; :smile:",
		name:      `- Data: "x" #1 'y' [l](http://e.example) <i>it</i> ---`,
		contact:   "mail@evil.example https://evil.example/x",
		link:      "https://evil.example/l?x=<b>`y`&z=[w](v)#h",
	}
	plainNames = cardNames{"annone", "anntwo", "leadone", "Source One", "sysone", "runone", "authorone", "valueone", "CAD", "Plain Name",
		"Plain Contact", "https://plain.example/license"}
)

func (n cardNames) all() []string {
	return []string{n.annotator, n.imported, n.lead, n.source, n.system, n.run, n.author, n.value, n.currency, n.name, n.contact, n.link}
}

// namedCard exports a database that uses the names everywhere a name can be
// (QA pairs and claims, queries, documents, runs and relevance judgments,
// generated answers and their claims, the guidelines, rates), with every
// label set in long configs too, and returns its README.md.
func namedCard(t *testing.T, n cardNames) string {
	t.Helper()
	s := openStore(t)
	// No path creates such annotators' names any more (internal/names: one
	// printable word), but a database of an older version may hold them:
	// written here as it would have, so the card is tested on them too.
	for _, who := range []string{n.annotator, n.imported, n.lead} {
		if _, err := storetest.DB(t, s).Exec("INSERT INTO annotators(name, human, created_at) VALUES (?, 1, '2026-01-01T00:00:00Z')", who); err != nil {
			t.Fatal(err)
		}
	}
	dir := t.TempDir()
	runs, err := os.ReadFile(filepath.Join("testdata", "ir", "runs.run"))
	if err != nil {
		t.Fatal(err)
	}
	line := func(v any) string {
		b, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		return string(b) + "\n"
	}
	gen := line(map[string]any{"kind": "gen_answer", "id": "ga-1", "query": "qA", "system": n.system, "condition": "oracle",
		"answer": "Notice is required.", "documents": []string{"d01"}, "claims": []any{map[string]any{
			"id": "ga-1-c1", "text": "Notice is required.",
			"predictions": map[string]any{n.system: map[string]string{"accuracy_support": "supported", "grounded": "not_grounded"}},
			"labels": map[string]any{n.annotator: map[string]any{"accuracy_support": "supported", "grounded": "not_grounded",
				"error_category": []string{"valid_contextual_statement"}}}}}})
	files := map[string]string{"runs.run": strings.ReplaceAll(string(runs), " alpha\n", " "+n.run+"\n"), "gen.jsonl": gen}
	for name, body := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, f := range []struct{ file, format string }{{filepath.Join("testdata", "ir", "items.jsonl"), ""},
		{filepath.Join(dir, "runs.run"), importer.FormatTRECRun}, {filepath.Join("testdata", "ir", "gold.qrels"), importer.FormatQrels},
		{filepath.Join(dir, "gen.jsonl"), ""}} {
		if _, err := importer.Import(s, []string{f.file}, importer.Options{Format: f.format}); err != nil {
			t.Fatalf("%s: %v", f.file, err)
		}
	}
	storetest.Seed(t, s, func(b *storetest.Builder) {
		for _, id := range []string{"q1", "q2", "q3"} {
			b.QA(id, n.source, "en", "factual_recall")
			b.Claim(id, id+"-c1", map[string]string{n.system: "entailment"})
			b.Labels(n.imported, id, "question_validity=valid", "category=factual_recall")
		}
		b.QA("q4", n.source, "en", "factual_recall")
		b.Labels(n.annotator, "q4", "question_validity=valid", "category="+n.value)
	})
	seed := int64(3)
	if _, err := s.CreatePool(store.PoolSpec{Name: "pool", Runs: []string{n.run, "beta"}, Depth: 10, Seed: &seed, Assign: []string{n.annotator}}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.AddGuidelines(n.author, "edit", []store.GuidelineText{{Field: schema.QuestionValidity, Text: "## question_validity, v2\n\nNew.\n"}}); err != nil {
		t.Fatal(err)
	}
	l := &labeler{t: t, s: s, session: map[string]int64{}}
	for _, id := range []string{"q1", "q2"} {
		l.set(n.annotator, id, schema.QuestionValidity, "valid", schema.Category, "factual_recall")
		l.set(n.annotator, id+"-c1", schema.ClaimValidity, "correct", schema.Entailment, "entailment")
	}
	l.set(n.annotator, "q3", schema.QuestionValidity, "invalid")
	l.set(n.annotator, "qA/d07", schema.Relevance, schema.Relevant)
	if _, err := s.RecordLabel(store.Label{Annotator: n.lead, ItemID: l.id("q3"), Field: schema.QuestionValidity, Value: "valid", Adjudicate: true}); err != nil {
		t.Fatal(err)
	}
	rate := 40.0
	if _, err := s.SetAnnotator(nil, n.annotator, &rate, n.currency, ""); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "ds")
	export(t, s, Options{Out: out, Annotator: n.annotator, AllAnnotators: true, Name: n.name, Contact: n.contact,
		License: "other", LicenseName: "team-license-1.0", LicenseLink: n.link})
	b, err := os.ReadFile(filepath.Join(out, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// gfm parses Markdown as the Hub renders it.
func gfm(src []byte) ast.Node {
	return goldmark.New(goldmark.WithExtensions(extension.GFM)).Parser().Parse(text.NewReader(src))
}

// shown is the text a node shows, as the renderer writes it: escapes and
// entities resolved in text, code spans as they are.
func shown(n ast.Node, src []byte) string {
	var out bytes.Buffer
	w := bufio.NewWriter(&out)
	ast.Walk(n, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		switch x := n.(type) {
		case *ast.Text:
			if x.Parent().Kind() == ast.KindCodeSpan {
				html.DefaultWriter.RawWrite(w, x.Segment.Value(src))
			} else {
				html.DefaultWriter.Write(w, x.Segment.Value(src))
			}
			if x.SoftLineBreak() || x.HardLineBreak() {
				w.WriteByte('\n')
			}
		case *ast.String:
			html.DefaultWriter.Write(w, x.Value)
		}
		return ast.WalkContinue, nil
	})
	w.Flush()
	return stdhtml.UnescapeString(out.String())
}

// cardShape counts the card's nodes by kind, text aside.
func cardShape(doc ast.Node) map[string]int {
	shape := map[string]int{}
	ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if entering && n.Kind() != ast.KindText && n.Kind() != ast.KindString {
			shape[n.Kind().String()]++
		}
		return ast.WalkContinue, nil
	})
	return shape
}

// The card's own HTML: the folded reports.
var cardHTML = regexp.MustCompile(`^(<details>|</details>|<summary>[A-Za-z ()` + "`" + `]+</summary>)$`)

// TestCardIsInert renders the card of a database whose every name is
// hostile: scripts, links, images, HTML comments, headings, list markers,
// table pipes, backticks, emphasis, entities, math, emoji, bare URLs and
// e-mail addresses, line breaks and YAML's ": " and " #". Beside the card
// of the same database with plain names, it has the same nodes, kind by
// kind (no heading, link, list, cell or span came from a name); its only
// links are the card's own, its only HTML the card's own folds; every name
// shows as stored; the header reads back the names.
func TestCardIsInert(t *testing.T) {
	hostile, plain := namedCard(t, hostileNames), namedCard(t, plainNames)
	body := func(card string) []byte { return []byte(card[strings.Index(card, "\n---\n")+5:]) }
	src := body(hostile)
	doc := gfm(src)

	if got, want := cardShape(doc), cardShape(gfm(body(plain))); !mapsEqual(got, want) {
		t.Errorf("the hostile names changed the card's structure:\nhostile %v\nplain   %v", got, want)
	}
	ownURLs := []string{originClaimRAG.url, originCanLegal.url, originRefChecker.url, originRAGChecker.url}
	var blocks []string // what each paragraph, list item, heading and table cell shows
	ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		switch x := n.(type) {
		case *ast.Link:
			if !slices.Contains(ownURLs, string(x.Destination)) {
				t.Errorf("a link to %q", x.Destination)
			}
		case *ast.AutoLink:
			if u := string(x.URL(src)); !slices.Contains(ownURLs, u) {
				t.Errorf("an autolink to %q", u)
			}
		case *ast.Image:
			t.Errorf("an image of %q", x.Destination)
		case *ast.RawHTML:
			var raw strings.Builder
			for i := 0; i < x.Segments.Len(); i++ {
				seg := x.Segments.At(i)
				raw.Write(seg.Value(src))
			}
			t.Errorf("inline HTML %q", raw.String())
		case *ast.HTMLBlock:
			for i := 0; i < x.Lines().Len(); i++ {
				seg := x.Lines().At(i)
				if l := strings.TrimSpace(string(seg.Value(src))); !cardHTML.MatchString(l) {
					t.Errorf("HTML not the card's own: %q", l)
				}
			}
		case *ast.Heading:
			if x.Level == 1 && shown(x, src) != md2text(hostileNames.name) {
				t.Errorf("title %q, want --name %q", shown(x, src), hostileNames.name)
			}
			blocks = append(blocks, shown(x, src))
		case *ast.Paragraph, *ast.TextBlock, *east.TableCell:
			blocks = append(blocks, shown(x, src))
		}
		return ast.WalkContinue, nil
	})
	for _, name := range hostileNames.all() {
		want := md2text(name)
		if !slices.ContainsFunc(blocks, func(b string) bool { return strings.Contains(b, want) }) {
			t.Errorf("no paragraph, list item, heading or cell shows %q as stored", want)
		}
	}

	y, err := frontMatter(hostile)
	if err != nil {
		t.Fatal(err)
	}
	var h map[string]any
	if err := yaml.Unmarshal([]byte(y), &h); err != nil {
		t.Fatalf("yaml.v3: %v\n%s", err, y)
	}
	if h["pretty_name"] != hostileNames.name || h["license_link"] != hostileNames.link {
		t.Errorf("pretty_name %q, license_link %q; want %q, %q", h["pretty_name"], h["license_link"], hostileNames.name, hostileNames.link)
	}
	// The systems are feature names of the claims' predictions.
	if names := yamlNames(h); !slices.Contains(names, hostileNames.system) {
		t.Errorf("no feature named %q: %q", hostileNames.system, names)
	}
}

// md2text is what a name shows in the card: control characters as spaces,
// the spaces around it dropped.
func md2text(s string) string { return strings.TrimSpace(strings.Map(spaceControls, s)) }

func mapsEqual(a, b map[string]int) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if b[k] != v {
			return false
		}
	}
	return true
}

// yamlNames collects every "name" value of a parsed YAML tree.
func yamlNames(v any) []string {
	var out []string
	switch x := v.(type) {
	case map[string]any:
		for k, e := range x {
			if s, ok := e.(string); ok && k == "name" {
				out = append(out, s)
			}
			out = append(out, yamlNames(e)...)
		}
	case []any:
		for _, e := range x {
			out = append(out, yamlNames(e)...)
		}
	}
	return out
}

// markdownDanger is the alphabet of the random names below: every
// character that means something to Markdown, HTML, GFM or the Hub, the
// words that start autolinks, and line breaks.
var markdownDanger = []string{"\\", "`", "*", "_", "{", "}", "[", "]", "(", ")", "<", ">", "#", "+", "-", "=", ".", "!", "|", "~",
	"&", ";", ":", "@", "$", "^", "\"", "'", "/", " ", "  ", "    ", "\n", "\r", "\t", "1", "12", "a", "é", "www", "http", "https://",
	"mailto", "x.org", "<b>", "</b>", "<!--", "-->", "&amp;", "&#60;", "***", "---", "===", "```", "~~", "[^1]", "\u202e", "\x00"}

func randomName(r *rand.Rand) string {
	var b strings.Builder
	for range 1 + r.IntN(8) {
		b.WriteString(markdownDanger[r.IntN(len(markdownDanger))])
	}
	return b.String()
}

// TestMarkdownEscapesAreInert: a random name written by md as a paragraph,
// after a list marker, as a heading and in a table cell, or by code in a
// paragraph and by cellCode in a cell, is one block showing exactly the
// name: text (or one code span) only, and the table keeps its two cells.
func TestMarkdownEscapesAreInert(t *testing.T) {
	r := rand.New(rand.NewPCG(27, 3))
	for range 5000 {
		name := randomName(r)
		for _, c := range []struct {
			doc  string
			kind ast.NodeKind // of the block that shows the name
			code bool
		}{
			{md(name) + "\n", ast.KindParagraph, false},
			{"- " + md(name) + "\n", ast.KindTextBlock, false},
			{"# " + md(name) + "\n", ast.KindHeading, false},
			{"| a | b |\n|---|---|\n| " + cell(name) + " | z |\n", east.KindTableCell, false},
			{"see " + code(name) + "\n", ast.KindParagraph, true},
			{"| a | b |\n|---|---|\n| " + cellCode(name) + " | z |\n", east.KindTableCell, true},
		} {
			want := md2text(name)
			if c.code {
				want = strings.Map(spaceControls, name) // a code span keeps the spaces
			}
			if strings.TrimSpace(want) == "" {
				continue // nothing to show
			}
			src := []byte(c.doc)
			doc := gfm(src)
			var blocks []ast.Node
			bad := ""
			ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
				if !entering {
					return ast.WalkContinue, nil
				}
				switch n.Kind() {
				case c.kind:
					blocks = append(blocks, n)
				case ast.KindText, ast.KindString, ast.KindDocument, ast.KindList, ast.KindListItem,
					east.KindTable, east.KindTableHeader, east.KindTableRow:
				case ast.KindCodeSpan:
					if !c.code {
						bad = "code span"
					}
				default:
					bad = n.Kind().String()
				}
				return ast.WalkContinue, nil
			})
			shows := ""
			switch {
			case c.kind == east.KindTableCell && len(blocks) == 4:
				shows = shown(blocks[2], src)
				if shown(blocks[3], src) != "z" {
					bad = "a third cell"
				}
			case c.kind != east.KindTableCell && len(blocks) == 1:
				shows = strings.TrimPrefix(shown(blocks[0], src), "see ")
			default:
				bad = "not one block"
			}
			if bad != "" || shows != want {
				t.Fatalf("name %q in\n%s\nparses with %s, shows %q, want %q", name, c.doc, bad, shows, want)
			}
		}
	}
}

// TestYAMLStringReadsBack: any name, quoted by yamlString, is read back by
// yaml.v3 as itself, as a value and after a key that could end it.
func TestYAMLStringReadsBack(t *testing.T) {
	r := rand.New(rand.NewPCG(27, 5))
	names := []string{"", "a: b", "#c", "- x", "'", `"`, `\`, "\u0085", "\u2028", "\ufeff", "\x7f", "\u0080", "\uffff", "k: v # c\n- x",
		"{a: [b]}", "&anchor *alias !tag %YAML", "---", "...", "null", "true", "0x1F", "\t", "\r\n", "é\u202e"}
	for range 5000 {
		var b strings.Builder
		for range 1 + r.IntN(6) {
			if r.IntN(3) == 0 {
				b.WriteRune(rune(r.IntN(0x3000)))
			} else {
				b.WriteString([]string{": ", " #", "-", "'", `"`, `\`, "\n", "{", "[", "&", "*", "!", "|", ">", "%", "@", "`", " "}[r.IntN(18)])
			}
		}
		names = append(names, strings.ToValidUTF8(b.String(), "\uFFFD"))
	}
	for _, name := range names {
		var got struct {
			Name string `yaml:"pretty_name"`
			List []string
		}
		doc := "pretty_name: " + yamlString(name) + "\nlist:\n- " + yamlString(name) + "\n"
		if err := yaml.Unmarshal([]byte(doc), &got); err != nil {
			t.Fatalf("%q: %v\n%s", name, err, doc)
		}
		if got.Name != name || len(got.List) != 1 || got.List[0] != name {
			t.Fatalf("%q read back as %q, %q\n%s", name, got.Name, got.List, doc)
		}
	}
	if got := yamlString("a\xffb"); got != `"a`+"\uFFFD"+`b"` {
		t.Errorf("invalid UTF-8: %s", got)
	}
}
