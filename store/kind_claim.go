package store

import (
	"github.com/annotate-dev/annotate/schema"
	"github.com/annotate-dev/annotate/tally"
)

// The claim kind's rows: claims (a triple or a text, its position in the
// answer, who added it).

func init() {
	registerAttrs(schema.KindClaim, kindAttrs{
		names: []string{tally.AttrOrigin, tally.AttrAddedBy, tally.AttrPosition},
		sql:   "SELECT item_id, origin, COALESCE(added_by, 0), position FROM claims WHERE item_id IN (SELECT value FROM json_each(?))",
	})
}
