package importer

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"io/fs"
	"os"

	"github.com/annotate-dev/annotate/internal/smallfile"
)

// input is one file of an import: a regular file on disk, read as a stream
// (and read again from the start for each pass that needs it), or bytes the
// caller holds (the embedded demo). Nothing reads a whole file into memory.
type input struct {
	name string // as given: messages name it
	path string // "" for bytes
	data []byte
	size int64
	prog *progress
}

// fileInput checks, before opening anything, that name is a regular file: a
// named pipe would block the import forever and a device (/dev/zero) never
// ends.
func fileInput(name string, prog *progress) (*input, error) {
	st, err := os.Stat(name)
	if err != nil {
		return nil, err
	}
	if !st.Mode().IsRegular() {
		return nil, notRegular(name, st.Mode())
	}
	return &input{name: name, path: name, size: st.Size(), prog: prog}, nil
}

func bytesInput(name string, data []byte, prog *progress) *input {
	return &input{name: name, data: data, size: int64(len(data)), prog: prog}
}

func notRegular(name string, m fs.FileMode) error {
	what := "not a regular file"
	switch {
	case m&fs.ModeNamedPipe != 0:
		what = "a named pipe (FIFO)"
	case m&fs.ModeCharDevice != 0:
		what = "a character device"
	case m&fs.ModeDevice != 0:
		what = "a device"
	case m&fs.ModeSocket != 0:
		what = "a socket"
	}
	return fmt.Errorf("%s: this is %s, not a regular file: annotate imports regular files, and folders made by annotate export", name, what)
}

// open starts reading the input from the beginning.
func (in *input) open() (io.ReadCloser, error) {
	if in.path == "" {
		return io.NopCloser(bytes.NewReader(in.data)), nil
	}
	f, err := os.Open(in.path)
	if err != nil {
		return nil, err
	}
	// The file may have been replaced since it was checked.
	if st, err := f.Stat(); err != nil || !st.Mode().IsRegular() {
		f.Close()
		if err != nil {
			return nil, err
		}
		return nil, notRegular(in.name, st.Mode())
	}
	return f, nil
}

// reader opens the input for reading text: a UTF-8 byte order mark (Windows
// editors write one) is skipped, and every byte read counts as progress.
func (in *input) reader() (*textReader, error) {
	rc, err := in.open()
	if err != nil {
		return nil, err
	}
	t := &textReader{name: in.name, closer: rc, line: 1, col: 1}
	t.r = bufio.NewReaderSize(countingReader{rc, in.prog}, 64<<10)
	if b, err := t.r.Peek(len(bom)); err == nil && bytes.Equal(b, bom) {
		t.r.Discard(len(bom))
	}
	return t, nil
}

var bom = []byte("\xef\xbb\xbf")

type countingReader struct {
	r    io.Reader
	prog *progress
}

func (c countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.prog.add(int64(n))
	return n, err
}

// readSmall reads a file that is read whole (a manifest, a guidelines or
// taxonomy file), refusing one over limit bytes before reading it.
func readSmall(path string, limit int64) ([]byte, error) {
	return smallfile.Read(path, limit)
}
