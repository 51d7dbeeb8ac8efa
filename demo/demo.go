// Package demo embeds the sample data that `annotate demo` loads into a fresh
// temporary database: question–answer pairs on the GDPR (in English) and on
// the Luxembourg Code civil (in French), with the claims extracted from their
// answers and RefChecker-style predictions, in the native JSONL import format
// (DESIGN.md, "Import formats", item 1).
//
// The context units quote the official texts: Regulation (EU) 2016/679 and the
// Code civil du Grand-Duché de Luxembourg. The pairs, answers and claims are
// written for training and trying the tool: some questions are deliberately
// invalid, some answers incorrect or badly worded, some claims malformed, some
// claims missing (for the missed-claims step), and some predictions wrong. The
// file carries no labels, so annotators start blind.
package demo

import _ "embed"

// FileName is the name of the embedded file, for messages and for writing it
// out.
const FileName = "demo.jsonl"

//go:embed demo.jsonl
var data []byte

// JSONL returns the demo data: one QA pair per line, UTF-8. The slice is a
// copy; callers may modify it.
func JSONL() []byte {
	return append([]byte(nil), data...)
}
