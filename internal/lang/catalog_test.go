package lang

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"
	"unicode"

	"github.com/rivo/uniseg"
)

// verb matches one placeholder of a format: %[n] flags width .precision
// verb; %% is a percent sign, not a placeholder.
var verb = regexp.MustCompile(`%(\[\d+\])?[-+# 0]*(\d+|\*)?(\.\d+)?[a-zA-Z%]`)

// placeholders lists a format's placeholders as "argument:class", the
// argument numbered from 1 as fmt numbers it (explicit [n] included) and
// the class what the argument must be (s, q and v take any text; d an
// integer; f, g and e a real), sorted.
func placeholders(format string) []string {
	var out []string
	arg := 0
	for _, m := range verb.FindAllStringSubmatch(format, -1) {
		v := m[0][len(m[0])-1]
		if v == '%' {
			continue
		}
		if m[1] != "" {
			arg, _ = strconv.Atoi(strings.Trim(m[1], "[]"))
		} else {
			arg++
		}
		class := string(v)
		switch v {
		case 's', 'q', 'v', 'w':
			class = "s"
		case 'f', 'g', 'e':
			class = "f"
		}
		out = append(out, strconv.Itoa(arg)+":"+class)
	}
	sort.Strings(out)
	return out
}

// TestEveryMessageIsFrench: every entry has French, in every form its
// English has, with the very placeholders of the English (no more, no
// fewer, of the same kinds), and plural entries select by an argument
// that is a number in both languages.
func TestEveryMessageIsFrench(t *testing.T) {
	if len(Messages()) < 100 {
		t.Fatalf("the catalog holds %d messages", len(Messages()))
	}
	seen := map[string]bool{}
	for _, m := range Messages() {
		if seen[m.Key] {
			t.Errorf("%q: in the catalog twice", m.Key)
		}
		seen[m.Key] = true
		if en, _, _ := strings.Cut(m.Key, "|"); m.EN.Other != en && m.EN.Arg == 0 {
			t.Errorf("%q: a one-form English text differs from its key", m.Key)
		}
		if m.EN.Arg != m.FR.Arg {
			t.Errorf("%q: English selects its form by argument %d, French by %d", m.Key, m.EN.Arg, m.FR.Arg)
		}
		en, _, _ := strings.Cut(m.Key, "|")
		want := placeholders(en)
		for _, f := range append(m.EN.forms(), m.FR.forms()...) {
			if strings.TrimSpace(f) == "" {
				t.Errorf("%q: a form is empty", m.Key)
				continue
			}
			if got := placeholders(f); !slices.Equal(got, want) {
				t.Errorf("%q: %q has placeholders %v, the key %v", m.Key, f, got, want)
			}
		}
		if m.FR.Arg > 0 && !slices.ContainsFunc(want, func(p string) bool { return p == strconv.Itoa(m.FR.Arg)+":d" }) {
			t.Errorf("%q: the plural is selected by argument %d, which is no integer of the message", m.Key, m.FR.Arg)
		}
	}
}

// TestFrenchTypography: the French texts put a narrow no-break space
// before : ; ! ? and %, no-break spaces inside « », and never an ordinary
// space there (nor the mark glued to the word before it).
func TestFrenchTypography(t *testing.T) {
	for _, m := range Messages() {
		for _, f := range m.FR.forms() {
			checkFrench(t, m.Key, f)
		}
	}
	for k, l := range fieldLabels {
		checkFrench(t, k, typeset(l))
	}
	for k, l := range valueLabels {
		checkFrench(t, k, typeset(l))
	}
}

func checkFrench(t *testing.T, key, f string) {
	t.Helper()
	r := []rune(verb.ReplaceAllStringFunc(f, func(v string) string {
		if v == "%%" {
			return "%" // a percent sign, checked below
		}
		return "x" // a placeholder stands for a word
	}))
	for i, c := range r {
		if !strings.ContainsRune(":;!?%»", c) {
			if c == '«' && (i+1 == len(r) || r[i+1] != '\u00a0') {
				t.Errorf("%q: %q: « without a no-break space after it", key, f)
			}
			continue
		}
		if i == 0 {
			continue // a key named at the start ("? : …")
		}
		prev := r[i-1]
		want := '\u202f'
		if c == '»' {
			want = '\u00a0'
		}
		switch {
		case c == ':' && unicode.IsDigit(prev) && i+1 < len(r) && unicode.IsDigit(r[i+1]):
			// a time, 0:00
		case c == ':' && (i+1 == len(r) || r[i+1] != ' ') && prev != ' ' && prev != want:
			// inside a word or a key (ctrl+s, http:)
		case strings.ContainsRune("?!", c) && (prev == '?' || prev == '!' || prev == '/' || prev == ' ' && (i+1 == len(r) || r[i+1] == ' ' || r[i+1] == ',')):
			// a key named in running text ("? ouvre les consignes", "esc/q/?")
		case prev != want:
			t.Errorf("%q: %q: %q after %q, want U+%04X before it", key, f, c, prev, want)
		}
	}
}

// TestEveryKeyInTheCodeIsInTheCatalog reads the packages whose strings an
// annotator sees and collects every key they say (the literal first
// argument of a Printer's Sprintf, the argument of Key and Errorf): each
// must be in the catalog, and each entry of the catalog must be said
// somewhere (a message the code no longer says is dead weight that would
// drift). A Sprintf on something other than fmt whose format is not a
// literal fails: its key could not be checked.
func TestEveryKeyInTheCodeIsInTheCatalog(t *testing.T) {
	used := map[string]string{} // key: where
	for _, dir := range annotatorPackages {
		files, _ := filepath.Glob(filepath.Join("..", "..", dir, "*.go"))
		if len(files) == 0 {
			t.Fatalf("no Go files in %s", dir)
		}
		for _, path := range files {
			if strings.HasSuffix(path, "_test.go") {
				continue
			}
			collectKeys(t, path, used)
		}
	}
	inCatalog := map[string]bool{}
	for _, m := range Messages() {
		inCatalog[m.Key] = true
	}
	var missing []string
	for k, at := range used {
		if !inCatalog[k] {
			missing = append(missing, at+": "+strconv.Quote(k))
		}
	}
	sort.Strings(missing)
	for _, m := range missing {
		t.Errorf("not in the catalog: %s", m)
	}
	for _, m := range Messages() {
		if _, ok := used[m.Key]; !ok {
			t.Errorf("in the catalog but said nowhere: %q", m.Key)
		}
	}
}

// annotatorPackages are the packages whose text an annotator reads.
var annotatorPackages = []string{"tui", "tui/internal/ui", "tui/adjudicate", "cmd/annotate", "store", "internal/names", "server"}

func collectKeys(t *testing.T, path string, used map[string]string) {
	t.Helper()
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, path, src, 0)
	if err != nil {
		t.Fatal(err)
	}
	ast.Inspect(f, func(n ast.Node) bool {
		call, ok := n.(*ast.CallExpr)
		if !ok || len(call.Args) == 0 {
			return true
		}
		sel, ok := call.Fun.(*ast.SelectorExpr)
		if !ok {
			return true
		}
		recv := ""
		if id, ok := sel.X.(*ast.Ident); ok {
			recv = id.Name
		}
		name := sel.Sel.Name
		switch {
		case name == "Sprintf" && recv != "fmt":
		case (name == "Key" || name == "Errorf" || name == "Count") && recv == "lang":
		default:
			return true
		}
		at := fset.Position(call.Pos()).String()
		lit, ok := call.Args[0].(*ast.BasicLit)
		if !ok || lit.Kind != token.STRING {
			t.Errorf("%s: %s.%s with a key that is not a literal: the catalog cannot be checked against it", at, recv, name)
			return true
		}
		k, err := strconv.Unquote(lit.Value)
		if err != nil {
			t.Fatal(err)
		}
		if _, dup := used[k]; !dup {
			used[k] = at
		}
		return true
	})
}

// screenWidth is the width a one-line message has at 80 columns: a status
// line's, less the "✗ " an error starts with.
const screenWidth = 78

// TestFrenchFitsWhereEnglishFits: a message shown on one line (a status
// line, a card, a header, a help bar) whose English fits at 80 columns
// fits in French too, measured with uniseg as the screens measure (the
// arguments a typical id or count); a paragraph (Wraps) wraps as it is
// designed to. It logs the widest French message that fits beside its
// English.
func TestFrenchFitsWhereEnglishFits(t *testing.T) {
	widest, widestEN := "", ""
	for _, m := range Messages() {
		if m.Wraps {
			continue
		}
		en, fr := sample(New(English), m.Key), sample(New(French), m.Key)
		we, wf := uniseg.StringWidth(en), uniseg.StringWidth(fr)
		if we <= screenWidth && wf > screenWidth {
			t.Errorf("%q fits in %d columns (%d), its French does not (%d): %q", en, screenWidth, we, wf, fr)
		}
		if wf <= screenWidth && wf > uniseg.StringWidth(widest) {
			widest, widestEN = fr, en
		}
	}
	t.Logf("the widest French message on one line: %d columns, %q; its English %d, %q",
		uniseg.StringWidth(widest), widest, uniseg.StringWidth(widestEN), widestEN)
}

// sample says a message with typical arguments: an id for text, 12 for a
// count, 12.5 for a real.
func sample(p *Printer, key string) string {
	var args []any
	en, _, _ := strings.Cut(key, "|")
	for _, v := range verb.FindAllString(en, -1) {
		switch v[len(v)-1] {
		case '%':
		case 'd':
			args = append(args, 12)
		case 'f':
			args = append(args, 12.5)
		default:
			args = append(args, "q1")
		}
	}
	return p.Sprintf(key, args...)
}

// sameInFrench are the words French writes as English does: a message
// whose French is its English is made of them (or of placeholders alone),
// else it was left untranslated.
var sameInFrench = map[string]bool{
	"note": true, "notes": true, "expert": true, "document": true, "documents": true, "version": true,
	"halluc": true, "source": true, "question": true, "province": true, "v": true, "pid": true, // v2: a version; pid: a process id
	"sources": true, "conditions": true,
}

func TestNoMessageLeftInEnglish(t *testing.T) {
	letters := regexp.MustCompile(`\p{L}+`)
	for _, m := range Messages() {
		for i, fr := range m.FR.forms() {
			if fr != m.EN.forms()[i] {
				continue
			}
			for _, w := range letters.FindAllString(verb.ReplaceAllString(fr, " "), -1) {
				if !sameInFrench[strings.ToLower(w)] {
					t.Errorf("%q: its French is its English (%q is English)", m.Key, w)
				}
			}
		}
	}
}

// forms lists a text's forms.
func (t Text) forms() []string {
	if t.Arg == 0 {
		return []string{t.Other}
	}
	return []string{t.One, t.Other}
}
