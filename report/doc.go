// Package report builds the reports of `annotate stats`, `annotate metrics`
// and `annotate agreement`: the paper's Table 1 (dataset statistics), Table
// 3 (claim extraction and verification against a system), RefChecker's
// response-level meta-evaluation and inter-annotator agreement per field.
//
// Each report is a struct whose JSON encoding is the shape docs/json.md fixes,
// plus a text renderer. Building one reads the counts the store keeps up to
// date as labels are written (package tally says what each counts: the
// asked-when rule is already applied there) in one snapshot, then computes
// with the pure functions of package metrics. Agreement reads how many
// items share each pattern of labels; every coefficient of any set of
// annotators is a function of those.
//
// A statistic with nothing to count (an accuracy over no judged claim, a
// kappa over no common item, or 0/0 because every label is one class) is
// null in JSON and "—" in text, never a number.
package report
