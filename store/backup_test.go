package store

import (
	"bytes"
	"errors"
	"fmt"
	"path/filepath"
	"testing"
	"time"
)

// Values keep their SQLite type through a line: the expected lines are
// written by hand from the rules of appendBackupValue.
func TestBackupValues(t *testing.T) {
	for _, c := range []struct {
		v    any
		line string
	}{
		{nil, `null`},
		{int64(-42), `-42`},
		{20.0, `20.0`}, // a whole real keeps its ".0", so it goes back a real
		{20.5, `20.5`},
		{1e20, `1e+20`},
		{"a\"b\n<", `"a\"b\n\u003c"`},
		{[]byte{0, 1, 255}, `{"base64":"AAH/"}`},
	} {
		b, err := appendBackupValue(nil, c.v)
		if err != nil || string(b) != c.line {
			t.Errorf("%#v: %s, %v; want %s", c.v, b, err, c.line)
			continue
		}
		back, err := decodeValue(b)
		if err != nil {
			t.Errorf("%s: %v", b, err)
			continue
		}
		again, _ := appendBackupValue(nil, back)
		if !bytes.Equal(again, b) {
			t.Errorf("%s read back as %#v, written again %s", b, back, again)
		}
		if _, ok := c.v.(float64); ok {
			if _, ok := back.(float64); !ok {
				t.Errorf("%s read back as %T, want a real", b, back)
			}
		}
	}
	for _, bad := range []string{`true`, `[1]`, `{"x":1}`, `12345678901234567890`} {
		if _, err := decodeValue([]byte(bad)); err == nil {
			t.Errorf("%s: no error", bad)
		}
	}
}

// A backup of a view that holds part of an import (its steps committed,
// its journal there) is refused: the backup leaves the journal out, and
// its restore would hold half an import as data. Once the import is done,
// the backup is taken.
func TestBackupRefusesAnImportInProgress(t *testing.T) {
	defer SetImportSteps(time.Nanosecond, 0)()
	s := seedForSteps(t, filepath.Join(t.TempDir(), "t.db"))
	defer s.Close()
	tables := func() error {
		return s.Read(func(rx *ReadTx) error {
			_, err := rx.BackupTables()
			return err
		})
	}
	var during error
	err := s.Import(func(tx *Tx) error {
		if err := importPairs(tx, 6, 40, 5); err != nil {
			return err
		}
		if tx.tx.steps.n < 2 {
			return fmt.Errorf("the import committed %d steps: not in steps", tx.tx.steps.n)
		}
		during = tables()
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if !errors.Is(during, ErrImportInBackup) {
		t.Errorf("a backup during the import: %v, want %v", during, ErrImportInBackup)
	}
	if err := tables(); err != nil {
		t.Errorf("a backup once the import is done: %v", err)
	}
}
