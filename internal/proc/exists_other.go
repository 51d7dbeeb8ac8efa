//go:build !unix

package proc

import "os"

// exists reports whether a process of that pid exists.
func exists(pid int) bool {
	_, err := os.FindProcess(pid)
	return err == nil
}
