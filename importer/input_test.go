package importer

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// Only regular files (and exported folders) are read, and that is checked
// before anything is opened: a named pipe without a writer would block the
// import forever, /dev/zero never ends (issue 10, item 5).
func TestImportRefusesWhatIsNotAFile(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "pipe.jsonl")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	notExport := filepath.Join(dir, "folder")
	writeFile(t, notExport, "notes.txt", "hello")
	for _, c := range []struct{ path, want string }{
		{fifo, fifo + ": this is a named pipe (FIFO), not a regular file"},
		{"/dev/zero", "/dev/zero: this is a character device, not a regular file"},
		{"/dev/null", "/dev/null: this is a character device, not a regular file"},
		{notExport, notExport + ": no .jsonl file in this folder (want an annotate export)"},
		{filepath.Join(dir, "missing.jsonl"), "no such file: " + filepath.Join(dir, "missing.jsonl")},
	} {
		// A FIFO opened for reading would block here: the test would hang,
		// not fail. It returns because the path is checked first.
		_, err := Import(openDB(t), []string{c.path}, Options{})
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("import %s: %v; want %q", c.path, err, c.want)
		}
	}
	// A symbolic link to a regular file is that file.
	target := writeFile(t, dir, "real.jsonl", nativeGood)
	link := filepath.Join(dir, "link.jsonl")
	if err := os.Symlink(target, link); err != nil {
		t.Fatal(err)
	}
	if sum, err := Import(openDB(t), []string{link}, Options{}); err != nil || sum.Total().QA.Added != 2 {
		t.Fatalf("symlink: %v %+v", err, sum)
	}
}

// The per-record limit holds while reading, in JSON arrays and documents
// as in JSON Lines: an oversized record is measured, never held, and named
// with the field where it passes the limit.
func TestOversizedRecords(t *testing.T) {
	big := strings.Repeat("a", 17<<20)
	dir := t.TempDir()
	for _, c := range []struct{ name, content, want string }{
		{"kg.json", `[{"id":"1","response":"r","m_response_kg":[]},` + "\n" + `{"id":"2","response":"` + big + `","m_response_kg":[]}]`,
			`kg.json:2: record 2: field "response": record is 17.0 MiB, over the 16 MiB limit`},
		{"GDPR-RAG-LAW.json", `{"input_data":[{"query_id":1,"query":"q","relevant_chunk":"` + big + `","gt_answer":"a"}]}`,
			`GDPR-RAG-LAW.json:1: record 1: field "relevant_chunk": record is 17.0 MiB, over the 16 MiB limit`},
		// A whole file on one line: no newline ever comes.
		{"oneline.jsonl", `{"id":"x","question":"q","answer":"a","source":"S","contexts":[{"id":"c","text":"` + big + `"}]}`,
			`oneline.jsonl:1: field "contexts": record is 17.0 MiB, over the 16 MiB limit`},
	} {
		p := writeFile(t, dir, c.name, c.content)
		_, err := Import(openDB(t), []string{p}, Options{})
		var ie *InputError
		if err == nil || !strings.Contains(err.Error(), c.want) || !errors.As(err, &ie) {
			t.Errorf("%s: %v; want %q", c.name, err, c.want)
		}
	}
}

// Ids, source names and annotator names with control characters would
// reach the terminal raw through every report: refused at import, naming
// the file, line and field (issue 10, item 8).
func TestControlCharactersRefused(t *testing.T) {
	pair := func(id, source string) string {
		return `{"id":"` + id + `","source":"` + source + `","question":"Q","answer":"A","contexts":[{"id":"c1","text":"T"}]}` + "\n"
	}
	for _, c := range []struct{ name, content, want string }{
		{"id.jsonl", pair("ok", "S") + pair(`bad\u001b]0;owned\u0007`, "S"), `id.jsonl:2: field "id": the id "bad\x1b]0;owned\a" has the control character U+001B at character 4`},
		{"source.jsonl", pair("ok", `S\u009b`), `source.jsonl:1: field "source": the source name "S\u009b" has the control character U+009B`},
		{"claim.jsonl", `{"id":"q","source":"S","question":"Q","answer":"A","contexts":[{"id":"c1","text":"T"}],"claims":[{"id":"c\r1","text":"x"}]}`,
			`claim.jsonl:1: field "claims[0].id": the id "c\r1" has the control character U+000D`},
		{"ctx.jsonl", `{"id":"q","source":"S","question":"Q","answer":"A","contexts":[{"id":"c\u202e1","text":"T"}]}`,
			`ctx.jsonl:1: field "contexts[0].id": the context id "c\u202e1" has the control character U+202E`},
		{"labels.jsonl", `{"annotator":"jo\u0007","item":"q","field":"entailment","value":"neutral"}`,
			`labels.jsonl:1: field "annotator": the annotator's name: "jo\a" is not a name: it holds the control character U+0007 (character 3)`},
		{"own.jsonl", `{"id":"q","source":"S","question":"Q","answer":"A","contexts":[{"id":"c1","text":"T"}],"labels":{"j\u001bo":{"question_validity":"valid"}}}`,
			`own.jsonl:1: field "labels.j\x1bo": the annotator's name: "j\x1bo" is not a name: it holds the control character U+001B (character 2)`},
		{"kg.json", `[{"id":"1\n2","response":"r","m_response_kg":[]}]`, `kg.json: record 1: field "id": the id "kg/1\n2" has the control character U+000A`},
	} {
		p := writeFile(t, t.TempDir(), c.name, c.content)
		_, err := Import(openDB(t), []string{p}, Options{})
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s:\n  %v\nwant\n  %s", c.name, err, c.want)
		}
	}
	if _, err := Import(openDB(t), []string{writeFile(t, t.TempDir(), "l.jsonl", `{"item":"q","field":"entailment","value":"neutral"}`)},
		Options{Annotator: "lea\x1b[2J"}); err == nil || !strings.Contains(err.Error(), `--annotator: "lea\x1b[2J" is not a name: it holds the control character U+001B`) {
		t.Errorf("--annotator: %v", err)
	}
	// Text is data, not a name: control characters in a question are kept
	// (the screens render them inert).
	p := writeFile(t, t.TempDir(), "text.jsonl", `{"id":"q","source":"S","question":"Line one\nline two\u0007","answer":"A","contexts":[{"id":"c1","text":"T"}]}`)
	if _, err := Import(openDB(t), []string{p}, Options{}); err != nil {
		t.Fatal(err)
	}
}

// Progress, when asked for (a terminal), is one line rewritten in place:
// bytes read of the total, then the records written after reading; the line
// is cleared at the end.
func TestProgress(t *testing.T) {
	var b strings.Builder
	p := writeFile(t, t.TempDir(), "labels-first.jsonl", `{"annotator":"jo","item":"g1","field":"question_validity","value":"valid"}`+"\n")
	items := writeFile(t, t.TempDir(), "items.jsonl", nativeGood)
	if _, err := Import(openDB(t), []string{p, items}, Options{Progress: &b}); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	size := len(nativeGood) + len(readFile(t, p))
	for _, want := range []string{"\rreading ", "0.0 MiB of 0.0 MiB", "\rlabels ", "0 of 1", "\r\x1b[K"} {
		if !strings.Contains(out, want) {
			t.Errorf("progress %q lacks %q (%d bytes)", out, want, size)
		}
	}
	if !strings.HasSuffix(out, "\r\x1b[K") {
		t.Errorf("progress does not end with a cleared line: %q", out)
	}
}
