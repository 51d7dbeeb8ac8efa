package tui

import (
	"strings"

	"github.com/annotate-dev/annotate/internal/textsafe"
)

// sanitize makes text from imported files inert before it is displayed, by
// the rules every output of annotate shares (internal/textsafe: an escape
// sequence, a control character or a bidirectional override can never move
// the cursor, change colours or reorder the screen). On screen a tab becomes
// a space, and French spacing is applied.
func sanitize(s string) string {
	return frenchSpacing(strings.ReplaceAll(textsafe.Text(s), "\t", " "))
}

// frenchSpacing glues guillemets and high punctuation to their word with a
// no-break space, as French typography does, so that a line never starts
// with "»" or ":" nor ends with "«" ("« conformément »", "article 8 :").
var frenchSpacing = strings.NewReplacer("« ", "«\u00a0", " »", "\u00a0»", " :", "\u00a0:", " ;", "\u00a0;",
	" !", "\u00a0!", " ?", "\u00a0?").Replace

// sanitizeLine is sanitize for text shown on one line (ids, names, inputs):
// a newline shows as ␤.
func sanitizeLine(s string) string {
	return strings.ReplaceAll(sanitize(s), "\n", "\u2424")
}
