package tally

import "github.com/annotate-dev/annotate/schema"

// Counts of queries: how many there are by persona, jurisdiction and issue
// (CanLegalRAGBench's strata).
const (
	// ItemsBy (Anyone): A "kind/attribute", B the value. Items by an
	// attribute of theirs.
	ItemsBy = "items_by"
)

// Query attributes (the store loads them).
const (
	AttrPersona      = "persona"
	AttrJurisdiction = "jurisdiction"
	AttrIssue        = "issue"
)

type queryKind struct{}

func init() { Register(queryKind{}) }

func (queryKind) Kind() schema.Kind { return schema.KindQuery }

func (queryKind) CountItem(c *Counter, f *Family, m *Member) {
	for _, a := range []string{AttrPersona, AttrJurisdiction, AttrIssue} {
		c.Add(Anyone, ItemsBy, string(m.Kind)+"/"+a, m.Attrs[a], 1)
	}
}
