package smallfile

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// A FIFO is refused without being opened (opening one for reading waits
// for a writer: the read would never start).
func TestFIFORefusedWithoutWaiting(t *testing.T) {
	p := filepath.Join(t.TempDir(), "fifo")
	if err := syscall.Mkfifo(p, 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := Read(p, 10); err == nil || err.Error() != p+": not a regular file (p---------)" {
		t.Errorf("Read: %v", err)
	}
	if _, err := Stream(p, 10); err == nil || !strings.HasPrefix(err.Error(), p+": not a regular file") {
		t.Errorf("Stream: %v", err)
	}
}

// Stream reads a file of exactly its limit to the end, and fails one byte
// past it with a *TooBig naming the file.
func TestStreamLimit(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []struct {
		size    int
		tooBig  bool
		readLen int
	}{{10, false, 10}, {11, true, 10}, {0, false, 0}} {
		p := filepath.Join(dir, "f")
		if err := os.WriteFile(p, []byte(strings.Repeat("x", c.size)), 0o600); err != nil {
			t.Fatal(err)
		}
		r, err := Stream(p, 10)
		if err != nil {
			t.Fatal(err)
		}
		var got []byte
		buf := make([]byte, 3)
		for {
			n, err := r.Read(buf)
			got = append(got, buf[:n]...)
			if err != nil {
				var tb *TooBig
				if errors.As(err, &tb) != c.tooBig || (c.tooBig && (tb.Path != p || tb.Limit != 10 || tb.Size != 11)) {
					t.Errorf("%d bytes: %v", c.size, err)
				}
				break
			}
		}
		r.Close()
		if len(got) != c.readLen {
			t.Errorf("%d bytes: read %d", c.size, len(got))
		}
	}
}
