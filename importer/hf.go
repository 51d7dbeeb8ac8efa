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

// hfOtherConfigs are the configs of an export read after those of the
// kinds of records of their own (hfRowConfigs), in the order they are read;
// the qrels configs are derived from relevance (the gold set is its rows of
// annotator "gold") and are read past.
var hfOtherConfigs = []string{"queries", "documents", "relevance", "runs", "answers", "gen_answers", "gen_claims"}

// hfRowConfig is the config of a kind of records of its own (kinds_rows.go)
// and the reader of its rows, registered from the kind's file.
type hfRowConfig struct {
	kind   schema.Kind
	config string
	row    func(f *fileData, r *rec) error
}

// hfRowConfigs are in the kinds' order: a claim row's pair is read first.
var hfRowConfigs []hfRowConfig

func registerHFRows(k schema.Kind, config string, row func(f *fileData, r *rec) error) {
	hfRowConfigs = append(hfRowConfigs, hfRowConfig{k, config, row})
	slices.SortStableFunc(hfRowConfigs, func(a, b hfRowConfig) int { return kindOrder(a.kind) - kindOrder(b.kind) })
}

// hfConfigs are the configs of an export, in the order they are read: the
// long configs of --all-annotators last, once their items are in.
func hfConfigs() []string {
	var out []string
	for _, c := range hfRowConfigs {
		out = append(out, c.config)
	}
	out = append(out, hfOtherConfigs...)
	for _, c := range slices.Clone(out) {
		if k, ok := hfKindOfConfig(c); ok && schema.SpecOf(k).Annotated && c != "relevance" {
			out = append(out, c+byAnnotatorSuffix)
		}
	}
	return out
}

// byAnnotatorSuffix names the configs of `export --all-annotators`: one row
// per item and label set, read as the labels of the row's annotator on the
// item the kind's own config holds.
const byAnnotatorSuffix = "_by_annotator"

// hfKindOfConfig is the kind whose items a config holds.
func hfKindOfConfig(config string) (schema.Kind, bool) {
	if i := slices.IndexFunc(hfRowConfigs, func(c hfRowConfig) bool { return c.config == config }); i >= 0 {
		return hfRowConfigs[i].kind, true
	}
	k, ok := hfKinds[config]
	return k.kind, ok
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
// reader (hfRowConfigs), the other kinds' rows (hf_kinds.go) and the runs
// (hf_runs.go) under theirs.
func parseHF(f *fileData, t *textReader) error {
	config := hfConfigOf(f.name)
	var row func(*rec) error
	end := func() error { return nil }
	switch config {
	case "runs":
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
		if i := slices.IndexFunc(hfRowConfigs, func(c hfRowConfig) bool { return c.config == config }); i >= 0 {
			rc := hfRowConfigs[i]
			row = func(r *rec) error { return rc.row(f, r) }
			break
		}
		k, ok := hfKinds[config]
		if !ok {
			return fileLoc(f.name).errf("", "unknown config %q", config)
		}
		seen := map[string]bool{} // relevance: one row per judgment, several per pair
		row = func(r *rec) error { return f.hfKindRow(k, r, seen) }
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
		if json.Unmarshal(raw, &n) != nil {
			return "", r.errf(name, "want a label value, got %s", kind(raw))
		}
		r.get(name)
		return strconv.FormatInt(n, 10), nil
	}
	return r.labelValue(name)
}
