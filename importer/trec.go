package importer

import (
	"bytes"
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
	"unsafe"

	"github.com/annotate-dev/annotate/store"
)

// TREC run and qrels files (docs/formats.md, docs/relevance.md): plain text,
// whitespace-separated columns, one line per result or judgment. Detection
// never guesses them: they are imported with --format trec-run or --format
// qrels, and a file that looks like one without --format is refused with
// the flag to give.
//
//   - run:   qid Q0 docid rank score tag. The tag names the run (--run NAME
//     instead). A run is ranked as trec_eval ranks it: by score, ties by
//     document id descending, the rank column ignored (store.RunFields
//     ByScore). A docid may be a chunk id: it stands for its document, which
//     keeps its best score; ranks are renumbered 1..n per query. Lines are
//     staged in the transaction and written once every file is read
//     (store.Tx.WriteRuns), so queries and documents may come from another
//     file of the same import.
//   - qrels: qid 0 docid rel. Each line is a relevance item "qid/docid"
//     (created as needed) with labels of annotator gold (--annotator):
//     relevance (relevant when rel > 0) and relevance_grade (rel), read
//     by kind_relevance_qrels.go.

// Formats of this file.
const (
	FormatTRECRun = "trec-run"
	FormatQrels   = "qrels"
)

// GoldAnnotator records qrels imported without --annotator: the gold set.
const GoldAnnotator = store.GoldAnnotator

func init() {
	parsers[FormatTRECRun] = parseRun
	parsers[FormatQrels] = parseQrels
	Formats = append(Formats, FormatTRECRun, FormatQrels)
}

// runSeen is where a run was first met in an import.
type runSeen struct {
	file, line int
}

// columns splits a line on whitespace, requiring n columns named by names.
func columns(at loc, line []byte, names string) ([]string, error) {
	want := strings.Fields(names)
	got := strings.Fields(string(line))
	if len(got) != len(want) {
		return nil, at.errf("", "want %d whitespace-separated columns (%s), got %d", len(want), names, len(got))
	}
	for i, v := range got {
		if err := printable(at, want[i], "the "+want[i], v); err != nil {
			return nil, err
		}
	}
	return got, nil
}

// parseRun reads a TREC run file into the import's staged run lines. A
// line of printable ASCII (nearly every line of a run) is split and parsed
// on its bytes, without a string per column; any other line goes the way
// of columns, which names what is wrong.
func parseRun(f *fileData, t *textReader) error {
	w, ok := f.out.(*writer)
	if !ok {
		return errors.New("importer: a run is read by an import")
	}
	single := ""       // the one tag --run stands for
	var lastTag []byte // the tag of the line before, when it was staged
	var lastRun []byte // the run it stands for
	var cols [6][]byte
	return t.eachLine(func(at loc, line []byte) error {
		if !asciiColumns(line, &cols) {
			c, err := columns(at, line, "qid Q0 docid rank score tag")
			if err != nil {
				return err
			}
			for i := range cols {
				cols[i] = []byte(c[i])
			}
		}
		rank, ok := atoiBytes(cols[3])
		if !ok {
			return at.errf("rank", "want an integer, got %q", cols[3])
		}
		score, err := strconv.ParseFloat(unsafe.String(unsafe.SliceData(cols[4]), len(cols[4])), 64)
		if err != nil || math.IsNaN(score) || math.IsInf(score, 0) {
			return at.errf("score", "want a finite number, got %q", string(cols[4]))
		}
		tag := cols[5]
		if lastTag == nil || string(tag) != string(lastTag) {
			run := string(tag)
			if f.opt.Run != "" {
				if single != "" && single != run {
					return at.errf("tag", "--run %q names one run, but this file has the runs %q and %q: leave --run out to import them by tag", f.opt.Run, single, run)
				}
				single, run = run, f.opt.Run
			}
			if w.runs == nil {
				if err := w.tx.BeginRuns(); err != nil {
					return err
				}
				w.runs = map[string]runSeen{}
			}
			if prev, met := w.runs[run]; !met {
				w.runs[run] = runSeen{f.idx, at.line}
			} else if prev.file != f.idx {
				return at.errf("tag", "run %q is also in %s: a run comes from one file", run, loc{file: w.name(prev.file), line: prev.line}.String())
			}
			lastTag, lastRun = append(lastTag[:0:0], tag...), []byte(run)
		}
		return w.tx.StageRunLine(lastRun, cols[0], cols[2], rank, score, true, f.idx, at.line)
	})
}

// asciiColumns splits a line of printable ASCII and ASCII blanks into its
// six whitespace-separated columns; false for any other line (then columns
// splits it, or says why not).
func asciiColumns(line []byte, cols *[6][]byte) bool {
	n := 0
	start := -1
	for i, c := range line {
		switch {
		case c == ' ' || c == '\t' || c == '\v' || c == '\f' || c == '\r':
			if start >= 0 {
				if n == 6 {
					return false
				}
				cols[n], n, start = line[start:i], n+1, -1
			}
		case c > ' ' && c < 0x7f:
			if start < 0 {
				start = i
			}
		default:
			return false
		}
	}
	if start >= 0 {
		if n == 6 {
			return false
		}
		cols[n], n = line[start:], n+1
	}
	return n == 6
}

// atoiBytes is strconv.Atoi on bytes.
func atoiBytes(b []byte) (int, bool) {
	if len(b) > 0 && len(b) < 19 {
		neg := b[0] == '-'
		d := b
		if b[0] == '-' || b[0] == '+' {
			d = b[1:]
		}
		n := 0
		for _, c := range d {
			if c < '0' || c > '9' {
				return 0, false
			}
			n = n*10 + int(c-'0')
		}
		if len(d) > 0 {
			if neg {
				n = -n
			}
			return n, true
		}
		return 0, false
	}
	n, err := strconv.Atoi(string(b))
	return n, err == nil
}

// writeRuns writes the runs staged by every file of the import.
func (w *writer) writeRuns() error {
	if w.runs == nil {
		return nil
	}
	written, err := w.tx.WriteRuns(w.opt.Update, w.name)
	var re *store.RunRowError
	if errors.As(err, &re) {
		e := lineLoc(w.name(re.File), re.Line).errf(re.Field, "%s", re.Msg)
		e.Err = re.Err
		return e
	}
	if err != nil {
		return err
	}
	for _, r := range written {
		f := w.files[r.File]
		f.sum.Runs = append(f.sum.Runs, RunSummary{Name: r.Name, Queries: r.Queries, Results: r.Results, Status: putStatus(r.Res)})
	}
	return nil
}

func putStatus(r store.PutResult) string {
	switch r {
	case store.Unchanged:
		return "unchanged"
	case store.Updated:
		return "updated"
	}
	return "added"
}

// textFormatHint says which --format a file that is not JSON may need: the
// TREC formats are never detected, but a user who forgot the flag is told.
func textFormatHint(t *textReader) string {
	line, _, err := t.readLine(maxRecord)
	if err != nil && len(line) == 0 {
		return ""
	}
	c := strings.Fields(string(bytes.TrimSpace(line)))
	_, rankErr := func() (int, error) {
		if len(c) < 4 {
			return 0, errors.New("short")
		}
		return strconv.Atoi(c[3])
	}()
	switch {
	case len(c) == 6 && rankErr == nil:
		return fmt.Sprintf("this looks like a TREC run (qid Q0 docid rank score tag): detection never guesses text formats, import it with --format %s", FormatTRECRun)
	case len(c) == 4 && rankErr == nil:
		return fmt.Sprintf("this looks like TREC qrels (qid 0 docid rel): detection never guesses text formats, import it with --format %s", FormatQrels)
	}
	return ""
}

// RunSummary is what an import did with one run.
type RunSummary struct {
	Name    string `json:"name"`
	Queries int    `json:"queries"`
	Results int    `json:"results"` // (query, document) rows after chunks were mapped
	Status  string `json:"status"`  // added, unchanged, updated
}

func (r RunSummary) String() string {
	return fmt.Sprintf("run %s %s (%s, %s)", quoted(r.Name), r.Status, plural2(r.Queries, "query", "queries"), plural2(r.Results, "ranked document", "ranked documents"))
}
