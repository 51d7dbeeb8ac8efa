package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"unicode/utf8"

	"github.com/annotate-dev/annotate/internal/textsafe"
	"github.com/annotate-dev/annotate/store"
	"github.com/annotate-dev/annotate/store/storetest"
	"github.com/spf13/cobra"
)

// Hostile data: an OSC that sets the window title and rings the bell, a C1
// CSI as a character (U+009B) and as a raw byte (invalid UTF-8, which an
// 8-bit terminal reads as CSI), a screen clear in an item id.
const (
	evilTitle = "\x1b]0;pwned\x07evil"
	evilC1    = "\u009b31mred"
	evilByte  = "\x9b31mbyte"
	evilID    = "q1\x1b[2J"
	evilSrc   = "GDPR\u009b2J"
	evilBatch = "b\x1b[31m"
	evilNote  = "see \x1b]52;c;cHduZWQ=\x07 here\u2028second\u2067line\u2069\u2029end"
	evilSys   = "sys\x1b[5m"
)

// seedHostileDB writes, through the store (which does not validate names:
// the import and the commands do), a database whose annotator names, ids,
// source, batch, note and system names hold terminal control sequences.
func seedHostileDB(t *testing.T) string {
	t.Helper()
	path, s := storetest.Create(t, "hostile.db")
	defer s.Close()
	ids := map[string]int64{}
	err := s.Import(func(tx *store.Tx) error {
		for _, q := range []string{evilID, "q2"} {
			id, _, err := tx.PutQA(store.QAPair{ID: q, Source: evilSrc, Language: "en", Question: "Q?", Answer: "A.",
				Category: "factual_recall", Contexts: []store.Context{{ID: "p-" + q, Text: "t"}}}, "h"+q, "f", false)
			if err != nil {
				return err
			}
			ids[q] = id
		}
		for i, c := range []string{"c1\x07", "c2"} {
			id, _, err := tx.PutClaim(store.Claim{ID: c, QAID: evilID, Position: i + 1, Triplet: [3]string{"s", "p", "o"},
				Predictions: map[string]string{"refchecker": "neutral", evilSys: "x\x1b[1m"}}, "h"+c, "f", false)
			if err != nil {
				return err
			}
			ids[c] = id
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	// No path creates such names any more (internal/names), but a database
	// of an older version may hold them: written here as it would have.
	for _, who := range []string{evilTitle, evilC1, evilByte} {
		if _, err := storetest.DB(t, s).Exec("INSERT INTO annotators(name, human, created_at) VALUES (?, 1, '2026-01-01T00:00:00Z')", who); err != nil {
			t.Fatal(err)
		}
	}
	for _, who := range []string{evilTitle, evilC1, evilByte} {
		sess, err := s.StartSession(who, "local")
		if err != nil {
			t.Fatal(err)
		}
		for _, l := range [][3]string{
			{evilID, "question_validity", "valid"}, {evilID, "answer_correctness", "correct"}, {evilID, "persona", "citizen"},
			{evilID, "category", "factual_recall"},
			{"c1\x07", "claim_validity", "correct"}, {"c1\x07", "entailment", "entailment"},
			{"c2", "claim_validity", "correct"}, {"c2", "entailment", map[string]string{evilTitle: "neutral"}[who] + "\x1b[0m"},
		} {
			if _, err := s.RecordLabel(store.Label{Annotator: who, ItemID: ids[l[0]], Field: l[1], Value: l[2], ActiveMs: 2000, SessionID: sess.ID}); err != nil {
				t.Fatal(err)
			}
		}
		if err := s.SetNote(who, ids[evilID], "persona", evilNote, sess.ID); err != nil {
			t.Fatal(err)
		}
		if err := s.SetFlag(who, ids["q2"], "", true, sess.ID); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := s.SetAnnotator(nil, "lead", nil, "", "lead"); err != nil {
		t.Fatal(err)
	}
	if _, err := s.CreateBatch(store.BatchSpec{Name: evilBatch, Kind: "qa", Assign: []string{evilTitle, evilByte}}); err != nil {
		t.Fatal(err)
	}
	return path
}

// runCaptured runs the program as main does, with its real stdout and
// stderr replaced by pipes, and returns the exit status and both outputs.
func runCaptured(t *testing.T, args ...string) (int, []byte, []byte) {
	t.Helper()
	var outs [2]bytes.Buffer
	var pipes [2]*os.File
	var wg sync.WaitGroup
	for i := range pipes {
		r, w, err := os.Pipe()
		if err != nil {
			t.Fatal(err)
		}
		pipes[i] = w
		wg.Add(1)
		go func() { defer wg.Done(); io.Copy(&outs[i], r); r.Close() }()
	}
	oldOut, oldErr := os.Stdout, os.Stderr
	os.Stdout, os.Stderr = pipes[0], pipes[1]
	code := run(args)
	os.Stdout, os.Stderr = oldOut, oldErr
	pipes[0].Close()
	pipes[1].Close()
	wg.Wait()
	return code, outs[0].Bytes(), outs[1].Bytes()
}

// inert reports what in b could drive a terminal: ESC, BEL or another C0
// control (newline and tab aside), DEL, a C1 control character, or a byte
// that is not UTF-8 (0x80–0x9F alone is C1 to an 8-bit terminal).
func inert(b []byte) string {
	for i := 0; i < len(b); {
		r, size := utf8.DecodeRune(b[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			return fmt.Sprintf("the byte %#x, not UTF-8, at %d", b[i], i)
		case r < 0x20 && r != '\n' && r != '\t', r == 0x7f, r >= 0x80 && r <= 0x9f:
			return fmt.Sprintf("the control character %U at %d", r, i)
		case r == '\u2028' || r == '\u2029':
			return fmt.Sprintf("the separator %U at %d (a line break the program did not write)", r, i)
		case textsafe.IsBidiControl(r):
			return fmt.Sprintf("the bidirectional control %U at %d", r, i)
		}
		i += size
	}
	return ""
}

// TestHostileNamesNeverReachTheTerminal runs every command that prints data
// on a database of hostile names, as the program runs (real stdout and
// stderr), and checks that no byte could drive a terminal: no ESC, no BEL,
// no C1, valid UTF-8 (what `| cat -v` would show as ^[ or M-^[ is absent).
// JSON output must still decode to the data, controls included.
func TestHostileNamesNeverReachTheTerminal(t *testing.T) {
	db := seedHostileDB(t)
	out := t.TempDir()
	for _, c := range []struct {
		args    []string
		json    bool
		failing bool // an error message is the output under test
		want    string
	}{
		{args: []string{"progress"}, want: "␛]0;pwned␇evil"},
		{args: []string{"progress", "--json"}, json: true},
		{args: []string{"progress", "--sessions"}, want: "␛]0;pwned␇evil: 1 session"},
		{args: []string{"progress", "--sessions", "--json"}, json: true},
		{args: []string{"progress", "--annotator", evilTitle}, want: "␛]0;pwned␇evil"},
		{args: []string{"stats", "--annotator", evilTitle}, want: "GDPR�2J"},
		{args: []string{"stats", "--annotator", evilTitle, "--json"}, json: true},
		{args: []string{"metrics", "--annotator", evilC1}},
		{args: []string{"metrics", "--annotator", evilTitle, "--system", evilSys, "--json"}, json: true},
		{args: []string{"metrics", "--annotator", evilTitle, "--system", evilSys}},
		{args: []string{"agreement", "--disagreements"}},
		{args: []string{"agreement", "--json"}, json: true},
		{args: []string{"batch", "list"}, want: "b␛[31m"},
		{args: []string{"batch", "list", "--json"}, json: true},
		{args: []string{"notes"}, want: "q1␛[2J"},
		{args: []string{"notes"}, want: "here␤second�line�␤end"}, // U+2028, U+2067, U+2069, U+2029
		{args: []string{"notes", "--json"}, json: true},
		{args: []string{"notes", "--batch", evilBatch}},
		{args: []string{"review", "--as", "lead", "--json"}, json: true},
		{args: []string{"review", "--as", "lead", "--json", "--annotator", evilTitle}, json: true},
		{args: []string{"export", "--format", "jsonl", "--out", filepath.Join(out, "j")}},
		{args: []string{"export", "--format", "csv", "--annotator", evilTitle, "--out", filepath.Join(out, "c")}},
		{args: []string{"export", "--annotator", evilTitle, "--out", filepath.Join(out, "h"), "--json"}, json: true},
		{args: []string{"__complete", "progress", "--annotator", ""}},
		// Error messages echo what was typed or found.
		{args: []string{"stats", "--annotator", "\x1b]0;typed\x07"}, failing: true, want: "no annotator"},
		{args: []string{"stats"}, failing: true, want: "choose --annotator"},
		{args: []string{"progress", "--annotator", evilTitle + "x"}, failing: true, want: "did you mean"},
		{args: []string{"notes", "--batch", "b\x1b[31"}, failing: true, want: "did you mean"},
		{args: []string{"batch", "create", "x", "--as", "lead", "--assign", "jo,\x1b]0;t\x07"}, failing: true, want: "control character"},
		{args: []string{"batch", "create", "x", "--as", "lead", "--source", "gdpr\u009b"}, failing: true, want: "no source"},
		{args: []string{"\x1b]0;cmd\x07"}, failing: true, want: "unknown command"},
		{args: []string{"--db", filepath.Join(out, "\x1b]0;db\x07"), "stats"}, failing: true, want: "no database at"},
	} {
		args := append([]string{"--db", db}, c.args...)
		if c.args[0] == "--db" {
			args = c.args
		}
		code, stdout, stderr := runCaptured(t, args...)
		name := strings.Join(c.args, " ")
		if (code != 0) != c.failing {
			t.Errorf("%q: exit %d\nstdout %q\nstderr %q", name, code, stdout, stderr)
			continue
		}
		for what, b := range map[string][]byte{"stdout": stdout, "stderr": stderr} {
			if bad := inert(b); bad != "" {
				t.Errorf("%q: %s holds %s:\n%q", name, what, bad, b)
			}
		}
		if !bytes.Contains(append(stdout, stderr...), []byte(c.want)) {
			t.Errorf("%q: output lacks %q:\n%s%s", name, c.want, stdout, stderr)
		}
		if c.json {
			var v any
			if err := json.Unmarshal(stdout, &v); err != nil {
				t.Errorf("%q: not JSON: %v\n%s", name, err, stdout)
			}
		}
	}
}

// TestJSONKeepsTheData checks the JSON mode's promise: the escapes decode
// back to the names exactly as stored.
func TestJSONKeepsTheData(t *testing.T) {
	db := seedHostileDB(t)
	code, stdout, _ := runCaptured(t, "--db", db, "batch", "list", "--json")
	var rows []struct {
		Name      string   `json:"name"`
		Assignees []string `json:"assignees"`
	}
	if code != 0 || json.Unmarshal(stdout, &rows) != nil || len(rows) != 1 {
		t.Fatalf("exit %d: %s", code, stdout)
	}
	// The raw byte 0x9b is not UTF-8: encoding/json writes it as U+FFFD.
	if rows[0].Name != evilBatch || len(rows[0].Assignees) != 2 || rows[0].Assignees[0] != evilTitle || rows[0].Assignees[1] != "\uFFFD31mbyte" {
		t.Fatalf("decoded %q", rows)
	}
}

// TestNoCommandWritesAroundTheSanitiser keeps the promise that no command can
// forget the sanitiser: outside output.go and main.go, no file of the
// command writes to os.Stdout or os.Stderr or prints with fmt.Print*.
func TestNoCommandWritesAroundTheSanitiser(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	checked := 0
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") || f == "output.go" || f == "main.go" {
			continue
		}
		file, err := parser.ParseFile(fset, f, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		checked++
		ast.Inspect(file, func(n ast.Node) bool {
			sel, ok := n.(*ast.SelectorExpr)
			if !ok {
				return true
			}
			pkg, ok := sel.X.(*ast.Ident)
			if !ok {
				return true
			}
			switch {
			case pkg.Name == "os" && (sel.Sel.Name == "Stdout" || sel.Sel.Name == "Stderr"),
				pkg.Name == "fmt" && strings.HasPrefix(sel.Sel.Name, "Print"):
				t.Errorf("%s: %s.%s bypasses the sanitiser: print through cmd.OutOrStdout() or cmd.ErrOrStderr()",
					fset.Position(sel.Pos()), pkg.Name, sel.Sel.Name)
			}
			return true
		})
	}
	if checked < 10 {
		t.Fatalf("only %d files checked: run from the package folder", checked)
	}
}

// The shell completion scripts hold no control character, so the sanitiser
// passes them through byte for byte.
func TestCompletionScriptsUnchanged(t *testing.T) {
	for shell, gen := range map[string]func(*cobra.Command, io.Writer) error{
		"bash": func(c *cobra.Command, w io.Writer) error { return c.GenBashCompletionV2(w, true) },
		"zsh":  (*cobra.Command).GenZshCompletion,
		"fish": func(c *cobra.Command, w io.Writer) error { return c.GenFishCompletion(w, true) },
	} {
		var direct, through bytes.Buffer
		if err := gen(newRootCmd(), &direct); err != nil {
			t.Fatal(err)
		}
		if err := runSafely([]string{"completion", shell}, &through, io.Discard); err != nil {
			t.Fatal(err)
		}
		if direct.Len() < 1000 || through.String() != direct.String() {
			t.Errorf("%s: the script changed on its way out (%d bytes, %d through the sanitiser)", shell, direct.Len(), through.Len())
		}
	}
}
