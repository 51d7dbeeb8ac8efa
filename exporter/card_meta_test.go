package exporter

import (
	"slices"
	"testing"
)

// The function words counted by hand: the English sentence has the, of,
// the, the, and, to, the (7 English, none of another list); the French one
// le, de, la, et, les, de, la (7 French); two words are too few to tell.
func TestDetectLanguage(t *testing.T) {
	for _, c := range []struct {
		texts []string
		want  string
	}{
		{[]string{"The controller of the data shall inform the subject and refer to the authority."}, "en"},
		{[]string{"Le propriétaire de la maison et les voisins de la commune."}, "fr"},
		{[]string{"The data"}, ""},
		{nil, ""},
		// 3 English (the, of, the) against 3 French (le, de, la): no clear lead.
		{[]string{"the rights of the", "le droit de la"}, ""},
	} {
		if got := detectLanguage(c.texts); got != c.want {
			t.Errorf("detectLanguage(%q) = %q, want %q", c.texts, got, c.want)
		}
	}
}

func TestSourceDatasets(t *testing.T) {
	for _, c := range []struct {
		formats []string
		want    []string
	}{
		{nil, []string{"original"}}, // a database from before formats were recorded
		{[]string{"native", "labels"}, []string{"original"}},
		{[]string{"refchecker-human", "refchecker-checker"}, []string{"extended|amazon-science/RefChecker"}},
		{[]string{"ragchecker"}, []string{"extended|amazon-science/RAGChecker"}},
		{[]string{"claimrag", "native"}, []string{"original", "extended|SNTSVV/ClaimRAG-LAW"}},
		{[]string{"canlegalragbench-documents", "canlegalragbench-queries", "trec-run"},
			[]string{"original", "extended|UBC-VL/CanLegalRAGBench"}},
	} {
		if got := sourceDatasets(c.formats); !slices.Equal(got, c.want) {
			t.Errorf("sourceDatasets(%v) = %v, want %v", c.formats, got, c.want)
		}
	}
}

// The Hub's buckets at their edges: 999 rows are n<1K, 1,000 are 1K<n<10K.
func TestSizeCategoryEdges(t *testing.T) {
	for n, want := range map[int]string{0: "n<1K", 999: "n<1K", 1000: "1K<n<10K", 9999: "1K<n<10K", 10000: "10K<n<100K", 999_999: "100K<n<1M", 1_000_000: "1M<n<10M"} {
		if got := sizeCategory(n); got != want {
			t.Errorf("sizeCategory(%d) = %q, want %q", n, got, want)
		}
	}
}
