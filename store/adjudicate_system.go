package store

import (
	"fmt"

	"github.com/annotate-dev/annotate/schema"
)

// A kind whose systems predict one of its labelled fields (a claim's
// entailment) declares it from its own file (Predicted), with the rule of
// which of its items enter the comparison of a system with an expert; the
// system view (SystemDisagreements, AdjudicationItem's predictions) asks the
// declaration and names no kind or field.

// comparedKind is the kind the system view compares: the one asked for, or
// the first, in queue order, that declares a predicted field.
func comparedKind(kind string) (schema.Kind, Predicted, error) {
	var names []string
	for _, k := range schema.AllKinds() {
		c, ok := kinds.Get(k).(Predicted)
		if !ok {
			continue
		}
		if kind == "" || kind == string(k) {
			return k, c, nil
		}
		names = append(names, string(k))
	}
	if kind == "" {
		return "", nil, fmt.Errorf("no kind of item has system predictions to compare")
	}
	return "", nil, fmt.Errorf("kind %q: its systems predict no field (kinds compared: %v)", kind, names)
}

// predictedField is the field systems predict on items of a kind ("" none).
func predictedField(kind string) string {
	if p, ok := kinds.Get(schema.Kind(kind)).(Predicted); ok {
		return p.PredictedField()
	}
	return ""
}
