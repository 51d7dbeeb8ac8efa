package store

import (
	"fmt"

	"github.com/annotate-dev/annotate/schema"
	"github.com/annotate-dev/annotate/tally"
)

// A kind whose systems predict one of its labelled fields (a claim's
// entailment) declares it from its own file, with the rule of which of its
// items enter the comparison of a system with an expert; the system view
// (SystemDisagreements, ReviewItem's predictions) asks the declaration and
// names no kind or field.
type compared struct {
	field string
	// enters returns the step at which the item leaves the comparison
	// (tally.StepReady: it enters) and the expert's value; "" for an item
	// not asked of the rater or not judged. (Claims: tally.Verify, the
	// rule `annotate metrics` counts by.)
	enters func(f *tally.Family, m *tally.Member, rater int64) (step, expert string)
}

var comparedOf = map[schema.Kind]compared{}

// registerCompared is called from the file of a kind whose systems predict
// one of its fields.
func registerCompared(k schema.Kind, c compared) { comparedOf[k] = c }

// comparedKind is the kind the system view compares: the one asked for, or
// the first, in queue order, that declares a predicted field.
func comparedKind(kind string) (schema.Kind, compared, error) {
	var names []string
	for _, k := range schema.AllKinds() {
		c, ok := comparedOf[k]
		if !ok {
			continue
		}
		if kind == "" || kind == string(k) {
			return k, c, nil
		}
		names = append(names, string(k))
	}
	if kind == "" {
		return "", compared{}, fmt.Errorf("no kind of item has system predictions to compare")
	}
	return "", compared{}, fmt.Errorf("kind %q: its systems predict no field (kinds compared: %v)", kind, names)
}

// predictedField is the field systems predict on items of a kind ("" none).
func predictedField(kind string) string { return comparedOf[schema.Kind(kind)].field }
