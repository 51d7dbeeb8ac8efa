package importer

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/annotate-dev/annotate/schema"
)

// The Hugging Face folder of `annotate export --format hf`: data/<config>/
// <split>.parquet or .jsonl (every split is read), one row per item (per
// judgment for relevance) with the labels of one label set as columns (see
// exporter/rows.go); hf_kinds.go reads the configs beyond qa and claims. Reading one back gives the same items, the predictions,
// the annotator-added claims (with the claim_added label of who added them)
// and that label set's labels; importing the exports of several annotators
// gives all of theirs, and the long configs of --all-annotators
// (<config>_by_annotator, read last) every label set of one folder. Columns
// that only repeat something (the pair's text on a claim row, claim_ids,
// notes) are read past.

// AdjudicatedName is the annotator column of rows that carry adjudicated
// labels; they are imported as adjudications by --annotator, or by an
// annotator of this name when none is given.
const AdjudicatedName = "adjudicated"

// hfRowReader is a kind of records of its own (kinds_rows.go) that reads
// the rows of its config (HFConfig) itself.
type hfRowReader interface {
	hfRow(f *fileData, r *rec) error
}

// hfRunsConfig is the config of the systems' runs (hf_runs.go), read after
// the kinds' configs: the queries and documents they rank are in.
const hfRunsConfig = "runs"

// HFReadAfter is a kind whose config is read after those of other kinds:
// the kinds of the items its items need (a relevance pair's query and
// document), which its items would otherwise wait for, held until every
// line is read.
type HFReadAfter interface {
	HFReadAfter() []schema.Kind
}

// hfConfigs are the configs of an export, in the order they are read: in
// the kinds' order those of the kinds of records of their own (a claim
// row's pair is read first), then the other kinds' (each after those it
// reads after: HFReadAfter), the runs, and the long configs of
// --all-annotators last, once their items are in. The qrels configs are
// derived from relevance (the gold set is its rows of annotator "gold")
// and are read past.
func hfConfigs() []string {
	var out []string
	for _, rows := range []bool{true, false} {
		var left []Kind
		for _, k := range hfOrder {
			if _, ok := k.(hfRowReader); ok == rows {
				left = append(left, k)
			}
		}
		read := map[schema.Kind]bool{}
		for len(left) > 0 {
			// The first kind, in the kinds' order, whose kinds to read
			// after are read (or not among these); the first left when
			// none is (a cycle: the order is then the kinds').
			i := slices.IndexFunc(left, func(k Kind) bool {
				a, ok := k.(HFReadAfter)
				return !ok || !slices.ContainsFunc(a.HFReadAfter(), func(b schema.Kind) bool {
					return !read[b] && slices.ContainsFunc(left, func(l Kind) bool { return l.Kind() == b })
				})
			})
			i = max(i, 0)
			read[left[i].Kind()] = true
			out = append(out, left[i].(HFConfig).HFConfig())
			left = slices.Delete(left, i, i+1)
		}
	}
	out = append(out, hfRunsConfig)
	for _, c := range slices.Clone(out) {
		k, ok := hfKindOfConfig(c)
		if _, long := kinds.Get(k).(HFLabelSetRows); ok && schema.SpecOf(k).Annotated && !long {
			out = append(out, c+byAnnotatorSuffix)
		}
	}
	return out
}

// HFLabelSetRows is a kind whose config already holds a row per label set
// (relevance: one per judgment), so it has no --all-annotators config.
type HFLabelSetRows interface {
	HFRowPerLabelSet()
}

// byAnnotatorSuffix names the configs of `export --all-annotators`: one row
// per item and label set, read as the labels of the row's annotator on the
// item the kind's own config holds.
const byAnnotatorSuffix = "_by_annotator"

// hfKindOfConfig is the kind whose items a config holds.
func hfKindOfConfig(config string) (schema.Kind, bool) {
	for _, k := range hfOrder {
		if k.(HFConfig).HFConfig() == config {
			return k.Kind(), true
		}
	}
	return "", false
}

// hfByAnnotatorRow reads a row of a long config: the labels of its
// annotator on the item of its id; the item's own columns are read past
// (its config has them).
func (f *fileData) hfByAnnotatorRow(k schema.Kind, r *rec) error {
	id, err := r.needID("id")
	if err != nil {
		return err
	}
	var fields []string
	for _, fd := range schema.KindFields(k) {
		if _, ok := r.m[fd.Name]; ok {
			fields = append(fields, fd.Name)
		}
	}
	for key := range r.m {
		if key != "annotator" && !slices.Contains(fields, key) {
			r.used[key] = true // read past
		}
	}
	return f.hfLabels(r, id, k, fields)
}

var hfDerived = map[string]bool{"qrels_before": true, "qrels_after": true}

// hfFiles returns the data files of an exported hf folder (Parquet or JSON
// Lines, every split), config by config, or nil when dir is not one. A
// config folder it does not know is an error, not something skipped.
func hfFiles(dir string) ([]string, error) {
	dirs, err := os.ReadDir(filepath.Join(dir, "data"))
	if err != nil || len(dirs) == 0 {
		return nil, nil
	}
	configs := hfConfigs()
	known := map[string]bool{}
	for _, c := range configs {
		known[c] = true
	}
	var out []string
	for _, d := range dirs {
		if d.IsDir() && !known[d.Name()] && !hfDerived[d.Name()] {
			return nil, fmt.Errorf("%s: unknown config %q (an annotate export has %s; qrels_before and qrels_after are derived)",
				filepath.Join(dir, "data", d.Name()), d.Name(), strings.Join(configs, ", "))
		}
	}
	for _, config := range configs {
		for _, ext := range []string{"*.parquet", "*.jsonl"} {
			names, err := filepath.Glob(filepath.Join(dir, "data", config, ext))
			if err != nil {
				return nil, err
			}
			sort.Strings(names)
			out = append(out, names...)
		}
	}
	return out, nil
}

// hfConfigOf is the config of an hf data file: its folder's name.
func hfConfigOf(name string) string { return filepath.Base(filepath.Dir(name)) }

// parseHF reads one data file of an exported hf folder, the config named
// by its folder: the rows of a kind of records of its own by its kind's
// reader (hfRowReader), the other kinds' rows (hf_kinds.go) and the runs
// (hf_runs.go) under theirs.
func parseHF(f *fileData, t *textReader) error {
	config := hfConfigOf(f.name)
	var row func(*rec) error
	end := func() error { return nil }
	switch config {
	case hfRunsConfig:
		h, err := f.hfRuns()
		if err != nil {
			return err
		}
		row, end = h.row, h.end
	default:
		if base, ok := strings.CutSuffix(config, byAnnotatorSuffix); ok {
			k, _ := hfKindOfConfig(base) // hfFiles knows the config
			row = func(r *rec) error { return f.hfByAnnotatorRow(k, r) }
			break
		}
		k, _ := hfKindOfConfig(config)
		switch kind := kinds.Get(k).(type) {
		case hfRowReader:
			row = func(r *rec) error { return kind.hfRow(f, r) }
		case NativeLine:
			seen := map[string]bool{} // relevance: one row per judgment, several per pair
			row = func(r *rec) error { return f.hfKindRow(kinds.Get(k), kind, r, seen) }
		default:
			return fileLoc(f.name).errf("", "unknown config %q", config)
		}
	}
	var err error
	if strings.HasSuffix(f.name, ".parquet") {
		err = f.eachParquetRow(row)
	} else {
		err = t.eachLine(func(at loc, line []byte) error {
			m, err := object(at, line)
			if err != nil {
				return err
			}
			return row(newRec(at, "", m))
		})
	}
	if err != nil {
		return err
	}
	return end()
}

// hfLabels reads the label columns of a row as labels of its annotator column.
func (f *fileData) hfLabels(r *rec, item string, k schema.Kind, fields []string) error {
	who, err := r.str("annotator")
	if err != nil {
		return err
	}
	adjudicated := who == AdjudicatedName
	if adjudicated && f.opt.Annotator != "" {
		who = f.opt.Annotator
	}
	if who == "" {
		who = f.opt.Annotator
	}
	r.get("notes")
	for _, name := range fields {
		v, err := hfLabelValue(r, name)
		if err != nil {
			return err
		}
		if v == "" {
			continue
		}
		if who == "" {
			return r.errf("annotator", "missing: whose labels are these? (or give --annotator)")
		}
		l := labelRec{at: r.at, field: name, itemField: "id", annotator: who, who: "annotator", item: item, name: name, value: v, adjudicate: adjudicated}
		if err := f.addLabel(l, k); err != nil {
			return err
		}
	}
	keys, _ := r.unknown()
	f.unknownKeys("", keys)
	return nil
}

func fieldNames(k schema.Kind) []string {
	var out []string
	for _, fd := range schema.Fields(k) {
		out = append(out, fd.Name)
	}
	return out
}

// hfLabelValue reads a label column: a string, a list (a multi-valued
// field) or an integer (relevance_grade), "" when null.
func hfLabelValue(r *rec, name string) (string, error) {
	if raw := r.m[name]; len(raw) > 0 && (raw[0] == '-' || raw[0] >= '0' && raw[0] <= '9') {
		var n int64
		if json.Unmarshal(raw, &n) == nil {
			r.get(name)
			return strconv.FormatInt(n, 10), nil
		}
		// Not an integer: an interval field's number (a float64 column),
		// which labelValue takes, or refused there.
	}
	return r.labelValue(name, name)
}
