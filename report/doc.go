// Package report builds the reports of `annotate stats`, `annotate metrics`
// and `annotate agreement` from the store: the paper's Table 1 (dataset
// statistics), Table 3 (claim extraction and verification against a system)
// and inter-annotator agreement per field.
//
// Each report is a struct whose JSON encoding is the shape DESIGN.md fixes,
// plus a text renderer. Building one has two steps: load (bulk reads from
// store/reportdata.go into flat, item-indexed columns of label codes) and
// compute (counts and the pure functions of package metrics). Labels are
// small integer codes per (rater, field, item) so that a million claims cost
// a few slices, not a map per item.
//
// The asked-when rule of the label schema holds everywhere: a label counts for
// a rater only if its field is asked given that rater's own current labels
// (a persona of an invalid question, an entailment of an incorrect claim
// never count). Label values that are not canonical are left out of every
// metric and counted in the report.
package report
