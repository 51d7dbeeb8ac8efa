package store

import (
	"fmt"

	"github.com/annotate-dev/annotate/schema"
	"github.com/annotate-dev/annotate/tally"
)

// checkKinds says which registration a kind of the schema lacks in the store
// (or in tally), so a kind added without one fails when the store opens,
// not at the first `batch create` or export that needs it.
func checkKinds() error {
	for _, k := range schema.AllKinds() {
		if payloadOf[k] == nil {
			return fmt.Errorf("kind %s: no payload loader (registerPayload, in its store/kind_*.go)", k)
		}
		if _, ok := sqlOf[k]; !ok {
			return fmt.Errorf("kind %s: no queue and batch SQL (registerSQL, in its store/kind_*.go)", k)
		}
		if schema.SpecOf(k).Annotated && !tally.Registered(k) {
			return fmt.Errorf("kind %s: no counting rules (tally.RegisterKind in tally/)", k)
		}
	}
	return nil
}
