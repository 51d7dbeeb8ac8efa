package tui

import (
	"fmt"
	"image/color"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"
	"unicode"

	"github.com/annotate-dev/annotate/store/storetest"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/annotate-dev/annotate/internal/lang"
	"github.com/annotate-dev/annotate/schema"
	"github.com/annotate-dev/annotate/store"
	"github.com/annotate-dev/annotate/tui/adjudicate"
)

// frenchScreens are the screens an annotator meets, each on the store it
// needs, for the French goldens (testdata/fr_*.txt), the scan for English
// words left in them, and the comparison of their French and English
// renderings at 80 columns.
var frenchScreens = []struct {
	name  string
	store func(testing.TB) *store.Store
	opt   func(*store.Store) Options
	keys  []string
}{
	{"home", goldenStore, kindOpt(""), nil},
	{"qa", goldenStore, kindOpt("qa"), []string{"y"}},
	{"claim", claimStore, kindOpt("claim"), []string{"y"}},
	{"missed", claimStore, kindOpt("claim"), []string{"y", "1", "n"}},
	{"guidelines", goldenStore, kindOpt("qa"), []string{"y", "?"}},
	{"search", goldenStore, kindOpt("qa"), []string{"/", "p", "e", "r", "s", "o", "n", "a", "l"}},
	{"filter", goldenStore, kindOpt("qa"), []string{"F"}},
	{"relevance", func(t testing.TB) *store.Store { return relevanceStore(t, 2, false) }, kindOpt("relevance"), nil},
	{"relevance_graded", func(t testing.TB) *store.Store { return relevanceStore(t, 2, true) }, kindOpt("relevance"), nil},
	{"query", queryStore, kindOpt("query"), nil},
	{"answer", answerStore, kindOpt("answer_task"), nil},
	{"gen_claim", answerStore, kindOpt("gen_claim"), nil},
	{"gen_claim_categories", answerStore, kindOpt("gen_claim"), []string{"y", "n", "space", "down"}},
	{"review", reviewStore, startOpt(func(s *store.Store) Screen { return Review(adjudicate.Options{Store: s, Lead: "lead"}) }), nil},
	{"review_help", reviewStore, startOpt(func(s *store.Store) Screen { return Review(adjudicate.Options{Store: s, Lead: "lead"}) }), []string{"?"}},
	{"review_system", reviewStore, startOpt(func(s *store.Store) Screen {
		return Review(adjudicate.Options{Store: s, Lead: "lead", StartSystem: true, Experts: []store.LabelSet{{Annotator: "sam"}}})
	}), nil},
	{"review_answers", answersStore, startOpt(func(s *store.Store) Screen { return AnswerReview(adjudicate.AnswerOptions{Store: s, Lead: "lead"}) }), nil},
}

func kindOpt(kind string) func(*store.Store) Options {
	return func(*store.Store) Options { return Options{Kind: kind} }
}

func startOpt(start func(*store.Store) Screen) func(*store.Store) Options {
	return func(s *store.Store) Options { return Options{Annotator: "lead", Start: start(s)} }
}

func claimStore(t testing.TB) *store.Store {
	s := goldenStore(t)
	judgeCorrect(t, s, "jo", "q1", "q2") // claims are asked once their answer is judged correct
	return s
}

func answerStore(t testing.TB) *store.Store {
	s := openStore(t)
	seedAnswers(t.(*testing.T), s)
	return s
}

func queryStore(t testing.TB) *store.Store {
	s := openStore(t)
	err := s.Import(func(tx *store.Tx) error {
		q := store.Query{ID: "q-1", Text: "Can my landlord evict me without notice?", Persona: "lay", Jurisdiction: "ON", Issue: "tenancy", SeedDoc: "d-9", SeedGroup: "g-2"}
		_, _, err := tx.PutQuery(q, q.ID, "t", false)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// screenIn renders one of frenchScreens in a language at a size (dark).
func screenIn(t *testing.T, code string, i int, w, h int) (string, *store.Store) {
	t.Helper()
	sc := frenchScreens[i]
	s := sc.store(t)
	opt := sc.opt(s)
	opt.Lang = code
	hn := newHarness(t, s, opt)
	hn.send(tea.BackgroundColorMsg{Color: color.Black})
	hn.send(tea.WindowSizeMsg{Width: w, Height: h})
	hn.keys(sc.keys...)
	return hn.m.View().Content, s
}

// The French goldens: every annotation screen, the review screens and the
// too-small screen at 80×24 and 120×40, as plain text (the styles are the
// English goldens'). go test ./tui/ -run GoldenFrench -update rewrites
// them.
func TestGoldenFrenchScreens(t *testing.T) {
	for i, sc := range frenchScreens {
		for _, size := range [][2]int{{80, 24}, {120, 40}} {
			t.Run(fmt.Sprintf("%s_%dx%d", sc.name, size[0], size[1]), func(t *testing.T) {
				out, _ := screenIn(t, lang.French, i, size[0], size[1])
				checkFits(t, out, size[0], size[1])
				compareGolden(t, fmt.Sprintf("fr_%s_%dx%d.txt", sc.name, size[0], size[1]), ansi.Strip(out))
			})
		}
	}
	// The too-small screen, with a key typed while it shows.
	for _, size := range [][2]int{{39, 11}, {24, 8}} {
		t.Run(fmt.Sprintf("too_small_%dx%d", size[0], size[1]), func(t *testing.T) {
			out := tooSmallIn(t, lang.French, size[0], size[1])
			checkFits(t, out, size[0], size[1])
			compareGolden(t, fmt.Sprintf("fr_too_small_%dx%d.txt", size[0], size[1]), ansi.Strip(out))
		})
	}
}

func tooSmallIn(t *testing.T, code string, w, h int) string {
	t.Helper()
	hn := newHarness(t, goldenStore(t), Options{Kind: "qa", Lang: code})
	hn.send(tea.WindowSizeMsg{Width: w, Height: h})
	hn.keys("y", "n")
	return hn.m.View().Content
}

// englishWords are the words of the English catalog that its French does
// not use too ("Document" is both), lower-cased: a French screen showing
// one shows English chrome.
func englishWords() map[string]bool {
	fr := map[string]bool{}
	var en []string
	for _, m := range lang.Messages() {
		en = append(en, m.EN.One, m.EN.Other)
		for _, w := range words(placeholder.ReplaceAllString(m.FR.One+" "+m.FR.Other, " ")) {
			fr[w] = true
		}
	}
	out := map[string]bool{}
	for _, s := range en {
		for _, w := range words(placeholder.ReplaceAllString(s, " ")) {
			if !fr[w] {
				out[w] = true
			}
		}
	}
	return out
}

var wordRE = regexp.MustCompile(`[\p{L}']+`)

// placeholder is a verb of a catalog format (%s, %d, %.1f, %[2]s).
var placeholder = regexp.MustCompile(`%(\[\d+\])?[-+#0]*\d*(\.\d+)?[a-zA-Z]`)

// words are the words of a text, lower-cased, single letters (keys) left
// out.
func words(s string) []string {
	var out []string
	for _, w := range wordRE.FindAllString(s, -1) {
		w = strings.Trim(strings.ToLower(w), "'")
		if len([]rune(w)) > 1 {
			out = append(out, w)
		}
	}
	return out
}

// dataWords are the words the store holds (items' texts, ids, names), and
// the identifiers the screens show as they are stored (fields, values,
// kinds, keys): a French screen shows them in their own language.
func dataWords(t *testing.T, s *store.Store) map[string]bool {
	t.Helper()
	out := map[string]bool{}
	add := func(text string) {
		for _, w := range words(strings.NewReplacer("_", " ", "-", " ").Replace(text)) {
			out[w] = true
		}
	}
	tables, err := storetest.DB(t, s).Query("SELECT name FROM sqlite_master WHERE type='table'")
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for tables.Next() {
		var n string
		tables.Scan(&n)
		names = append(names, n)
	}
	tables.Close()
	for _, n := range names {
		if n == "guideline_versions" {
			continue // the guidelines are the package's, checked by its own tests
		}
		rows, err := storetest.DB(t, s).Query(`SELECT * FROM "` + n + `"`)
		if err != nil {
			t.Fatal(err)
		}
		cols, _ := rows.Columns()
		for rows.Next() {
			vals := make([]any, len(cols))
			ptrs := make([]any, len(cols))
			for i := range vals {
				ptrs[i] = &vals[i]
			}
			rows.Scan(ptrs...)
			for _, v := range vals {
				switch x := v.(type) {
				case string:
					add(x)
				case []byte:
					add(string(x))
				}
			}
		}
		rows.Close()
	}
	for _, k := range schema.AllKinds() {
		add(string(k))
		for _, f := range schema.SpecOf(k).Fields {
			add(f.Name)
			for _, v := range f.Values {
				add(v)
			}
		}
	}
	for _, k := range []string{"enter", "esc", "tab", "shift", "ctrl", "pgup", "pgdn", "home", "end", "space", "backspace", "annotate", "refchecker"} {
		out[k] = true
	}
	return out
}

// A French screen shows no English word of the catalog, outside the data
// and the identifiers: what the catalog misses, or a string that never
// went through it, shows here.
func TestFrenchScreensHaveNoEnglish(t *testing.T) {
	english := englishWords()
	if len(english) < 300 {
		t.Fatalf("only %d English words in the catalog", len(english))
	}
	for i, sc := range frenchScreens {
		for _, size := range [][2]int{{80, 24}, {120, 40}} {
			out, s := screenIn(t, lang.French, i, size[0], size[1])
			text := ansi.Strip(out)
			if sc.name == "guidelines" {
				// The guidelines' own French is held to the English by
				// package guidelines; here only the overlay's frame.
				lines := strings.Split(text, "\n")
				text = lines[0] + "\n" + lines[len(lines)-1]
			}
			data := dataWords(t, s)
			var found []string
			for _, w := range words(text) {
				if english[w] && !data[w] && !slices.Contains(found, w) {
					found = append(found, w)
				}
			}
			if len(found) > 0 {
				sort.Strings(found)
				t.Errorf("%s at %dx%d shows English: %s\n%s", sc.name, size[0], size[1], strings.Join(found, ", "), text)
			}
		}
	}
	for _, size := range [][2]int{{39, 11}, {24, 8}} {
		for _, w := range words(ansi.Strip(tooSmallIn(t, lang.French, size[0], size[1]))) {
			if english[w] {
				t.Errorf("the too-small screen at %dx%d shows %q", size[0], size[1], w)
			}
		}
	}
}

// Nothing the English fits is cut in French (French is some 20% longer):
// at 80×24 a French screen has no more lines cut short (…) than the same
// screen in English, and its help bar shows every key the English one
// shows.
func TestFrenchFitsWhereEnglishFits(t *testing.T) {
	for i, sc := range frenchScreens {
		en, _ := screenIn(t, lang.English, i, 80, 24)
		fr, _ := screenIn(t, lang.French, i, 80, 24)
		enLines, frLines := strings.Split(ansi.Strip(en), "\n"), strings.Split(ansi.Strip(fr), "\n")
		if c, e := cutLines(frLines, 80), cutLines(enLines, 80); c > e {
			t.Errorf("%s: %d French lines cut short, %d English ones:\n%s\n\n%s", sc.name, c, e, strings.Join(frLines, "\n"), strings.Join(enLines, "\n"))
		}
		if e, f := helpItems(enLines), helpItems(frLines); f < e {
			t.Errorf("%s: the French help bar shows %d keys, the English one %d:\n%s\n\n%s", sc.name, f, e, strings.Join(frLines[len(frLines)-2:], "\n"), strings.Join(enLines[len(enLines)-2:], "\n"))
		}
	}
}

// cutLines counts the lines cut short: those Truncate cut to the width w
// (they fill it and end in its ellipsis; a short line ending in "…" is
// the screen's own: "saving…"), and the full help's when it leaves
// columns out (" …"). Help bars are counted by helpItems.
func cutLines(lines []string, w int) int {
	n := 0
	for _, l := range lines {
		l = strings.TrimRightFunc(l, unicode.IsSpace)
		switch {
		case strings.Contains(l, "•"):
		case strings.HasSuffix(l, " …"), strings.HasSuffix(l, "…") && ansi.StringWidth(l) >= w-1:
			n++
		}
	}
	return n
}

// helpItems counts the keys of the help bar: the items its last two lines
// hold, separated by • (a key alone on the last line follows a help line).
func helpItems(lines []string) int {
	n, help := 0, false
	for _, l := range lines[max(0, len(lines)-2):] {
		switch {
		case strings.Contains(l, "•"):
			n += strings.Count(l, "•") + 1
			help = true
		case help && strings.TrimSpace(l) != "":
			n++
		}
	}
	return n
}

// The ? overlay in French shows the French guidelines; a field whose
// French is older than its English (an English edit since) says so on top
// and gives the English in force after the French.
func TestFrenchGuidelinesSayWhenBehind(t *testing.T) {
	s := goldenStore(t)
	open := func() string {
		h := newHarness(t, s, Options{Kind: "qa", Lang: lang.French})
		h.send(tea.WindowSizeMsg{Width: 100, Height: 200})
		h.keys("?")
		return strings.Join(strings.Fields(h.view()), " ")
	}
	v := open()
	if !strings.Contains(v, "La question est-elle valide") || strings.Contains(v, "date de la version") {
		t.Fatalf("the French guidelines of question_validity, up to date:\n%s", v)
	}
	if _, err := s.AddGuidelines("lead", "edit", []store.GuidelineText{{Field: "question_validity", Text: "## question_validity — Valid?\n\nA new English rule.\n"}}); err != nil {
		t.Fatal(err)
	}
	v = open()
	for _, want := range []string{"Le texte français de question_validity date de la version 1", "le texte anglais a changé à la",
		"La question est-elle valide", "Le texte anglais en vigueur (version 2)", "A new English rule.", "français antérieur à l'anglais"} {
		if !strings.Contains(v, want) {
			t.Errorf("the overlay lacks %q:\n%s", want, v)
		}
	}
	if _, err := s.AddGuidelines("lead", "edit", []store.GuidelineText{{Field: "question_validity", Text: "## question_validity — Valide ?\n\nUne règle nouvelle.\n", Lang: "fr"}}); err != nil {
		t.Fatal(err)
	}
	v = open()
	if !strings.Contains(v, "Une règle nouvelle.") || strings.Contains(v, "date de la version") || strings.Contains(v, "A new English rule") {
		t.Errorf("after the French edit:\n%s", v)
	}
}
