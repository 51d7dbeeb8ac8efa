package importer

import (
	"bytes"
	"encoding/json"
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

var parsers = map[string]func(*fileData, []byte) error{
	FormatNative:     parseNative,
	FormatLabels:     parseLabels,
	FormatClaimRAG:   parseClaimRAG,
	FormatChecker:    parseChecker,
	FormatHuman:      parseHuman,
	FormatRAGChecker: parseRAGChecker,
}

const expected = `expected native JSONL (objects with "id", "question", "contexts"), labels JSONL ("annotator", "item", "field", "value"), ` +
	`a ClaimRAG-LAW file ({"input_data":[…]} or [{…,"claims":[{…,"claim_correctness"}]}]), ` +
	`RefChecker checker output ([{"question","response","reference","claims","ys"}]), ` +
	`RefChecker human annotations ([{"id","response","<model>_response_kg"}]) or RAGChecker output ({"results":[…]}); ` +
	`use --format to say which`

// detect tells the format of a file from its content (BOM already stripped).
func detect(name string, data []byte) (string, error) {
	at := fileLoc(name)
	b := bytes.TrimLeft(data, " \t\r\n")
	switch b[0] {
	case '[':
		doc, err := document(name, data)
		if err != nil {
			return "", err
		}
		records, err := elements(at, "", doc)
		if err != nil {
			return "", err
		}
		var first map[string]json.RawMessage
		if json.Unmarshal(records[0], &first) != nil {
			return "", recLoc(name, 0).errf("", "cannot tell the format: want a JSON object, got %s; %s", kind(records[0]), expected)
		}
		if f := arrayFormat(first); f != "" {
			return f, nil
		}
	case '{':
		line := b
		if i := bytes.IndexByte(b, '\n'); i >= 0 {
			line = b[:i]
		}
		first, lineErr := object(lineLoc(name, 1+bytes.Count(data[:len(data)-len(b)], []byte("\n"))), bytes.TrimSpace(line))
		if lineErr != nil {
			// Not one object per line: maybe one JSON document.
			doc, err := document(name, data)
			if err != nil || json.Unmarshal(doc, &first) != nil {
				return "", lineErr
			}
		}
		if f := objectFormat(first); f != "" {
			return f, nil
		}
	}
	return "", at.errf("", "cannot tell the format; %s", expected)
}

func arrayFormat(first map[string]json.RawMessage) string {
	for k := range first {
		if strings.HasSuffix(k, "_response_kg") {
			return FormatHuman
		}
	}
	if claims, ok := first["claims"]; ok {
		var list []map[string]json.RawMessage
		if json.Unmarshal(claims, &list) == nil && len(list) > 0 {
			if _, ok := list[0]["claim_correctness"]; ok {
				return FormatClaimRAG
			}
			if _, ok := list[0]["claim_entailment"]; ok {
				return FormatClaimRAG
			}
		}
	}
	if has(first, "query_id") && has(first, "gt_answer") {
		return FormatClaimRAG
	}
	if has(first, "response") && (has(first, "claims") || has(first, "ys") || has(first, "reference")) {
		return FormatChecker
	}
	return ""
}

func objectFormat(first map[string]json.RawMessage) string {
	switch {
	case has(first, "input_data"):
		return FormatClaimRAG
	case has(first, "results"):
		return FormatRAGChecker
	case has(first, "question") || has(first, "claims") || has(first, "contexts"):
		return FormatNative
	case has(first, "item") && has(first, "field") || has(first, "annotator") && has(first, "value"):
		return FormatLabels
	}
	return ""
}

func has(m map[string]json.RawMessage, k string) bool { _, ok := m[k]; return ok }
