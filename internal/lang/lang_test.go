package lang

import (
	"errors"
	"fmt"
	"io/fs"
	"strings"
	"testing"
	"time"

	"github.com/annotate-dev/annotate/guidelines"
	"github.com/annotate-dev/annotate/schema"
)

// The codes are the guidelines' own: one language, one code, everywhere.
func TestCodesAreTheGuidelines(t *testing.T) {
	if English != guidelines.English || French != guidelines.French {
		t.Fatalf("lang %s/%s, guidelines %s/%s", English, French, guidelines.English, guidelines.French)
	}
	for _, c := range Codes() {
		if !guidelines.Written(c) {
			t.Errorf("annotate speaks %s but its guidelines are not written in it", c)
		}
	}
}

func TestFromLocale(t *testing.T) {
	for locale, want := range map[string]string{
		"fr_CA.UTF-8": French, "fr_FR": French, "fr": French, "fr_BE@euro": French, "FR_ca.utf8": French, "fr-CA": French,
		"en_US.UTF-8": English, "en": English, "C": English, "POSIX": English, "C.UTF-8": English,
		"de_DE.UTF-8": "", "": "", "french": "", "frisian": "",
	} {
		if got := FromLocale(locale); got != want {
			t.Errorf("%q: %q, want %q", locale, got, want)
		}
	}
}

func TestParse(t *testing.T) {
	for in, want := range map[string]string{"fr": French, "FR": French, "en": English, "fr_CA.UTF-8": French} {
		if got, err := Parse(in); err != nil || got != want {
			t.Errorf("%q: %q %v, want %q", in, got, err, want)
		}
	}
	for _, bad := range []string{"", "de", "C", "POSIX", "french", " "} {
		if got, err := Parse(bad); err == nil {
			t.Errorf("%q: read as %q", bad, got)
		}
	}
}

// The order a terminal user expects: the flag, the annotator's own, the
// config file, the locale (LC_ALL over LC_MESSAGES over LANG, as POSIX
// says), English.
func TestChoose(t *testing.T) {
	env := func(kv ...string) func(string) string {
		m := map[string]string{}
		for i := 0; i+1 < len(kv); i += 2 {
			m[kv[i]] = kv[i+1]
		}
		return func(k string) string { return m[k] }
	}
	for _, c := range []struct {
		name string
		in   Choice
		want string
	}{
		{"nothing", Choice{}, English},
		{"the flag first", Choice{Flag: "en", Stored: "fr", Config: "fr", Env: env("LANG", "fr_CA.UTF-8")}, English},
		{"the flag in French", Choice{Flag: "fr", Stored: "en", Config: "en", Env: env("LANG", "C")}, French},
		{"the annotator's own before the config", Choice{Stored: "fr", Config: "en", Env: env("LANG", "en_US.UTF-8")}, French},
		{"the config before the locale", Choice{Config: "fr", Env: env("LANG", "en_US.UTF-8")}, French},
		{"the locale", Choice{Env: env("LANG", "fr_CA.UTF-8")}, French},
		{"LC_MESSAGES over LANG", Choice{Env: env("LANG", "en_CA.UTF-8", "LC_MESSAGES", "fr_CA.UTF-8")}, French},
		{"LC_ALL over both", Choice{Env: env("LANG", "fr_CA.UTF-8", "LC_MESSAGES", "fr_CA.UTF-8", "LC_ALL", "C")}, English},
		{"an unknown locale is English, not LANG's", Choice{Env: env("LANG", "fr_CA.UTF-8", "LC_ALL", "de_DE.UTF-8")}, English},
		{"an unreadable stored value is passed over", Choice{Stored: "xx", Env: env("LANG", "fr")}, French},
	} {
		if got := Choose(c.in); got != c.want {
			t.Errorf("%s: %q, want %q", c.name, got, c.want)
		}
	}
}

// An SSH client's environment, as the session's Environ gives it.
func TestEnvOf(t *testing.T) {
	get := EnvOf([]string{"TERM=xterm", "LANG=en_US.UTF-8", "LANGUAGE=fr", "LANG=fr_CA.UTF-8"})
	if got := get("LANG"); got != "fr_CA.UTF-8" {
		t.Errorf("LANG %q: the last one sent wins", got)
	}
	if got := get("LANGU"); got != "" {
		t.Errorf("a prefix of a name matched: %q", got)
	}
	if got := FromEnv(get); got != French {
		t.Errorf("%q", got)
	}
}

// French plurals: 0 and 1 are singular (CLDR); English 1 only. Numbers:
// a decimal comma, a no-break space between thousands in French; English
// as fmt writes them.
func TestPluralsAndNumbers(t *testing.T) {
	en, fr := New(English), New(French)
	for _, c := range []struct {
		p    *Printer
		n    int
		want string
	}{
		{en, 0, "0 words"}, {en, 1, "1 word"}, {en, 2, "2 words"}, {en, 12345, "12345 words"},
		{fr, 0, "0 mot"}, {fr, 1, "1 mot"}, {fr, 2, "2 mots"}, {fr, 12345, "12\u00a0345 mots"},
	} {
		if got := c.p.Sprintf("%d words", c.n); got != c.want {
			t.Errorf("%s %d: %q, want %q", c.p.Code(), c.n, got, c.want)
		}
	}
	if got := fr.Sprintf("%.1f%%", 12.5); got != "12,5\u202f%" {
		t.Errorf("French percent %q", got)
	}
	if got := en.Sprintf("%.1f%%", 12.5); got != "12.5%" {
		t.Errorf("English percent %q", got)
	}
	if got := fr.Sprintf("%d%%", 33); got != "33\u202f%" {
		t.Errorf("%q", got)
	}
	var none *Printer
	if got := none.Sprintf("%d words", 1); got != "1 word" || none.Code() != English {
		t.Errorf("a nil printer: %q %s", got, none.Code())
	}
	if got := fr.DayTime(time.Date(2026, 2, 3, 14, 5, 6, 0, time.UTC)); got != "3 févr. 14:05:06" {
		t.Errorf("%q", got)
	}
}

// An error is said in the reader's language when printed, whatever the
// language it was made in; the errors it wraps too, and errors.Is still
// finds them.
func TestErrorsSaidInTheReadersLanguage(t *testing.T) {
	inner := Errorf("%s (%s: %s)", Phrase("no batch %q", "pilto"), Phrase("batches"), "pilot")
	outer := Errorf("--db %s: %w", "x.db", inner)
	if got := outer.Error(); got != `--db x.db: no batch "pilto" (batches: pilot)` {
		t.Errorf("English %q", got)
	}
	if got := Say(New(French), outer); got != "--db x.db\u202f: aucun lot «\u00a0pilto\u00a0» (lots\u202f: pilot)" {
		t.Errorf("French %q", got)
	}
	wrapped := fmt.Errorf("--kind: %w", Errorf("kind %q: must be %s", "qq", OrList{"qa", "claim", "query"}))
	if got := Say(New(French), wrapped); got != "--kind: type «\u00a0qq\u00a0»\u202f: doit être qa, claim ou query" {
		t.Errorf("a wrapped error %q", got)
	}
	if !errors.Is(Errorf("seeding the demo: %w", fs.ErrNotExist), fs.ErrNotExist) {
		t.Error("errors.Is does not see through Errorf")
	}
	if got := Say(New(French), errors.New("disk full")); got != "disk full" {
		t.Errorf("an error of its own %q", got)
	}
	n := Errorf("--db %s already holds data (%s, %s): the demo seeds a new database; give a path that does not exist, or open this one with annotate --db %s",
		"a.db", Count("%d QA pairs", 1), Count("%d claims", 0), "a.db")
	if got := Say(New(French), n); !strings.HasPrefix(got, "--db a.db contient déjà des données (1 paire question-réponse, 0 proposition)\u202f:") {
		t.Errorf("%q", got)
	}
}

// Every field and value of the schema has a French label (the error
// categories' are the taxonomy's; relevance grades are numbers), and the
// labels name no field twice.
func TestEverySchemaLabelIsFrench(t *testing.T) {
	fr := New(French)
	seen := map[string]string{}
	for _, k := range schema.AllKinds() {
		for _, f := range schema.SpecOf(k).Fields {
			l := fr.Field(f.Name)
			if l == f.Name {
				t.Errorf("field %s has no French label", f.Name)
			}
			if other, dup := seen[l]; dup && other != f.Name {
				t.Errorf("%s and %s are both %q in French", other, f.Name, l)
			}
			seen[l] = f.Name
			for _, v := range f.Values {
				if _, err := fmt.Sscan(v, new(int)); err == nil {
					continue // a grade: a number in every language
				}
				if fr.Value(f.Name, v) == v {
					t.Errorf("%s=%s has no French label", f.Name, v)
				}
			}
		}
	}
	for _, s := range schema.GuidelineSections() {
		if fr.Field(s) == s {
			t.Errorf("the section %s has no French label", s)
		}
	}
	for k := range valueLabels {
		field, value, _ := cut(k)
		f, ok := schema.Lookup(field)
		if !ok || !contains(f.Values, value) {
			t.Errorf("a French label for %s, which the schema does not have", k)
		}
	}
	if got := New(English).Value("category", "factual_recall"); got != "factual_recall" {
		t.Errorf("an English label is the identifier: %q", got)
	}
}

func cut(s string) (string, string, bool) {
	for i := range s {
		if s[i] == '=' {
			return s[:i], s[i+1:], true
		}
	}
	return s, "", false
}

func contains(vs []string, v string) bool {
	for _, x := range vs {
		if x == v {
			return true
		}
	}
	return false
}
