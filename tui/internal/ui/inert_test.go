package ui

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"strings"
	"testing"
)

// TestNoRawTextConversion keeps Text's promise: outside sanitize.go, no
// file of the screens (tui and below, tests included) converts a string to
// Text with Text(…) or ui.Text(…), so the only ways from data to a renderer
// of data are Data and DataLine. A conversion of a string literal is
// allowed (it is the program's own text).
func TestNoRawTextConversion(t *testing.T) {
	root := filepath.Join("..", "..")
	fset := token.NewFileSet()
	checked := 0
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") {
			return err
		}
		inUI := filepath.Dir(path) == filepath.Join(root, "internal", "ui")
		if inUI && filepath.Base(path) == "sanitize.go" {
			return nil
		}
		file, err := parser.ParseFile(fset, path, nil, 0)
		if err != nil {
			return err
		}
		checked++
		ast.Inspect(file, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok || len(call.Args) != 1 {
				return true
			}
			fun := ast.Unparen(call.Fun)
			isText := false
			switch f := fun.(type) {
			case *ast.Ident:
				isText = file.Name.Name == "ui" && f.Name == "Text"
			case *ast.SelectorExpr:
				x, ok := f.X.(*ast.Ident)
				isText = ok && x.Name == "ui" && f.Sel.Name == "Text"
			}
			if _, lit := call.Args[0].(*ast.BasicLit); isText && !lit {
				t.Errorf("%s: a string converted to Text: use Data or DataLine", fset.Position(call.Pos()))
			}
			return true
		})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if checked < 50 {
		t.Fatalf("only %d files checked: the walk missed the screens", checked)
	}
}
