//go:build race

package store

// bigValueNoCopy is false with the race detector, whose pointer checks
// refuse SQLite's reads of a value in Go's memory (big_values_raw.go).
var bigValueNoCopy = false
