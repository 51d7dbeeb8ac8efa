package importer

import "github.com/annotate-dev/annotate/store"

// parseLabels reads native labels JSONL, one decision per line:
// {"annotator":"sam","item":"gdpr-017-c1","field":"entailment","value":"neutral"}.
// The annotator may come from Options.Annotator instead. Whether the item
// exists is checked in the transaction, against the database and this import.
func parseLabels(f *fileData, t *textReader) error {
	return t.eachLine(func(at loc, line []byte) error {
		m, err := object(at, line)
		if err != nil {
			return err
		}
		r := newRec(at, "", m)
		who, err := r.str("annotator")
		if err != nil {
			return err
		}
		if who == "" {
			who = f.opt.Annotator
		}
		if who == "" {
			return r.errf("annotator", "missing (required, or give --annotator)")
		}
		item, err := r.needID("item")
		if err != nil {
			return err
		}
		field, err := r.need("field")
		if err != nil {
			return err
		}
		value, err := r.labelValue("value", field)
		if err != nil {
			return err
		}
		if value == "" {
			if r.get("value") == nil {
				return r.errf("value", "missing (required)")
			}
			return r.errf("value", "empty (required)")
		}
		// An adjudicated label (annotate export --format jsonl) names its role.
		role, err := r.str("role")
		if err != nil {
			return err
		}
		if role != "" && role != store.RoleAnnotate && role != store.RoleAdjudicate {
			return r.errf("role", "want %q or %q, got %q", store.RoleAnnotate, store.RoleAdjudicate, role)
		}
		// A label made with a system's prediction preselected (annotate
		// --suggest) names the system, so that reports keep it apart.
		suggestedBy, err := r.str("suggested_by")
		if err != nil {
			return err
		}
		if err := printable(at, "suggested_by", "the system name", suggestedBy); err != nil {
			return err
		}
		keys, _ := r.unknown()
		f.unknownKeys("", keys)
		return f.addLabel(labelRec{at: at, field: "field", itemField: "item", annotator: who, who: "annotator", item: item,
			name: field, value: value, adjudicate: role == store.RoleAdjudicate, suggestedBy: suggestedBy}, "")
	})
}
