package report

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"strings"
	"testing"
)

// The reports read one snapshot: they take a *store.ReadTx, and no file of
// the package names *store.Store, so none can read outside the snapshot it
// was given (nor write).
func TestReportsTakeTheSnapshot(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	checked := 0
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		checked++
		ast.Inspect(f, func(n ast.Node) bool {
			if sel, ok := n.(*ast.SelectorExpr); ok {
				if id, ok := sel.X.(*ast.Ident); ok && id.Name == "store" && sel.Sel.Name == "Store" {
					t.Errorf("%s: names store.Store: a report takes the *store.ReadTx it reads", fset.Position(sel.Pos()))
				}
			}
			return true
		})
	}
	if checked < 10 {
		t.Fatalf("checked %d files of package report, want its sources", checked)
	}
}
