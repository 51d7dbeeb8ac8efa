package store

import "github.com/annotate-dev/annotate/schema"

// The text of an item of each kind, as the generic queries read it: what the
// queue search matches (search.go), and the language the item declares and
// a sample of its words for the card (formats_languages.go). Each kind with
// a text of its own declares it from its own file; the queries loop over
// the declarations and name no kind or table.

// kindText holds SQL expressions over an item of the kind, given the
// expression of its id (%[1]s).
type kindText struct {
	// search is the text of the item's own fields ("": searched by its id only).
	search string
	// language is the language the item itself declares (NULL or '' none:
	// its source's is read then); "" for a kind whose items declare no
	// language of their own (not counted by Languages).
	language string
	// sample is the text the card reads the words of when no language is
	// declared (with language).
	sample string
}

var textOf = map[schema.Kind]kindText{}

// registerText is called from each kind's file.
func registerText(k schema.Kind, t kindText) { textOf[k] = t }
