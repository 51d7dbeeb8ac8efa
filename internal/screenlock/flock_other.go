//go:build !unix

package screenlock

import "os"

// tryLock: without flock(2) the lock is not taken (screens are not kept
// apart on this system); the TUI still runs.
func tryLock(f *os.File) (bool, error) { return false, nil }
