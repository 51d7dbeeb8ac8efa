// Package demo embeds the sample data that `annotate demo` loads into a fresh
// temporary database: question–answer pairs on the GDPR (in English) and on
// the Luxembourg Code civil (in French), with the claims extracted from their
// answers and RefChecker-style predictions, in the native JSONL import format
// (docs/formats.md, native JSONL).
//
// The context units quote the official texts: Regulation (EU) 2016/679 and the
// Code civil du Grand-Duché de Luxembourg. The pairs, answers and claims are
// written for training and trying the tool: some questions are deliberately
// invalid, some answers incorrect or badly worded, some claims malformed, some
// claims missing (for the missed-claims step), and some predictions wrong. The
// file carries no labels, so annotators start blind.
package demo

import (
	"embed"
	"io/fs"
	"path"
	"sort"
)

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

// File is one embedded file of the demo and the import format it is in ("":
// detected from its content).
type File struct {
	Name, Format string
	Data         []byte
}

// formatOf names the import format of an embedded file by its extension:
// TREC run and qrels files are plain text that detection does not guess.
var formatOf = map[string]string{".jsonl": "", ".run": "trec-run", ".qrels": "qrels"}

//go:embed *.jsonl
var files embed.FS

// Extra embedded files (any *.run, *.qrels) are added by the files that
// embed them, with AddFile from init.
var extra []File

// AddFile adds an embedded file of another format to the demo; the files
// that embed TREC runs and qrels call it from init.
func AddFile(name string, data []byte) {
	extra = append(extra, File{Name: name, Format: formatOf[path.Ext(name)], Data: data})
}

// Files lists every file of the demo in the order they are imported:
// demo.jsonl first, the other JSON Lines files by name, then the others.
func Files() []File {
	out := []File{{Name: FileName, Data: JSONL()}}
	names, _ := fs.Glob(files, "*.jsonl")
	sort.Strings(names)
	for _, n := range names {
		if n == FileName {
			continue
		}
		b, _ := files.ReadFile(n)
		out = append(out, File{Name: n, Format: formatOf[".jsonl"], Data: b})
	}
	for _, f := range extra {
		out = append(out, File{Name: f.Name, Format: f.Format, Data: append([]byte(nil), f.Data...)})
	}
	return out
}
