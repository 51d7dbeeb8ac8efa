package lang

// The French labels of the schema's fields and values, by identifier. The
// identifiers themselves (stored in the database, the JSON, the exports,
// and quoted in backticks by the guidelines in both languages) are the
// English labels. The error categories' labels are the taxonomy's (package
// guidelines says the default ones in French; a lead's own are shown as
// written). labels_test.go fails on a field or value of the schema without
// a French label here.
var fieldLabels = map[string]string{
	// QA pairs
	"question_validity":     "validité de la question",
	"invalid_reason":        "motif d'invalidité",
	"category":              "catégorie",
	"persona":               "profil",
	"answer_correctness":    "exactitude de la réponse",
	"missed_claims_checked": "propositions omises vérifiées",
	// claims
	"claim_validity": "validité de la proposition",
	"entailment":     "implication",
	"claim_added":    "proposition ajoutée",
	"missed_claims":  "propositions omises", // the claim's own step
	// queries, relevance
	"query_validity":     "validité de la requête",
	"relevance":          "pertinence",
	"irrelevance_reason": "motif de non-pertinence",
	"relevance_grade":    "degré de pertinence",
	// answer tasks
	"gold_answer":   "réponse de référence",
	"citations":     "références",
	"answer_review": "examen de la réponse",
	"reject_reason": "motif du rejet",
	// generated claims
	"accuracy_support": "soutien par la référence",
	"grounded":         "fondement documentaire",
	"error_category":   "catégorie d'erreur",
}

var valueLabels = map[string]string{
	"question_validity=valid":   "Valide",
	"question_validity=invalid": "Invalide",

	"invalid_reason=domain":     "Juridique",
	"invalid_reason=linguistic": "Linguistique",
	"invalid_reason=both":       "Les deux",

	"category=general_legal_research":     "Recherche juridique générale",
	"category=factual_recall":             "Rappel factuel",
	"category=false_premise":              "Prémisse fausse",
	"category=jurisdiction_time_specific": "Ordre juridique ou époque",

	"persona=citizen":       "Citoyen",
	"persona=civil_officer": "Utilisateur averti",
	"persona=legal_expert":  "Juriste expert",

	"answer_correctness=correct":           "Correcte",
	"answer_correctness=partially_correct": "Partiellement correcte",
	"answer_correctness=incorrect":         "Incorrecte",

	"missed_claims_checked=checked": "Vérifiée",
	"missed_claims_checked=added":   "Complétée",

	"claim_validity=correct":   "Correcte",
	"claim_validity=incorrect": "Incorrecte",

	"entailment=entailment":    "Implication",
	"entailment=neutral":       "Neutre",
	"entailment=contradiction": "Contradiction",

	"claim_added=yes": "Oui",
	"claim_added=no":  "Non",

	"query_validity=valid":   "Valide",
	"query_validity=invalid": "Invalide",

	"relevance=relevant":     "Pertinent",
	"relevance=not_relevant": "Non pertinent",

	"irrelevance_reason=different_issue":   "Autre question juridique",
	"irrelevance_reason=reversed_roles":    "Rôles inversés",
	"irrelevance_reason=different_posture": "Autre stade procédural",
	"irrelevance_reason=other":             "Autre motif",

	"answer_review=accept": "Accepter",
	"answer_review=reject": "Rejeter",

	"reject_reason=off_target": "Hors sujet",
	"reject_reason=wrong_law":  "Mauvais droit",
	"reject_reason=incomplete": "Incomplète",
	"reject_reason=other":      "Autre motif",

	"accuracy_support=supported":     "Soutenue",
	"accuracy_support=not_supported": "Non soutenue",

	"grounded=grounded":     "Fondée",
	"grounded=not_grounded": "Non fondée",
}
