package exporter

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
)

// ErrNotEmpty is returned when --out names a non-empty folder and --force was
// not given: an export never mixes its files with someone else's.
var ErrNotEmpty = errors.New("is not empty (use --force to replace it)")

// checkOut refuses an --out that is a file, or a non-empty folder without force.
func checkOut(out string, force bool) error {
	fi, err := os.Stat(out)
	switch {
	case errors.Is(err, os.ErrNotExist):
		return nil
	case err != nil:
		return err
	case !fi.IsDir():
		return fmt.Errorf("--out %s exists and is not a folder", out)
	}
	entries, err := os.ReadDir(out)
	if err != nil {
		return err
	}
	if len(entries) > 0 && !force {
		return fmt.Errorf("--out %s %w", out, ErrNotEmpty)
	}
	return nil
}

// writeFolder builds the export in a temporary folder beside out (same
// parent, so the final rename is on one file system and atomic) and puts it
// in place only once fill has succeeded. A failed or interrupted export
// removes its temporary folder and leaves out as it was: absent, or the
// previous export. A killed one leaves them to the next export (stale.go).
func writeFolder(out string, force bool, fill func(tmp string) error) (err error) {
	if err := checkOut(out, force); err != nil {
		return err
	}
	out = filepath.Clean(out)
	parent, base := filepath.Dir(out), filepath.Base(out)
	if err := os.MkdirAll(parent, 0o755); err != nil {
		return err
	}
	lock, err := newTempLock(parent, base)
	if err != nil {
		return err
	}
	defer lock.release()
	tmp := lock.dir
	// A published dataset is readable (the umask still applies).
	if err := os.Mkdir(tmp, 0o755); err != nil {
		return err
	}
	defer func() {
		if err != nil {
			os.RemoveAll(tmp)
		}
	}()
	if err := fill(tmp); err != nil {
		return err
	}
	// Replace: move the old folder aside first (a rename cannot overwrite a
	// non-empty folder), then remove it only once the new one is in place.
	var old string
	if _, err := os.Stat(out); err == nil {
		old = tmp + "-old"
		if err := os.Rename(out, old); err != nil {
			return fmt.Errorf("replace %s: %w", out, err)
		}
	}
	if err := os.Rename(tmp, out); err != nil {
		if old != "" {
			os.Rename(old, out)
		}
		return fmt.Errorf("move the export into %s: %w", out, err)
	}
	if old != "" {
		return os.RemoveAll(old)
	}
	return nil
}

// sink is one output file, buffered.
type sink struct {
	*bufio.Writer
	f    io.WriteCloser
	path string
}

// openFile creates a file (and its folders) under dir.
func (e *exporter) openFile(dir, rel string) (*sink, error) {
	p := filepath.Join(dir, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return nil, err
	}
	f, err := e.create(p)
	if err != nil {
		return nil, err
	}
	return &sink{Writer: bufio.NewWriterSize(f, 256<<10), f: f, path: rel}, nil
}

// Close flushes and syncs the file, so a rename that follows never publishes
// a folder whose files are still only in the page cache.
func (s *sink) Close() error {
	err := s.Flush()
	if f, ok := s.f.(*os.File); ok && err == nil {
		err = f.Sync()
	}
	if cerr := s.f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("write %s: %w", s.path, err)
	}
	return nil
}

func osCreate(p string) (io.WriteCloser, error) { return os.Create(p) }
