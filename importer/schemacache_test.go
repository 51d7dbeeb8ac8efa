package importer

import (
	"testing"

	"github.com/annotate-dev/annotate/schema"
	"github.com/annotate-dev/annotate/store/storetest"
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

// TestSchemaCacheFollowsTheSchema: a field declared for a database and a
// taxonomy put in force are answered once they are in force, and forgotten
// once they are not, though the answers before were remembered.
func TestSchemaCacheFollowsTheSchema(t *testing.T) {
	if _, ok := lookupField(storetest.ExampleField); ok {
		t.Fatalf("%s known before it is declared", storetest.ExampleField)
	}
	s := storetest.Open(t)
	storetest.DeclareExample(t, s)
	if _, ok := lookupField(storetest.ExampleField); !ok {
		t.Errorf("%s unknown once declared", storetest.ExampleField)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if _, ok := lookupField(storetest.ExampleField); ok {
		t.Errorf("%s still known once its database is closed", storetest.ExampleField)
	}

	const mine = "cites_repealed_law"
	if _, known := normalize(schema.ErrorCategory, mine); known {
		t.Fatalf("%s known before its taxonomy is in force", mine)
	}
	schema.UseTaxonomy(append(schema.DefaultTaxonomy(), schema.ErrorKind{Value: mine, Label: "Cites a repealed law", Group: "hallucination", Definition: "The claim rests on a law no longer in force."}))
	t.Cleanup(func() { schema.UseTaxonomy(nil) })
	if v, known := normalize(schema.ErrorCategory, mine); !known || v != schema.EncodeMulti([]string{mine}) {
		t.Errorf("normalize(%s) = %q %v once its taxonomy is in force", mine, v, known)
	}
	schema.UseTaxonomy(nil)
	if _, known := normalize(schema.ErrorCategory, mine); known {
		t.Errorf("%s still known once the default taxonomy is back", mine)
	}
}
