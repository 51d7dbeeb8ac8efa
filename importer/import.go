// Package importer reads the import formats of DESIGN.md ("Import formats")
// into the store, all files of one invocation in one transaction: any error
// leaves the database unchanged. Every file is parsed and checked completely
// before the transaction opens; errors name the file, the line (JSONL) or
// record index (JSON) and the field (see InputError).
package importer

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/annotate-dev/annotate/schema"
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
	// GuidelinesVersion is recorded with every imported label.
	GuidelinesVersion string
}

// sourceDefaults are the language and jurisdiction of the sources of the
// ClaimRAG-LAW benchmark, for files that do not say.
var sourceDefaults = map[string][2]string{
	"GDPR":  {"en", "EU"},
	"CIVIL": {"fr", "LU"},
}

// Import imports files (a directory is an exported folder) in one transaction.
func Import(s *store.Store, files []string, opt Options) (Summary, error) {
	if err := checkFormat(opt.Format); err != nil {
		return Summary{}, err
	}
	if len(files) == 0 {
		return Summary{}, errors.New("no file to import")
	}
	var parsed []*fileData
	for _, name := range files {
		fds, err := parsePath(name, opt)
		if err != nil {
			return Summary{}, err
		}
		parsed = append(parsed, fds...)
	}
	return run(s, parsed, opt)
}

// ImportReader imports one file given as bytes (e.g. embedded demo data);
// name is used for messages, for detection by name (ClaimRAG-LAW source) and
// for id prefixes.
func ImportReader(s *store.Store, name string, data []byte, opt Options) (Summary, error) {
	if err := checkFormat(opt.Format); err != nil {
		return Summary{}, err
	}
	if opt.Format == FormatHF {
		return Summary{}, fmt.Errorf("%s: format hf is a folder, not a file", name)
	}
	f, err := parseData(name, data, opt.Format, opt)
	if err != nil {
		return Summary{}, err
	}
	return run(s, []*fileData{f}, opt)
}

func checkFormat(format string) error {
	if format == "" {
		return nil
	}
	for _, f := range Formats {
		if f == format {
			return nil
		}
	}
	return fmt.Errorf("unknown format %q (known: %s)", format, strings.Join(Formats, ", "))
}

func parsePath(name string, opt Options) ([]*fileData, error) {
	st, err := os.Stat(name)
	if err != nil {
		return nil, err
	}
	if st.IsDir() {
		if opt.Format != "" && opt.Format != FormatHF {
			return nil, fmt.Errorf("%s: a folder can only be imported as format hf, not %s", name, opt.Format)
		}
		return parseFolder(name, opt)
	}
	if opt.Format == FormatHF {
		return nil, fmt.Errorf("%s: format hf is a folder made by annotate export, not a file", name)
	}
	data, err := os.ReadFile(name)
	if err != nil {
		return nil, err
	}
	f, err := parseData(name, data, opt.Format, opt)
	if err != nil {
		return nil, err
	}
	return []*fileData{f}, nil
}

// parseFolder reads an exported folder: the data/qa and data/claims rows of
// an hf export (hf.go), else the native JSONL files in it (items and labels,
// as annotate export --format jsonl writes them), in name order.
func parseFolder(dir string, opt Options) ([]*fileData, error) {
	if hf, err := hfFiles(dir); err != nil || len(hf) > 0 {
		if err != nil {
			return nil, err
		}
		return parseHF(dir, opt) // hf.go
	}
	var names []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
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
	var out []*fileData
	for _, name := range names {
		data, err := os.ReadFile(name)
		if err != nil {
			return nil, err
		}
		clean, err := clean(name, data)
		if err != nil {
			return nil, err
		}
		format, err := detect(name, clean)
		if err != nil {
			return nil, err
		}
		if format != FormatNative && format != FormatLabels {
			return nil, fmt.Errorf("%s: found %s data in an exported folder; want native items or labels JSONL", name, format)
		}
		f := newFile(name, format, opt)
		if err := parsers[format](f, clean); err != nil {
			return nil, err
		}
		out = append(out, f)
	}
	return out, nil
}

// parseData parses one file in the given format, "" to detect it.
func parseData(name string, data []byte, format string, opt Options) (*fileData, error) {
	data, err := clean(name, data)
	if err != nil {
		return nil, err
	}
	if format == "" {
		if format, err = detect(name, data); err != nil {
			return nil, err
		}
	}
	f := newFile(name, format, opt)
	if err := parsers[format](f, data); err != nil {
		return nil, err
	}
	return f, nil
}

// item is an item known to this import.
type item struct {
	at   loc
	kind schema.Kind
	hash string
	id   int64
}

// crossCheck relates the files of one invocation before the transaction: an
// id given twice must name the same content (the later copy is skipped), a
// secondary copy yields to its master, labels must fit their item's kind.
func crossCheck(files []*fileData) (map[string]*item, error) {
	known := map[string]*item{}
	ctx := map[string]string{}
	ctxAt := map[string]loc{}
	seen := func(at loc, field, id string, k schema.Kind, hash string) (bool, error) {
		it, ok := known[id]
		switch {
		case !ok:
			known[id] = &item{at: at, kind: k, hash: hash}
			return false, nil
		case it.kind != k:
			return false, at.errf(field, "id %q is also %s at %s", id, kindName(it.kind), it.at)
		case it.hash != hash:
			return false, at.errf(field, "id %q is also at %s with different content", id, it.at)
		}
		return true, nil
	}
	// Masters first, so a secondary copy listed earlier still yields.
	for _, secondary := range []bool{false, true} {
		for _, f := range files {
			for _, p := range f.pairs {
				if p.secondary != secondary {
					continue
				}
				if it, ok := known[p.q.ID]; secondary && ok && it.kind == schema.KindQA {
					p.skip = true
					continue
				}
				dup, err := seen(p.at, p.field, p.q.ID, schema.KindQA, p.hash)
				if err != nil {
					return nil, err
				}
				p.skip = dup
				for i, c := range p.q.Contexts {
					if text, ok := ctx[c.ID]; ok && text != c.Text {
						return nil, p.at.errf(fmt.Sprintf("contexts[%d]", i), "context unit %q is also at %s with a different text", c.ID, ctxAt[c.ID])
					}
					ctx[c.ID], ctxAt[c.ID] = c.Text, p.at
				}
			}
		}
	}
	for _, f := range files {
		for _, c := range f.claims {
			dup, err := seen(c.at, c.field+".id", c.c.ID, schema.KindClaim, c.hash)
			if err != nil {
				return nil, err
			}
			c.skip = dup
		}
	}
	for _, f := range files {
		for _, l := range f.labels {
			fd, _ := schema.Lookup(l.name)
			if it, ok := known[l.item]; ok && it.kind != fd.Kind {
				return nil, l.at.errf(l.field, "%s is a field of %s, but %q is %s", l.name, kindName(fd.Kind), l.item, kindName(it.kind))
			}
		}
	}
	return known, nil
}

// run writes parsed files in one transaction: all QA pairs, then all claims,
// then all labels, so a labels file may name items of any file of the same
// invocation and the queues keep the files' order.
func run(s *store.Store, files []*fileData, opt Options) (Summary, error) {
	known, err := crossCheck(files)
	if err != nil {
		return Summary{}, err
	}
	err = s.Import(func(tx *store.Tx) error {
		if err := ensureSources(tx, files); err != nil {
			return err
		}
		for _, f := range files {
			if err := putPairs(tx, f, known, opt); err != nil {
				return err
			}
		}
		for _, f := range files {
			if err := putClaims(tx, f, known, opt); err != nil {
				return err
			}
		}
		for _, f := range files {
			if err := putLabels(tx, f, known, opt); err != nil {
				return err
			}
		}
		// Last, once every claim is in: which claim is last matters.
		return tx.RefreshDone()
	})
	if err != nil {
		return Summary{}, err
	}
	var sum Summary
	for _, f := range files {
		sum.Files = append(sum.Files, *f.sum)
	}
	return sum, nil
}

// ensureSources creates the sources first with the language the files give
// (or the known defaults), so a pair without a language gets its source's.
func ensureSources(tx *store.Tx, files []*fileData) error {
	lang := map[string]string{}
	var order []string
	for _, f := range files {
		for _, p := range f.pairs {
			l, ok := lang[p.q.Source]
			if !ok {
				order = append(order, p.q.Source)
			}
			if l == "" {
				lang[p.q.Source] = p.q.Language
			}
		}
	}
	for _, name := range order {
		d := sourceDefaults[name]
		l := lang[name]
		if l == "" && tx.SourceLanguage(name) == "" {
			l = d[0]
		}
		if _, err := tx.Source(name, l, d[1]); err != nil {
			return err
		}
	}
	return nil
}

func putPairs(tx *store.Tx, f *fileData, known map[string]*item, opt Options) error {
	for _, p := range f.pairs {
		if p.skip { // the same pair from another file of this import
			continue
		}
		if p.secondary {
			// The master copy is already in the database: keep it.
			id, kind, err := tx.ItemID(p.q.ID)
			if err == nil && kind == string(schema.KindQA) {
				known[p.q.ID].id = id
				f.sum.QA.Unchanged++
				continue
			}
			if err != nil && !errors.Is(err, store.ErrNotFound) {
				return err
			}
		}
		q := p.q
		if q.Language == "" {
			q.Language = tx.SourceLanguage(q.Source)
		}
		id, res, err := tx.PutQA(q, p.hash, f.name, opt.Update)
		if err != nil {
			field, err := splitField(err, p.field)
			return storeErr(p.at, field, q.ID, err)
		}
		known[q.ID].id = id
		f.sum.QA.add(res)
	}
	return nil
}

func putClaims(tx *store.Tx, f *fileData, known map[string]*item, opt Options) error {
	for _, c := range f.claims {
		if c.skip {
			continue
		}
		id, res, err := tx.PutClaim(c.c, c.hash, f.name, opt.Update)
		if errors.Is(err, store.ErrUnknownPair) {
			field := c.pairField
			if field == "" {
				field = c.field
			}
			e := c.at.errf(field, "unknown QA pair %q: it is neither in the database nor in this import", c.c.QAID)
			e.Err = err
			return e
		}
		if err != nil {
			return storeErr(c.at, c.field+".id", c.c.ID, err)
		}
		known[c.c.ID].id = id
		f.sum.Claims.add(res)
	}
	return nil
}

func putLabels(tx *store.Tx, f *fileData, known map[string]*item, opt Options) error {
	ls := make([]store.Label, len(f.labels))
	for i, l := range f.labels {
		id, err := labelItem(tx, l, known)
		if err != nil {
			return err
		}
		ls[i] = store.Label{Annotator: l.annotator, ItemID: id, Field: l.name, Value: l.value, GuidelinesVersion: opt.GuidelinesVersion, Adjudicate: l.adjudicate}
	}
	added, err := tx.PutLabels(ls)
	if err != nil {
		l := f.labels[len(added)]
		return l.at.wrap(l.field, err)
	}
	for _, a := range added {
		if a {
			f.sum.LabelsAdded++
		} else {
			f.sum.LabelsUnchanged++
		}
	}
	return nil
}

// labelItem resolves the item of a label: one of this import, or one in the
// database whose kind has the label's field.
func labelItem(tx *store.Tx, l *labelRec, known map[string]*item) (int64, error) {
	if it, ok := known[l.item]; ok && it.id != 0 {
		return it.id, nil
	}
	id, kind, err := tx.ItemID(l.item)
	if errors.Is(err, store.ErrNotFound) {
		e := l.at.errf(l.itemField, "unknown item %q: it is neither in the database nor in this import", l.item)
		e.Err = store.ErrUnknownPair
		return 0, e
	}
	if err != nil {
		return 0, err
	}
	if fd, _ := schema.Lookup(l.name); kind != string(fd.Kind) {
		return 0, l.at.errf(l.field, "%s is a field of %s, but %q is %s", l.name, kindName(fd.Kind), l.item, kindName(schema.Kind(kind)))
	}
	return id, nil
}

// splitField takes the "contexts[i]: " prefix of a store error as the field
// it is about; other errors are about the id.
func splitField(err error, idField string) (string, error) {
	msg := err.Error()
	if i := strings.Index(msg, "]: "); strings.HasPrefix(msg, "contexts[") && i > 0 {
		return msg[:i+1], errors.New(msg[i+3:])
	}
	return idField, err
}

// storeErr places a store error in the input and says which id it is about.
func storeErr(at loc, field, id string, err error) error {
	if errors.Is(err, store.ErrChanged) {
		e := at.errf(field, "item %q is already in the database with different content (use --update to replace it)", id)
		e.Err = err
		return e
	}
	return at.wrap(field, err)
}
