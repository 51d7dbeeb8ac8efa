package lang

// The widgets every screen draws with (tui/internal/ui): the item's
// renderings, the pane's title, numbers.
var _ = add(
	msg("%d%%", "%d %%"),
	msg("(%d%%) ", "(%d %%) "),
	msg("— ↑↓ pgup pgdn home end scroll, tab/esc leave ", "— ↑↓ pgup pgdn home end pour défiler, tab/esc pour sortir "),
	msg("… continued in the pane below (tab to scroll)", "… la suite dans le panneau ci-dessous (tab pour défiler)"),
	msg("(no context unit)", "(aucune unité de contexte)"),
	msg("Question", "Question"),
	msg("Answer", "Réponse"),
	msg("Why", "Motif"),
	msg("single-hop", "un seul saut"),
	msg("multi-hop", "plusieurs sauts"),
	plurals(1, "%d context unit", "%d context units", "%d unité de contexte", "%d unités de contexte"),
	msg("Query", "Requête"),
	msg("(variations: %s)", "(variantes : %s)"),
	msg("Persona", "Profil"),
	msg("Province", "Province"),
	msg("Issue", "Question en litige"),
	msg("Seed", "Source"),
	para("No accepted gold answer for this query yet: the lead accepts gold answers first (annotate review --kind answer_task).",
		"Cette requête n'a pas encore de réponse de référence acceptée : le responsable du projet accepte d'abord les réponses de référence (annotate review --kind answer_task)."),
	msg("Cites: %s", "Cite : %s"),
	msg("The answer names no document.", "La réponse ne nomme aucun document."),
	msg("Not in the database: %s", "Absent de la base : %s"),
	msg("Gold answer", "Réponse de référence"),
	msg("Documents", "Documents"),
	msg("The generated answer:", "La réponse générée :"),
	msg("Accepted gold answer", "Réponse de référence acceptée"),
	msg("Documents the answer used", "Documents utilisés par la réponse"),
	msg("Gold answer and documents", "Réponse de référence et documents"),
)
