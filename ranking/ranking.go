// Package ranking holds the rules that make a retrieval run's ranked list
// for one query from the lines the run wrote for it (a TREC run file, or
// CanLegalRAGBench's query_results.jsonl): the order of the lines, how ties
// are broken, and how a document named by several lines (several of its
// chunks) keeps one place, its best. The store resolves each line's
// document and writes the result; nothing here reads or writes anything.
package ranking

import (
	"bytes"
	"cmp"
	"slices"
	"strings"
)

// Line is one line of a run for one query, its document resolved.
type Line struct {
	Named    []byte // the document or chunk id as the line wrote it
	Doc      int64  // the document's item id (0: it names nothing)
	DocID    string // the document's id
	Chunk    bool   // Named is one of the document's chunks
	Rank     int    // the rank the line wrote
	Score    float64
	HasScore bool
	File     int // the file of the import it came from
	LineNo   int // its line number in that file
}

// Doc is a document of a ranked list: its best rank, best score and first
// line.
type Doc struct {
	Doc       int64
	DocID     string
	Rank      int
	Score     float64
	HasScore  bool
	FirstLine int
}

// Rank orders a (run, query)'s lines, reordering them in place, and
// appends its documents to docs in their ranked order. By score
// (trec_eval's order): lines by score, highest first, then by their
// document's id and their own id (a chunk's) descending, then line; each
// document at its first line, so that its place is its best score's and
// documents tied on their best score are in descending id order, as
// trec_eval ranks a run naming each document once at its best score. By
// rank: lines by rank, then score (highest first, none last), then line;
// documents by their best rank, best score, first line.
func Rank(lines []Line, docs []Doc, byScore bool) []Doc {
	slices.SortFunc(lines, func(a, b Line) int {
		if byScore {
			return cmp.Or(CompareScores(a.Score, a.HasScore, b.Score, b.HasScore), strings.Compare(b.DocID, a.DocID),
				bytes.Compare(b.Named, a.Named), cmp.Compare(a.LineNo, b.LineNo))
		}
		return cmp.Or(cmp.Compare(a.Rank, b.Rank), CompareScores(a.Score, a.HasScore, b.Score, b.HasScore), cmp.Compare(a.LineNo, b.LineNo))
	})
	at := map[int64]int{}
	for _, l := range lines {
		i, ok := at[l.Doc]
		if !ok {
			at[l.Doc] = len(docs)
			docs = append(docs, Doc{Doc: l.Doc, DocID: l.DocID, Rank: l.Rank, Score: l.Score, HasScore: l.HasScore, FirstLine: l.LineNo})
			continue
		}
		r := &docs[i]
		r.Rank, r.FirstLine = min(r.Rank, l.Rank), min(r.FirstLine, l.LineNo)
		if l.HasScore && (!r.HasScore || l.Score > r.Score) {
			r.Score, r.HasScore = l.Score, true
		}
	}
	if byScore {
		return docs // in the order of their first lines
	}
	slices.SortFunc(docs, func(a, b Doc) int {
		return cmp.Or(cmp.Compare(a.Rank, b.Rank), CompareScores(a.Score, a.HasScore, b.Score, b.HasScore), cmp.Compare(a.FirstLine, b.FirstLine))
	})
	return docs
}

// CompareScores orders scores highest first, a missing score last (SQL's
// ORDER BY score DESC).
func CompareScores(a float64, hasA bool, b float64, hasB bool) int {
	switch {
	case hasA != hasB:
		if hasA {
			return -1
		}
		return 1
	case !hasA:
		return 0
	}
	return cmp.Compare(b, a)
}
