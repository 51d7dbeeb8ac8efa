package exporter

import (
	"path"

	"github.com/annotate-dev/annotate/schema"
	"github.com/annotate-dev/annotate/store"
)

// A Hugging Face dataset folder: one config per item kind, one JSON Lines
// file per config and split, and the card that declares them.

// hfConfig is one config of the dataset as the card declares it.
type hfConfig struct {
	name   string // config_name: "qa", "claims", or a kind's ("queries")
	path   string // data file, relative to the folder
	rows   int
	layout layout
	tally  *tally
	kind   *kindExport // a kind registered in kinds.go; nil for qa and claims
}

func (e *exporter) hf(dir string) error {
	nQA, nClaims, err := e.snap.ExportCounts(false)
	if err != nil {
		return err
	}
	configs := []*hfConfig{
		{name: "qa", rows: nQA, layout: newLayout(schema.KindQA, e.o.WithNotes)},
		{name: "claims", rows: nClaims, layout: newLayout(schema.KindClaim, e.o.WithNotes)},
	}
	for i := range kindExports {
		x := &kindExports[i]
		n, err := e.snap.CountItems(x.kind)
		if err != nil {
			return err
		}
		configs = append(configs, &hfConfig{name: x.config, rows: n, layout: newLayout(x.kind, e.o.WithNotes), kind: x})
	}
	wait := e.startReports()
	var written []*hfConfig
	for _, c := range configs {
		// An empty file would make a config whose features cannot be
		// inferred: a dataset without claims has no claims config.
		if c.rows == 0 {
			continue
		}
		c.path = path.Join("data", c.name, e.o.Split+".jsonl")
		c.tally = newTally(c.layout)
		var n int
		switch {
		case c.kind != nil:
			n, err = e.writeKindJSONL(dir, c)
		case c.name == "qa":
			n, err = e.writeQAJSONL(dir, c)
		default:
			n, err = e.writeClaimsJSONL(dir, c)
		}
		if err != nil {
			if e.ctx.Err() == nil { // on Ctrl-C, do not wait for the reports
				wait()
			}
			return err
		}
		c.rows = n
		written = append(written, c)
	}
	rep := wait()
	if len(written) == 0 {
		return errNothing
	}
	return e.writeCard(dir, written, rep)
}

func (e *exporter) writeQAJSONL(dir string, c *hfConfig) (int, error) {
	f, err := e.openFile(dir, c.path)
	if err != nil {
		return 0, err
	}
	e.prog.begin("qa", c.rows)
	var buf []byte
	n := 0
	err = each(e, e.snap.QAs(e.streamOptions(c.layout)), func(q *store.ExportQA) error {
		r := c.layout.qaRow(q, e.who)
		c.tally.add(r, c.layout.labelOffset())
		buf = c.layout.appendJSON(buf[:0], r)
		n++
		_, err := f.Write(buf)
		return err
	})
	return n, e.finish(f, err, &e.res.QA, n)
}

func (e *exporter) writeClaimsJSONL(dir string, c *hfConfig) (int, error) {
	f, err := e.openFile(dir, c.path)
	if err != nil {
		return 0, err
	}
	e.prog.begin("claims", c.rows)
	var buf []byte
	n := 0
	err = each(e, e.snap.Claims(e.streamOptions(c.layout)), func(cl *store.ExportClaim) error {
		r := c.layout.claimRow(cl, e.systems, e.who)
		c.tally.add(r, c.layout.labelOffset())
		buf = c.layout.appendJSON(buf[:0], r)
		n++
		_, err := f.Write(buf)
		return err
	})
	return n, e.finish(f, err, &e.res.Claims, n)
}

func (e *exporter) writeKindJSONL(dir string, c *hfConfig) (int, error) {
	f, err := e.openFile(dir, c.path)
	if err != nil {
		return 0, err
	}
	e.prog.begin(c.name, c.rows)
	var buf []byte
	n := 0
	err = e.writeKindRows(*c.kind, c.layout, func(r row) error {
		c.tally.add(r, c.layout.labelOffset())
		buf = c.layout.appendJSON(buf[:0], r)
		n++
		_, err := f.Write(buf)
		return err
	})
	var written int
	err = e.finish(f, err, &written, n)
	e.res.counted(c.name, written)
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
	*count = n
	e.res.Files = append(e.res.Files, f.path)
	return nil
}
