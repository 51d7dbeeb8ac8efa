// Package smallfile reads the files annotate reads whole (the config file,
// a taxonomy, a guidelines file, a backup's manifest, authorized_keys):
// each has a limit, and a file over it is refused before it is read, so a
// runaway file never takes the memory of its size.
package smallfile

import (
	"fmt"
	"io"
	"io/fs"
	"os"
)

// TooBig is a file over its limit; Prefix holds its first Limit bytes, for
// a caller that names where in the file the limit falls.
type TooBig struct {
	Path        string
	Size, Limit int64
	Prefix      []byte
}

func (e *TooBig) Error() string {
	return fmt.Sprintf("%s: %s, over the %s limit of this file", e.Path, size(e.Size), size(e.Limit))
}

func size(n int64) string {
	if n < 1<<20 {
		return fmt.Sprintf("%d KiB", (n+1023)/1024)
	}
	return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
}

// Read returns the file's bytes; a file over limit is a *TooBig, and what
// is not a regular file (a FIFO would block, a device never end) is
// refused.
func Read(path string, limit int64) ([]byte, error) {
	f, st, err := openRegular(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if st.Size() > limit {
		prefix := make([]byte, limit)
		n, _ := io.ReadFull(f, prefix)
		return nil, &TooBig{Path: path, Size: st.Size(), Limit: limit, Prefix: prefix[:n]}
	}
	data, err := io.ReadAll(io.LimitReader(f, limit+1))
	if err != nil {
		return nil, err
	}
	if int64(len(data)) > limit { // it grew since
		return nil, &TooBig{Path: path, Size: int64(len(data)), Limit: limit, Prefix: data[:limit]}
	}
	return data, nil
}

// Stream opens the file to be read in order, line by line, never whole:
// past limit bytes a read fails with a *TooBig (without Prefix), so a
// reader that finds a problem earlier in the file (an over-long line)
// names it first. What is not a regular file is refused.
func Stream(path string, limit int64) (io.ReadCloser, error) {
	f, st, err := openRegular(path)
	if err != nil {
		return nil, err
	}
	return &stream{f: f, left: limit, tooBig: &TooBig{Path: path, Size: st.Size(), Limit: limit}}, nil
}

type stream struct {
	f      *os.File
	left   int64 // bytes that may still be read
	tooBig *TooBig
}

func (s *stream) Read(p []byte) (int, error) {
	if s.left <= 0 {
		// One byte more than the limit is a file over it.
		var one [1]byte
		if n, _ := s.f.Read(one[:]); n > 0 {
			s.tooBig.Size = max(s.tooBig.Size, s.tooBig.Limit+1)
			return 0, s.tooBig
		}
		return 0, io.EOF
	}
	if int64(len(p)) > s.left {
		p = p[:s.left]
	}
	n, err := s.f.Read(p)
	s.left -= int64(n)
	return n, err
}

func (s *stream) Close() error { return s.f.Close() }

// openRegular opens path when it is a regular file. It looks before it
// opens: opening a FIFO waits for a writer.
func openRegular(path string) (*os.File, fs.FileInfo, error) {
	notRegular := func(st fs.FileInfo) error {
		return fmt.Errorf("%s: not a regular file (%s)", path, st.Mode().Type()&fs.ModeType)
	}
	st, err := os.Stat(path)
	if err != nil {
		return nil, nil, err
	}
	if !st.Mode().IsRegular() {
		return nil, nil, notRegular(st)
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, err
	}
	if st, err = f.Stat(); err != nil || !st.Mode().IsRegular() { // replaced meanwhile
		f.Close()
		if err == nil {
			err = notRegular(st)
		}
		return nil, nil, err
	}
	return f, st, nil
}
