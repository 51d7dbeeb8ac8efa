package tui

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// Every key of every screen is in the one key map (tui/internal/ui/keys.go),
// so that the help generated from it cannot miss or misname a key: no
// screen of tui or tui/adjudicate makes a binding of its own or compares a
// key press with a key name. (The relevance and answer screens and the
// review roots did; this test fails on each of those lines.)
func TestKeysLiveInTheKeyMap(t *testing.T) {
	own := regexp.MustCompile(`key\.NewBinding\(|\.String\(\) == "|switch \w+\.String\(\) \{`)
	for _, dir := range []string{".", "adjudicate", "internal/ui"} {
		files, err := filepath.Glob(filepath.Join(dir, "*.go"))
		if err != nil {
			t.Fatal(err)
		}
		if len(files) == 0 {
			t.Fatalf("no Go file in %s", dir)
		}
		for _, f := range files {
			if strings.HasSuffix(f, "_test.go") || f == filepath.Join("internal", "ui", "keys.go") {
				continue
			}
			src, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			for i, line := range strings.Split(string(src), "\n") {
				if own.MatchString(line) {
					t.Errorf("%s:%d: a key outside the key map: %s", f, i+1, strings.TrimSpace(line))
				}
			}
		}
	}
}
