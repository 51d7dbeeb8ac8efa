package importer

import (
	"github.com/annotate-dev/annotate/schema"
	"github.com/annotate-dev/annotate/store"
)

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
