package main

import (
	"encoding/json"
	"fmt"
	"github.com/annotate-dev/annotate/store/storetest"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"
	"unicode"

	"github.com/annotate-dev/annotate/store"
)

// docs/json.md documents the --json output of each reporting command as a
// JSON shape: keys and example values, with "…" for what is left out. The
// test walks every key of every shape against what the command prints on
// the demo data with labels (seedRichDB), so the page cannot put a key
// where the output does not have it.

// jsonDocCommands runs each documented command: the page's heading (or,
// for a fragment under it, its first key) → the arguments and the path of
// the output the shape describes ("" the whole output, "fields.*" every
// field).
var jsonDocCommands = map[string]struct {
	args []string
	at   string
}{
	"annotate stats":     {[]string{"stats", "--annotator", "jo"}, ""},
	"annotate metrics":   {[]string{"metrics", "--annotator", "jo"}, ""},
	"annotate agreement": {[]string{"agreement"}, ""},
	// A numbered version's shape (relevance_grade, a marker without
	// guidelines, has the unnumbered version "", without author and
	// created_at, as the page says).
	"by_guidelines_version":        {[]string{"agreement", "--by-guidelines-version"}, "fields.question_validity"},
	"relevance_grade":              {[]string{"agreement"}, "fields"},
	"annotate guidelines history":  {[]string{"guidelines", "history"}, ""},
	"annotate ir":                  {[]string{"ir", "--annotator", "jo", "--by", "persona"}, ""},
	"annotate ir canlegalragbench": {[]string{"ir", "--annotator", "jo", "--definitions", "canlegalragbench"}, ""},
	"annotate rag":                 {[]string{"rag", "--expert", "jo"}, ""},
	"annotate gen":                 {[]string{"gen", "--annotator", "jo"}, ""},
	"annotate cost":                {[]string{"cost"}, ""},
	"annotate progress":            {[]string{"progress"}, ""},
	"annotate review --json":       {[]string{"review", "--as", "lead"}, ""},
}

// exampleKeys are names from the data the page uses as examples of a key
// that is a name (an annotator, a source, a field, a class, a system): one
// of them stands for every key of its object, like SYS or RUN. Any other
// key must be in the output as written.
var exampleKeys = map[string]bool{
	"jo": true, "sam": true, "GDPR": true, "CIVIL": true, "SOURCE": true, "lay": true, "persona": true,
	"entailment": true, "neutral": true, "accuracy_support": true, "relevance": true, "review": true,
	"refchecker": true, "answer_correctness=incorrect": true, "hallucination": true, "judge_error": true, "quality": true,
}

func TestJSONDocsMatchOutput(t *testing.T) {
	page, err := os.ReadFile(filepath.Join("..", "..", "docs", "json.md"))
	if err != nil {
		t.Fatal(err)
	}
	db := seedRichDB(t)
	// Graded judgments of two experts, for the ordinal field's shape.
	s, err := store.Open(db)
	if err != nil {
		t.Fatal(err)
	}
	var graded strings.Builder
	rows, err := storetest.DB(t, s).Query(`SELECT ext_id FROM items WHERE kind = 'relevance' ORDER BY id LIMIT 6`)
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; rows.Next(); i++ {
		var id string
		rows.Scan(&id)
		for j, who := range []string{"jo", "sam"} {
			fmt.Fprintf(&graded, `{"annotator":%q,"item":%q,"field":"relevance_grade","value":"%d"}`+"\n", who, id, (i+j*(i%2))%3)
		}
	}
	rows.Close()
	s.Close()
	grades := filepath.Join(t.TempDir(), "grades.jsonl")
	os.WriteFile(grades, []byte(graded.String()), 0o644)
	for _, f := range []string{filepath.Join("..", "..", "docs", "example", "rag-jo.jsonl"), grades} {
		if out, err := execute(t, "--db", db, "import", f); err != nil {
			t.Fatalf("%v\n%s", err, out)
		}
	}
	blocks := jsonDocBlocks(string(page))
	done := map[string]bool{}
	for _, bl := range blocks {
		name := bl.heading
		if strings.HasPrefix(strings.TrimSpace(bl.text), `"`) { // a fragment: a member of an object shown above
			name = strings.Trim(strings.SplitN(strings.TrimSpace(bl.text), ":", 2)[0], `"`)
			bl.text = "{" + bl.text + "}"
		}
		if strings.Contains(bl.text, `"definitions":"canlegalragbench"`) { // ir's other definitions
			name += " canlegalragbench"
		}
		cmd, ok := jsonDocCommands[name]
		if !ok {
			t.Errorf("docs/json.md: a JSON block under %q the test does not run (add it to jsonDocCommands)", name)
			continue
		}
		done[name] = true
		shape, err := parseShape(bl.text)
		if err != nil {
			t.Errorf("docs/json.md, %s: %v", name, err)
			continue
		}
		out, err := execute(t, append(append([]string{"--db", db}, cmd.args...), "--json")...)
		if err != nil {
			t.Errorf("%v: %v", cmd.args, err)
			continue
		}
		var got any
		if err := json.Unmarshal([]byte(out), &got); err != nil {
			t.Errorf("%v: not JSON: %v", cmd.args, err)
			continue
		}
		for _, v := range at(got, cmd.at) {
			for _, p := range walkShape(shape, v, "") {
				t.Errorf("docs/json.md, %s: %s", name, p)
			}
		}
	}
	for name := range jsonDocCommands {
		if !done[name] {
			t.Errorf("docs/json.md has no JSON block for %q any more", name)
		}
	}
}

// at is the values at a dotted path, "*" every value of an object.
func at(v any, path string) []any {
	if path == "" {
		return []any{v}
	}
	k, rest, _ := strings.Cut(path, ".")
	obj, _ := v.(map[string]any)
	var out []any
	for name, x := range obj {
		if k == "*" || name == k {
			out = append(out, at(x, rest)...)
		}
	}
	return out
}

type docBlock struct{ heading, text string }

// jsonDocBlocks are the ```json blocks of the page with the heading they
// are under.
func jsonDocBlocks(page string) []docBlock {
	var out []docBlock
	heading := ""
	lines := strings.Split(page, "\n")
	for i := 0; i < len(lines); i++ {
		l := lines[i]
		if strings.HasPrefix(l, "## ") {
			heading = strings.Trim(strings.TrimPrefix(l, "## "), "`")
		}
		if l != "```json" {
			continue
		}
		var body []string
		for i++; i < len(lines) && lines[i] != "```"; i++ {
			body = append(body, lines[i])
		}
		out = append(out, docBlock{heading, strings.Join(body, "\n")})
	}
	return out
}

// shape is a documented JSON value: an object's keys (more: "…" stands for
// keys not shown), an array's element (nil: not shown), or a scalar.
type shape struct {
	kind string // "object", "array", "scalar", "any"
	keys []string
	sub  map[string]*shape
	elem *shape
}

// parseShape reads the page's JSON with "…" wherever a value, a member or
// an element is left out.
func parseShape(s string) (*shape, error) {
	p := &shapeParser{s: []rune(s)}
	sh, err := p.value()
	if err != nil {
		return nil, err
	}
	if p.skip(); p.i < len(p.s) {
		return nil, fmt.Errorf("text after the value at %q", string(p.s[p.i:min(p.i+20, len(p.s))]))
	}
	return sh, nil
}

type shapeParser struct {
	s []rune
	i int
}

func (p *shapeParser) skip() {
	for p.i < len(p.s) && unicode.IsSpace(p.s[p.i]) {
		p.i++
	}
}

func (p *shapeParser) errf(format string, a ...any) error {
	return fmt.Errorf("at %q: %s", string(p.s[p.i:min(p.i+20, len(p.s))]), fmt.Sprintf(format, a...))
}

func (p *shapeParser) eat(r rune) bool {
	if p.skip(); p.i < len(p.s) && p.s[p.i] == r {
		p.i++
		return true
	}
	return false
}

func (p *shapeParser) value() (*shape, error) {
	p.skip()
	if p.i >= len(p.s) {
		return nil, p.errf("a value is missing")
	}
	switch c := p.s[p.i]; {
	case c == '…':
		p.i++
		return &shape{kind: "any"}, nil
	case c == '{':
		p.i++
		sh := &shape{kind: "object", sub: map[string]*shape{}}
		for !p.eat('}') {
			if len(sh.keys)+len(sh.sub) > 0 || sh.elem != nil {
				if !p.eat(',') {
					return nil, p.errf("want , or }")
				}
			}
			if p.eat('…') {
				sh.elem = &shape{kind: "any"} // more keys
				continue
			}
			k, err := p.str()
			if err != nil {
				return nil, err
			}
			if !p.eat(':') {
				return nil, p.errf("want :")
			}
			v, err := p.value()
			if err != nil {
				return nil, err
			}
			sh.keys, sh.sub[k] = append(sh.keys, k), v
		}
		sh.elem = nil
		return sh, nil
	case c == '[':
		p.i++
		sh := &shape{kind: "array"}
		for n := 0; !p.eat(']'); n++ {
			if n > 0 && !p.eat(',') {
				return nil, p.errf("want , or ]")
			}
			v, err := p.value()
			if err != nil {
				return nil, err
			}
			if sh.elem == nil || sh.elem.kind == "any" {
				sh.elem = v
			}
		}
		return sh, nil
	case c == '"':
		if _, err := p.str(); err != nil {
			return nil, err
		}
		return &shape{kind: "scalar"}, nil
	}
	m := regexp.MustCompile(`^(-?[0-9][0-9.eE+-]*|true|false|null)`).FindString(string(p.s[p.i:]))
	if m == "" {
		return nil, p.errf("not a value")
	}
	p.i += len([]rune(m))
	return &shape{kind: "scalar"}, nil
}

func (p *shapeParser) str() (string, error) {
	if p.skip(); p.i >= len(p.s) || p.s[p.i] != '"' {
		return "", p.errf("want a string")
	}
	j := p.i + 1
	for j < len(p.s) && p.s[j] != '"' {
		if p.s[j] == '\\' {
			j++
		}
		j++
	}
	if j >= len(p.s) {
		return "", p.errf("unterminated string")
	}
	var s string
	if err := json.Unmarshal([]byte(string(p.s[p.i:j+1])), &s); err != nil {
		return "", p.errf("%v", err)
	}
	p.i = j + 1
	return s, nil
}

// walkShape lists where the output v lacks what the shape documents.
func walkShape(sh *shape, v any, path string) []string {
	name := path
	if name == "" {
		name = "the output"
	}
	switch sh.kind {
	case "object":
		obj, ok := v.(map[string]any)
		if !ok {
			return []string{fmt.Sprintf("%s: documented as an object, is %s", name, jsonKind(v))}
		}
		var out []string
		for _, k := range sh.keys {
			sub := sh.sub[k]
			if x, ok := obj[k]; ok {
				out = append(out, walkShape(sub, x, join(path, k))...)
				continue
			}
			if !placeholder(k) {
				out = append(out, fmt.Sprintf("%s: no key %q (keys: %s)", name, k, strings.Join(sortedKeys(obj), ", ")))
				continue
			}
			// A name standing for any: every key of the object has the
			// shape (an empty object, {}, has nothing to contradict it).
			for _, x := range sortedKeys(obj) {
				if !sh.has(x) {
					out = append(out, walkShape(sub, obj[x], join(path, x))...)
				}
			}
		}
		return out
	case "array":
		arr, ok := v.([]any)
		if !ok {
			if v == nil {
				return nil // a list with nothing to list may be null
			}
			return []string{fmt.Sprintf("%s: documented as a list, is %s", name, jsonKind(v))}
		}
		var out []string
		if sh.elem != nil {
			for i, x := range arr {
				out = append(out, walkShape(sh.elem, x, fmt.Sprintf("%s[%d]", path, i))...)
			}
		}
		return out
	case "scalar":
		switch v.(type) {
		case map[string]any, []any:
			return []string{fmt.Sprintf("%s: documented as a value, is %s", name, jsonKind(v))}
		}
	}
	return nil
}

func (sh *shape) has(k string) bool { _, ok := sh.sub[k]; return ok }

// placeholder: SYS, RUN, FIELD… or a name of the example data.
func placeholder(k string) bool {
	return exampleKeys[k] || regexp.MustCompile(`^[A-Z][A-Z_]*$`).MatchString(k)
}

func join(path, k string) string {
	if path == "" {
		return k
	}
	return path + "." + k
}

func jsonKind(v any) string {
	switch v.(type) {
	case map[string]any:
		return "an object"
	case []any:
		return "a list"
	case nil:
		return "null"
	}
	return "a value"
}

func sortedKeys(m map[string]any) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
