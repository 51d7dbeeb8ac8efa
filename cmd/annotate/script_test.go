package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"
)

// TestMain lets the scripts in testdata/script run "annotate" in-process.
func TestMain(m *testing.M) {
	if filepath.Base(os.Args[0]) != "annotate" {
		// The tests run in English whatever the machine's locale; a test of
		// another language says so (--lang, or LANG in its script).
		for _, k := range []string{"LC_ALL", "LC_MESSAGES", "LANG"} {
			os.Unsetenv(k)
		}
	}
	testscript.Main(m, map[string]func(){
		"annotate": func() { os.Exit(run(os.Args[1:])) },
	})
}

// TestScripts runs the CLI scenarios in testdata/script/*.txtar. The shared
// data folder is exposed as $SHARED when it exists beside the repository.
func TestScripts(t *testing.T) {
	repo, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	testscript.Run(t, testscript.Params{
		Dir: "testdata/script",
		Setup: func(env *testscript.Env) error {
			env.Setenv("ANNOTATE_USER", "jo")
			env.Setenv("ANNOTATE_DB", env.WorkDir+"/annotate.db")
			env.Setenv("REPO", repo) // the demo data and the README's example files
			return nil
		},
		Cmds: map[string]func(ts *testscript.TestScript, neg bool, args []string){"json": jsonCmd},
	})
}

// jsonCmd is "json PATH WANT": the value at PATH (keys joined by dots; a
// number picks an array element) of the JSON in the last command's stdout
// equals WANT, a JSON literal (null, 3, "jo", ...); with !, it differs.
func jsonCmd(ts *testscript.TestScript, neg bool, args []string) {
	if len(args) != 2 {
		ts.Fatalf("usage: json PATH WANT")
	}
	var doc any
	if err := json.Unmarshal([]byte(ts.ReadFile("stdout")), &doc); err != nil {
		ts.Fatalf("stdout is not JSON: %v", err)
	}
	cur := doc
	for _, k := range strings.Split(args[0], ".") {
		switch c := cur.(type) {
		case map[string]any:
			v, ok := c[k]
			if !ok {
				ts.Fatalf("%s: no key %q", args[0], k)
			}
			cur = v
		case []any:
			i, err := strconv.Atoi(k)
			if err != nil || i < 0 || i >= len(c) {
				ts.Fatalf("%s: no element %q", args[0], k)
			}
			cur = c[i]
		default:
			ts.Fatalf("%s: %q is inside a %T", args[0], k, cur)
		}
	}
	var want any
	if err := json.Unmarshal([]byte(args[1]), &want); err != nil {
		ts.Fatalf("want %q is not JSON: %v", args[1], err)
	}
	if equal := reflect.DeepEqual(cur, want); equal == neg {
		got, _ := json.Marshal(cur)
		ts.Fatalf("%s = %s, want %s%s", args[0], got, map[bool]string{true: "not ", false: ""}[neg], args[1])
	}
}
