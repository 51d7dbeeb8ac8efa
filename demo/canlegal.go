package demo

import (
	_ "embed"

	"github.com/annotate-dev/annotate/store"
)

// A small CanLegalRAGBench-style set, made up for the demo: clearly
// fictional decisions (every text says so) in three provinces (ON, BC, AB),
// twelve queries on six legal issues, each asked by a lay person and by a
// professional (canlegal.jsonl); four retrieval runs that name chunks of the
// documents, with a duplicate chunk per query (canlegal.run, TREC run
// format, several runs by tag); the gold set, graded: each query's seed
// decision at grade 2, and for professionals a same-topic decision judged 0
// (canlegal.qrels). After the import, a relevance pool of six queries
// stratified by province (DemoPool) gives the relevance screen its queue.

//go:embed canlegal.run
var canlegalRun []byte

//go:embed canlegal.qrels
var canlegalQrels []byte

// DemoPool is the relevance batch the demo cuts.
const DemoPool = "relevance-demo"

func init() {
	AddFile("canlegal.run", canlegalRun)
	AddFile("canlegal.qrels", canlegalQrels)
	AddSetup(func(s *store.Store) error {
		seed := int64(1)
		_, err := s.CreatePool(store.PoolSpec{Name: DemoPool, Runs: []string{"dense-irg-rerank", "dense-irg", "dense-rerank", "bm25l"},
			Depth: 5, Queries: 6, Stratify: []string{"jurisdiction"}, Seed: &seed})
		return err
	})
}
