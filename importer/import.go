// Package importer reads the import formats of docs/formats.md
// into the store, all files of one invocation in one transaction: any error
// leaves the database unchanged. Errors name the file, the line (JSONL) or
// record index (JSON) and the field (see InputError).
//
// Files are read as streams, one record at a time, so memory does not grow
// with the input: QA pairs are written as they are read; claims, labels and
// the copies of pairs that yield to a master copy wait in the transaction's
// TEMP tables (store.Tx.Stage) and are written once every pair is in, so a
// claim or a label may name an item of any file of the invocation. The ids
// met so far, with where, are a TEMP table too (store.Tx.See): an id given
// twice must name the same content.
package importer

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/annotate-dev/annotate/internal/emailmap"
	"github.com/annotate-dev/annotate/internal/names"
	"github.com/annotate-dev/annotate/store"
)

// Options of an import.
type Options struct {
	// Format forces a format (see Formats); "" detects it from the content.
	Format string
	// Update replaces items whose content changed instead of failing.
	Update bool
	// Annotator owns labels that name none: labels files without an
	// "annotator", and ClaimRAG-LAW (default DefaultClaimRAGAnnotator).
	Annotator string
	// Field is the two-way field of Prodigy answers (interop.go).
	Field string
	// Run names the run of a TREC run file instead of its tag (trec.go).
	Run string
	// System names the system of RAGChecker checking outputs (default: the
	// file's base name) and of CanLegalRAGBench generated answers (default:
	// the rows' generator); Condition the generated answers' condition
	// (release.go). Source names the source of RAGChecker outputs, shared by
	// its systems' files (default: the file's base name).
	Source, System, Condition string
	// Progress, when set, gets a progress line rewritten in place (give it
	// a terminal only).
	Progress io.Writer
	// EmailMap is the file mapping annotators to the e-mails of their
	// Label Studio accounts (internal/emailmap): a completed_by e-mail in
	// it names that annotator.
	EmailMap string
	emails   *emailmap.Map // EmailMap, read
}

// readEmailMap reads --email-map before anything is imported.
func (o *Options) readEmailMap() error {
	if o.EmailMap == "" {
		return nil
	}
	m, err := emailmap.Read(o.EmailMap)
	if err != nil {
		return err
	}
	o.emails = &m
	return nil
}

// sourceDefaults are the language and jurisdiction of the sources of the
// ClaimRAG-LAW benchmark, for files that do not say.
var sourceDefaults = map[string][2]string{
	"GDPR":  {"en", "EU"},
	"CIVIL": {"fr", "LU"},
}

// job is one file to import, its format known.
type job struct {
	in     *input
	format string
}

// Import imports files (a directory is an exported folder) in one transaction.
func Import(s *store.Store, files []string, opt Options) (Summary, error) {
	if err := checkOptions(opt); err != nil {
		return Summary{}, err
	}
	if err := opt.readEmailMap(); err != nil {
		return Summary{}, err
	}
	if len(files) == 0 {
		return Summary{}, errors.New("no file to import")
	}
	for _, name := range files {
		if isBackup(name) {
			if len(files) > 1 || opt.Format != "" || opt.Update {
				return Summary{}, fmt.Errorf("%s: a backup folder is imported alone, without --format or --update (it is restored as it is)", name)
			}
			return restoreBackup(s, name)
		}
	}
	prog := newProgress(opt.Progress)
	var jobs []job
	for _, name := range files {
		js, err := pathJobs(name, opt, prog)
		if err != nil {
			return Summary{}, err
		}
		jobs = append(jobs, js...)
	}
	return run(s, jobs, opt, prog)
}

// ImportReader imports one file given as bytes (e.g. embedded demo data);
// name is used for messages, for detection by name (ClaimRAG-LAW source) and
// for id prefixes.
func ImportReader(s *store.Store, name string, data []byte, opt Options) (Summary, error) {
	if err := checkOptions(opt); err != nil {
		return Summary{}, err
	}
	if err := opt.readEmailMap(); err != nil {
		return Summary{}, err
	}
	if opt.Format == FormatHF {
		return Summary{}, fmt.Errorf("%s: format hf is a folder, not a file", name)
	}
	prog := newProgress(opt.Progress)
	j, err := fileJob(bytesInput(name, data, prog), opt.Format)
	if err != nil {
		return Summary{}, err
	}
	return run(s, []job{j}, opt, prog)
}

func checkOptions(opt Options) error {
	if opt.Annotator != "" {
		if err := names.Check(opt.Annotator); err != nil {
			return fmt.Errorf("--annotator: %w", err)
		}
	}
	if err := printable(loc{}, "", "--run", opt.Run); err != nil {
		return errors.New(err.(*InputError).Msg)
	}
	if err := printable(loc{}, "", "--system", opt.System); err != nil {
		return errors.New(err.(*InputError).Msg)
	}
	if opt.Condition != "" && opt.Condition != "oracle" && opt.Condition != "pipeline" {
		return fmt.Errorf("--condition %q: want oracle or pipeline", opt.Condition)
	}
	if opt.Format == "" {
		return nil
	}
	for _, f := range Formats {
		if f == opt.Format {
			return nil
		}
	}
	return fmt.Errorf("unknown format %q (known: %s)", opt.Format, strings.Join(Formats, ", "))
}

// pathJobs checks a path given on the command line, before the transaction:
// a regular file, or a folder made by annotate export.
func pathJobs(name string, opt Options, prog *progress) ([]job, error) {
	st, err := os.Stat(name)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("no such file: %s", name)
	}
	if err != nil {
		return nil, err
	}
	if !st.IsDir() {
		if opt.Format == FormatHF {
			return nil, fmt.Errorf("%s: format hf is a folder made by annotate export, not a file", name)
		}
		in, err := fileInput(name, prog)
		if err != nil {
			return nil, err
		}
		j, err := fileJob(in, opt.Format)
		return []job{j}, err
	}
	if opt.Format != "" && opt.Format != FormatHF {
		return nil, fmt.Errorf("%s: a folder can only be imported as format hf, not %s", name, opt.Format)
	}
	return folderJobs(name, prog)
}

func fileJob(in *input, format string) (job, error) {
	if format == "" {
		var err error
		if format, err = detect(in); err != nil {
			return job{}, err
		}
	}
	return job{in: in, format: format}, nil
}

// folderJobs reads an exported folder: the data/qa and data/claims rows of
// an hf export (hf.go), else the native JSONL files in it (items and labels,
// as annotate export --format jsonl writes them), in name order.
func folderJobs(dir string, prog *progress) ([]job, error) {
	hf, err := hfFiles(dir)
	if err != nil {
		return nil, err
	}
	var out []job
	if len(hf) > 0 {
		for _, name := range hf {
			in, err := fileInput(name, prog)
			if err != nil {
				return nil, err
			}
			if in.size > 0 { // an empty split
				out = append(out, job{in: in, format: FormatHF})
			}
		}
		return out, nil
	}
	var names []string
	err = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(p, ".jsonl") {
			names = append(names, p)
		}
		return err
	})
	if err != nil {
		return nil, err
	}
	if len(names) == 0 {
		return nil, fmt.Errorf("%s: no .jsonl file in this folder (want an annotate export)", dir)
	}
	sort.Strings(names)
	for _, name := range names {
		in, err := fileInput(name, prog)
		if err != nil {
			return nil, err
		}
		j, err := fileJob(in, "")
		if err != nil {
			return nil, err
		}
		if j.format != FormatNative && j.format != FormatLabels {
			return nil, fmt.Errorf("%s: found %s data in an exported folder; want native items or labels JSONL", name, j.format)
		}
		out = append(out, j)
	}
	return out, nil
}

// run imports the files in one transaction: the files are read in order,
// their QA pairs written as they come, and their claims and labels too
// while the items they name are in. The first claim (label) whose item is
// not in yet, and every claim (label) after it, wait until every file is
// read: then the copies of pairs, the claims and the labels are written, in
// the files' order. So a labels file may name items of any file of the same
// invocation, and the queues and the label log keep the files' order.
func run(s *store.Store, jobs []job, opt Options, prog *progress) (Summary, error) {
	w := &writer{opt: opt, prog: prog, staged: make([]int64, nQueues)}
	var total int64
	for i, j := range jobs {
		w.files = append(w.files, newFile(i, j.in, j.format, opt, w))
		total += j.in.size
	}
	err := s.Import(func(tx *store.Tx) error {
		w.tx = tx
		if err := tx.BeginScratch(); err != nil {
			return err
		}
		known, err := tx.AnnotatorNames()
		if err != nil {
			return err
		}
		w.names = names.NewRule(known)
		prog.begin("reading", total, true)
		for _, f := range w.files {
			if err := w.read(f); err != nil {
				return err
			}
		}
		if err := w.writeStaged(); err != nil {
			return err
		}
		if err := w.writeRuns(); err != nil {
			return err
		}
		if err := w.finishRows(); err != nil {
			return err
		}
		if err := tx.WriteSeen(); err != nil {
			return err
		}
		// The formats of the files that brought something, for the
		// dataset card's source_datasets (an import that changes nothing
		// leaves the database as it was).
		var formats []string
		for _, f := range w.files {
			if !(Summary{Files: []FileSummary{*f.sum}}).NoOp() {
				formats = append(formats, f.format)
			}
		}
		if err := tx.NoteFormats(formats); err != nil {
			return err
		}
		return tx.EndScratch()
	})
	prog.end()
	if err != nil {
		if dbErr := store.ExplainError(s.Path, err); dbErr != nil {
			return Summary{}, dbErr
		}
		return Summary{}, err
	}
	var sum Summary
	for _, f := range w.files {
		sum.Files = append(sum.Files, *f.sum)
	}
	return sum, nil
}
