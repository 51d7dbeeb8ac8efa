package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime/debug"
	"slices"
	"strings"

	"github.com/annotate-dev/annotate/internal/clock"
	"github.com/annotate-dev/annotate/internal/names"
	"github.com/annotate-dev/annotate/internal/suggest"
	"github.com/spf13/cobra"
	"github.com/spf13/cobra/doc"
	"gopkg.in/yaml.v3"

	"github.com/annotate-dev/annotate/internal/lang"
	"github.com/annotate-dev/annotate/internal/smallfile"
)

// The conventions every command follows: results on stdout, warnings and
// notes on stderr ("annotate: warning: …"); --json only on the commands
// whose result has a JSON form, always one compact line per document; the
// version from the build; a config file for the defaults of --db, --as and
// --color.

// version is the module version and the VCS commit the binary was built
// from, as the Go toolchain recorded them.
func version() string {
	info, ok := debug.ReadBuildInfo()
	return formatVersion(info, ok)
}

// formatVersion is "VERSION (commit REV[, modified])"; "(devel)" when the
// build recorded no module version (go run, go build in the repository
// without VCS stamping), and no commit part when it recorded none.
func formatVersion(info *debug.BuildInfo, ok bool) string {
	if !ok || info == nil {
		return "(devel)"
	}
	v := info.Main.Version
	if v == "" {
		v = "(devel)"
	}
	var rev string
	modified := false
	for _, s := range info.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.modified":
			modified = s.Value == "true"
		}
	}
	if rev == "" {
		return v
	}
	if len(rev) > 12 {
		rev = rev[:12]
	}
	if modified {
		rev += ", modified"
	}
	return v + " (commit " + rev + ")"
}

// jsonCommands are the commands whose result has a JSON form: only they
// take --json (elsewhere it is an unknown flag).
var jsonCommands = []string{
	"agreement", "annotator add", "annotator set", "batch create", "batch list", "cost", "export",
	"gen", "guidelines history", "import", "ir", "metrics", "notes", "progress", "rag", "review", "stats",
}

// addJSONFlags gives --json to the commands of jsonCommands.
func addJSONFlags(root *cobra.Command, g *globals) {
	for _, path := range jsonCommands {
		c, rest, err := root.Find(strings.Fields(path))
		if err != nil || len(rest) > 0 || c == root {
			panic("jsonCommands: no command " + path)
		}
		c.Flags().BoolVar(&g.json, "json", false, "print the result as JSON (one line)")
	}
}

// writeJSON writes v as one compact line of JSON, the one style of every
// --json output.
func writeJSON(w io.Writer, v any) error { return json.NewEncoder(w).Encode(v) }

// config is the config file's content: defaults for the global flags.
type config struct {
	path      string
	DB        string
	Annotator string
	Color     string
	Lang      string // en or fr: the language of the screens (language.go)
}

var colorModes = []string{"never", "auto", "always"}

// configHelp is the part of "annotate --help" that documents the config file.
const configHelp = `Defaults come from, in order: the flag, the environment ($ANNOTATE_DB,
$ANNOTATE_USER, $ANNOTATE_COLOR), the config file, the built-in default.
The config file is $ANNOTATE_CONFIG, else $XDG_CONFIG_HOME/annotate/config.yaml
(~/.config/annotate/config.yaml when XDG_CONFIG_HOME is unset), in YAML:

  db: ~/benchmarks/annotate.db   # --db (relative paths: to the current folder)
  annotator: jo                  # --as
  color: auto                    # --color: never, auto or always
  lang: fr                       # --lang: en or fr

The language of the screens and of an annotator's messages is --lang, else
the annotator's own (annotate annotator set NAME --lang fr), else the config
file's lang, else the locale (LC_ALL, LC_MESSAGES, LANG: fr_CA.UTF-8 is
French), else English.`

// configPath is the config file to read, and whether it was named
// explicitly ($ANNOTATE_CONFIG), which makes a missing file an error.
func configPath() (string, bool) {
	if p := os.Getenv("ANNOTATE_CONFIG"); p != "" {
		return p, true
	}
	dir := os.Getenv("XDG_CONFIG_HOME")
	if dir == "" || !filepath.IsAbs(dir) {
		home, err := os.UserHomeDir()
		if err != nil || home == "" {
			return "", false
		}
		dir = filepath.Join(home, ".config")
	}
	return filepath.Join(dir, "annotate", "config.yaml"), false
}

// maxConfig bounds the config file (a few lines).
const maxConfig = 1 << 20

// loadConfig reads the config file; none is no error (nil, nil) unless
// $ANNOTATE_CONFIG names it.
func loadConfig() (*config, error) {
	path, explicit := configPath()
	if path == "" {
		return nil, nil
	}
	data, err := smallfile.Read(path, maxConfig)
	if errors.Is(err, fs.ErrNotExist) && !explicit {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("config file: %w", err)
	}
	return parseConfig(path, data)
}

// parseConfig parses a config file; an error names the file, the line and
// the key.
func parseConfig(path string, data []byte) (*config, error) {
	c := &config{path: path}
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		msg := strings.TrimPrefix(err.Error(), "yaml: ")
		return nil, fmt.Errorf("config file %s: %s", path, msg)
	}
	if len(doc.Content) == 0 {
		return c, nil // empty file
	}
	top := doc.Content[0]
	if top.Kind != yaml.MappingNode {
		return nil, fmt.Errorf("config file %s: line %d: want keys (db, annotator, color, lang), not %s", path, top.Line, nodeKind(top))
	}
	seen := map[string]int{}
	colorKey := "color"
	for i := 0; i+1 < len(top.Content); i += 2 {
		k, v := top.Content[i], top.Content[i+1]
		at := fmt.Sprintf("config file %s: line %d: key %q", path, k.Line, k.Value)
		canon := k.Value
		if canon == "colour" {
			canon = "color"
		}
		if line, dup := seen[canon]; dup {
			return nil, fmt.Errorf("%s: given twice (first on line %d)", at, line)
		}
		seen[canon] = k.Line
		var dst *string
		switch k.Value {
		case "db":
			dst = &c.DB
		case "annotator":
			dst = &c.Annotator
		case "color", "colour":
			dst, colorKey = &c.Color, k.Value
		case "lang":
			dst = &c.Lang
		default:
			return nil, fmt.Errorf("%s: unknown key (known: db, annotator, color, lang)", at)
		}
		if v.Kind != yaml.ScalarNode || v.Tag == "!!null" || strings.TrimSpace(v.Value) == "" {
			return nil, fmt.Errorf("%s: want a value, not %s", at, nodeKind(v))
		}
		*dst = strings.TrimSpace(v.Value)
	}
	if c.Color != "" && !slices.Contains(colorModes, c.Color) {
		return nil, fmt.Errorf("config file %s: line %d: key %q: %q is not never, auto or always", path, seen["color"], colorKey, c.Color)
	}
	if c.Lang != "" {
		l, err := lang.Parse(c.Lang)
		if err != nil {
			return nil, fmt.Errorf("config file %s: line %d: key \"lang\": %w", path, seen["lang"], err)
		}
		c.Lang = l
	}
	if c.Annotator != "" {
		if err := names.Check(c.Annotator); err != nil {
			return nil, fmt.Errorf("config file %s: line %d: key \"annotator\": %w", path, seen["annotator"], err)
		}
	}
	if strings.HasPrefix(c.DB, "~/") {
		if home, err := os.UserHomeDir(); err == nil {
			c.DB = filepath.Join(home, c.DB[2:])
		}
	}
	return c, nil
}

func nodeKind(n *yaml.Node) string {
	switch {
	case n.Kind == yaml.MappingNode:
		return "a mapping"
	case n.Kind == yaml.SequenceNode:
		return "a list"
	case n.Kind == yaml.ScalarNode && n.Tag == "!!null", n.Kind == yaml.ScalarNode && strings.TrimSpace(n.Value) == "":
		return "nothing"
	}
	return "a " + strings.TrimPrefix(n.Tag, "!!")
}

// checkGlobals reports a bad config file, and a --color value that is not
// one of the modes, before any command runs.
func (g *globals) checkGlobals(cmd *cobra.Command) error {
	if g.configErr != nil {
		return g.configErr
	}
	if g.langFlag != "" {
		l, err := lang.Parse(g.langFlag)
		if err != nil {
			return fmt.Errorf("--lang %w", err)
		}
		g.langFlag = l
	}
	if err := clock.Check(); err != nil {
		return err
	}
	if !slices.Contains(colorModes, g.color) {
		from := "--color"
		if f := cmd.Flags().Lookup("color"); f != nil && !f.Changed && os.Getenv("ANNOTATE_COLOR") != "" {
			from = "$ANNOTATE_COLOR"
		}
		return fmt.Errorf("%s: want never, auto or always, got %q%s", from, g.color, suggest.Hint(g.color, colorModes))
	}
	return nil
}

// colorful reports whether output to a terminal may use colour: --color
// always, or auto without $NO_COLOR.
func (g *globals) colorful() bool {
	switch g.color {
	case "always":
		return true
	case "never":
		return false
	}
	return os.Getenv("NO_COLOR") == ""
}

func init() {
	register(func(g *globals) *cobra.Command {
		return &cobra.Command{
			Use:     "man DIR",
			Short:   "Write the man pages of every command into DIR",
			Example: "  annotate man ./man && man -l ./man/annotate.1",
			Args:    cobra.ExactArgs(1),
			RunE: func(cmd *cobra.Command, args []string) error {
				dir := args[0]
				if err := os.MkdirAll(dir, 0o755); err != nil {
					return err
				}
				// The pages document the built-in defaults, not the ones
				// this shell's environment or config file set.
				for name, def := range map[string]string{"db": "annotate.db", "as": "", "color": "auto"} {
					if f := cmd.Root().PersistentFlags().Lookup(name); f != nil {
						f.DefValue = def
					}
				}
				header := &doc.GenManHeader{Title: "ANNOTATE", Section: "1", Source: "annotate " + version(), Manual: "annotate manual"}
				if err := doc.GenManTree(cmd.Root(), header, dir); err != nil {
					return err
				}
				pages, _ := filepath.Glob(filepath.Join(dir, "annotate*.1"))
				fmt.Fprintf(cmd.OutOrStdout(), "%d man pages written to %s\n", len(pages), dir)
				return nil
			},
		}
	})
}
