package schema

// The claims of CanLegalRAGBench's generated answers (§5,
// kind_gen_answer.go): a system's answer split into atomic claims. The
// expert judges each claim against the accepted gold answer (accuracy) and
// against the documents the answer used (groundedness), and sorts the
// unsupported ones into the error taxonomy (Appendix E,
// kind_gen_claim_taxonomy.go).

// KindGenClaim is an atomic claim of a generated answer.
const KindGenClaim Kind = "gen_claim"

// Generated-claim field names.
const (
	AccuracySupport = "accuracy_support" // supported | not_supported, by the gold answer
	Grounded        = "grounded"         // grounded | not_grounded, by the documents
	ErrorCategory   = "error_category"   // several values of the taxonomy
)

func init() {
	Register(Spec{
		Kind: KindGenClaim, Order: 70, Title: "Generated claims", Noun: "generated claim", Annotated: true, Parent: KindGenAnswer,
		Fields: []Field{
			{Name: AccuracySupport, Values: []string{"supported", "not_supported"}, TwoWay: true,
				Synonyms: map[string]string{"unsupported": "not_supported", "entailed": "supported", "entailment": "supported",
					"not_entailed": "not_supported", "yes": "supported", "no": "not_supported", "true": "supported", "false": "not_supported"}},
			{Name: Grounded, Values: []string{"grounded", "not_grounded"}, TwoWay: true,
				Synonyms: map[string]string{"ungrounded": "not_grounded", "supported": "grounded", "unsupported": "not_grounded",
					"not_supported": "not_grounded", "yes": "grounded", "no": "not_grounded", "true": "grounded", "false": "not_grounded"}},
			{Name: ErrorCategory, Multi: true, Values: defaultValues(),
				AskedIf: []Cond{{AccuracySupport, []string{"not_supported"}}, {Grounded, []string{"not_grounded"}}}},
		},
	})
}
