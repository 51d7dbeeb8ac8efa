package ranking

import (
	"reflect"
	"testing"
)

// The expected lists are worked out by hand from the rules (by score, as
// trec_eval's form_res_rels.c orders a run: sim descending, then docno
// descending).

func line(named, docID string, doc int64, rank int, score float64, hasScore bool, no int) Line {
	return Line{Named: []byte(named), Doc: doc, DocID: docID, Chunk: named != docID, Rank: rank, Score: score, HasScore: hasScore, LineNo: no}
}

func TestRankByScoreKeepsEachDocumentAtItsBestScore(t *testing.T) {
	lines := []Line{
		line("a", "a", 1, 1, 1.0, true, 1),
		line("b", "b", 2, 2, 1.0, true, 2),
		line("c", "c", 3, 3, 2.0, true, 3),
		line("a#2", "a", 1, 4, 3.0, true, 4), // a chunk of a, its best score
	}
	docs := Rank(lines, nil, true)
	// a at 3.0 (its chunk's line), c at 2.0, b at 1.0: a's own line at 1.0
	// does not place it, its first line in score order does.
	want := []Doc{
		{Doc: 1, DocID: "a", Rank: 1, Score: 3.0, HasScore: true, FirstLine: 1},
		{Doc: 3, DocID: "c", Rank: 3, Score: 2.0, HasScore: true, FirstLine: 3},
		{Doc: 2, DocID: "b", Rank: 2, Score: 1.0, HasScore: true, FirstLine: 2},
	}
	if !reflect.DeepEqual(docs, want) {
		t.Errorf("docs = %+v\nwant %+v", docs, want)
	}
	var order []string
	for _, l := range lines {
		order = append(order, string(l.Named))
	}
	// Lines: by score, then on the tie at 1.0 the document id descending.
	if want := []string{"a#2", "c", "b", "a"}; !reflect.DeepEqual(order, want) {
		t.Errorf("lines = %v, want %v", order, want)
	}
}

func TestRankByScoreBreaksTiesByDescendingIDs(t *testing.T) {
	lines := []Line{
		line("d1", "d1", 1, 0, 0.5, true, 1),
		line("d3", "d3", 3, 0, 0.5, true, 2),
		line("d2", "d2", 2, 0, 0.5, true, 3),
		line("d4", "d4", 4, 0, 0, false, 4), // no score: last
	}
	var ids []string
	for _, d := range Rank(lines, nil, true) {
		ids = append(ids, d.DocID)
	}
	if want := []string{"d3", "d2", "d1", "d4"}; !reflect.DeepEqual(ids, want) {
		t.Errorf("ranked %v, want %v", ids, want)
	}
}

func TestRankByRankUsesTheBestRankThenScoreThenLine(t *testing.T) {
	lines := []Line{
		line("x", "x", 1, 2, 0.1, true, 1),
		line("y", "y", 2, 1, 0, false, 2),
		line("z", "z", 3, 2, 0.9, true, 3), // ties x on rank, higher score
		line("x#c", "x", 1, 5, 0.2, true, 4),
		line("w", "w", 4, 3, 0, false, 5),
		line("v", "v", 5, 3, 0, false, 6), // ties w on rank and (no) score: later line
	}
	docs := Rank(lines, nil, false)
	want := []Doc{
		{Doc: 2, DocID: "y", Rank: 1, FirstLine: 2},
		{Doc: 3, DocID: "z", Rank: 2, Score: 0.9, HasScore: true, FirstLine: 3},
		// x's best rank is 2, its best score 0.2 (its chunk's), below z's 0.9.
		{Doc: 1, DocID: "x", Rank: 2, Score: 0.2, HasScore: true, FirstLine: 1},
		{Doc: 4, DocID: "w", Rank: 3, FirstLine: 5},
		{Doc: 5, DocID: "v", Rank: 3, FirstLine: 6},
	}
	if !reflect.DeepEqual(docs, want) {
		t.Errorf("docs = %+v\nwant %+v", docs, want)
	}
}

func TestCompareScoresPutsAMissingScoreLast(t *testing.T) {
	for _, c := range []struct {
		a    float64
		hasA bool
		b    float64
		hasB bool
		want int
	}{
		{2, true, 1, true, -1},
		{1, true, 2, true, 1},
		{1, true, 1, true, 0},
		{0, false, 5, true, 1},
		{5, true, 0, false, -1},
		{0, false, 0, false, 0},
	} {
		if got := CompareScores(c.a, c.hasA, c.b, c.hasB); got != c.want {
			t.Errorf("CompareScores(%v,%v,%v,%v) = %d, want %d", c.a, c.hasA, c.b, c.hasB, got, c.want)
		}
	}
}
