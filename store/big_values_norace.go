//go:build !race

package store

// bigValueNoCopy says an import's big values are bound without the
// driver's copy (big_values_raw.go).
var bigValueNoCopy = true
