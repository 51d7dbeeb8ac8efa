package importer

import (
	"encoding/json"
	"fmt"

	"github.com/annotate-dev/annotate/schema"
	"github.com/annotate-dev/annotate/store"
)

// QA pairs, a kind of records of its own (kinds_rows.go): a pair with its
// context units, written as it comes (a copy of a pair waits for its
// master; a source's language reaches the pairs written before it was
// known), counted under "qa" in the summary. Its rows of an hf export are
// under data/qa (here); a line of native JSONL without "kind" is a pair
// with its claims (kind_qa_native.go); the write path is kind_qa_write.go.

// qaKind is the importer's QA pair: records of its own, staged first (its
// copies, which claims need), its languages filled in once all is written.
type qaKind struct{}

func init() { Register(qaKind{}) }

func (qaKind) Kind() schema.Kind               { return schema.KindQA }
func (qaKind) Name() string                    { return "a QA pair" }
func (qaKind) counts(s *FileSummary) *Counts   { return &s.QA }
func (qaKind) writeStaged(w *writer) error     { return w.writeStagedCopies() }
func (qaKind) stagedBeforeItems()              {}
func (qaKind) rowsDone(w *writer) error        { return w.fillLanguages() }
func (qaKind) HFConfig() string                { return "qa" }
func (qaKind) hfRow(f *fileData, r *rec) error { return f.hfPair(r) }

// qaSummary is the QA pairs' part of a file summary.
type qaSummary struct {
	QA Counts `json:"qa"`
}

type pairRec struct {
	at        loc
	idField   string // the input key of the id, for errors
	q         store.QAPair
	hash      string
	secondary bool // a copy of a pair whose master is another file (ClaimRAG-LAW claims file)
	// says marks what the input says of the pair beyond its hash: a key it
	// does not carry (an hf row has no extra keys; a native line may leave
	// the language to its source) is no difference from the stored pair.
	says says
	// rag is the RAGChecker result whose response the pair is (refchecker.go).
	rag *store.RAGResult
}

// says is a set of the optional parts of a QA pair an input carries.
type says uint8

const (
	saysLanguage says = 1 << iota
	saysExtra
	saysPredictions
)

func (f *fileData) addPair(at loc, idField string, q store.QAPair, secondary bool, s says) error {
	if err := printable(at, idField, "the id", q.ID); err != nil {
		return err
	}
	if err := printable(at, "source", "the source name", q.Source); err != nil {
		return err
	}
	for i, c := range q.Contexts {
		if err := printable(at, fmt.Sprintf("contexts[%d].id", i), "the context id", c.ID); err != nil {
			return err
		}
	}
	for sys := range q.Predictions {
		if err := printable(at, "predictions", "the system name", sys); err != nil {
			return err
		}
	}
	if q.Hop == "" {
		q.Hop = "single"
		if len(q.Contexts) > 1 {
			q.Hop = "multi"
		}
	}
	return f.out.row(f, &pairRec{at: at, idField: idField, q: q, hash: qaHash(q), secondary: secondary, says: s, rag: f.pendingRAG})
}

// addRAGPair adds the QA pair of a RAGChecker result's response with the
// result's matrices, recorded once the pair is written.
func (f *fileData) addRAGPair(at loc, idField string, q store.QAPair, res *store.RAGResult) error {
	f.pendingRAG = res
	defer func() { f.pendingRAG = nil }()
	return f.addPair(at, idField, q, false, saysExtra)
}

func qaHash(q store.QAPair) string {
	ctx := make([][2]string, len(q.Contexts))
	for i, c := range q.Contexts {
		ctx[i] = [2]string{c.ID, c.Text}
	}
	return hash(struct {
		Kind, ID, Source, Language, Hop, Question, Answer, Rationale, Category string
		Contexts                                                               [][2]string
		Extra                                                                  string
		Predictions                                                            map[string]string `json:",omitempty"`
	}{"qa", q.ID, q.Source, q.Language, q.Hop, q.Question, q.Answer, q.Rationale, q.Category, ctx, q.Extra, q.Predictions})
}

// hfExtra reads a row's extra keys: a JSON object in a string, kept in the
// importer's canonical form (keys sorted, compact), or null.
func hfExtra(r *rec) (string, error) {
	s, err := r.str("extra")
	if err != nil || s == "" {
		return "", err
	}
	var m map[string]json.RawMessage
	if json.Unmarshal([]byte(s), &m) != nil || m == nil {
		return "", r.errf("extra", "want the JSON text of an object, got %q", truncate(s, 40))
	}
	if len(m) == 0 {
		return "", nil
	}
	b, err := json.Marshal(m)
	return string(b), err
}

// hfRAG reads a row's RAGChecker result (nil when null).
func hfRAG(r *rec) (*store.RAGResult, error) {
	s, err := r.str("ragchecker")
	if err != nil || s == "" {
		return nil, err
	}
	if !json.Valid([]byte(s)) {
		return nil, r.errf("ragchecker", "want the JSON text of a RAGChecker result, got %q", truncate(s, 40))
	}
	return nativeRAG(newRec(r.at, "", map[string]json.RawMessage{"ragchecker": json.RawMessage(s)}))
}

func (f *fileData) hfPair(r *rec) error {
	var q store.QAPair
	var err error
	if q.ID, err = r.needID("id"); err != nil {
		return err
	}
	for _, p := range []struct {
		key      string
		dst      *string
		required bool
	}{{"source", &q.Source, true}, {"question", &q.Question, false}, {"answer", &q.Answer, true},
		{"language", &q.Language, false}, {"hop", &q.Hop, false}, {"rationale", &q.Rationale, false},
		{"generated_category", &q.Category, false}} {
		if p.required {
			*p.dst, err = r.need(p.key)
		} else {
			*p.dst, err = r.str(p.key)
		}
		if err != nil {
			return err
		}
	}
	if q.Contexts, err = contextsOf(r, true); err != nil {
		return err
	}
	if q.AsGiven, err = r.boolean("as_given"); err != nil {
		return err
	}
	r.get("jurisdiction") // the source's; the importer knows the usual ones
	r.get("claim_ids")
	r.get("notes")
	// The row's language is the effective one (the source's when the pair
	// has none); it carries no pair predictions, and its extra keys when it
	// has the column (folders written before it have not).
	says := saysLanguage
	if _, ok := r.m["extra"]; ok {
		says |= saysExtra
		if q.Extra, err = hfExtra(r); err != nil {
			return err
		}
	}
	// A RAGChecker result, as the native line's "ragchecker" object, in a
	// string.
	rag, err := hfRAG(r)
	if err != nil {
		return err
	}
	f.pendingRAG = rag
	err = f.addPair(r.at, "id", q, false, says)
	f.pendingRAG = nil
	if err != nil {
		return err
	}
	return f.hfLabels(r, q.ID, schema.KindQA, append(fieldNames(schema.KindQA), schema.MissedClaimsChecked))
}
