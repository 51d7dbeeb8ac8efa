package importer

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/annotate-dev/annotate/schema"
	"github.com/annotate-dev/annotate/store"
)

func init() {
	described[FormatClaimRAG] = `ClaimRAG-LAW ({"input_data":[{"query_id", "relevant_chunk", …}]} or [{"query_id", "claims":[{"claim_correctness", …}]}])`
}

// claimragShape notes whether the first element of a JSON array is a
// ClaimRAG-LAW record (fits), or, for resembles, shares keys with one.
func claimragShape(m map[string]json.RawMessage, sh *shape, resembles bool) {
	switch {
	case !resembles && has(m, "query_id") && (hasAny(m, claimragLabels...) || claimragClaims(m["claims"])):
		sh.fits = append(sh.fits, FormatClaimRAG)
	case resembles && hasAny(m, "query_id", "query", "gt_answer", "relevant_chunk", "claims"):
		sh.resembles = append(sh.resembles, described[FormatClaimRAG])
	}
}

// claimragLabels are the expert's keys of ClaimRAG-LAW records.
var claimragLabels = []string{"relevant_chunk", "answer_correctness", "question_validity", "persona", "invalid_reason"}

// claimragClaims reports whether raw is a list of ClaimRAG-LAW claims
// ({"claim", "claim_correctness", "claim_entailment"}).
func claimragClaims(raw json.RawMessage) bool {
	var list []map[string]json.RawMessage
	if json.Unmarshal(raw, &list) != nil || len(list) == 0 {
		return false
	}
	return hasAny(list[0], "claim", "claim_correctness", "claim_entailment", "claim_id")
}

// ClaimRAG-LAW (Hugging Face SNTSVV/ClaimRAG-LAW) comes as two files per
// source: <SRC>-RAG-LAW.json {"input_data":[QA pairs]} and <SRC>-CLAIM-LAW.json
// [QA pairs with their claims]. Known keys are mapped, unknown ones kept and
// reported; the expert labels in the files become labels of Options.Annotator.

// DefaultClaimRAGAnnotator owns the ClaimRAG-LAW labels unless --annotator says otherwise.
const DefaultClaimRAGAnnotator = "claimrag-expert"

var claimragFile = regexp.MustCompile(`(?i)^(.+?)[-_ ](RAG|CLAIM)[-_ ]LAW$`)

// claimragSource is the source name from the file name: GDPR-RAG-LAW.json -> GDPR.
func claimragSource(name string) string {
	b := baseName(name)
	if m := claimragFile.FindStringSubmatch(b); m != nil {
		return m[1]
	}
	return b
}

// Keys the ClaimRAG-LAW mapping understands; the rest are reported.
var claimragLabelKeys = []struct{ key, field string }{
	{"question_validity", schema.QuestionValidity},
	{"invalid_reason", schema.InvalidReason},
	{"persona", schema.Persona},
	{"answer_correctness", schema.AnswerCorrectness},
}

func parseClaimRAG(f *fileData, t *textReader) error {
	src := claimragSource(f.name)
	who := f.opt.Annotator
	if who == "" {
		who = DefaultClaimRAGAnnotator
	}
	// The QA file is the master copy of each pair; the claims file repeats
	// the pairs it has claims for, so its copies are secondary.
	if c, err := t.peekNonSpace(); err == nil && c == '[' {
		return f.eachArrayRecord(t, func(r *rec) error { return f.claimragRecord(r, src, who, true) })
	}
	return f.eachDocRecord(t, []string{"input_data"}, `a ClaimRAG-LAW QA file is {"input_data":[…]}`,
		func(key string, _ []byte) error { f.unknownKeys("", []string{key}); return nil },
		func(r *rec) error { return f.claimragRecord(r, src, who, false) })
}

func (f *fileData) claimragRecord(r *rec, src, who string, secondary bool) error {
	qid, err := r.needNumberedID("query_id")
	if err != nil {
		return err
	}
	// Query ids number the pairs of one source, so they are prefixed with it;
	// the QA file and the claims file of a source then name the same pair.
	id := src + "/" + qid
	// A claims-file record without the query only points at its pair.
	claimOnly := secondary && !r.has("query")
	q := store.QAPair{ID: id, Source: src}
	if !claimOnly {
		if q, err = claimragPair(r, q); err != nil {
			return err
		}
	}
	category := q.Category
	labels := map[string]string{}
	for _, k := range claimragLabelKeys {
		if labels[k.field], err = r.str(k.key); err != nil {
			return err
		}
	}
	claims, err := r.array("claims")
	if err != nil {
		return err
	}
	keys, extra := r.unknown()
	f.unknownKeys("", keys)
	if !claimOnly {
		q.Extra = extra
		says := saysExtra
		if q.Language != "" {
			says |= saysLanguage
		}
		if err := f.addPair(r.at, "query_id", q, secondary, says); err != nil {
			return err
		}
	}
	// Persona and correctness are only asked of valid questions, so a record
	// carrying them was judged valid even when the file does not say so; the
	// category of such a record is the expert's (validated), not just generated.
	expert := labels[schema.QuestionValidity] != "" || labels[schema.Persona] != "" || labels[schema.AnswerCorrectness] != ""
	if expert && labels[schema.QuestionValidity] == "" {
		labels[schema.QuestionValidity] = "valid"
	}
	if expert && category != "" {
		labels[schema.Category] = category
	}
	for _, fd := range schema.Fields(schema.KindQA) {
		if v := labels[fd.Name]; v != "" {
			l := labelRec{at: r.at, field: claimragKey(fd.Name), itemField: "query_id", annotator: who, item: id, name: fd.Name, value: v}
			if err := f.addLabel(l, schema.KindQA); err != nil {
				return err
			}
		}
	}
	for i, raw := range claims {
		c, err := r.sub(fmt.Sprintf("claims[%d]", i), raw)
		if err != nil {
			return err
		}
		if err := f.claimragClaim(c, src, id, i+1, who, claimOnly); err != nil {
			return err
		}
	}
	return nil
}

// claimragKey is the input key a label field came from, for error messages.
func claimragKey(field string) string {
	if field == schema.Category {
		return "category"
	}
	return field
}

func claimragPair(r *rec, q store.QAPair) (store.QAPair, error) {
	var err error
	if q.Question, err = r.need("query"); err != nil {
		return q, err
	}
	if q.Answer, err = r.need("gt_answer"); err != nil {
		return q, err
	}
	if q.Rationale, err = r.str("rationale"); err != nil {
		return q, err
	}
	if q.Language, err = r.str("language"); err != nil {
		return q, err
	}
	if q.Category, err = r.str("category"); err != nil {
		return q, err
	}
	// The dataset card calls it question_category.
	if card, err := r.str("question_category"); err != nil {
		return q, err
	} else if q.Category == "" {
		q.Category = card
	}
	q.Category, _ = normalize(schema.Category, q.Category)
	hop, err := r.str("hop")
	if err != nil {
		return q, err
	}
	if q.Hop, err = normalizeHop(hop); err != nil {
		return q, r.errf("hop", "%v", err)
	}
	chunks, err := r.strings("relevant_chunk")
	if err != nil {
		return q, err
	}
	for _, text := range chunks {
		if strings.TrimSpace(text) == "" {
			continue
		}
		// A paragraph shared by several pairs is one context unit: the id is
		// derived from the text, so it never clashes and always matches.
		h := sha256.New()
		writeString(h, text)
		sum := h.Sum(nil)
		q.Contexts = append(q.Contexts, store.Context{ID: q.Source + "/ctx-" + hex.EncodeToString(sum[:6]), Text: text})
	}
	return q, nil
}

// normalizeHop accepts "single", "Single-hop", "multi_hop", ...
func normalizeHop(v string) (string, error) {
	h := strings.ToLower(strings.TrimSpace(v))
	for _, suffix := range []string{"-hop", "_hop", " hop"} {
		h = strings.TrimSuffix(h, suffix)
	}
	switch h {
	case "", "single", "multi":
		return h, nil
	}
	return "", fmt.Errorf("want \"single\" or \"multi\", got %q", v)
}

func (f *fileData) claimragClaim(c *rec, src, qa string, n int, who string, claimOnly bool) error {
	field := strings.TrimSuffix(c.path, ".")
	cl := store.Claim{QAID: qa, Position: n}
	cid, err := c.numberedID("claim_id")
	if err != nil {
		return err
	}
	idField := field
	if cid == "" {
		cl.ID = qa + "-c" + strconv.Itoa(n)
	} else {
		cl.ID, idField = src+"/"+cid, field+".claim_id"
	}
	switch raw := c.get("claim"); {
	case raw != nil && kind(raw) == "an array":
		cl.Triplet, err = triplet(c, "claim", raw)
	case raw != nil:
		cl.Text, err = c.need("claim")
	case c.has("triplet"):
		cl.Triplet, err = triplet(c, "triplet", c.get("triplet"))
	default:
		err = c.errf("claim", "missing: a claim needs \"claim\" (a text or [subject, predicate, object])")
	}
	if err != nil {
		return err
	}
	validity, err := c.str("claim_correctness")
	if err != nil {
		return err
	}
	entail, err := c.str("claim_entailment")
	if err != nil {
		return err
	}
	keys, _ := c.unknown()
	f.unknownKeys("claims.", keys)
	pairField := ""
	if claimOnly {
		pairField = "query_id"
	}
	if err := f.addClaim(c.at, field, idField, pairField, cl); err != nil {
		return err
	}
	// Entailment is only asked of correct claims: a claim with an entailment
	// and no correctness was judged correct.
	if validity == "" && entail != "" {
		validity = "correct"
	}
	l := labelRec{at: c.at, itemField: idField, annotator: who, item: cl.ID}
	if validity != "" {
		l.field, l.name, l.value = field+".claim_correctness", schema.ClaimValidity, validity
		if err := f.addLabel(l, schema.KindClaim); err != nil {
			return err
		}
	}
	if entail != "" {
		l.field, l.name, l.value = field+".claim_entailment", schema.Entailment, entail
		return f.addLabel(l, schema.KindClaim)
	}
	return nil
}
