package tally

import "github.com/annotate-dev/annotate/schema"

// Attributes of a generated answer the store loads (persona and
// jurisdiction are copied from its query when it is written).
const (
	AttrSystem    = "system"
	AttrCondition = "condition"
	AttrChars     = "chars"
)

// A generated answer counts once for its system and condition in every
// slice (GenKey), with its length.
type genAnswerKind struct{}

func init() { Register(genAnswerKind{}) }

func (genAnswerKind) Kind() schema.Kind { return schema.KindGenAnswer }

func (genAnswerKind) CountItem(c *Counter, f *Family, m *Member) {
	n := atoi(m.Attrs[AttrChars])
	for _, sl := range slices3(m.Attrs) {
		k := GenKey(m.Attrs[AttrSystem], m.Attrs[AttrCondition], sl)
		c.Add(Anyone, GenAnswers, k, "", 1)
		c.Add(Anyone, GenChars, k, "", n)
	}
}
