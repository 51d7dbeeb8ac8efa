//go:build unix

package exporter

import (
	"bufio"
	"context"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// TestKilledExportCleanedUpByTheNext kills a real export with SIGKILL in the
// middle of its first data file (a child process: this test binary running
// TestHelperExportUntilKilled), then checks that it left its temporaries
// and that the next export removes them.
func TestKilledExportCleanedUpByTheNext(t *testing.T) {
	parent := t.TempDir()
	out := filepath.Join(parent, "ds")
	cmd, stdout := exportMidway(t, "TestHelperExportUntilKilled", out)
	cmd.Process.Signal(syscall.SIGKILL)
	cmd.Wait()
	io.Copy(io.Discard, stdout)

	left := listDir(t, parent)
	if len(left) != 2 || !strings.HasPrefix(left[0], ".ds.tmp-") {
		t.Fatalf("the killed export left %v, want its folder and lock file", left)
	}
	res := export(t, demoStore(t), Options{Out: out, Annotator: "jo"})
	if got := listDir(t, parent); len(got) != 1 || got[0] != "ds" {
		t.Fatalf("after the next export: %v", got)
	}
	if len(res.Notes) != 1 || !strings.HasPrefix(res.Notes[0], "removed "+filepath.Join(parent, left[0])) {
		t.Errorf("notes %q", res.Notes)
	}
}

// exportMidway starts this test binary running helper, an export into
// out, and returns once the child says its first data file is open: the
// export is then mid-way, its lock held. The child's own temporary folders
// go under the test's (a killed child cannot remove them).
func exportMidway(t *testing.T, helper, out string) (*exec.Cmd, io.Reader) {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^"+helper+"$")
	cmd.Env = append(os.Environ(), "ANNOTATE_HELPER_EXPORT_OUT="+out, "TMPDIR="+t.TempDir())
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdin, err := cmd.StdinPipe() // a child may block reading it
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { stdin.Close() })
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	line, err := bufio.NewReader(stdout).ReadString('\n')
	if err != nil || !strings.HasPrefix(line, "writing") {
		cmd.Process.Kill()
		t.Fatalf("child: %q, %v", line, err)
	}
	return cmd, stdout
}

// TestHelperExportUntilKilled is the child of the test above: it exports
// and, once the first data file is open, says so and waits to be killed
// (reading a stdin the parent keeps open).
func TestHelperExportUntilKilled(t *testing.T) {
	out := os.Getenv("ANNOTATE_HELPER_EXPORT_OUT")
	if out == "" {
		return // run as a test of its own: nothing to do
	}
	s := demoStore(t)
	o := Options{Out: out, Annotator: "jo", create: func(p string) (io.WriteCloser, error) {
		f, err := os.Create(p)
		os.Stdout.WriteString("writing " + p + "\n")
		io.ReadAll(os.Stdin) // blocks until SIGKILL: the parent never closes it first
		return f, err
	}}
	Export(context.Background(), s, o)
}

// TestInterruptedExportRemovesItsFolder stops a real export with SIGINT,
// then SIGTERM, in the middle of its first data file (a child process, as
// annotate export is: the signals cancel its context), and checks that it
// removed its folder and lock file and left no --out.
func TestInterruptedExportRemovesItsFolder(t *testing.T) {
	for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM} {
		parent := t.TempDir()
		out := filepath.Join(parent, "ds")
		cmd, stdout := exportMidway(t, "TestHelperExportUntilSignalled", out)
		if left := listDir(t, parent); len(left) != 2 {
			t.Fatalf("mid-way the export has %v, want its folder and lock file", left)
		}
		cmd.Process.Signal(sig)
		io.Copy(io.Discard, stdout)
		cmd.Wait()
		if left := listDir(t, parent); len(left) != 0 {
			t.Errorf("%v: the stopped export left %v", sig, left)
		}
	}
}

// TestHelperExportUntilSignalled is the child of the test above: it
// exports with a context a signal cancels and, once the first data file
// is open, says so and waits for the signal.
func TestHelperExportUntilSignalled(t *testing.T) {
	out := os.Getenv("ANNOTATE_HELPER_EXPORT_OUT")
	if out == "" {
		return // run as a test of its own: nothing to do
	}
	s := demoStore(t)
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGINT, syscall.SIGTERM)
	defer stop()
	o := Options{Out: out, Annotator: "jo", create: func(p string) (io.WriteCloser, error) {
		f, err := os.Create(p)
		os.Stdout.WriteString("writing " + p + "\n")
		<-ctx.Done()
		return f, err
	}}
	Export(ctx, s, o)
}
