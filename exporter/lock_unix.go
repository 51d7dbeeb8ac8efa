//go:build unix

package exporter

import (
	"os"
	"syscall"
)

// lockFile takes the advisory lock of a running export; the system drops it
// when the process ends, however it ends.
func lockFile(f *os.File) error {
	return syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
}

// lockStale reports whether no process holds the lock any more (taking it
// if so; it is released when f is closed).
func lockStale(f *os.File, _ os.FileInfo) bool { return lockFile(f) == nil }
