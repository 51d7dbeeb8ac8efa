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
	data, err := os.ReadFile(mpath)
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
		if t.Name == "" || strings.ContainsAny(t.File, "\\") || !fs.ValidPath(t.File) {
			return Summary{}, &InputError{File: mpath, Record: -1, Field: fmt.Sprintf("tables[%d]", i), Msg: "want a table name and a file inside the folder"}
		}
		p := filepath.Join(dir, filepath.FromSlash(t.File))
		files[t.Name] = p
		tables = append(tables, store.RestoreTable{Name: t.Name, Lines: backupLines(p, t.Rows)})
	}
	res, err := s.Restore(tables)
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
		r := bufio.NewReaderSize(f, 256<<10)
		n := 0
		for {
			line, err := r.ReadBytes('\n')
			if len(line) > 0 {
				n++
				line = bytes.TrimRight(line, "\r\n")
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
