package importer

import (
	"testing"

	"github.com/annotate-dev/annotate/schema"
)

// TestSchemaCacheAgrees: the remembered answers are the schema's, for every
// field and for names and values it does not know.
func TestSchemaCacheAgrees(t *testing.T) {
	names := []string{"nope", ""}
	for _, k := range schema.AllKinds() {
		for _, f := range schema.KindFields(k) {
			names = append(names, f.Name)
		}
	}
	for _, name := range names {
		got, gotOK := lookupField(name)
		want, wantOK := schema.Lookup(name)
		if gotOK != wantOK || got.Name != want.Name || got.Kind != want.Kind {
			t.Errorf("lookupField(%q) = %v %v, want %v %v", name, got.Name, gotOK, want.Name, wantOK)
		}
		if (checkField(name) == nil) != (schema.CheckField(name) == nil) {
			t.Errorf("checkField(%q) disagrees", name)
		}
		for _, v := range []string{"Entailment", " partially correct ", "Jurisdiction/time-specific", "contradicted", "odd", ""} {
			for range 2 { // asked, then remembered
				gv, gk := normalize(name, v)
				wv, wk := schema.Normalize(name, v)
				if gv != wv || gk != wk {
					t.Errorf("normalize(%q, %q) = %q %v, want %q %v", name, v, gv, gk, wv, wk)
				}
			}
		}
	}
}
