package exporter

import (
	"bytes"
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// failingWriter fails once more than limit bytes were written to it.
type failingWriter struct {
	f     *os.File
	left  int
	wrote *int
}

var errDiskFull = errors.New("injected: no space left on device")

// Write writes what fits and then fails, as a full disk does mid-file.
func (w *failingWriter) Write(p []byte) (int, error) {
	var err error
	if len(p) > w.left {
		p, err = p[:w.left], errDiskFull
	}
	n, werr := w.f.Write(p)
	w.left -= n
	*w.wrote += n
	if werr != nil {
		return n, werr
	}
	return n, err
}

func (w *failingWriter) Close() error { return w.f.Close() }

// failAfter makes the export's files fail once n bytes were written in all.
func failAfter(n int, wrote *int) func(string) (io.WriteCloser, error) {
	left := n
	return func(p string) (io.WriteCloser, error) {
		f, err := os.Create(p)
		if err != nil {
			return nil, err
		}
		w := &failingWriter{f: f, left: left, wrote: wrote}
		left = 0 // the budget is shared: later files fail at once
		return w, nil
	}
}

func listDir(t *testing.T, dir string) []string {
	t.Helper()
	es, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range es {
		names = append(names, e.Name())
	}
	return names
}

func TestRefuseNonEmptyAndForce(t *testing.T) {
	s := demoStore(t)
	parent := t.TempDir()
	out := filepath.Join(parent, "ds")
	os.MkdirAll(out, 0o755)
	os.WriteFile(filepath.Join(out, "mine.txt"), []byte("keep me"), 0o644)

	_, err := Export(context.Background(), s, Options{Out: out, Annotator: "jo"})
	if !errors.Is(err, ErrNotEmpty) || !strings.Contains(err.Error(), "--force") {
		t.Fatalf("want a refusal naming --force, got %v", err)
	}
	if b, _ := os.ReadFile(filepath.Join(out, "mine.txt")); string(b) != "keep me" {
		t.Fatal("the refused folder was touched")
	}

	export(t, s, Options{Out: out, Annotator: "jo", Force: true})
	if got := strings.Join(listDir(t, out), " "); got != "README.md data" {
		t.Errorf("after --force: %s", got)
	}
	if got := listDir(t, parent); len(got) != 1 {
		t.Errorf("leftovers beside the export: %v", got)
	}

	// An empty folder needs no --force; a file is refused.
	empty := filepath.Join(parent, "empty")
	os.Mkdir(empty, 0o755)
	export(t, s, Options{Out: empty, Format: "csv", Annotator: "jo"})
	file := filepath.Join(parent, "file")
	os.WriteFile(file, nil, 0o644)
	if _, err := Export(context.Background(), s, Options{Out: file, Force: true, Annotator: "jo"}); err == nil || !strings.Contains(err.Error(), "not a folder") {
		t.Errorf("want a refusal of a file, got %v", err)
	}
}

// A write error in the middle of a data file leaves no folder behind, and a
// previous export that --force was replacing stays as it was.
func TestFailedExportLeavesNothing(t *testing.T) {
	s := demoStore(t)
	for _, format := range []string{"hf", "jsonl", "csv"} {
		t.Run(format, func(t *testing.T) {
			parent := t.TempDir()
			out := filepath.Join(parent, "ds")
			var wrote int
			o := Options{Out: out, Format: format, Annotator: "jo", create: failAfter(20_000, &wrote)}
			if format == "jsonl" {
				o.Annotator = ""
			}
			_, err := Export(context.Background(), s, o)
			if !errors.Is(err, errDiskFull) {
				t.Fatalf("want the injected error, got %v", err)
			}
			if wrote == 0 {
				t.Fatal("the failure came before any row was written")
			}
			if got := listDir(t, parent); len(got) != 0 {
				t.Fatalf("left behind: %v", got)
			}

			// Over a previous export (--force): the old one stays.
			o.create = nil
			export(t, s, o)
			before := snapshotDir(t, out)
			o.Force, o.create = true, failAfter(20_000, &wrote)
			if _, err := Export(context.Background(), s, o); !errors.Is(err, errDiskFull) {
				t.Fatalf("want the injected error, got %v", err)
			}
			if after := snapshotDir(t, out); after != before {
				t.Error("the previous export changed")
			}
			if got := listDir(t, parent); len(got) != 1 {
				t.Fatalf("left behind: %v", got)
			}
		})
	}
}

// Ctrl-C (a cancelled context) stops the export and removes its work.
func TestCancelledExport(t *testing.T) {
	s := demoStore(t)
	parent := t.TempDir()
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Export(ctx, s, Options{Out: filepath.Join(parent, "ds"), Annotator: "jo"}); !errors.Is(err, context.Canceled) {
		t.Fatalf("want context.Canceled, got %v", err)
	}
	if got := listDir(t, parent); len(got) != 0 {
		t.Fatalf("left behind: %v", got)
	}
}

// snapshotDir is the names and contents of every file under dir.
func snapshotDir(t *testing.T, dir string) string {
	t.Helper()
	var b bytes.Buffer
	filepath.Walk(dir, func(p string, fi os.FileInfo, err error) error {
		if err != nil {
			t.Fatal(err)
		}
		if !fi.IsDir() {
			data, _ := os.ReadFile(p)
			b.WriteString(p + "\n")
			b.Write(data)
		}
		return nil
	})
	return b.String()
}

func TestProgress(t *testing.T) {
	s := demoStore(t)
	var buf bytes.Buffer
	export(t, s, Options{Out: filepath.Join(t.TempDir(), "ds"), Annotator: "jo", Progress: &buf})
	got := buf.String()
	if !strings.Contains(got, "\rqa ") || !strings.Contains(got, "\rclaims ") || !strings.Contains(got, "100%  106/106") {
		t.Errorf("progress output %q", got)
	}
	// Without a writer (stderr not a terminal) nothing is drawn: Export
	// has no other output channel, so the silent case is the nil writer.
	var p progress
	p.begin("x", 10)
	p.step()
	p.end()
}
