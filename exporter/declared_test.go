package exporter

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/annotate-dev/annotate/schema"
	"github.com/annotate-dev/annotate/store/storetest"
)

const helpfulnessDecl = `kind: qa
field: helpfulness
question: How helpful is the answer?
scale: interval
min: 1
max: 5
required: false
guidelines: 1 is no help, 5 answers the question fully.
`

// A declared field reaches the Hugging Face folder with no other step: an
// ordinal one is a class_label in its declared order, an interval one a
// number; the card's field table gives its question, scale, values' words,
// version and guidelines version; Parquet holds what JSON Lines holds.
func TestDeclaredFieldsInTheHFExport(t *testing.T) {
	s := openStore(t)
	storetest.DeclareExample(t, s)
	d, err := schema.ParseDeclaration("helpfulness.yaml", []byte(helpfulnessDecl))
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := s.DeclareField("lead", "helpfulness.yaml", helpfulnessDecl, d); err != nil {
		t.Fatal(err)
	}
	citations := []string{"exact", "wrong", "partial"}
	storetest.Seed(t, s, func(b *storetest.Builder) {
		for i, c := range citations {
			id := fmt.Sprintf("q%d", i+1)
			b.QA(id, "GDPR", "en", "factual_recall")
			b.Labels("jo", id, "question_validity=valid", "category=factual_recall", "persona=citizen",
				"answer_correctness=correct", "citation_accuracy="+c, fmt.Sprintf("helpfulness=%d", i+3))
		}
	})
	configs := parquetMatchesJSONL(t, s, Options{Annotator: "jo"})
	if !strings.Contains(strings.Join(configs, " "), "qa") {
		t.Fatalf("configs: %v", configs)
	}
	out := filepath.Join(t.TempDir(), "hf")
	export(t, s, Options{Format: "hf", Out: out, Annotator: "jo"})
	rows := readJSONL(t, filepath.Join(out, "data", "qa", "test.jsonl"))
	for i, r := range rows {
		if r["citation_accuracy"] != citations[i] || r["helpfulness"] != float64(i+3) {
			t.Fatalf("row %d: citation_accuracy %v helpfulness %#v", i, r["citation_accuracy"], r["helpfulness"])
		}
	}
	_, card := readCard(t, out)
	for _, want := range []string{
		"- name: \"citation_accuracy\"\n    dtype:\n      class_label:\n        names:\n          '0': \"wrong\"\n          '1': \"partial\"\n          '2': \"exact\"\n  - name: \"helpfulness\"\n    dtype: int64",
		"| `citation_accuracy` | class id (0 `wrong`, 1 `partial`, 2 `exact`) or null | Are the provisions the answer cites the right ones? Declared field (version 1, ordinal scale, guidelines version 1 when declared): `wrong` cites the wrong provisions < `partial` some right, some wrong or missing < `exact` exactly the provisions that answer the question; null when not labelled or not asked |",
		"| `helpfulness` | int or null | How helpful is the answer? Declared field (version 1, interval scale, guidelines version 1 when declared); null when not labelled or not asked |",
		"| `citation_accuracy` | 1 | lead |",
		"**qa.helpfulness**: `3` 1 (33.3%), `4` 1 (33.3%), `5` 1 (33.3%)",
	} {
		if !strings.Contains(card, want) {
			t.Errorf("the card misses\n%s\n\n%s", want, card)
			break
		}
	}
}
