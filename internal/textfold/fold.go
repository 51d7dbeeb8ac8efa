// Package textfold is the one way text is compared when a user searches or
// highlights it: the queue search (in SQL, through a registered function),
// the relevance document's search and the screens' shared-word highlighting
// all fold their text with Fold, so a match found by one is found by all.
package textfold

import (
	"strings"
	"unicode"

	"golang.org/x/text/unicode/norm"
)

// Fold lowers s and strips its accents: letters compared without case,
// combining marks dropped after decomposition ("Données" -> "donnees"), and
// the ligatures spelled out (œ -> oe, æ -> ae, ß -> ss).
func Fold(s string) string {
	s = strings.ToLower(s)
	var b strings.Builder
	b.Grow(len(s))
	for _, r := range norm.NFD.String(s) {
		switch {
		case unicode.Is(unicode.Mn, r):
		case r == 'œ':
			b.WriteString("oe")
		case r == 'æ':
			b.WriteString("ae")
		case r == 'ß':
			b.WriteString("ss")
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}
