package store_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/annotate-dev/annotate/schema"
	"github.com/annotate-dev/annotate/store"
	"github.com/annotate-dev/annotate/store/storetest"
)

// searchStore holds five QA pairs, in this import order, from two sources;
// the texts are chosen so that each search below has a known answer.
func searchStore(t *testing.T) (*store.Store, map[string]int64) {
	t.Helper()
	s := storetest.Open(t)
	pairs := []struct{ id, source, q, a string }{
		{"gdpr-art-5", "GDPR", "What principles govern processing?", "Lawfulness, fairness and transparency."},
		{"gdpr-art-17", "GDPR", "Quand les DONNÉES doivent-elles être effacées ?", "Sans retard injustifié."},
		{"ccpa-1798-100", "CCPA", "What may a consumer request?", "Disclosure of the categories of data."},
		{"fr-cnil-2019", "CNIL", "Qu'est-ce qu'une donnée sensible ?", "Une donnée qui révèle l'origine : 100% protégée."},
		{"fr-cnil-2021", "CNIL", "Who enforces the rules?", "The supervisory authority (données_ouvertes)."},
	}
	err := s.Import(func(tx *store.Tx) error {
		for _, p := range pairs {
			qa := store.QAPair{ID: p.id, Source: p.source, Question: p.q, Answer: p.a, Category: "factual_recall"}
			if _, _, err := tx.PutQA(qa, "h"+p.id, "f", false); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	ids := map[string]int64{}
	for _, p := range pairs {
		r, err := storetest.Read(t, s).Resolve(p.id)
		if err != nil {
			t.Fatal(err)
		}
		ids[p.id] = r.ItemID
	}
	return s, ids
}

// Searches in queue order from an item, forwards and backwards, wrapping
// round, ignoring case and accents in every script, with LIKE's wildcards
// taken as characters. The answers were worked out by hand from the texts
// of searchStore.
func TestSearchQueue(t *testing.T) {
	s, ids := searchStore(t)
	q := store.QueueQuery{Annotator: "jo", Kind: string(schema.KindQA)}
	key := func(ext string) int64 {
		if ext == "" {
			return 0
		}
		k, ok, err := storetest.Read(t, s).QueueKey(q, ids[ext])
		if err != nil || !ok {
			t.Fatalf("QueueKey(%s) = %v %v", ext, ok, err)
		}
		return k
	}
	for _, c := range []struct {
		term, from string
		backward   bool
		want       string // ext id, match k of n; "" none
	}{
		// "données" is in gdpr-art-17 (DONNÉES), fr-cnil-2021 (données_) and,
		// as "donnée" without s, not in fr-cnil-2019.
		{"données", "", false, "gdpr-art-17 1/2"},
		{"DONNEES", "gdpr-art-17", false, "fr-cnil-2021 2/2"},
		{"donnees", "fr-cnil-2021", false, "gdpr-art-17 1/2"}, // wraps to the start
		{"données", "gdpr-art-5", true, "fr-cnil-2021 2/2"},   // wraps to the end
		{"données", "fr-cnil-2021", true, "gdpr-art-17 1/2"},
		{"donnée", "gdpr-art-17", false, "fr-cnil-2019 2/3"},
		{"100%", "", false, "fr-cnil-2019 1/1"},                   // % is a character, not a wildcard
		{"n_e", "", false, ""},                                    // _ too: as a wildcard it would match "nne" of "données"
		{"es_ou", "", false, "fr-cnil-2021 1/1"},                  // … as a character it is in "données_ouvertes"
		{"CCPA-1798", "", false, "ccpa-1798-100 1/1"},             // the id is searched too
		{"consumer", "ccpa-1798-100", false, "ccpa-1798-100 1/1"}, // the only match: itself again
		{"zzz", "", false, ""},
	} {
		h, ok, err := storetest.Read(t, s).SearchQueue(q, c.term, key(c.from), c.backward)
		if err != nil {
			t.Fatal(err)
		}
		got := ""
		if ok {
			got = fmt.Sprintf("%s %d/%d", h.ExtID, h.Match, h.Matches)
		}
		if got != c.want {
			t.Errorf("SearchQueue(%q from %q, backward %v) = %q, want %q", c.term, c.from, c.backward, got, c.want)
		}
	}
	if _, _, err := storetest.Read(t, s).SearchQueue(q, "  ", 0, false); err == nil {
		t.Error("an empty search was not refused")
	}
}

// Each filter narrows the queue (Queue, the counts, the search) to the
// items it names.
func TestQueueFilters(t *testing.T) {
	s, ids := searchStore(t)
	if err := s.SetFlag("jo", ids["ccpa-1798-100"], "", true, 0); err != nil {
		t.Fatal(err)
	}
	// A flag raised then lowered is no flag: the latest row wins.
	if err := s.SetFlag("jo", ids["gdpr-art-5"], "", true, 0); err != nil {
		t.Fatal(err)
	}
	if err := s.SetFlag("jo", ids["gdpr-art-5"], "", false, 0); err != nil {
		t.Fatal(err)
	}
	// Another annotator's flag is not jo's.
	if err := s.SetFlag("al", ids["fr-cnil-2019"], "", true, 0); err != nil {
		t.Fatal(err)
	}
	if err := s.SetNote("jo", ids["fr-cnil-2021"], "question_validity", "ask the lead", 0); err != nil {
		t.Fatal(err)
	}
	// A note cleared (empty) is no note.
	if err := s.SetNote("jo", ids["gdpr-art-17"], "", "x", 0); err != nil {
		t.Fatal(err)
	}
	if err := s.SetNote("jo", ids["gdpr-art-17"], "", "", 0); err != nil {
		t.Fatal(err)
	}
	label := func(who, ext, value string) {
		t.Helper()
		if _, err := s.RecordLabel(store.Label{Annotator: who, ItemID: ids[ext], Field: schema.QuestionValidity, Value: value}); err != nil {
			t.Fatal(err)
		}
	}
	label("jo", "gdpr-art-5", "valid")
	label("al", "gdpr-art-5", "invalid") // disagreed
	label("jo", "gdpr-art-17", "valid")
	label("al", "gdpr-art-17", "valid") // agreed
	for _, c := range []struct {
		f    store.QueueFilter
		want string
	}{
		{store.QueueFilter{}, "gdpr-art-5,gdpr-art-17,ccpa-1798-100,fr-cnil-2019,fr-cnil-2021"},
		{store.QueueFilter{Only: store.FilterFlagged}, "ccpa-1798-100"},
		{store.QueueFilter{Only: store.FilterNoted}, "fr-cnil-2021"},
		{store.QueueFilter{Only: store.FilterDisagreed}, "gdpr-art-5"},
		{store.QueueFilter{Only: store.FilterSkipped, Items: []int64{ids["fr-cnil-2019"], ids["gdpr-art-17"]}}, "gdpr-art-17,fr-cnil-2019"},
		{store.QueueFilter{Only: store.FilterSkipped}, ""},
		{store.QueueFilter{Source: "CNIL"}, "fr-cnil-2019,fr-cnil-2021"},
		{store.QueueFilter{Only: store.FilterNoted, Source: "GDPR"}, ""},
	} {
		q := store.QueueQuery{Annotator: "jo", Kind: string(schema.KindQA), Filter: c.f}
		es, err := storetest.Read(t, s).Queue(q)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, e := range es {
			got = append(got, e.ExtID)
		}
		if strings.Join(got, ",") != c.want {
			t.Errorf("Queue(filter %+v) = %s, want %s", c.f, strings.Join(got, ","), c.want)
		}
		total, done, err := storetest.Read(t, s).QueueFilteredCounts(q)
		if err != nil {
			t.Fatal(err)
		}
		// jo's labels finish no item (four fields are asked of a valid question).
		if n := len(got); total != n || done != 0 {
			t.Errorf("QueueFilteredCounts(filter %+v) = %d, %d; want %d, 0", c.f, total, done, n)
		}
	}
	// The search keeps to the filter: "données" is in gdpr-art-17 and
	// fr-cnil-2021, of which only the second is CNIL's.
	q := store.QueueQuery{Annotator: "jo", Kind: string(schema.KindQA), Filter: store.QueueFilter{Source: "CNIL"}}
	h, ok, err := storetest.Read(t, s).SearchQueue(q, "données", 0, false)
	if err != nil || !ok || h.ExtID != "fr-cnil-2021" || h.Matches != 1 {
		t.Errorf("filtered search = %+v %v %v, want fr-cnil-2021, 1 match", h, ok, err)
	}
	srcs, err := storetest.Read(t, s).KindSources(string(schema.KindQA))
	if err != nil || strings.Join(srcs, ",") != "CCPA,CNIL,GDPR" {
		t.Errorf("KindSources = %v %v", srcs, err)
	}
}

func TestFold(t *testing.T) {
	for in, want := range map[string]string{"Données": "donnees", "ÉTAT": "etat", "Œuvre": "oeuvre", "Straße": "strasse", "Ελλάδα": "ελλαδα"} {
		if got := store.Fold(in); got != want {
			t.Errorf("Fold(%q) = %q, want %q", in, got, want)
		}
	}
}
