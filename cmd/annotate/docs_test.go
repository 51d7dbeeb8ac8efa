package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// The pages a reader follows: README.md and docs/.
func docPages(t *testing.T) map[string]string {
	t.Helper()
	paths, err := filepath.Glob("../../docs/*.md")
	if err != nil {
		t.Fatal(err)
	}
	paths = append(paths, "../../README.md")
	pages := map[string]string{}
	for _, p := range paths {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		pages[strings.TrimPrefix(p, "../../")] = string(b)
	}
	return pages
}

// The Go version the pages state is go.mod's.
func TestDocsStateGoModsGoVersion(t *testing.T) {
	mod, err := os.ReadFile("../../go.mod")
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`(?m)^go (\S+)$`).FindSubmatch(mod)
	if m == nil {
		t.Fatal("go.mod states no go version")
	}
	want := string(m[1])
	stated := regexp.MustCompile(`\bGo\s+\(?(1\.\d+(?:\.\d+)?)`)
	found := false
	for page, text := range docPages(t) {
		for _, s := range stated.FindAllStringSubmatch(text, -1) {
			found = true
			if s[1] != want {
				t.Errorf("%s states Go %s; go.mod says %s", page, s[1], want)
			}
		}
	}
	if !found {
		t.Error("README.md does not say which Go to install")
	}
}

// The commands the pages show as forms to adapt (```sh blocks, which the
// replay of scripts/readme-sync.py does not run) name commands and flags
// that exist.
func TestDocsFormsParse(t *testing.T) {
	fence := regexp.MustCompile("(?s)```sh\n(.*?)```")
	n := 0
	for page, text := range docPages(t) {
		for _, block := range fence.FindAllStringSubmatch(text, -1) {
			for _, line := range strings.Split(block[1], "\n") {
				args := annotateArgs(line)
				if args == nil {
					continue
				}
				n++
				root, _ := newRoot()
				root.InitDefaultVersionFlag()
				cmd, rest, err := root.Find(args)
				if err == nil {
					cmd.InitDefaultHelpFlag()
					err = cmd.ParseFlags(rest)
				}
				if err == nil && len(cmd.Flags().Args()) > 0 && cmd.Args != nil {
					err = cmd.ValidateArgs(cmd.Flags().Args())
				}
				if err != nil {
					t.Errorf("%s: %q: %v", page, line, err)
				}
			}
		}
	}
	if n < 20 {
		t.Errorf("only %d annotate lines in the pages' sh blocks: is the parsing broken?", n)
	}
}

// annotateArgs splits a shell line that runs annotate (after variable
// assignments, before a comment, a pipe or &&) into its arguments; nil
// when the line runs something else.
func annotateArgs(line string) []string {
	var words []string
	var cur strings.Builder
	quote, in := rune(0), false
	for _, r := range line + " " {
		switch {
		case quote != 0 && r == quote:
			quote = 0
		case quote != 0:
			cur.WriteRune(r)
		case r == '"' || r == '\'':
			quote, in = r, true
		case r == ' ' || r == '\t':
			if in || cur.Len() > 0 {
				words = append(words, cur.String())
			}
			cur.Reset()
			in = false
		default:
			cur.WriteRune(r)
			in = true
		}
	}
	for i, w := range words {
		if w == "#" || w == "|" || w == "&&" || w == ";" || strings.HasPrefix(w, "#") {
			words = words[:i]
			break
		}
	}
	for len(words) > 0 && strings.Contains(words[0], "=") && !strings.HasPrefix(words[0], "-") {
		words = words[1:]
	}
	if len(words) == 0 || words[0] != "annotate" {
		return nil
	}
	return words[1:]
}
