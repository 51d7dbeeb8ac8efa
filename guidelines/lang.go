package guidelines

import "github.com/annotate-dev/annotate/schema"

// The languages the guidelines are written in. English is the original and
// the default. The French text (md/fr/) says the same thing section by
// section, as a francophone jurist would write it rather than word for
// word: the same subsections in the same order, the same value tables, the
// same number of rules and examples, and the same identifiers in backticks
// (fields, values, keys stay the canonical English ones in every
// language). lang_test.go holds the two to that.
const (
	English = "en"
	French  = "fr"
)

// Written reports whether the guidelines are written in a language ("en",
// "fr"); "" is English.
func Written(lang string) bool { return lang == "" || lang == English || lang == French }

// dir is the folder of a language's files: md/ for English, md/LANG/ for
// the others.
func dir(lang string) string {
	if lang == French {
		return "md/fr/"
	}
	return "md/"
}

// wording is what the package itself writes around the sections, in one
// language.
type wording struct {
	none         string // the text of a field without a section
	taxonomyHead string // the header row of the taxonomy's table
	example      string // before a category's example
}

var wordings = map[string]wording{
	English: {
		none:         "No guidelines for this field yet.",
		taxonomyHead: "| key | value | group | definition |",
		example:      "Example:",
	},
	French: {
		none:         "Ce champ n'a pas encore de consignes.",
		taxonomyHead: "| touche | valeur | groupe | définition |",
		example:      "Exemple\u00a0:",
	},
}

func words(lang string) wording {
	if w, ok := wordings[lang]; ok {
		return w
	}
	return wordings[English]
}

// translated is a category of the taxonomy as a reader of lang reads it:
// a default category in French gets its French label, definition and
// example; a category the lead wrote (--taxonomy), or a default one the
// lead changed, is shown as written.
func translated(c schema.ErrorKind, lang string) schema.ErrorKind {
	if lang != French {
		return c
	}
	fr, ok := taxonomyFR[c.Value]
	if !ok || !isDefault(c) {
		return c
	}
	c.Label, c.Definition, c.Example = fr.Label, fr.Definition, fr.Example
	return c
}

func isDefault(c schema.ErrorKind) bool {
	for _, d := range schema.DefaultTaxonomy() {
		if d.Value == c.Value {
			return d == c
		}
	}
	return false
}

// taxonomyFR is the default error taxonomy (CanLegalRAGBench, Appendix E)
// in French, by value: each entry says what its English one says.
var taxonomyFR = map[string]schema.ErrorKind{
	"valid_contextual_statement": {
		Label:      "Énoncé contextuel ou de conclusion valable",
		Definition: "Un énoncé exact qui encadre ou conclut la réponse (le conseil de consulter un avocat, le résumé de ce qui précède) et qu'aucun document ni la réponse de référence n'énonce comme tel.",
		Example:    "«\u00a0Chaque situation dépend de ses faits\u202f; un avocat pourra vous conseiller sur la vôtre.\u00a0»",
	},
	"synthesis_too_far_from_source": {
		Label:      "Synthèse trop éloignée de la source",
		Definition: "Un énoncé fondé sur les documents, mais qui les combine ou les reformule si librement que le juge automatique n'en reconnaît plus la source.",
		Example:    "deux solutions jurisprudentielles réunies en une règle que les deux décisions appuient.",
	},
	"false_positive_in_gold": {
		Label:      "Faux positif\u00a0: présent dans la réponse de référence",
		Definition: "Le juge automatique a estimé que la réponse de référence ne soutient pas l'affirmation, alors qu'elle l'énonce bel et bien.",
		Example:    "la réponse de référence dit «\u00a072\u00a0heures\u00a0»\u202f; l'affirmation dit «\u00a0trois jours\u00a0».",
	},
	"missing_from_gold": {
		Label:      "Pertinente, absente de la réponse de référence",
		Definition: "Une affirmation exacte et pertinente que la réponse de référence ne traite tout simplement pas.",
		Example:    "un délai de prescription que l'expert n'a pas mentionné.",
	},
	"irrelevant": {
		Label:      "Non pertinente",
		Definition: "L'affirmation est peut-être exacte, mais elle n'aide pas à répondre à la requête.",
		Example:    "l'historique de la loi dans une réponse sur les droits actuels d'un locataire.",
	},
	"too_detailed": {
		Label:      "Trop détaillée",
		Definition: "L'affirmation entre dans un détail dont la requête n'a pas besoin.",
		Example:    "chacun des alinéas d'un article, alors qu'un seul s'applique.",
	},
	"misses_the_point": {
		Label:      "Pertinente, mais à côté de la question",
		Definition: "Dans le sujet, mais elle répond à une autre question que celle qui est posée.",
		Example:    "les critères d'admissibilité, alors qu'on sait déjà que le client n'est pas admissible.",
	},
	"general_vs_case_specific_law": {
		Label:      "Règle générale confondue avec une solution d'espèce",
		Definition: "Présente une conclusion tirée des faits d'une affaire comme une règle générale, ou l'inverse.",
		Example:    "«\u00a0Le locateur ne peut jamais entrer sans préavis\u00a0», tiré d'une décision rendue sur ses faits propres.",
	},
	"misapplied_legal_test": {
		Label:      "Critère juridique mal appliqué",
		Definition: "Nomme le bon critère mais l'applique mal, ou applique le mauvais critère.",
		Example:    "un critère à deux volets appliqué comme si l'un ou l'autre suffisait.",
	},
	"document_misattribution": {
		Label:      "Attribution à un mauvais document",
		Definition: "Attribue un énoncé à une décision ou à un document qui ne le contient pas.",
		Example:    "la solution d'une affaire citée comme celle d'une autre.",
	},
	"statutory_misattribution": {
		Label:      "Attribution à une mauvaise disposition",
		Definition: "Attribue une règle à la mauvaise loi ou au mauvais article.",
		Example:    "un délai de préavis rattaché au mauvais article de la loi.",
	},
	"doctrinal_conflation": {
		Label:      "Confusion de notions",
		Definition: "Fond en une seule deux doctrines ou notions distinctes.",
		Example:    "traiter le congédiement déguisé et le congédiement injustifié comme un seul et même recours.",
	},
	"modal_or_detail_error": {
		Label:      "Erreur de modalité ou de détail",
		Definition: "Se trompe sur une modalité ou un détail\u00a0: «\u00a0ne doit pas\u00a0» pour «\u00a0ne peut pas\u00a0», un chiffre, une date, une partie.",
		Example:    "«\u00a0En Ontario, le préavis que doit donner le locataire pour mettre fin à une location au mois est de 30\u00a0jours\u00a0», alors que la Loi de 2006 sur la location à usage d'habitation exige au moins 60\u00a0jours.",
	},
	"unsupported_by_cited_document": {
		Label:      "Non appuyée par le document cité",
		Definition: "Énonce une chose que le document cité n'appuie en rien.",
		Example:    "une affirmation qui cite une décision où la question n'est jamais abordée.",
	},
}

// TaxonomyIn is the error taxonomy in force (schema.Taxonomy) as a reader
// of lang reads it: the default categories in that language, a lead's own
// as written.
func TaxonomyIn(lang string) []schema.ErrorKind {
	t := schema.Taxonomy()
	for i, c := range t {
		t[i] = translated(c, lang)
	}
	return t
}
