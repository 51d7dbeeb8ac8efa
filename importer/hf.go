package importer

import (
	"encoding/json"
	"path/filepath"
	"sort"

	"github.com/annotate-dev/annotate/schema"
	"github.com/annotate-dev/annotate/store"
)

// The Hugging Face folder of `annotate export --format hf`: data/qa/*.jsonl
// and data/claims/*.jsonl (one file per split; every split is read), one row
// per QA pair or claim with the labels of one label set as columns (see
// exporter/rows.go). Reading one back gives the same items, the predictions,
// the annotator-added claims (with the claim_added label of who added them)
// and that label set's labels; importing the exports of several annotators
// gives all of theirs. Columns that only repeat something (the pair's text on
// a claim row, claim_ids, notes) are read past.

// AdjudicatedName is the annotator column of rows that carry adjudicated
// labels; they are imported as adjudications by --annotator, or by an
// annotator of this name when none is given.
const AdjudicatedName = "adjudicated"

// hfFiles returns the data files of an exported hf folder, qa before claims,
// or nil when dir is not one.
func hfFiles(dir string) ([]string, error) {
	var out []string
	for _, config := range []string{"qa", "claims"} {
		names, err := filepath.Glob(filepath.Join(dir, "data", config, "*.jsonl"))
		if err != nil {
			return nil, err
		}
		sort.Strings(names)
		out = append(out, names...)
	}
	return out, nil
}

// parseHF reads one data file of an exported hf folder: QA pair rows under
// data/qa, claim rows under data/claims.
func parseHF(f *fileData, t *textReader) error {
	row := f.hfClaim
	if filepath.Base(filepath.Dir(f.name)) == "qa" {
		row = f.hfPair
	}
	return t.eachLine(func(at loc, line []byte) error {
		m, err := object(at, line)
		if err != nil {
			return err
		}
		return row(newRec(at, "", m))
	})
}

func (f *fileData) hfPair(r *rec) error {
	var q store.QAPair
	var err error
	if q.ID, err = r.needID("id"); err != nil {
		return err
	}
	for _, p := range []struct {
		key      string
		dst      *string
		required bool
	}{{"source", &q.Source, true}, {"question", &q.Question, true}, {"answer", &q.Answer, true},
		{"language", &q.Language, false}, {"hop", &q.Hop, false}, {"rationale", &q.Rationale, false},
		{"generated_category", &q.Category, false}} {
		if p.required {
			*p.dst, err = r.need(p.key)
		} else {
			*p.dst, err = r.str(p.key)
		}
		if err != nil {
			return err
		}
	}
	if q.Contexts, err = nativeContexts(r); err != nil {
		return err
	}
	r.get("jurisdiction") // the source's; the importer knows the usual ones
	r.get("claim_ids")
	r.get("notes")
	// The row's language is the effective one (the source's when the pair
	// has none); it carries no extra keys and no pair predictions.
	if err := f.addPair(r.at, "id", q, false, saysLanguage); err != nil {
		return err
	}
	return f.hfLabels(r, q.ID, schema.KindQA, append(fieldNames(schema.KindQA), schema.MissedClaimsChecked))
}

func (f *fileData) hfClaim(r *rec) error {
	c := store.Claim{}
	var err error
	if c.ID, err = r.needID("id"); err != nil {
		return err
	}
	if c.QAID, err = r.needID("qa_id"); err != nil {
		return err
	}
	if raw := r.get("position"); raw != nil {
		if json.Unmarshal(raw, &c.Position) != nil {
			return r.errf("position", "want an integer, got %s", kind(raw))
		}
	}
	if err := f.claimContent(r, &c, "a claim row"); err != nil {
		return err
	}
	for _, k := range []string{"source", "language", "question", "answer", "contexts", "notes"} {
		r.get(k) // the pair's, repeated on each claim row
	}
	if err := f.addClaim(r.at, "", "id", "qa_id", c); err != nil {
		return err
	}
	// An added claim stands while its claim_added label does: give it back
	// to who added it.
	if c.Origin == store.OriginAnnotator && c.AddedBy != "" {
		l := labelRec{at: r.at, field: "added_by", itemField: "id", annotator: c.AddedBy, item: c.ID, name: schema.ClaimAdded, value: "yes"}
		if err := f.addLabel(l, schema.KindClaim); err != nil {
			return err
		}
	}
	return f.hfLabels(r, c.ID, schema.KindClaim, fieldNames(schema.KindClaim))
}

// hfLabels reads the label columns of a row as labels of its annotator column.
func (f *fileData) hfLabels(r *rec, item string, k schema.Kind, fields []string) error {
	who, err := r.str("annotator")
	if err != nil {
		return err
	}
	if err := printable(r.at, "annotator", "the annotator name", who); err != nil {
		return err
	}
	adjudicated := who == AdjudicatedName
	if adjudicated && f.opt.Annotator != "" {
		who = f.opt.Annotator
	}
	if who == "" {
		who = f.opt.Annotator
	}
	for _, name := range fields {
		v, err := r.str(name)
		if err != nil {
			return err
		}
		if v == "" {
			continue
		}
		if who == "" {
			return r.errf("annotator", "missing: whose labels are these? (or give --annotator)")
		}
		l := labelRec{at: r.at, field: name, itemField: "id", annotator: who, item: item, name: name, value: v, adjudicate: adjudicated}
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
