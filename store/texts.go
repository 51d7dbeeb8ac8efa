package store

import "github.com/annotate-dev/annotate/schema"

// The text of an item of each kind, as the generic queries read it: what the
// queue search matches (search.go: Searched), and the language the item
// declares and a sample of its words for the card (formats_languages.go:
// Languaged). Each kind with a text of its own declares it from its own
// file; the queries ask the kinds and name no kind or table.

// searchSQL is the text of the kind's items the queue search matches, over
// the item whose id is %[1]s ("": searched by their id only).
func searchSQL(k schema.Kind) string {
	if s, ok := kinds.Get(k).(Searched); ok {
		return s.SearchSQL()
	}
	return ""
}
