package exporter

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"time"
)

// An export works in a temporary folder beside --out, ".<out>.tmp-N", and
// holds a lock file beside it, ".<out>.tmp-N.lock", for as long as it runs
// (the file records the process and its start): an advisory lock (flock)
// on Unix, which the system releases when the process ends however it ends
// (SIGKILL included). Ctrl-C and SIGTERM stop an export between two rows,
// and it removes its folder; a killed export leaves both behind. The next
// export into the same folder (any --out beside them) cleans them up, and
// only them: a folder is removed only if its lock file is an export's (the
// exact name), older than the running export and no longer locked by
// anyone, so the process that held it is gone. A folder named like an
// export's but without a lock file (a user's, or one left by a version
// without locks) is never touched; beside the same --out it is named in a
// note instead. Exports into other folders are not looked for: nothing
// records where they were, and a folder of someone else's is not searched.
//
// The previous export that a --force export had moved aside,
// ".<out>.tmp-N-old", is put back when --out is missing (the kill came
// between the two renames, so the promise "a failed export leaves --out as
// it was" is kept), and removed when the new export is in place.

// tempLock is the lock of a running export and the folder it guards.
type tempLock struct {
	f    *os.File
	path string // .<base>.tmp-N.lock
	dir  string // .<base>.tmp-N
}

// lockSuffix ends the name of a lock file.
const lockSuffix = ".lock"

// newTempLock creates and locks a new lock file beside out; dir is the
// folder it guards, not created yet.
func newTempLock(parent, base string) (*tempLock, error) {
	f, err := os.CreateTemp(parent, "."+base+".tmp-*"+lockSuffix)
	if err != nil {
		return nil, err
	}
	if err := lockFile(f); err != nil {
		f.Close()
		os.Remove(f.Name())
		return nil, fmt.Errorf("lock %s: %w", f.Name(), err)
	}
	fmt.Fprintf(f, "annotate export into %s in progress (pid %d, since %s); removed when it ends\n",
		base, os.Getpid(), time.Now().UTC().Format(time.RFC3339))
	return &tempLock{f: f, path: f.Name(), dir: strings.TrimSuffix(f.Name(), lockSuffix)}, nil
}

// release removes the lock file, then unlocks it.
func (l *tempLock) release() {
	os.Remove(l.path)
	l.f.Close()
}

// staleName matches our lock files and temporary folders for one --out.
func staleName(base string) *regexp.Regexp {
	return regexp.MustCompile(`^\.` + regexp.QuoteMeta(base) + `\.tmp-[0-9]+(` + regexp.QuoteMeta(lockSuffix) + `|-old)?$`)
}

// anyLock matches the lock file of an export into any folder; its first
// group is that folder's name.
var anyLock = regexp.MustCompile(`^\.(.+)\.tmp-[0-9]+` + regexp.QuoteMeta(lockSuffix) + `$`)

// cleanStale removes what killed exports into out left behind, as above,
// and returns what it did (and what it left) for the user. It never fails
// the export: what it cannot remove it names.
func cleanStale(out string, started time.Time) []string {
	out = filepath.Clean(out)
	parent, base := filepath.Dir(out), filepath.Base(out)
	entries, err := os.ReadDir(parent)
	if err != nil {
		return nil
	}
	names := staleName(base)
	locks := map[string]bool{} // folder paths that have a lock file
	var notes []string
	for _, e := range entries {
		m := anyLock.FindStringSubmatch(e.Name())
		if m == nil {
			continue
		}
		lockPath := filepath.Join(parent, e.Name())
		dir := strings.TrimSuffix(lockPath, lockSuffix)
		locks[dir] = true
		if note := cleanOne(lockPath, dir, filepath.Join(parent, m[1]), started); note != "" {
			notes = append(notes, note)
		}
	}
	for _, e := range entries {
		p := filepath.Join(parent, e.Name())
		if e.IsDir() && names.MatchString(e.Name()) && !locks[strings.TrimSuffix(p, "-old")] {
			if _, err := os.Stat(p); err == nil { // not put back or removed above
				notes = append(notes, fmt.Sprintf("left %s: it has no lock file, so it may not be an export's (remove it by hand if no export is running)", p))
			}
		}
	}
	return notes
}

// cleanOne cleans the leftovers of one lock file if they are stale.
func cleanOne(lockPath, dir, out string, started time.Time) string {
	f, err := os.OpenFile(lockPath, os.O_RDWR, 0)
	if err != nil {
		return "" // gone meanwhile: its export ended
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil || !fi.Mode().IsRegular() || !fi.ModTime().Before(started) || !lockStale(f, fi) {
		return "" // a running export's, or not ours
	}
	var did []string
	old := dir + "-old"
	_, tmpErr := os.Stat(dir)
	tmpExists := tmpErr == nil
	if _, err := os.Stat(old); err == nil {
		_, outErr := os.Stat(out)
		switch {
		case errors.Is(outErr, os.ErrNotExist):
			if err := os.Rename(old, out); err != nil {
				return fmt.Sprintf("could not put the previous export %s back into %s: %v", old, out, err)
			}
			did = append(did, fmt.Sprintf("put the previous export back into %s (an interrupted export had moved it aside)", out))
		case outErr == nil && !tmpExists:
			if err := os.RemoveAll(old); err != nil {
				return fmt.Sprintf("could not remove %s: %v", old, err)
			}
			did = append(did, "removed "+old)
		default:
			did = append(did, fmt.Sprintf("left %s, a previous export moved aside, since %s exists", old, out))
		}
	}
	if tmpExists {
		if err := os.RemoveAll(dir); err != nil {
			return fmt.Sprintf("could not remove %s: %v", dir, err)
		}
		did = append(did, "removed "+dir)
	}
	os.Remove(lockPath)
	if len(did) == 0 {
		return ""
	}
	return strings.Join(did, "; ") + " (left by an interrupted export)"
}
