package report

import (
	"github.com/annotate-dev/annotate/metrics"
	"github.com/annotate-dev/annotate/schema"
)

// The statistics of a field on an ordinal or interval scale, beside the
// nominal ones every field has: a disagreement weighs by how far apart the
// two values are (docs/metrics.md).

// ScaledAgreement is a field's agreement on its ordered scale: over the
// same items as Krippendorff's nominal alpha (labelled by at least two).
type ScaledAgreement struct {
	// Metric is alpha's difference function: "ordinal" (ranks in the
	// field's declared order) or "interval" (the values as numbers).
	Metric            string   `json:"metric"`
	KrippendorffAlpha *float64 `json:"krippendorff_alpha"`
	// PercentWithinOne is, of every pair of labels two annotators gave one
	// item, the share at most one step apart in the declared order.
	PercentWithinOne      *float64    `json:"percent_within_one"`
	KrippendorffAlphaCI95 *[2]float64 `json:"krippendorff_alpha_ci95,omitempty"`
}

// ScaledPair is a pair's agreement on the field's ordered scale, over the
// items both labelled: Cohen's kappa with linear and quadratic weights and
// the share of items at most one step apart.
type ScaledPair struct {
	CohenKappaLinear        *float64    `json:"cohen_kappa_linear"`
	CohenKappaQuadratic     *float64    `json:"cohen_kappa_quadratic"`
	PercentWithinOne        *float64    `json:"percent_within_one"`
	CohenKappaLinearCI95    *[2]float64 `json:"cohen_kappa_linear_ci95,omitempty"`
	CohenKappaQuadraticCI95 *[2]float64 `json:"cohen_kappa_quadratic_ci95,omitempty"`
}

// fieldScale is what the statistics need of a field's scale: its level,
// and for an ordered one the scale of its codes (the classes, in the
// field's declared order).
type fieldScale struct {
	level   schema.Level
	ordered bool
	codes   metrics.Scale
}

// scaleOf reads a field's scale from the schema.
func scaleOf(field string) fieldScale {
	f, _ := schema.Lookup(field)
	return scaleOfField(f)
}

// scaleOfField: an ordinal field's codes are its ranks, an interval
// field's stand for its values as numbers.
func scaleOfField(f schema.Field) fieldScale {
	sc := fieldScale{level: f.Level(), ordered: f.Ordered()}
	switch sc.level {
	case schema.Ordinal:
		sc.codes = metrics.Scale{Level: metrics.Ordinal}
	case schema.Interval:
		sc.codes = metrics.Scale{Level: metrics.Interval, Values: f.Numbers()}
	}
	return sc
}

// scaledAgreement computes the field's scaled statistics from the pattern
// counts (none without raters); nil for a field that is not ordered.
func scaledAgreement(p metrics.Patterns, sc fieldScale, withRaters bool) *ScaledAgreement {
	if !sc.ordered {
		return nil
	}
	var a metrics.ScaledAgreement
	if withRaters {
		a = metrics.AgreeScaledPatterns(p, sc.codes)
	}
	return &ScaledAgreement{
		Metric:            string(sc.level),
		KrippendorffAlpha: defined(a.KrippendorffAlpha, a.Defined.KrippendorffAlpha),
		PercentWithinOne:  defined(a.WithinOne, a.Defined.WithinOne),
	}
}

// scaledPair computes a pair's scaled statistics from its confusion matrix;
// nil for a field that is not ordered.
func scaledPair(cm metrics.Confusion, sc fieldScale) *ScaledPair {
	if !sc.ordered {
		return nil
	}
	lin, linOK := cm.WeightedKappa(metrics.Linear, sc.codes)
	quad, quadOK := cm.WeightedKappa(metrics.Quadratic, sc.codes)
	return &ScaledPair{
		CohenKappaLinear:    defined(lin, linOK),
		CohenKappaQuadratic: defined(quad, quadOK),
		PercentWithinOne:    defined(cm.WithinOne(), cm.N() > 0),
	}
}
