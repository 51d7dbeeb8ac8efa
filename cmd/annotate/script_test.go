package main

import (
	"os"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"
)

// TestMain lets the scripts in testdata/script run "annotate" in-process.
func TestMain(m *testing.M) {
	testscript.Main(m, map[string]func(){
		"annotate": func() { os.Exit(run(os.Args[1:])) },
	})
}

// TestScripts runs the CLI scenarios in testdata/script/*.txtar. The shared
// data folder is exposed as $SHARED when it exists beside the repository.
func TestScripts(t *testing.T) {
	testscript.Run(t, testscript.Params{
		Dir: "testdata/script",
		Setup: func(env *testscript.Env) error {
			env.Setenv("ANNOTATE_USER", "jo")
			env.Setenv("ANNOTATE_DB", env.WorkDir+"/annotate.db")
			return nil
		},
	})
}
