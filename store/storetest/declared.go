package storetest

import (
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/annotate-dev/annotate/schema"
	"github.com/annotate-dev/annotate/store"
)

// ExampleField is the demo's declared field: citation_accuracy on QA pairs,
// ordinal (wrong < partial < exact), asked after answer_correctness when it
// is correct or partially_correct (docs/example/citation_accuracy.yaml).
const ExampleField = "citation_accuracy"

// ExampleFieldFile is the path of the demo's declaration, read where the
// repository has it, so the tests hold the file the docs show.
func ExampleFieldFile() string {
	_, here, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(here), "..", "..", "docs", "example", "citation_accuracy.yaml")
}

// DeclareExample declares the demo's field in s, as the lead "lead".
func DeclareExample(t testing.TB, s *store.Store) store.DeclaredField {
	t.Helper()
	file := ExampleFieldFile()
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	d, err := schema.ParseDeclaration(file, data)
	if err != nil {
		t.Fatal(err)
	}
	f, _, err := s.DeclareField("lead", "citation_accuracy.yaml", string(data), d)
	if err != nil {
		t.Fatal(err)
	}
	return f
}
