//go:build !unix

package exporter

import (
	"os"
	"time"
)

// Without flock, a lock file only marks the folder as an export's; it is
// taken as stale once it is a day old (no export runs that long).
func lockFile(*os.File) error { return nil }

const staleAfter = 24 * time.Hour

func lockStale(_ *os.File, fi os.FileInfo) bool { return time.Since(fi.ModTime()) > staleAfter }
