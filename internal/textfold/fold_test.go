package textfold

import "testing"

func TestFold(t *testing.T) {
	for in, want := range map[string]string{
		"Données":    "donnees",
		"CŒUR":       "coeur", // upper-case ligature lowered first
		"Æther":      "aether",
		"Straße":     "strasse",
		"72 Hours":   "72 hours",
		"e\u0301tat": "etat", // a decomposed accent
		"Ελληνικά":   "ελληνικα",
		"":           "",
	} {
		if got := Fold(in); got != want {
			t.Errorf("Fold(%q) = %q, want %q", in, got, want)
		}
	}
}
