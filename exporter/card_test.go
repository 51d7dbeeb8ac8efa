package exporter

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/annotate-dev/annotate/store"
	"github.com/annotate-dev/annotate/store/storetest"
)

// configsOf returns the configs of a card's header, in order.
func configsOf(t *testing.T, h map[string]any) []map[string]any {
	t.Helper()
	var out []map[string]any
	for _, c := range h["configs"].([]any) {
		out = append(out, c.(map[string]any))
	}
	return out
}

// intro is the card's text between its title and the first section.
func intro(card string) string {
	body := card[strings.Index(card, "\n# ")+1:]
	return body[:strings.Index(body, "\n## ")]
}

// TestCardDefaultConfigAndIntro: exactly one config is the default (the
// first), so load_dataset(DIR) needs no name; the text says what the data
// holds, read from it.
func TestCardDefaultConfigAndIntro(t *testing.T) {
	s := demoStore(t)
	out := filepath.Join(t.TempDir(), "ds")
	res := export(t, s, Options{Out: out, Annotator: "jo"})
	h, card := readCard(t, out)
	cs := configsOf(t, h)
	if len(cs) != 2 || cs[0]["config_name"] != "qa" || cs[0]["default"] != "true" && cs[0]["default"] != true || cs[1]["default"] != nil {
		t.Fatalf("configs %v", cs)
	}
	text := intro(card)
	for _, want := range []string{
		// the demo: 16 GDPR pairs in English, 15 Code civil pairs in French
		"31 question–answer pairs from 2 sources: GDPR (en), CIVIL (fr),",
		fmt.Sprintf("and %d claims extracted from the answers, with the predictions of system refchecker.", res.Claims),
		"Languages: en, fr.",
		"Labelled by 2 annotators (jo, sam)", "disagreements adjudicated by lead",
		"Labels in the rows: those of annotator **jo**",
		`qa = load_dataset("PATH_OR_REPO_ID", split="test")  # the default config, "qa"`,
		`claims = load_dataset("PATH_OR_REPO_ID", "claims", split="test")`,
	} {
		if !strings.Contains(text, want) {
			t.Errorf("intro lacks %q:\n%s", want, text)
		}
	}
	if strings.Contains(text, "legal") || strings.Contains(text, "expert") {
		t.Errorf("the intro assumes a domain or an expert:\n%s", text)
	}
	if !strings.Contains(card, ActiveTimeRule) {
		t.Error("the card does not say how active time is counted")
	}
}

// A dataset that is not legal, in one language, without claims, labelled by
// one imported annotator: the card says so, and its only config is the
// default.
func TestCardDescribesOtherData(t *testing.T) {
	s := storetest.Open(t)
	err := s.Import(func(tx *store.Tx) error {
		for i := 1; i <= 3; i++ {
			id := fmt.Sprintf("dolly-%d", i)
			if _, _, err := tx.PutQA(store.QAPair{ID: id, Source: "dolly", Language: "en", Question: "Who wrote Hamlet?", Answer: "Shakespeare.",
				Contexts: []store.Context{{ID: "ref-" + id, Text: "Hamlet is a tragedy by William Shakespeare."}}}, "h"+id, "f", false); err != nil {
				return err
			}
			qid, _, err := tx.ItemID(id)
			if err != nil {
				return err
			}
			if _, err := tx.PutLabel(store.Label{Annotator: "refchecker-human", ItemID: qid, Field: "question_validity", Value: "valid"}); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "ds")
	export(t, s, Options{Out: out})
	h, card := readCard(t, out)
	cs := configsOf(t, h)
	if len(cs) != 1 || cs[0]["config_name"] != "qa" || cs[0]["default"] != "true" && cs[0]["default"] != true {
		t.Fatalf("configs %v", cs)
	}
	text := intro(card)
	for _, want := range []string{
		"3 question–answer pairs from 1 source: dolly (en), with the context passages each pair is judged against (included). Language: en.",
		"Labelled by 1 annotator (refchecker-human)",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("intro lacks %q:\n%s", want, text)
		}
	}
	if strings.Contains(text, "legal") || strings.Contains(text, "claims") || strings.Contains(text, "adjudicated") {
		t.Errorf("the intro describes data that is not there:\n%s", text)
	}
}
