// Package exporter publishes an annotation database (`annotate export`):
//
//   - hf: a Hugging Face dataset folder that datasets.load_dataset(DIR, CONFIG)
//     loads as is, one config per kind exported (kind_*.go): README.md (the
//     dataset card, YAML header then a body a reader can check the data
//     against) and data/<config>/<split>.<format>;
//   - jsonl: the native import formats, items.jsonl and labels.jsonl, which
//     `annotate import` reads back into the same state;
//   - csv: <config>.csv per kind, flat tables for a spreadsheet.
//
// Rows are read from the store and written one at a time (store.ReadTx), so
// memory does not grow with the dataset. Everything is written into a
// temporary folder beside --out and renamed into place at the end, so a failed
// or interrupted export leaves nothing half-written.
package exporter

import (
	"context"
	"errors"
	"fmt"
	"io"
	"iter"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/annotate-dev/annotate/store"
)

// Options are the flags of `annotate export`.
type Options struct {
	Format      string // "hf" (default), "jsonl" or "csv"
	Out         string // folder to create
	Force       bool   // replace a non-empty Out
	Split       string // hf: split name, default "test"
	License     string // hf: card license, default "cc-by-4.0"
	LicenseName string // hf, with License "other": the card's license_name (an id)
	LicenseLink string // hf, with License "other": the card's license_link (a URL or a file of the folder)
	Name        string // hf: pretty_name
	Contact     string // hf: the card's contact (the lead's --contact, else the --as name)
	Annotator   string // whose labels (jsonl: only this annotator's)
	Adjudicated bool   // the adjudicated labels instead
	// AllAnnotators: hf, every label set too, in a long config per
	// annotated kind (<config>_by_annotator, hf_annotators.go).
	AllAnnotators bool
	WithNotes     bool   // hf, csv: add the notes column
	DataFormat    string // hf: data files, "parquet" (default) or "jsonl"
	Field         string // prodigy: the field exported
	EmailMap      string // label-studio: the file mapping annotators to e-mails (internal/emailmap)
	LabelsOnly    bool   // jsonl: the native items and labels pair, not the backup
	Progress      io.Writer

	// create opens an output file; tests inject failures through it.
	create func(path string) (io.WriteCloser, error)
}

// Formats lists the formats --format accepts.
var Formats = []string{"hf", "jsonl", "csv", "label-studio", "prodigy", "trec"}

// Data formats of the hf folder's data files (--data-format).
const (
	DataParquet = "parquet"
	DataJSONL   = "jsonl"
)

// Defaults of the hf card.
const (
	DefaultSplit   = "test"
	DefaultLicense = "cc-by-4.0"
	DefaultName    = "annotate RAG benchmark"
)

// Result says what an export wrote.
type Result struct {
	Dir       string
	Format    string
	Files     []string // relative to Dir
	LabelSet  string   // "jo", "adjudicated", or "" (jsonl: everyone's)
	QA        int
	Claims    int
	Items     map[string]int // rows of the other configs ("queries": 12)
	Labels    int            // jsonl --labels-only, prodigy: label lines
	Field     string         // prodigy: the field exported
	Tables    map[string]int // jsonl backup: rows written, by table
	Languages []string
	Notes     []string // the leftovers of killed exports cleaned up (or left) first
}

// HF split names are word characters, dot-separated (the Hub refuses others).
var splitName = regexp.MustCompile(`^\w+(\.\w+)*$`)

type exporter struct {
	ctx    context.Context
	s      *store.Store
	snap   *store.ReadTx
	views  []*store.ReadTx // snap and the backup's other views of the same commit
	o      Options
	prog   *progress
	create func(string) (io.WriteCloser, error)
	labels store.LabelSet
	who    string // the label set as rows name it
	// suggested: the label set has labels made with a suggestion
	// (suggested.go), once suggestedKnown.
	suggested, suggestedKnown bool
	suggestedErr              error
	systems                   []string
	res                       Result
}

// GCPercent is the garbage collector's target that `annotate export` runs
// with, unless GOGC says otherwise: the heap may grow a quarter past what
// is live, not double (Go's default). An export's live heap is small and
// the same at any size (a batch of rows, the writers' buffers), its
// garbage large (every row is built and dropped), so the default lets the
// heap of a long export settle at twice what a short one reaches; a
// collection every quarter costs no time that shows beside the reading and
// writing. The command sets it for its whole process: a library call
// cannot, as two exports in one process would put back each other's.
const GCPercent = 25

// ReadPragmas are the connection settings `annotate export` opens the
// database with for o (store.OpenWith): every connection's page cache held
// to 400 KiB, a fifth of SQLite's default, for every format but the backup,
// which keeps the default. The default takes about 10 MB of memory a
// connection once a long read has filled it (every page with its header,
// in the allocator's rounded blocks), where a small database never fills
// it, so the caches of the export's view and of the card's reports were
// most of what an export's memory grew by from a small database to a large
// one. A stream reads each page once, and the pages it comes back to (an
// index's upper levels) fit in a small cache: the streams read at the same
// speed with it.
func ReadPragmas(o Options) []string {
	if o.backup() {
		return nil
	}
	return []string{"cache_size(-400)"}
}

// Export writes the database s as o.Format into o.Out.
func Export(ctx context.Context, s *store.Store, o Options) (Result, error) {
	return exportBy(ctx, s, o, nil)
}

// exportBy is Export with the folder's files written by write instead of
// the format's writer when write is not nil: the streamed writers' tests
// hold each to the obvious writer it replaced, around the same setup.
func exportBy(ctx context.Context, s *store.Store, o Options, write func(e *exporter, dir string) error) (Result, error) {
	o = withDefaults(o)
	if err := check(o); err != nil {
		return Result{}, err
	}
	// What killed exports into the same --out left behind goes first: it
	// may even be the previous export to put back.
	notes := cleanStale(o.Out, time.Now())
	if err := checkOut(o.Out, o.Force); err != nil { // before any reading: fail fast
		if len(notes) > 0 {
			err = fmt.Errorf("%w (first %s)", err, strings.Join(notes, "; "))
		}
		return Result{Notes: notes}, err
	}
	e := &exporter{ctx: ctx, s: s, o: o, prog: newProgress(o.Progress), create: o.create,
		res: Result{Dir: o.Out, Format: o.Format, Notes: notes}}
	if e.create == nil {
		e.create = osCreate
	}
	// The backup reads its tables on two connections of one commit (the
	// second core); every other format reads one view.
	readers := 1
	if e.Backup() {
		readers = backupReaders
	}
	views, err := s.Snapshots(readers)
	if err != nil {
		return Result{}, err
	}
	defer func() {
		for _, v := range views {
			v.Close()
		}
	}()
	e.snap, e.views = views[0], views
	if err := e.chooseLabels(); err != nil {
		return Result{}, err
	}
	if e.systems, err = e.snap.Systems(); err != nil {
		return Result{}, err
	}
	fill := map[string]func(string) error{"hf": e.hf, "jsonl": e.native, "csv": e.csv,
		"label-studio": e.labelStudio, "prodigy": e.prodigy, "trec": e.trec}[o.Format]
	if e.Backup() {
		fill = e.backup
	}
	if write != nil {
		fill = func(dir string) error { return write(e, dir) }
	}
	if err := writeFolder(o.Out, o.Force, fill); err != nil {
		return Result{}, err
	}
	return e.res, nil
}

func withDefaults(o Options) Options {
	if o.Format == "" {
		o.Format = "hf"
	}
	if o.DataFormat == "" && o.Format == "hf" {
		o.DataFormat = DataParquet
	}
	if o.Split == "" {
		o.Split = DefaultSplit
	}
	if o.License == "" {
		o.License = DefaultLicense
	}
	if o.Name == "" {
		o.Name = DefaultName
	}
	return o
}

func check(o Options) error {
	switch {
	case !slices.Contains(Formats, o.Format):
		return fmt.Errorf("--format %q: want %s", o.Format, strings.Join(Formats, ", "))
	case o.Out == "":
		return errors.New("--out DIR is required")
	case !splitName.MatchString(o.Split):
		return fmt.Errorf("--split %q: a split name is letters, digits and underscores, optionally dot-separated (e.g. test, train, validation)", o.Split)
	case o.WithNotes && o.Format == "jsonl":
		return errors.New("--with-notes applies to --format hf and csv (the jsonl backup holds the notes already; the --labels-only pair has none)")
	case o.LabelsOnly && o.Format != "jsonl":
		return errors.New("--labels-only applies to --format jsonl")
	case o.AllAnnotators && o.Format != "hf":
		return errors.New("--all-annotators applies to --format hf (the other formats carry every annotator's labels already, or one label set: --annotator, --adjudicated)")
	case o.EmailMap != "" && o.Format != "label-studio":
		return errors.New("--email-map applies to --format label-studio")
	case (o.LicenseName != "" || o.LicenseLink != "") && o.Format != "hf":
		return errors.New("--license-name and --license-link apply to --format hf (the dataset card)")
	case o.DataFormat != "" && o.Format != "hf":
		return fmt.Errorf("--data-format applies to --format hf only")
	case o.Format == "hf" && o.DataFormat != DataParquet && o.DataFormat != DataJSONL:
		return fmt.Errorf("--data-format %q: want parquet or jsonl", o.DataFormat)
	case o.Format == "hf":
		if err := checkCardText("--name", o.Name); err != nil {
			return err
		}
		if o.Contact != "" {
			if err := checkCardText("--contact", o.Contact); err != nil {
				return err
			}
		}
		return checkLicenseOther(o)
	case o.Format == "prodigy":
		return checkProdigyField(o.Field)
	case o.Field != "":
		return errors.New("--field applies to --format prodigy")
	}
	return nil
}

// Backup is true when the export is the lossless backup: --format jsonl
// without --labels-only, --annotator or --adjudicated (which choose the
// native items and labels pair, as before).
func (e *exporter) Backup() bool { return e.o.backup() }

func (o Options) backup() bool {
	return o.Format == "jsonl" && !o.LabelsOnly && o.Annotator == "" && !o.Adjudicated
}

// chooseLabels applies the reports' rule: --annotator, --adjudicated, else
// the only annotator. The native format exports everyone's labels unless one
// set is asked for.
func (e *exporter) chooseLabels() error {
	if e.o.Format == "label-studio" || e.o.Format == "prodigy" {
		return nil // every annotator's labels, as the tools keep them
	}
	if e.o.Format == "jsonl" && e.o.Annotator == "" && !e.o.Adjudicated {
		return nil
	}
	if e.o.Format == "hf" && e.o.Annotator == "" && !e.o.Adjudicated {
		// Nobody has labelled yet (items only, or only the gold set's
		// judgments): the items are published with null labels.
		who, err := e.snap.LabelledAnnotators()
		if err != nil {
			return err
		}
		if len(who) == 0 {
			return nil
		}
	}
	ls, err := selectLabels(e.snap, e.o.Annotator, e.o.Adjudicated)
	if err != nil && e.o.AllAnnotators && e.o.Annotator == "" && !e.o.Adjudicated {
		// Several label sets and none chosen: the items' own configs carry
		// no labels; every set is in the _by_annotator configs.
		e.res.Notes = append(e.res.Notes, fmt.Sprintf("the items' own configs carry no labels (%v); every label set is in the *%s configs", err, byAnnotatorSuffix))
		return nil
	}
	if err != nil && e.o.Format == "trec" && e.o.Annotator == "" && !e.o.Adjudicated {
		// The runs and the gold set need no expert: qrels_after is then the gold set.
		e.res.Notes = append(e.res.Notes, fmt.Sprintf("qrels_after.txt is the gold set alone: %v", err))
		return nil
	}
	if err != nil {
		return err
	}
	e.labels, e.who = ls, ls.Annotator
	if ls.Adjudicated {
		e.who = "adjudicated"
	}
	e.res.LabelSet = e.who
	return nil
}

// each runs fn on every element of a stream, counting progress and checking
// for cancellation (Ctrl-C) every 1024 rows.
func each[T any](e *exporter, seq iter.Seq2[T, error], fn func(T) error) error {
	n := 0
	for v, err := range seq {
		if err != nil {
			return err
		}
		if n++; n&1023 == 0 {
			if err := e.ctx.Err(); err != nil {
				return err
			}
		}
		if err := fn(v); err != nil {
			return err
		}
		e.prog.step()
	}
	return e.ctx.Err()
}

// streamOptions are the store options for rows of layout l.
func (e *exporter) streamOptions(l layout) store.ExportOptions {
	if e.labels.Annotator == "" && !e.labels.Adjudicated {
		return store.ExportOptions{Systems: e.systems} // nobody's labels: all null
	}
	return store.ExportOptions{Labels: e.labels, Fields: labelNames(l.labels), Notes: l.notes, Systems: e.systems, Suggested: l.suggested}
}

var errNothing = errors.New("nothing to export: the database has no items (import data first)")

// counted records the rows written of a kind's config.
func (r *Result) counted(x Kind, n int) {
	if t, ok := x.(totalled); ok {
		*t.total(r) = n
		return
	}
	r.countedConfig(x.Config(), n)
}

// countedConfig records the rows written of a config in Items.
func (r *Result) countedConfig(config string, n int) {
	if r.Items == nil {
		r.Items = map[string]int{}
	}
	r.Items[config] = n
}
