package main

import (
	"bytes"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"runtime/debug"
	"slices"
	"strings"
	"testing"

	"github.com/annotate-dev/annotate/guidelines"
	"github.com/creack/pty"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

func TestFormatVersion(t *testing.T) {
	rev := "0123456789abcdef0123456789abcdef01234567"
	for _, c := range []struct {
		info *debug.BuildInfo
		ok   bool
		want string
	}{
		{nil, false, "(devel)"},
		{&debug.BuildInfo{}, true, "(devel)"},
		{&debug.BuildInfo{Main: debug.Module{Version: "(devel)"}}, true, "(devel)"},
		{&debug.BuildInfo{Main: debug.Module{Version: "v1.2.0"}}, true, "v1.2.0"},
		{&debug.BuildInfo{Main: debug.Module{Version: "v1.2.0"}, Settings: []debug.BuildSetting{{Key: "vcs.revision", Value: rev}}}, true,
			"v1.2.0 (commit 0123456789ab)"},
		{&debug.BuildInfo{Main: debug.Module{Version: "(devel)"}, Settings: []debug.BuildSetting{
			{Key: "vcs", Value: "git"}, {Key: "vcs.revision", Value: rev}, {Key: "vcs.modified", Value: "true"}}}, true,
			"(devel) (commit 0123456789ab, modified)"},
	} {
		if got := formatVersion(c.info, c.ok); got != c.want {
			t.Errorf("formatVersion(%+v) = %q, want %q", c.info, got, c.want)
		}
	}
	out, _, err := cli(t, "--version")
	if err != nil || out != "annotate "+version()+"\n" {
		t.Errorf("--version: %q %v", out, err)
	}
}

// availableCommands are the command paths man pages are written for.
func availableCommands(c *cobra.Command) []string {
	if !c.IsAvailableCommand() && c.HasParent() {
		return nil
	}
	out := []string{c.CommandPath()}
	for _, sub := range c.Commands() {
		out = append(out, availableCommands(sub)...)
	}
	return out
}

func TestManPages(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "man")
	t.Setenv("ANNOTATE_DB", "/home/someone/private.db")
	out, _, err := cli(t, "man", dir)
	if err != nil {
		t.Fatal(err)
	}
	root := newRootCmd()
	root.InitDefaultCompletionCmd()
	want := availableCommands(root)
	pages, _ := filepath.Glob(filepath.Join(dir, "*.1"))
	if len(pages) != len(want) || len(want) < 20 {
		t.Fatalf("%d pages for %d commands: %v", len(pages), len(want), pages)
	}
	if !strings.Contains(out, "man pages written") {
		t.Errorf("stdout %q", out)
	}
	for _, path := range want {
		name := strings.ReplaceAll(path, " ", "-") + ".1"
		b, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Errorf("%s: %v", path, err)
			continue
		}
		if !bytes.HasPrefix(b, []byte(".nh\n.TH \"ANNOTATE\" \"1\"")) {
			t.Errorf("%s: header %.40q", name, b)
		}
	}
	b, _ := os.ReadFile(filepath.Join(dir, "annotate-batch-create.1"))
	if !bytes.Contains(b, []byte(`\fB--only-correct-answers\fP[=false]`)) || !bytes.Contains(b, []byte("annotate-batch(1)")) {
		t.Errorf("annotate-batch-create.1 lacks its flags or its SEE ALSO:\n%s", b)
	}
	if !bytes.Contains(b, []byte(`\fB--db\fP="annotate.db"`)) || bytes.Contains(b, []byte("private.db")) {
		t.Error("the man pages document the environment's --db, not the built-in default")
	}
	if _, err := os.Stat(filepath.Join(dir, "annotate-__complete.1")); err == nil {
		t.Error("a page for the hidden __complete command")
	}
}

func TestParseConfig(t *testing.T) {
	c, err := parseConfig("c.yaml", []byte("# defaults\ndb: /data/a.db\nannotator: jo\ncolor: never\nlang: fr_CA\n"))
	if err != nil || c.DB != "/data/a.db" || c.Annotator != "jo" || c.Color != "never" || c.Lang != "fr" {
		t.Fatalf("%+v %v", c, err)
	}
	if c, err := parseConfig("c.yaml", nil); err != nil || *c != (config{path: "c.yaml"}) {
		t.Errorf("empty file: %+v %v", c, err)
	}
	for _, bad := range []struct{ text, want string }{
		{"db: a.db\nanotator: jo\n", `config file c.yaml: line 2: key "anotator": unknown key (known: db, annotator, color, lang)`},
		{"lang: de\n", `config file c.yaml: line 1: key "lang": "de": want en (English) or fr (French)`},
		{"db: a.db\n\ncolor: sometimes\n", `config file c.yaml: line 3: key "color": "sometimes" is not never, auto or always`},
		{"db:\n", `config file c.yaml: line 1: key "db": want a value, not nothing`},
		{"db: [a, b]\n", `config file c.yaml: line 1: key "db": want a value, not a list`},
		{"db: a\ndb: b\n", `config file c.yaml: line 2: key "db": given twice (first on line 1)`},
		{"db: a\nannotator: \"jo,sam\"\n", `config file c.yaml: line 2: key "annotator": "jo,sam" is not a name: it holds ','`},
		{"color: never\ncolour: auto\n", `config file c.yaml: line 2: key "colour": given twice (first on line 1)`},
		{"- db\n", `config file c.yaml: line 1: want keys (db, annotator, color, lang), not a list`},
		{"db: a\n  color: x\n", `config file c.yaml: line 2: mapping values are not allowed in this context`},
	} {
		_, err := parseConfig("c.yaml", []byte(bad.text))
		if err == nil || !strings.HasPrefix(err.Error(), bad.want) {
			t.Errorf("%q: got %v, want %s", bad.text, err, bad.want)
		}
	}
}

// globalsOf parses args with the root's flags (config file and environment
// as they are) and returns the globals they set.
func globalsOf(t *testing.T, args ...string) *globals {
	t.Helper()
	root, g := newRoot()
	if err := root.PersistentFlags().Parse(args); err != nil {
		t.Fatal(err)
	}
	return g
}

func TestConfigPrecedence(t *testing.T) {
	home := t.TempDir()
	t.Setenv("XDG_CONFIG_HOME", home)
	t.Setenv("ANNOTATE_CONFIG", "")
	t.Setenv("ANNOTATE_DB", "")
	t.Setenv("ANNOTATE_USER", "")
	t.Setenv("ANNOTATE_COLOR", "")
	t.Setenv("USER", "unix")
	// No config file: the built-in defaults.
	if g := globalsOf(t); g.db != "annotate.db" || g.as != "unix" || g.color != "auto" || g.config != nil {
		t.Errorf("defaults: %q %q %q %v", g.db, g.as, g.color, g.config)
	}
	os.MkdirAll(filepath.Join(home, "annotate"), 0o755)
	os.WriteFile(filepath.Join(home, "annotate", "config.yaml"), []byte("db: cfg.db\nannotator: cfgjo\ncolor: never\n"), 0o644)
	if g := globalsOf(t); g.db != "cfg.db" || g.as != "cfgjo" || g.color != "never" {
		t.Errorf("config: %q %q %q", g.db, g.as, g.color)
	}
	t.Setenv("ANNOTATE_DB", "env.db")
	t.Setenv("ANNOTATE_USER", "envjo")
	t.Setenv("ANNOTATE_COLOR", "always")
	if g := globalsOf(t); g.db != "env.db" || g.as != "envjo" || g.color != "always" {
		t.Errorf("environment: %q %q %q", g.db, g.as, g.color)
	}
	if g := globalsOf(t, "--db", "flag.db", "--as", "flagjo", "--color", "auto"); g.db != "flag.db" || g.as != "flagjo" || g.color != "auto" {
		t.Errorf("flags: %q %q %q", g.db, g.as, g.color)
	}
	// $ANNOTATE_CONFIG names another file, which then must exist.
	other := filepath.Join(t.TempDir(), "team.yaml")
	os.WriteFile(other, []byte("db: team.db\n"), 0o644)
	t.Setenv("ANNOTATE_CONFIG", other)
	t.Setenv("ANNOTATE_DB", "")
	if g := globalsOf(t); g.db != "team.db" {
		t.Errorf("$ANNOTATE_CONFIG: %q", g.db)
	}
	t.Setenv("ANNOTATE_CONFIG", other+".missing")
	if _, _, err := cli(t, "stats"); err == nil || !strings.Contains(err.Error(), "team.yaml.missing") {
		t.Errorf("missing $ANNOTATE_CONFIG: %v", err)
	}
}

// A bad config file stops every command before it touches a database, and
// says where the mistake is.
func TestBadConfigChangesNothing(t *testing.T) {
	home := t.TempDir()
	t.Setenv("XDG_CONFIG_HOME", home)
	t.Setenv("ANNOTATE_CONFIG", "")
	cfg := filepath.Join(home, "annotate", "config.yaml")
	os.MkdirAll(filepath.Dir(cfg), 0o755)
	os.WriteFile(cfg, []byte("db: x.db\ncolour: loud\n"), 0o644)
	dir := t.TempDir()
	items := filepath.Join(dir, "items.jsonl")
	os.WriteFile(items, []byte(`{"id":"q1","source":"GDPR","language":"en","question":"Q?","answer":"A.","contexts":[{"id":"p1","text":"t"}]}`+"\n"), 0o644)
	db := filepath.Join(dir, "a.db")
	out, errOut, err := cli(t, "--db", db, "import", items)
	want := "annotate: config file " + cfg + `: line 2: key "colour": "loud" is not never, auto or always` + "\n"
	if err == nil || out != "" || errOut != want {
		t.Errorf("stdout %q, stderr %q, want %q", out, errOut, want)
	}
	if _, err := os.Stat(db); err == nil {
		t.Error("the import ran despite the bad config file")
	}
	// --version and --help still work, to find out what is wrong.
	if out, _, err := cli(t, "--version"); err != nil || !strings.HasPrefix(out, "annotate ") {
		t.Errorf("--version: %q %v", out, err)
	}
	if out, _, err := cli(t, "--help"); err != nil || !strings.Contains(out, "config.yaml") {
		t.Errorf("--help does not document the config file: %v", err)
	}
}

func TestBadColorFlag(t *testing.T) {
	_, errOut, err := cli(t, "--color", "loud", "guidelines")
	if err == nil || errOut != "annotate: --color: want never, auto or always, got \"loud\"\n" {
		t.Errorf("%q %v", errOut, err)
	}
}

// --json is a flag of the commands listed in jsonCommands, and of no other.
func TestJSONOnlyWhereMeaningful(t *testing.T) {
	var with []string
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		if c.LocalFlags().Lookup("json") != nil {
			with = append(with, strings.TrimPrefix(c.CommandPath(), "annotate "))
		}
		for _, sub := range c.Commands() {
			walk(sub)
		}
	}
	walk(newRootCmd())
	slices.Sort(with)
	want := slices.Sorted(slices.Values(jsonCommands))
	if !slices.Equal(with, want) {
		t.Errorf("commands with --json: %v, want %v", with, want)
	}
	for _, args := range [][]string{{"guidelines", "--json"}, {"demo", "--json"}, {"completion", "bash", "--json"},
		{"--json", "stats"}, {"man", "x", "--json"}} {
		out, errOut, err := cli(t, args...)
		if err == nil || out != "" || !strings.HasPrefix(errOut, "annotate: unknown flag --json (") {
			t.Errorf("%v: stdout %q stderr %q", args, out, errOut)
		}
	}
}

// Every --json output is one line of compact JSON.
func TestJSONIsOneCompactLine(t *testing.T) {
	db := seedReportDB(t, "jo", "sam")
	dir := t.TempDir()
	for _, args := range [][]string{
		{"stats", "--annotator", "jo"}, {"metrics", "--annotator", "jo", "--system", "refchecker"},
		{"agreement", "--annotators", "jo,sam"}, {"progress"}, {"batch", "create", "b1", "--as", "lead", "--kind", "qa", "--assign", "jo"},
		{"batch", "list"}, {"notes"}, {"review", "--as", "lead"}, {"cost"}, {"annotator", "add", "kim"},
		{"annotator", "set", "kim", "--rate", "30"}, {"export", "--out", filepath.Join(dir, "x"), "--format", "csv", "--annotator", "jo"},
	} {
		out, errOut, err := cli(t, append(append([]string{"--db", db}, args...), "--json")...)
		if err != nil {
			t.Errorf("%v: %v %s", args, err, errOut)
			continue
		}
		var compact bytes.Buffer
		if err := json.Compact(&compact, []byte(out)); err != nil {
			t.Errorf("%v: not JSON: %v\n%s", args, err, out)
			continue
		}
		if out != compact.String()+"\n" {
			t.Errorf("%v: not one compact line:\n%s", args, out)
		}
	}
}

// openFlags are the flags whose value is free: a number, a duration, a
// path (the shell completes file names), a new name or free text. Every other
// flag taking a value has a completion function.
var openFlags = map[string]string{
	"db": "path", "taxonomy": "path (or default)", "out": "path", "authorized-keys": "path", "host-key": "path",
	"session-limit": "duration", "keepalive": "duration", "write-timeout": "duration",
	"size": "number", "seed": "number", "depth": "number", "queries": "number", "sample": "number", "k": "number",
	"rate": "number", "max-connections": "number", "max-unauthenticated": "number",
	"currency": "free text", "role": "free text", "name": "free text", "split": "free text", "listen": "address",
	"contact": "free text", "license-name": "free text", "license-link": "free text", "email-map": "path",
}

func TestEveryClosedFlagCompletes(t *testing.T) {
	root := newRootCmd()
	checked := 0
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		c.LocalFlags().VisitAll(func(f *pflag.Flag) {
			if f.Value.Type() == "bool" || f.Name == "help" {
				return
			}
			_, has := c.GetFlagCompletionFunc(f.Name)
			_, open := openFlags[f.Name]
			switch {
			case !has && !open:
				t.Errorf("%s --%s (%s) has no completion function", c.CommandPath(), f.Name, f.Usage)
			case has && open:
				t.Errorf("%s --%s is listed as open but completes", c.CommandPath(), f.Name)
			}
			checked++
		})
		for _, sub := range c.Commands() {
			walk(sub)
		}
	}
	walk(root)
	if checked < 60 {
		t.Fatalf("only %d flags checked", checked)
	}
}

// complete runs the shell's completion request and returns the values
// offered.
func complete(t *testing.T, args ...string) []string {
	t.Helper()
	out, _, err := cli(t, append([]string{"__complete"}, args...)...)
	if err != nil {
		t.Fatal(err)
	}
	var values []string
	for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
		if !strings.HasPrefix(line, ":") {
			values = append(values, line)
		}
	}
	return values
}

func TestCompletionValues(t *testing.T) {
	db := seedReportDB(t, "jo", "sam")
	for _, c := range []struct {
		args []string
		want []string
	}{
		{[]string{"review", "--kind", ""}, []string{"answer_task"}}, // review refuses every other kind
		{[]string{"--color", ""}, []string{"never", "auto", "always"}},
		{[]string{"ir", "--by", ""}, []string{"persona", "jurisdiction", "issue"}},
		{[]string{"ir", "--rank-by", "n"}, []string{"ndcg"}},
		{[]string{"gen", "--by", ""}, []string{"persona", "jurisdiction"}},
		{[]string{"gen", "--condition", ""}, []string{"oracle", "pipeline"}},
		{[]string{"batch", "create", "x", "--hop", ""}, []string{"single", "multi"}},
		{[]string{"batch", "create", "x", "--stratify", "issue,"}, []string{"issue,jurisdiction", "issue,persona"}},
		{[]string{"export", "--license", "apache"}, []string{"apache-2.0"}},
		{[]string{"export", "--license", "cc-by-4"}, []string{"cc-by-4.0"}},
		// From the database: its annotators, and its one checker (refchecker).
		{[]string{"--db", db, "annotator", "set", ""}, []string{"jo", "sam", "lead"}},
		{[]string{"--db", db, "ir", "--gold", ""}, []string{"jo", "sam", "lead"}},
		{[]string{"--db", db, "metrics", "--system", ""}, []string{"refchecker"}},
		// gen's systems are those of generated answers (none here), not the
		// checkers that judged the extracted claims.
		{[]string{"--db", db, "gen", "--system", ""}, nil},
		{[]string{"--db", db, "gen", "--judge", ""}, nil},
	} {
		if got := complete(t, c.args...); !slices.Equal(got, c.want) {
			t.Errorf("%v: %q, want %q", c.args, got, c.want)
		}
	}
	// The Hub's 83 licence identifiers, all offered.
	if got := complete(t, "export", "--license", ""); len(got) != 83 {
		t.Errorf("--license offers %d values, want 83", len(got))
	}
}

// Piped, the guidelines are the Markdown itself; on a terminal, glamour's
// rendering of it.
func TestGuidelinesRendering(t *testing.T) {
	t.Setenv("NO_COLOR", "")
	t.Setenv("ANNOTATE_COLOR", "")
	text, ok := guidelines.Embedded("entailment")
	if !ok {
		t.Fatal("no embedded guidelines of entailment")
	}
	md := guidelines.RenderIn(text, guidelines.English)
	// Without a database: the embedded text, version 1, named on top.
	out, _, err := cli(t, "guidelines", "entailment")
	if want := "<!-- guidelines version (embedded in annotate " + guidelines.Version + "): entailment 1 -->\n" + md; err != nil || out != want {
		t.Fatalf("piped: %v\n%q\nwant %q", err, out, want)
	}
	onTTY := func(args ...string) string {
		ptmx, tty, err := pty.Open()
		if err != nil {
			t.Fatal(err)
		}
		defer ptmx.Close()
		pty.Setsize(ptmx, &pty.Winsize{Rows: 40, Cols: 100})
		got := make(chan string)
		go func() { b, _ := io.ReadAll(ptmx); got <- string(b) }()
		if err := runSafely(args, tty, io.Discard); err != nil {
			t.Fatal(err)
		}
		tty.Close()
		return <-got
	}
	drawn := onTTY("guidelines", "entailment")
	// The heading in glamour's dark style: bold, colour 39; the "## " of the
	// Markdown source is glamour's heading prefix, drawn in the same style.
	if !strings.Contains(drawn, "\x1b[38;5;39;1m") || !strings.Contains(drawn, "entailment") || strings.Contains(drawn, "\n### Definition") {
		t.Errorf("terminal: not glamour's rendering: %.300q", drawn)
	}
	// The bullet list is rendered with glamour's bullets.
	if !strings.Contains(drawn, "•") || strings.Contains(drawn, "\n- ") {
		t.Errorf("terminal: list not rendered: %.300q", drawn)
	}
	plain := onTTY("--color", "never", "guidelines", "entailment")
	if strings.Contains(plain, "\x1b[") || !strings.Contains(plain, "•") {
		t.Errorf("--color never: %.300q", plain)
	}
}

func newRootCmd() *cobra.Command {
	root, _ := newRoot()
	return root
}
