package exporter

import (
	"errors"
	"path"
	"slices"
)

// A Hugging Face dataset folder: one config per item kind, one data file
// per config and split (Parquet, or JSON Lines with --data-format jsonl),
// and the card that declares them.

// hfConfig is one config of the dataset as the card declares it.
type hfConfig struct {
	name   string // config_name: the kind's ("queries")
	path   string // data file, relative to the folder
	rows   int
	layout layout
	tally  *tally
	kind   Kind            // the kind's config (kinds.go)
	plain  map[string]bool // label columns written as plain strings (hf_features.go)
	// byAnnotator: a long config of --all-annotators (hf_annotators.go),
	// the kind whose items it holds once per label set in sets; kind is
	// nil then, so the card writes the kind's sections once.
	byAnnotator Kind
	sets        []*labelSetRows
}

func (e *exporter) hf(dir string) error {
	var configs []*hfConfig
	for _, x := range kinds {
		n, err := e.rowCount(x)
		if err != nil {
			return err
		}
		l, err := e.layoutOf(x)
		if err != nil {
			return err
		}
		configs = append(configs, &hfConfig{name: x.Config(), rows: n, layout: l, kind: x})
	}
	if e.o.AllAnnotators {
		long, err := e.byAnnotatorConfigs()
		if err != nil {
			return err
		}
		configs = append(configs, long...)
	}
	readReports := e.reportsReader(configs)
	var written []*hfConfig
	for _, c := range configs {
		// An empty file would make a config whose features cannot be
		// inferred: a dataset without claims has no claims config.
		if c.rows == 0 {
			continue
		}
		c.path = path.Join("data", c.name, e.o.Split+"."+e.o.DataFormat)
		var n int
		var err error
		for {
			c.tally = newTally(c.layout)
			n, err = e.writeKindData(dir, c)
			// A label value outside the schema: that column is a plain
			// string, and the file is written again (rare: the importer
			// keeps such values only from files that carry them).
			var oc *outOfClass
			if !errors.As(err, &oc) || c.plain[oc.column] {
				break
			}
			if c.plain == nil {
				c.plain = map[string]bool{}
			}
			c.plain[oc.column] = true
			e.res.Files = slices.DeleteFunc(e.res.Files, func(f string) bool { return f == c.path })
		}
		if err != nil {
			return err
		}
		c.rows = n
		if n == 0 { // a long config whose every label was dropped
			if err := e.dropEmpty(dir, c); err != nil {
				return err
			}
			continue
		}
		written = append(written, c)
	}
	if len(written) == 0 {
		return errNothing
	}
	return e.writeCard(dir, written, readReports())
}

// rowSink writes the rows of one data file in the export's data format.
type rowSink struct {
	f     *sink
	buf   []byte
	c     *hfConfig
	feats []feature
	pq    *parquetRows
}

func (e *exporter) openRows(dir string, c *hfConfig) (*rowSink, error) {
	f, err := e.openFile(dir, c.path)
	if err != nil {
		return nil, err
	}
	w := &rowSink{f: f, c: c, feats: c.features(e.systems)}
	if e.o.DataFormat == DataParquet {
		if w.pq, err = newParquetRows(f, c.name, c.layout, w.feats, e.systems); err != nil {
			f.Close()
			return nil, err
		}
	}
	return w, nil
}

func (w *rowSink) write(r row) error {
	if w.pq != nil {
		return w.pq.write(r)
	}
	// JSON Lines keep the names; a value outside a column's classes
	// makes it a plain string in the card.
	for i, f := range w.feats {
		if v, ok := r[i].(string); ok && f.classes != nil && classCode(f.classes, v) < 0 {
			if w.c.plain == nil {
				w.c.plain = map[string]bool{}
			}
			w.c.plain[w.c.layout.cols[i].Key] = true
			w.feats[i] = fString
		}
	}
	w.buf = w.c.layout.appendJSON(w.buf[:0], r)
	_, err := w.f.Write(w.buf)
	return err
}

// end writes what follows the rows (Parquet's footer) after a success.
func (w *rowSink) end(err error) error {
	if err == nil && w.pq != nil {
		err = w.pq.close()
	}
	return err
}

func (e *exporter) writeKindData(dir string, c *hfConfig) (int, error) {
	w, err := e.openRows(dir, c)
	if err != nil {
		return 0, err
	}
	e.prog.begin(c.name, c.rows)
	n := 0
	put := func(r row) error {
		c.tally.add(r, c.layout.labelOffset())
		n++
		return w.write(r)
	}
	if c.byAnnotator != nil {
		for _, s := range c.sets {
			s.rows = 0 // the file may be written again (outOfClass)
		}
		err = e.writeByAnnotatorRows(c, put)
	} else {
		err = e.writeKindRows(c.kind, c.layout, put)
	}
	var written int
	err = e.finish(w.f, w.end(err), &written, n)
	if c.byAnnotator != nil {
		e.res.countedConfig(c.name, written)
	} else {
		e.res.counted(c.kind, written)
	}
	return n, err
}

// finish closes a data file after its rows, records it and its row count,
// and returns the first error.
func (e *exporter) finish(f *sink, err error, count *int, n int) error {
	cerr := f.Close()
	if err == nil {
		err = cerr
	}
	if err != nil {
		return err
	}
	e.prog.end()
	if count != nil { // nil: the writers counted their rows
		*count = n
	}
	e.res.Files = append(e.res.Files, f.path)
	return nil
}
