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
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if !st.Mode().IsRegular() {
		return nil, fmt.Errorf("%s: not a regular file (%s)", path, st.Mode().Type()&fs.ModeType)
	}
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
