package schema

// The document kind of CanLegalRAGBench: a case or statute that retrieval
// systems return. Documents are shown, not annotated themselves.

// KindDocument is a case or a statute.
const KindDocument Kind = "document"

func init() {
	Register(Spec{Kind: KindDocument, Order: 40, Title: "Documents", Noun: "document"})
}
