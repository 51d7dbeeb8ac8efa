// Package toykind proves that a kind is added in one place: its test files
// register a toy kind, citation_check, into every registry of the product
// (schema, store, tally, importer, exporter, the annotation and review
// screens) and take it end to end (import, queue, screen, kept counts,
// agreement, review, export, re-import) with no edit to the generic code.
// The package holds no product code; it exists for its tests.
package toykind
