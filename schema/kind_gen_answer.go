package schema

// The generated answers of CanLegalRAGBench (§5): a system's answer to a
// query (oracle condition: written from the gold documents; pipeline: from
// what its retriever found), split into atomic claims (kind_gen_claim.go).
// Shown, not annotated.

// KindGenAnswer is a system's generated answer (shown, not annotated).
const KindGenAnswer Kind = "gen_answer"

// Conditions of a generated answer.
const (
	ConditionOracle   = "oracle"
	ConditionPipeline = "pipeline"
)

func init() {
	Register(Spec{Kind: KindGenAnswer, Order: 60, Title: "Generated answers", Noun: "generated answer"})
}
