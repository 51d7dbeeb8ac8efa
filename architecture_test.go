package annotate_test

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// The package picture of ARCHITECTURE.md is made from the code: go list
// says which packages there are and what each imports, and this test fails
// when the picture says otherwise. `go test . -run TestArchitecture -update`
// writes the picture anew; the table of what each package holds is written
// by hand, and the test asks only that it has one row per package.

var update = flag.Bool("update", false, "rewrite the package picture of ARCHITECTURE.md")

const (
	pictureBegin = "<!-- package picture: made by `go test . -run TestArchitecture -update`; do not edit by hand -->"
	pictureEnd   = "<!-- end of the package picture -->"
)

// pkg is a package of the module: its path without the module's, and the
// module's packages it imports (not those its tests import).
type pkg struct {
	path    string
	imports []string
}

// modulePackages asks go list for the module's packages.
func modulePackages(t *testing.T) []pkg {
	t.Helper()
	out, err := exec.Command("go", "list", "-json=ImportPath,Imports,Module", "./...").Output()
	if err != nil {
		if ee, ok := err.(*exec.ExitError); ok {
			t.Fatalf("go list: %v\n%s", err, ee.Stderr)
		}
		t.Fatalf("go list: %v", err)
	}
	var pkgs []pkg
	dec := json.NewDecoder(bytes.NewReader(out))
	for dec.More() {
		var p struct {
			ImportPath string
			Imports    []string
			Module     struct{ Path string }
		}
		if err := dec.Decode(&p); err != nil {
			t.Fatal(err)
		}
		prefix := p.Module.Path + "/"
		rel := strings.TrimPrefix(p.ImportPath, prefix)
		if p.ImportPath == p.Module.Path {
			continue // this test's own package: no code
		}
		q := pkg{path: rel}
		for _, imp := range p.Imports {
			if strings.HasPrefix(imp, prefix) {
				q.imports = append(q.imports, strings.TrimPrefix(imp, prefix))
			}
		}
		pkgs = append(pkgs, q)
	}
	return pkgs
}

// picture draws the packages as layers: a package's layer is one more than
// the highest layer of what it imports, so every package imports only
// packages of lower layers, and the list, read from the top, goes from the
// command down to the packages that import nothing of annotate.
func picture(pkgs []pkg) string {
	byPath := map[string]pkg{}
	for _, p := range pkgs {
		byPath[p.path] = p
	}
	layer := map[string]int{}
	var layerOf func(string) int
	layerOf = func(path string) int {
		if l, ok := layer[path]; ok {
			return l
		}
		l := 0
		for _, imp := range byPath[path].imports {
			l = max(l, layerOf(imp)+1)
		}
		layer[path] = l
		return l
	}
	sorted := slices.Clone(pkgs)
	slices.SortFunc(sorted, func(a, b pkg) int {
		if la, lb := layerOf(a.path), layerOf(b.path); la != lb {
			return lb - la
		}
		return strings.Compare(a.path, b.path)
	})
	width := 0
	for _, p := range sorted {
		width = max(width, len(p.path))
	}
	var b strings.Builder
	b.WriteString("```\n")
	fmt.Fprintf(&b, "%-5s  %-*s  %s\n", "layer", width, "package", "imports (of annotate's packages)")
	last := -1
	for _, p := range sorted {
		l := layerOf(p.path)
		if last != -1 && l != last {
			b.WriteString("\n")
		}
		last = l
		line := fmt.Sprintf("%-5d  %-*s ", l, width, p.path)
		indent := strings.Repeat(" ", len(line))
		if len(p.imports) == 0 {
			line += " -"
		}
		for _, imp := range p.imports {
			if len(line)+1+len(imp) > 78 && len(line) > len(indent) {
				b.WriteString(line + "\n")
				line = indent
			}
			line += " " + imp
		}
		b.WriteString(line + "\n")
	}
	b.WriteString("```\n")
	return b.String()
}

// TestArchitecturePicture holds ARCHITECTURE.md's package picture equal to
// go list's answer, and its table of packages to one row per package.
func TestArchitecturePicture(t *testing.T) {
	pkgs := modulePackages(t)
	if len(pkgs) < 10 {
		t.Fatalf("go list found %d packages", len(pkgs))
	}
	raw, err := os.ReadFile("ARCHITECTURE.md")
	if err != nil {
		t.Fatal(err)
	}
	doc := string(raw)
	begin, end := strings.Index(doc, pictureBegin), strings.Index(doc, pictureEnd)
	if begin < 0 || end < begin {
		t.Fatalf("ARCHITECTURE.md has no package picture between %q and %q", pictureBegin, pictureEnd)
	}
	want := picture(pkgs)
	got := doc[begin+len(pictureBegin)+1 : end]
	if got != want {
		if *update {
			doc = doc[:begin+len(pictureBegin)+1] + want + doc[end:]
			if err := os.WriteFile("ARCHITECTURE.md", []byte(doc), 0o644); err != nil {
				t.Fatal(err)
			}
		} else {
			t.Errorf("ARCHITECTURE.md's package picture differs from go list (rewrite it with go test . -run TestArchitecture -update):\n%s", lineDiff(got, want))
		}
	}

	// The table of what each package holds: one row per package, named
	// as `path/` or `path`, and no row for a folder that is not there.
	rows := map[string]bool{}
	for _, m := range regexp.MustCompile("(?m)^\\| `([a-z0-9/]+?)/?` \\|").FindAllStringSubmatch(doc, -1) {
		rows[m[1]] = true
	}
	for _, p := range pkgs {
		if !rows[p.path] {
			t.Errorf("ARCHITECTURE.md's table of packages has no row for %s", p.path)
		}
		delete(rows, p.path)
	}
	for path := range rows { // the rows left: folders beside the packages
		if _, err := os.Stat(path); err != nil {
			t.Errorf("ARCHITECTURE.md has a row for %s, which is not there", path)
		}
	}
}

// lineDiff names the first line where got and want differ.
func lineDiff(got, want string) string {
	gl, wl := strings.Split(got, "\n"), strings.Split(want, "\n")
	for i := range min(len(gl), len(wl)) {
		if gl[i] != wl[i] {
			return fmt.Sprintf("line %d of the picture:\n  ARCHITECTURE.md: %s\n  go list:         %s", i+1, gl[i], wl[i])
		}
	}
	return fmt.Sprintf("the picture has %d lines, go list's %d", len(gl), len(wl))
}

// kindConstant is a kind's constant named in Go code; the grep ARCHITECTURE.md
// states finds it the same way.
var kindConstant = regexp.MustCompile(`schema\.Kind(QA|Claim|Document|GenAnswer|GenClaim|Query|Relevance|AnswerTask)\b`)

// TestGenericFilesNameNoKind holds ARCHITECTURE.md's count: no product file
// outside a kind's own files (kind_*.go) names a kind constant.
func TestGenericFilesNameNoKind(t *testing.T) {
	var named []string
	err := filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if strings.HasPrefix(d.Name(), ".") && path != "." {
				return filepath.SkipDir
			}
			return nil
		}
		name := d.Name()
		if !strings.HasSuffix(name, ".go") || strings.HasSuffix(name, "_test.go") || strings.HasPrefix(name, "kind_") {
			return nil
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		if kindConstant.Match(b) {
			named = append(named, path)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(named) > 0 {
		t.Errorf("generic files name a kind constant (move the kind's part into its kind_*.go, or ask the kind through an interface): %v", named)
	}
}
