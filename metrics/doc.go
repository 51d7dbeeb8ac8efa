// Package metrics computes the numbers behind `annotate metrics` and
// `annotate agreement`: classification scores of a system against expert
// labels, Cohen's and Fleiss' kappa, Krippendorff's alpha, Gwet's AC1,
// percent agreement, Wilson intervals and a seeded bootstrap; on an ordinal
// or interval scale (Scale), Krippendorff's alpha with the ordinal or
// interval metric, Cohen's weighted kappa and the share within one step.
//
// Everything here is a pure function over plain slices: no I/O, no global
// state, standard library only. The store and the commands turn labels into
// codes, call these functions, and format the results.
//
// # Category codes
//
// Labels are small ints: 0..k-1 index the classes of a field, in the order of
// the label schema. Two negative codes are reserved:
//
//   - Missing (-1): no label (a rater who did not label the unit, a claim
//     without a prediction).
//   - Other (-2): a label that is not one of the classes, e.g. a system
//     prediction outside entailment/neutral/contradiction.
//
// The caller maps its strings to codes. Working on ints instead of strings (and on
// flat slices instead of a map or slice per item) is what keeps a million
// items with three million labels in the low milliseconds: every function
// makes a fixed number of allocations, none per item.
//
// In agreement statistics every code outside 0..k-1 (Missing, Other or
// anything else) counts as "no label". In a confusion matrix a truth outside
// 0..k-1 or a Missing prediction drops the pair; any other prediction outside
// 0..k-1 is counted in the extra column "other".
//
// # Undefined values
//
// A ratio whose denominator is zero is reported as 0, following
// scikit-learn's zero_division=0 and the design contract ("an undefined ratio
// is 0"). This applies to precision, recall, F1, accuracy of an empty matrix,
// and also to every chance-corrected coefficient (kappa, alpha, AC1) when the
// expected disagreement is zero, e.g. when all raters used a single category.
// No function returns NaN, so results can always be written as JSON. Callers
// that need to tell "undefined" from "no better than chance" can look at the
// item counts that come with the results.
//
// # Ratings layout
//
// Multi-rater statistics take a Ratings value: a units×raters matrix stored
// row-major in one []int (Codes[u*Raters+r] is rater r's code for unit u).
// The tests build one from the per-unit category-count form used by
// statsmodels and irrCAC's *.dist functions (RatingsFromCounts).
package metrics
