//go:build unix

package proc

import (
	"errors"
	"syscall"
)

// exists reports whether a process of that pid exists (EPERM: it does, and
// belongs to another user).
func exists(pid int) bool {
	err := syscall.Kill(pid, 0)
	return err == nil || errors.Is(err, syscall.EPERM)
}
