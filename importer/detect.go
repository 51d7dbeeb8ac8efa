package importer

import (
	"encoding/json"
	"errors"
	"io"
	"strings"
)

// Format names, as --format takes them.
const (
	FormatNative     = "native"
	FormatLabels     = "labels"
	FormatClaimRAG   = "claimrag"
	FormatChecker    = "refchecker-checker"
	FormatHuman      = "refchecker-human"
	FormatRAGChecker = "ragchecker"
	FormatHF         = "hf"
)

// Formats lists the formats --format accepts.
var Formats = []string{FormatNative, FormatLabels, FormatClaimRAG, FormatChecker, FormatHuman, FormatRAGChecker, FormatHF}

var parsers = map[string]func(*fileData, *textReader) error{
	FormatNative:     parseNative,
	FormatLabels:     parseLabels,
	FormatClaimRAG:   parseClaimRAG,
	FormatChecker:    parseChecker,
	FormatHuman:      parseHuman,
	FormatRAGChecker: parseRAGChecker,
	FormatHF:         parseHF,
}

// described says what each format looks like, for the message that refuses
// a file.
var described = map[string]string{
	FormatNative:     `native JSONL (one pair per line with "id", "source", "question", "answer", "contexts"; or items with "kind": query, document, …)`,
	FormatLabels:     `labels JSONL ("item", "field", "value" per line)`,
	FormatHuman:      `RefChecker human annotations ([{"id", "response", "<extractor>_response_kg"}])`,
	FormatRAGChecker: `RAGChecker checking output or input ({"results":[…]} or {"input_data":[{"query_id", "response", "retrieved_context"}]})`,
}

// Format detection never guesses (docs/formats.md): it reads the
// first record and names the format whose defining keys that record has.
// Keys several formats share (query_id and gt_answer are ClaimRAG-LAW's and
// RAGChecker's; response is RefChecker's and RAGChecker's) decide nothing. A
// record that fits no format or several is refused with the formats it
// resembles; shapes that are known but hold nothing to annotate (RAGChecker's
// benchmark queries and meta-evaluation) are refused with what to import
// instead.

// shape is what the first record says.
type shape struct {
	fits      []string // formats whose defining keys the record has
	resembles []string // formats sharing some of its keys, when none fits
	refuse    string   // a known shape that is not imported, and why
}

// detect names the format of in from the start of its content.
func detect(in *input) (string, error) {
	if format, ok, err := detectParquet(in); ok || err != nil {
		return format, err
	}
	t, err := in.reader()
	if err != nil {
		return "", err
	}
	defer t.Close()
	c, err := t.peekNonSpace()
	if err == io.EOF {
		return "", fileLoc(in.name).errf("", "empty file")
	}
	if err != nil {
		return "", err
	}
	var sh shape
	switch c {
	case '[':
		first, err := firstElement(t, in.name)
		if err != nil {
			return "", err
		}
		if first == nil {
			return "", fileLoc(in.name).errf("", "empty array: nothing to import")
		}
		sh = arrayShape(first)
	case '{':
		// One object per line, or one document whose records are the array
		// under "input_data" (ClaimRAG-LAW, RAGChecker input) or "results"
		// (RAGChecker output): the keys of the first object say which.
		top := map[string]json.RawMessage{}
		container := ""
		var first map[string]json.RawMessage
		err := t.eachKey(func(key string) error {
			if c, err := t.peekNonSpace(); err == nil && c == '[' && (key == "input_data" || key == "results") {
				container = key
				if first, err = firstElement(t, in.name); err != nil {
					return err
				}
				return errStop
			}
			err := t.skip() // only the key matters: the value is not kept
			top[key] = nil
			return err
		})
		if err != nil && !errors.Is(err, errStop) {
			return "", err
		}
		switch {
		case container != "" && first == nil:
			return "", fileLoc(in.name).errf(container, "empty array: nothing to import")
		case container != "":
			sh = documentShape(container, first)
		default:
			sh = lineShape(top)
		}
	default:
		if hint := textFormatHint(t); hint != "" {
			return "", fileLoc(in.name).errf("", "%s", hint)
		}
		return "", fileLoc(in.name).errf("", "cannot tell the format: the file starts with %q, not with JSON; expected %s", c, expected())
	}
	return decide(in.name, sh)
}

// firstElement reads the first element of the array at t as an object; nil
// for an empty array.
func firstElement(t *textReader, name string) (map[string]json.RawMessage, error) {
	var first map[string]json.RawMessage
	_, err := t.eachElement(func(i int, raw []byte, at pos) error {
		var err error
		if first, err = element(name, i, raw, at); err != nil {
			return err
		}
		return errStop
	})
	if err != nil && !errors.Is(err, errStop) {
		return nil, err
	}
	return first, nil
}

func decide(name string, sh shape) (string, error) {
	at := fileLoc(name)
	switch {
	case sh.refuse != "":
		return "", at.errf("", "%s", sh.refuse)
	case len(sh.fits) == 1:
		return sh.fits[0], nil
	case len(sh.fits) > 1:
		return "", at.errf("", "cannot tell the format: the first record fits %s; say which with --format %s",
			joinOr(sh.fits), strings.Join(sh.fits, " or --format "))
	case len(sh.resembles) > 0:
		them := "it"
		if len(sh.resembles) > 1 {
			them = "them"
		}
		return "", at.errf("", "cannot tell the format: the first record resembles %s but lacks the keys that define %s; expected %s; use --format to say which",
			joinOr(sh.resembles), them, expected())
	}
	return "", at.errf("", "cannot tell the format; expected %s; use --format to say which", expected())
}

func expected() string {
	var out []string
	for _, f := range Formats {
		if d, ok := described[f]; ok {
			out = append(out, d)
		}
	}
	return strings.Join(out, ", ") + `, or a folder made by annotate export`
}

func joinOr(names []string) string {
	if len(names) == 1 {
		return names[0]
	}
	return strings.Join(names[:len(names)-1], ", ") + " and " + names[len(names)-1]
}

// lineShape reads the first line of a JSON Lines file.
func lineShape(m map[string]json.RawMessage) shape {
	var sh shape
	if has(m, "annotator") && (has(m, "claim_ids") || has(m, "qa_id")) {
		sh.refuse = `this is a data file of a folder made by annotate export --format hf (rows with "annotator" and "claim_ids" or "qa_id"): import the folder itself, which holds data/qa and data/claims`
		return sh
	}
	// A line that names a kind ("kind":"query") is native too: an unknown
	// kind is then an error naming the kinds there are.
	plainKeys, plainResembles := plainLineKeys()
	if has(m, "id") && (has(m, "kind") || hasAny(m, plainKeys...)) {
		sh.fits = append(sh.fits, FormatNative)
	}
	if has(m, "item") && has(m, "field") && has(m, "value") {
		sh.fits = append(sh.fits, FormatLabels)
	}
	if has(m, "answer") && hasAny(m, "_input_hash", "_task_hash", "_annotator_id") {
		sh.fits = append(sh.fits, FormatProdigy)
	}
	releaseLineShape(m, &sh) // CanLegalRAGBench's queries and generated answers
	if has(m, "query_id") && has(m, "retrieved_ids") {
		sh.fits = append(sh.fits, FormatCLRBRun) // clrbrun.go
	}
	if has(m, "id") || hasAny(m, plainResembles...) {
		sh.resembles = append(sh.resembles, described[FormatNative])
	}
	if hasAny(m, "annotator", "item", "field", "value") {
		sh.resembles = append(sh.resembles, described[FormatLabels])
	}
	if hasAny(m, "retrieved_ids", "retrieved_chunk_details") {
		sh.resembles = append(sh.resembles, described[FormatCLRBRun])
	}
	return sh
}

// arrayShape reads the first element of a file that is a JSON array.
func arrayShape(m map[string]json.RawMessage) shape {
	var sh shape
	if has(m, "instance_id") || has(m, "model1") && has(m, "model2") {
		sh.refuse = `this looks like RAGChecker's meta-evaluation data ("instance_id", two responses "model1" and "model2" per query, judged by humans as a whole): ` +
			`there are no claims to annotate in it; import RAGChecker's checking output ({"results":[…]}) instead`
		return sh
	}
	for k := range m {
		if strings.HasSuffix(k, "_response_kg") {
			sh.fits = append(sh.fits, FormatHuman)
			break
		}
	}
	checkerShape(m, &sh, false)
	claimragShape(m, &sh, false)
	if has(m, "data") && hasAny(m, "annotations", "predictions") {
		sh.fits = append(sh.fits, FormatLabelStudio)
	}
	releaseLineShape(m, &sh) // CanLegalRAGBench's queries and generated answers, as an array
	checkerShape(m, &sh, true)
	claimragShape(m, &sh, true)
	return sh
}

// documentShape reads the first record of {"<container>":[…]}.
func documentShape(container string, m map[string]json.RawMessage) shape {
	var sh shape
	if container == "results" {
		if has(m, "response") {
			sh.fits = []string{FormatRAGChecker}
		} else {
			sh.resembles = []string{described[FormatRAGChecker]}
		}
		return sh
	}
	if hasAny(m, claimragLabels...) {
		sh.fits = append(sh.fits, FormatClaimRAG)
	}
	if has(m, "response") {
		sh.fits = append(sh.fits, FormatRAGChecker)
	}
	if len(sh.fits) == 0 && has(m, "query_id") && has(m, "gt_answer") {
		sh.refuse = `this looks like RAGChecker's benchmark queries ({"input_data":[{"query_id", "query", "gt_answer"}]}): ` +
			`there is no "response" to review and no "relevant_chunk" (ClaimRAG-LAW); run your RAG system and RAGChecker's checking on them and import its output ({"results":[…]}), ` +
			`or use --format claimrag if this is ClaimRAG-LAW data`
		return sh
	}
	if len(sh.fits) == 0 {
		sh.resembles = []string{described[FormatClaimRAG], described[FormatRAGChecker]}
	}
	return sh
}

func has(m map[string]json.RawMessage, k string) bool { _, ok := m[k]; return ok }

func hasAny(m map[string]json.RawMessage, keys ...string) bool {
	for _, k := range keys {
		if has(m, k) {
			return true
		}
	}
	return false
}
