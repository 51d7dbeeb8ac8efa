package importer

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"iter"
	"os"
	"path/filepath"
	"strings"

	"github.com/annotate-dev/annotate/store"
)

// A backup folder (annotate export --format jsonl) is restored as a whole:
// its manifest, backup.json, lists the table files; each table must be
// empty in the database or hold exactly the backup's rows. A bad line stops
// the restore with FILE:LINE: field, and nothing is written.

const backupManifest = "backup.json"

// isBackup is true when dir is a folder holding a backup manifest.
func isBackup(dir string) bool {
	st, err := os.Stat(dir)
	if err != nil || !st.IsDir() {
		return false
	}
	_, err = os.Stat(filepath.Join(dir, backupManifest))
	return err == nil
}

func restoreBackup(s *store.Store, dir string) (Summary, error) {
	mpath := filepath.Join(dir, backupManifest)
	if err := insideFolder(dir, backupManifest); err != nil {
		return Summary{}, err
	}
	data, err := readSmall(mpath, maxManifest)
	if err != nil {
		return Summary{}, err
	}
	var m store.BackupManifest
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&m); err != nil {
		return Summary{}, &InputError{File: mpath, Record: -1, Msg: "not a backup manifest: " + err.Error()}
	}
	switch {
	case m.Format != store.BackupFormat:
		return Summary{}, &InputError{File: mpath, Record: -1, Field: "format", Msg: fmt.Sprintf("%q: want %q", m.Format, store.BackupFormat)}
	case m.Version != store.BackupVersion:
		return Summary{}, &InputError{File: mpath, Record: -1, Field: "version", Msg: fmt.Sprintf("%d: this build reads backups of version %d", m.Version, store.BackupVersion)}
	case m.SchemaVersion > store.SchemaVersion():
		return Summary{}, &InputError{File: mpath, Record: -1, Field: "schema_version", Msg: fmt.Sprintf("%d: the backup was made by a newer annotate (this build knows %d): upgrade annotate", m.SchemaVersion, store.SchemaVersion())}
	}
	files := map[string]string{} // table -> file path
	var tables []store.RestoreTable
	for i, t := range m.Tables {
		at := func(field, msg string) error {
			return &InputError{File: mpath, Record: -1, Field: fmt.Sprintf("tables[%d].%s", i, field), Msg: msg}
		}
		switch {
		case t.Name == "":
			return Summary{}, at("name", "missing: want the table's name")
		case files[t.Name] != "":
			return Summary{}, at("name", fmt.Sprintf("table %s is listed twice", t.Name))
		case strings.ContainsAny(t.File, "\\") || !fs.ValidPath(t.File) || t.File == ".":
			return Summary{}, at("file", fmt.Sprintf("%q: want a file inside the backup's folder, such as tables/%s.jsonl", t.File, t.Name))
		case t.Rows < 0:
			return Summary{}, at("rows", fmt.Sprintf("%d: want a count of rows", t.Rows))
		}
		p := filepath.Join(dir, filepath.FromSlash(t.File))
		if err := insideFolder(dir, t.File); err != nil {
			return Summary{}, err
		}
		files[t.Name] = p
		tables = append(tables, store.RestoreTable{Name: t.Name, Columns: t.Columns, Lines: backupLines(p, t.Rows)})
	}
	res, err := s.Restore(tables, m.SchemaVersion)
	if err != nil {
		var re *store.RowError
		if errors.As(err, &re) {
			file := files[re.Table]
			if file == "" {
				file = mpath
			}
			return Summary{}, &InputError{File: file, Line: re.Row, Record: -1, Field: re.Field, Msg: re.Msg}
		}
		return Summary{}, err
	}
	return Summary{Files: []FileSummary{}, Backup: &BackupSummary{Dir: dir, RestoreResult: res}}, nil
}

// maxManifest bounds backup.json (a few kilobytes: one entry a table).
const maxManifest = 1 << 20

// insideFolder refuses a backup file that is not a regular file of the
// folder itself: a symbolic link (on the way to it or the file), which
// would read whatever it points to, or anything but a regular file.
func insideFolder(dir, rel string) error {
	p := dir
	for _, part := range strings.Split(rel, "/") {
		p = filepath.Join(p, part)
		st, err := os.Lstat(p)
		if err != nil {
			return err
		}
		if st.Mode()&fs.ModeSymlink != 0 {
			target, _ := os.Readlink(p)
			return &InputError{File: p, Record: -1, Msg: fmt.Sprintf("a symbolic link (to %s): a backup's files are files of its folder, not links", target)}
		}
		if p != filepath.Join(dir, filepath.FromSlash(rel)) && !st.IsDir() {
			return &InputError{File: p, Record: -1, Msg: "not a folder"}
		}
		if p == filepath.Join(dir, filepath.FromSlash(rel)) && !st.Mode().IsRegular() {
			return notRegular(p, st.Mode())
		}
	}
	return nil
}

// maxBackupLine bounds one row of a backup's table: far above any row
// annotate writes (a record of an import is at most 16 MiB, and the
// escapes of JSON may make it longer), low enough that a runaway line is
// refused, not held.
const maxBackupLine = 64 << 20

// backupLines streams a table file's lines, checking their count against
// the manifest's.
func backupLines(path string, want int) iter.Seq2[[]byte, error] {
	return func(yield func([]byte, error) bool) {
		f, err := os.Open(path)
		if err != nil {
			yield(nil, err)
			return
		}
		defer f.Close()
		if st, err := f.Stat(); err != nil || !st.Mode().IsRegular() {
			if err == nil {
				err = notRegular(path, st.Mode())
			}
			yield(nil, err)
			return
		}
		t := &textReader{name: path, r: bufio.NewReaderSize(f, 256<<10)}
		n := 0
		for {
			line, size, err := t.readLine(maxBackupLine)
			if err != nil && err != io.EOF {
				yield(nil, err)
				return
			}
			if size > 0 || err == nil {
				n++
				if size > maxBackupLine {
					yield(nil, lineLoc(path, n).errf(fieldAt(line), "the row is %s, over the %d MiB limit of a backup's row", mib(size), maxBackupLine>>20))
					return
				}
				line = bytes.TrimRight(line, "\r")
				if len(bytes.TrimSpace(line)) == 0 {
					yield(nil, &InputError{File: path, Line: n, Record: -1, Msg: "empty line (want one row per line)"})
					return
				}
				if !yield(line, nil) {
					return
				}
			}
			if err == io.EOF {
				break
			}
			if err != nil {
				yield(nil, err)
				return
			}
		}
		if n != want {
			yield(nil, &InputError{File: path, Record: -1, Msg: fmt.Sprintf("%d rows, the manifest says %d (a truncated or edited file)", n, want)})
		}
	}
}

// BackupSummary is what restoring a backup did.
type BackupSummary struct {
	Dir string `json:"dir"`
	store.RestoreResult
}

func (b *BackupSummary) String() string {
	sum := func(m map[string]int) (rows, tables int) {
		for _, n := range m {
			if n > 0 {
				rows += n
				tables++
			}
		}
		return
	}
	if b.NoOp() {
		rows, _ := sum(b.Unchanged)
		return fmt.Sprintf("nothing changed: all %s of the backup are already in the database\n", plural2(rows, "row", "rows"))
	}
	rows, tables := sum(b.Added)
	s := fmt.Sprintf("%s (backup): restored %s of %s", quoted(b.Dir), plural2(rows, "row", "rows"), plural2(tables, "table", "tables"))
	if same, _ := sum(b.Unchanged); same > 0 {
		s += fmt.Sprintf(", %s already there", plural2(same, "row", "rows"))
	}
	return s + "\n"
}
