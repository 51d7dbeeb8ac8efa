package main

import (
	"os"
	"path/filepath"
	"runtime"
	"testing"
)

// A smaps_rollup as Linux 6.1 writes it (of a shell, trimmed): Rss and
// Anonymous are read, in MiB; the pages of files are the rest.
func TestReadRollupSplitsTheResidentSet(t *testing.T) {
	p := filepath.Join(t.TempDir(), "smaps_rollup")
	os.WriteFile(p, []byte(`55d6c5a8e000-7ffd5a3f1000 ---p 00000000 00:00 0                          [rollup]
Rss:               40960 kB
Pss:               39000 kB
Pss_Anon:          11264 kB
Shared_Clean:       1536 kB
Private_Dirty:     11264 kB
Anonymous:         11264 kB
LazyFree:              0 kB
`), 0o644)
	m, ok := readRollup(p)
	if !ok || m.RSS != 40 || m.Anon != 11 || m.File() != 29 {
		t.Errorf("got %+v (file %.1f), ok %v; want RSS 40, Anon 11, file 29", m, m.File(), ok)
	}
	if _, ok := readRollup(filepath.Join(t.TempDir(), "none")); ok {
		t.Error("a missing file read as a sample")
	}
}

func TestSampledPeakOfARealProcess(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("smaps_rollup is Linux's")
	}
	m, err := sampledPeak("sleep", "0.2")
	if err != nil {
		t.Fatal(err)
	}
	if m.RSS <= 0 || m.Anon <= 0 || m.Anon > m.RSS {
		t.Errorf("sleep's peak %+v: want 0 < anonymous <= RSS", m)
	}
	if _, err := sampledPeak("sh", "-c", "exit 3"); err == nil {
		t.Error("a failing command gave no error")
	}
}
