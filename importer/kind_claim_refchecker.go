package importer

import (
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/annotate-dev/annotate/schema"
	"github.com/annotate-dev/annotate/store"
)

func init() {
	described[FormatChecker] = `RefChecker checker output ([{"response", "reference", "claims", "ys"}])`
}

// checkerShape notes whether the first element of a JSON array is a
// RefChecker checker record (fits), or, for resembles, shares keys with one.
func checkerShape(m map[string]json.RawMessage, sh *shape, resembles bool) {
	switch {
	case !resembles && has(m, "response") && hasAny(m, "claims", "triplets", "ys", "Y", "reference"):
		sh.fits = append(sh.fits, FormatChecker)
	case resembles && hasAny(m, "response", "question", "reference", "claims", "ys"):
		sh.resembles = append(sh.resembles, described[FormatChecker])
	}
}

// RefChecker and RAGChecker files number their records per file, so their
// ids are prefixed with the file's base name (dolly_gpt4_answers/12646), and
// that base name is also the source: two files never collide by accident.

// HumanAnnotator owns the labels of RefChecker's human annotations.
const HumanAnnotator = "refchecker-human"

// RefCheckerSystem is the system name of RefChecker's checker predictions.
const RefCheckerSystem = "refchecker"

// RAGCheckerSystem is the system name of RAGChecker's checker predictions.
const RAGCheckerSystem = "ragchecker"

// parseChecker reads the output of `refchecker-cli check` (refchecker/cli.py):
// its input records {"response", "question" (optional), "reference",
// "claims":[[h,r,t]…]} with "ys" (one verdict per claim) and "Y" (the
// aggregated verdict of the response) added. A QA pair per record (the
// response as the answer, the reference as its context units), a claim per
// triplet with its ys verdict as a prediction of RefCheckerSystem, and Y as
// the pair's own prediction.
func parseChecker(f *fileData, t *textReader) error {
	base := baseName(f.name)
	i := -1
	return f.eachArrayRecord(t, func(r *rec) error {
		i++
		id, err := r.id("id")
		if err != nil {
			return err
		}
		if id == "" {
			id = strconv.Itoa(i)
		}
		q := store.QAPair{ID: base + "/" + id, Source: base, AsGiven: true} // a system response: not under review
		// The question is optional upstream (a summary has none).
		if q.Question, err = r.str("question"); err != nil {
			return err
		}
		if q.Answer, err = r.need("response"); err != nil {
			return err
		}
		refs, err := r.strings("reference")
		if err != nil {
			return err
		}
		for n, text := range refs {
			cid := q.ID + "/ref"
			if len(refs) > 1 {
				cid += strconv.Itoa(n + 1)
			}
			q.Contexts = append(q.Contexts, store.Context{ID: cid, Text: text})
		}
		claimsKey := "claims"
		if !r.has("claims") && r.has("triplets") {
			claimsKey = "triplets" // what refchecker-cli wrote before it said "claims"
		}
		claims, err := r.array(claimsKey)
		if err != nil {
			return err
		}
		ys, err := r.array("ys")
		if err != nil {
			return err
		}
		if ys != nil && len(ys) != len(claims) {
			return r.errf("ys", "has %d verdicts for %d claims", len(ys), len(claims))
		}
		if q.Predictions, err = f.responseVerdict(r, "Y"); err != nil {
			return err
		}
		keys, extra := r.unknown()
		f.unknownKeys("", keys)
		q.Extra = extra
		if err := f.addPair(r.at, "id", q, false, saysExtra|saysPredictions); err != nil {
			return err
		}
		for n, raw := range claims {
			field := fmt.Sprintf("%s[%d]", claimsKey, n)
			cl, err := claimValue(r, field, raw)
			if err != nil {
				return err
			}
			cl.ID, cl.QAID, cl.Position = q.ID+"-c"+strconv.Itoa(n+1), q.ID, n+1
			if ys != nil {
				v, err := verdict(r, fmt.Sprintf("ys[%d]", n), ys[n])
				if err != nil {
					return err
				}
				if v = f.prediction(RefCheckerSystem, v); v != "" {
					cl.Predictions = map[string]string{RefCheckerSystem: v}
				}
			}
			if err := f.addClaim(r.at, field, field, "", cl); err != nil {
				return err
			}
		}
		return nil
	})
}

// responseVerdict reads RefChecker's Y: a verdict ("Entailment", …,
// "Abstain") from the strict and major aggregators, kept as the pair's
// prediction of RefCheckerSystem. The soft aggregator (refchecker-cli's
// default) writes the share of each class instead, which is no verdict: it
// is left out, and the summary says how many.
func (f *fileData) responseVerdict(r *rec, key string) (map[string]string, error) {
	raw := r.get(key)
	if raw == nil {
		return nil, nil
	}
	var v string
	if json.Unmarshal(raw, &v) == nil {
		if v = f.prediction(RefCheckerSystem, v); v != "" {
			return map[string]string{RefCheckerSystem: v}, nil
		}
		return nil, nil
	}
	if kind(raw) == "an object" {
		f.sum.drop(`"Y" left out: it gives class shares (RefChecker's soft aggregator), not a verdict; run the check with --aggregator_name strict or major`)
		return nil, nil
	}
	return nil, r.errf(key, "want a verdict string, got %s", kind(raw))
}

// claimValue reads a claim given as [h, r, t] or, from sub-sentence
// extractors, as a string.
func claimValue(r *rec, field string, raw json.RawMessage) (store.Claim, error) {
	var c store.Claim
	var text string
	if json.Unmarshal(raw, &text) == nil {
		if strings.TrimSpace(text) == "" {
			return c, r.errf(field, "empty claim")
		}
		c.Text = text
		return c, nil
	}
	var err error
	c.Triplet, err = triplet(r, field, raw)
	return c, err
}

// verdict reads one element of ys: a label, or a list with one label per
// reference passage (refchecker-cli check keeps the passages apart). A list
// is merged as RefChecker merges passages, merge_multi_psg_ret in
// refchecker/checker/checker_base.py: "Entailment" if any passage entails,
// else "Contradiction" if any contradicts, else "Neutral". An empty list (no
// reference to check against) is no verdict.
func verdict(r *rec, field string, raw json.RawMessage) (string, error) {
	var v string
	if json.Unmarshal(raw, &v) == nil {
		return v, nil
	}
	if kind(raw) == "null" {
		return "", nil
	}
	var list []json.RawMessage
	if json.Unmarshal(raw, &list) != nil {
		return "", r.errf(field, "want a string or a list of strings, got %s", kind(raw))
	}
	passages := make([]string, 0, len(list))
	for i, e := range list {
		var p string
		if kind(e) != "null" && json.Unmarshal(e, &p) != nil {
			return "", r.errf(fmt.Sprintf("%s[%d]", field, i), "want a string, got %s", kind(e))
		}
		passages = append(passages, p)
	}
	return mergePassages(passages), nil
}

// mergePassages is RefChecker's rule for the verdicts of one claim against
// several passages (see verdict), on normalised labels.
func mergePassages(vs []string) string {
	if len(vs) == 0 {
		return ""
	}
	has := map[string]bool{}
	for _, v := range vs {
		n, _ := normalize(schema.Entailment, v)
		has[n] = true
	}
	switch {
	case has["entailment"]:
		return "entailment"
	case has["contradiction"]:
		return "contradiction"
	}
	return "neutral"
}

// parseHuman reads RefChecker's human annotations
// (benchmark/human_annotations_v1): [{"id","response","<extractor>_response_kg":
// [{"triplet":[h,r,t],"human_label"}]}], and the same files once
// benchmark/evaluation/autocheck.py has run a checker over them: records
// gain "question" and "context" (the passages), claims of other extractors
// come as {"claim": …}, and every claim a "<checker>_label". Each claim
// becomes a claim; its human_label a label of HumanAnnotator, with
// claim_validity=correct (annotators judged the relation of a well-formed
// triplet); each <checker>_label a prediction of system <checker>.
func parseHuman(f *fileData, t *textReader) error {
	base := baseName(f.name)
	return f.eachArrayRecord(t, func(r *rec) error {
		id, err := r.needID("id")
		if err != nil {
			return err
		}
		q := store.QAPair{ID: base + "/" + id, Source: base, AsGiven: true} // a system response: not under review
		if q.Question, err = r.str("question"); err != nil {
			return err
		}
		if q.Answer, err = r.need("response"); err != nil {
			return err
		}
		passages, err := r.strings("context")
		if err != nil {
			return err
		}
		for n, text := range passages {
			q.Contexts = append(q.Contexts, store.Context{ID: fmt.Sprintf("%s/ctx%d", q.ID, n+1), Text: text})
		}
		var kgs []string
		for _, k := range sortedKeys(r.m) {
			if strings.HasSuffix(k, "_response_kg") {
				kgs = append(kgs, k)
			}
		}
		if len(kgs) == 0 {
			return r.errf("<model>_response_kg", "missing: no key ending in _response_kg")
		}
		lists := make([][]json.RawMessage, len(kgs))
		var empty []string
		for n, k := range kgs {
			if lists[n], err = r.array(k); err != nil {
				return err
			}
			if len(lists[n]) == 0 {
				empty = append(empty, k)
			}
		}
		// An extractor that found nothing in the response stays with the
		// pair as it came ("<extractor>_response_kg": []): corr.py counts
		// the response for that extractor, factual with rate 0 (the kept
		// counts read it: store/kind_qa.go).
		for _, k := range empty {
			r.used[k] = false
		}
		keys, extra := r.unknown()
		f.unknownKeys("", slices.DeleteFunc(keys, func(k string) bool { return slices.Contains(empty, k) }))
		q.Extra = extra
		if err := f.addPair(r.at, "id", q, false, saysExtra); err != nil {
			return err
		}
		pos := 0
		for n, k := range kgs {
			for j, raw := range lists[n] {
				pos++
				c, err := r.sub(fmt.Sprintf("%s[%d]", k, j), raw)
				if err != nil {
					return err
				}
				if err := f.humanClaim(c, q.ID, pos, strings.TrimSuffix(k, "_response_kg")); err != nil {
					return err
				}
			}
		}
		return nil
	})
}

func (f *fileData) humanClaim(c *rec, qa string, pos int, extractor string) error {
	field := strings.TrimSuffix(c.path, ".")
	cl := store.Claim{ID: qa + "-c" + strconv.Itoa(pos), QAID: qa, Position: pos, Extractor: extractor}
	switch {
	case c.has("triplet"):
		t, err := triplet(c, "triplet", c.get("triplet"))
		if err != nil {
			return err
		}
		cl.Triplet = t
	case c.has("claim"):
		v, err := claimValue(c, "claim", c.get("claim"))
		if err != nil {
			return err
		}
		cl.Triplet, cl.Text = v.Triplet, v.Text
	default:
		return c.errf("triplet", "missing: a claim needs \"triplet\" [subject, predicate, object] or \"claim\"")
	}
	label, err := c.str("human_label")
	if err != nil {
		return err
	}
	c.get("attributed_sent_ids") // the extractor's pointer into the response
	for _, k := range sortedKeys(c.m) {
		sys, ok := strings.CutSuffix(k, "_label")
		if !ok || k == "human_label" || sys == "" {
			continue
		}
		v, err := c.str(k)
		if err != nil {
			return err
		}
		if v = f.prediction(sys, v); v != "" {
			if cl.Predictions == nil {
				cl.Predictions = map[string]string{}
			}
			cl.Predictions[sys] = v
		}
	}
	keys, _ := c.unknown()
	f.unknownKeys("<model>_response_kg.", keys)
	if err := f.addClaim(c.at, field, field, "", cl); err != nil {
		return err
	}
	if strings.TrimSpace(label) == "" {
		return nil
	}
	l := labelRec{at: c.at, itemField: field, annotator: HumanAnnotator, item: cl.ID,
		field: field + ".human_label", name: schema.ClaimValidity, value: "correct"}
	if err := f.addLabel(l, schema.KindClaim); err != nil {
		return err
	}
	l.name, l.value = schema.Entailment, label
	return f.addLabel(l, schema.KindClaim)
}

// ragcheckerKept are RAGChecker keys kept with the pair as extra data
// without a warning: they are known, just not annotated.
var ragcheckerKept = map[string]bool{"gt_answer": true, "gt_answer_claims": true, "answer2response": true,
	"response2answer": true, "retrieved2answer": true, "metrics": true}

// parseRAGChecker reads RAGChecker's checking output {"results":[{query_id,
// query, gt_answer, response, retrieved_context:[{doc_id,text}],
// response_claims:[[h,r,t]…], gt_answer_claims, answer2response,
// response2answer, retrieved2response, retrieved2answer, …}]} and its
// checking input {"input_data":[…]} (the same records before checking).
// Per result: a QA pair for the system's response (the retrieved chunks as
// contexts) with its claims, retrieved2response[claim][chunk] merged into a
// prediction of RAGCheckerSystem per claim; a QA pair for the ground-truth
// answer (shared by every system's result for the query) with the
// ground-truth claims, which an expert can judge; and the four matrices as
// imported (store.RAGResult), which `annotate rag` computes RAGChecker's
// metrics from.
//
// The source is Options.Source, else the file's base name; the system
// Options.System, else the file's base name. Ids: the response's pair is
// <source>/<query_id> when the system is the source (both defaulted: the
// file's name), else <source>/<system>/<query_id>; its claims <pair>-c<n>;
// the ground-truth answer's pair <source>/<query_id>/gt (its context unit
// <source>/<query_id>/gt/answer: the answer) and its claims
// <source>/<query_id>-g<n> (n from 1, in file order).
func parseRAGChecker(f *fileData, t *textReader) error {
	source, system := f.opt.Source, f.opt.System
	if source == "" {
		source = baseName(f.name)
	}
	if system == "" {
		system = baseName(f.name)
	}
	return f.eachDocRecord(t, []string{"results", "input_data"}, `a RAGChecker file is {"results":[…]} (checking output) or {"input_data":[…]} (checking input)`,
		func(string, []byte) error { return nil }, // "metrics" of the whole run
		func(r *rec) error { return f.ragcheckerRecord(r, source, system) })
}

// ragMatrixKeys are RAGChecker's four checking outputs.
var ragMatrixKeys = []string{"answer2response", "response2answer", "retrieved2response", "retrieved2answer"}

func (f *fileData) ragcheckerRecord(r *rec, source, system string) error {
	if err := printable(r.at, "system", "the system name", system); err != nil {
		return err
	}
	id, err := r.needID("query_id")
	if err != nil {
		return err
	}
	pairID := source + "/" + id
	if system != source {
		pairID = source + "/" + system + "/" + id
	}
	q := store.QAPair{ID: pairID, Source: source, AsGiven: true} // a system response: not under review
	if q.Question, err = r.need("query"); err != nil {
		return err
	}
	if q.Answer, err = r.need("response"); err != nil {
		return err
	}
	ctxs, err := r.array("retrieved_context")
	if err != nil {
		return err
	}
	for n, raw := range ctxs {
		c, err := r.sub(fmt.Sprintf("retrieved_context[%d]", n), raw)
		if err != nil {
			return err
		}
		doc, err := c.id("doc_id")
		if err != nil {
			return err
		}
		if doc == "" {
			doc = strconv.Itoa(n)
		}
		text, err := c.need("text")
		if err != nil {
			return err
		}
		// doc ids number the chunks retrieved for one query.
		q.Contexts = append(q.Contexts, store.Context{ID: q.ID + "/" + doc, Text: text})
	}
	claims, err := r.array("response_claims")
	if err != nil {
		return err
	}
	checked, err := r.array("retrieved2response")
	if err != nil {
		return err
	}
	// The pair keeps what it does not read itself (the ground-truth side,
	// the matrices, the per-result metrics) as before: its hash covers them.
	keys, extra := r.unknown()
	var odd []string
	for _, k := range keys {
		if !ragcheckerKept[k] {
			odd = append(odd, k)
		}
	}
	f.unknownKeys("", odd)
	q.Extra = extra
	gtClaims, err := r.array("gt_answer_claims")
	if err != nil {
		return err
	}
	gtAnswer, err := r.str("gt_answer")
	if err != nil {
		return err
	}
	// The matrices, checked against the claims and chunks they cross.
	rows := map[string]int{"answer2response": len(claims), "response2answer": len(gtClaims),
		"retrieved2response": len(claims), "retrieved2answer": len(gtClaims)}
	claimsKey := map[string]string{"answer2response": "response_claims", "response2answer": "gt_answer_claims",
		"retrieved2response": "response_claims", "retrieved2answer": "gt_answer_claims"}
	matrices := map[string]string{}
	for _, k := range ragMatrixKeys {
		if !r.has(k) || kind(r.get(k)) == "null" {
			continue
		}
		cols := -1 // a vector
		if strings.HasPrefix(k, "retrieved2") {
			cols = len(ctxs)
		}
		js, err := ragMatrix(r, k, rows[k], cols, claimsKey[k])
		if err != nil {
			return err
		}
		matrices[k] = js
	}
	// The ground-truth answer's pair first: the response's result refers to it.
	var gt store.QAPair
	if len(gtClaims) > 0 {
		if strings.TrimSpace(gtAnswer) == "" {
			return r.errf("gt_answer", "missing: the ground-truth answer of its gt_answer_claims")
		}
		// Its one context unit is the answer itself: what its claims were
		// extracted from, and what the claim screen shows them against.
		gt = store.QAPair{ID: source + "/" + id + "/gt", Source: source, Question: q.Question, Answer: gtAnswer, AsGiven: true} // the dataset's ground truth: its claims are asked at once
		gt.Contexts = []store.Context{{ID: gt.ID + "/answer", Text: gtAnswer}}
		if err := f.addPair(r.at, "query_id", gt, false, 0); err != nil {
			return err
		}
	}
	res := &store.RAGResult{System: system, QueryID: id, AnswerPair: gt.ID,
		AnswerToResponse: matrices["answer2response"], ResponseToAnswer: matrices["response2answer"],
		RetrievedToResponse: matrices["retrieved2response"], RetrievedToAnswer: matrices["retrieved2answer"]}
	if len(matrices) == 0 {
		res = nil // a checking input: nothing checked yet
	}
	if err := f.addRAGPair(r.at, "query_id", q, res); err != nil {
		return err
	}
	for n, raw := range claims {
		field := fmt.Sprintf("response_claims[%d]", n)
		cl, err := claimValue(r, field, raw)
		if err != nil {
			return err
		}
		cl.ID, cl.QAID, cl.Position = q.ID+"-c"+strconv.Itoa(n+1), q.ID, n+1
		if checked != nil {
			// RAGChecker counts a response claim as faithful when any
			// retrieved chunk entails it (ragchecker/computation.py,
			// evaluate_faithfulness: np.max over the chunks); that is the
			// first step of RefChecker's merge, used here whole.
			v, err := verdict(r, fmt.Sprintf("retrieved2response[%d]", n), checked[n])
			if err != nil {
				return err
			}
			if v = f.prediction(RAGCheckerSystem, v); v != "" {
				cl.Predictions = map[string]string{RAGCheckerSystem: v}
			}
		}
		if err := f.addClaim(r.at, field, field, "", cl); err != nil {
			return err
		}
	}
	for n, raw := range gtClaims {
		field := fmt.Sprintf("gt_answer_claims[%d]", n)
		cl, err := claimValue(r, field, raw)
		if err != nil {
			return err
		}
		cl.ID, cl.QAID, cl.Position = source+"/"+id+"-g"+strconv.Itoa(n+1), gt.ID, n+1
		if err := f.addClaim(r.at, field, field, "", cl); err != nil {
			return err
		}
	}
	return nil
}

// ragMatrix reads one of RAGChecker's checking outputs: a verdict per claim
// (cols < 0) or, per claim, a verdict per retrieved chunk; each verdict a
// string, kept verbatim (RAGChecker counts exactly "Entailment"). It
// returns the matrix as compact JSON.
func ragMatrix(r *rec, key string, rows, cols int, claimsKey string) (string, error) {
	list, err := r.array(key)
	if err != nil {
		return "", err
	}
	if len(list) != rows {
		return "", r.errf(key, "has %d rows for the %d claims of %s", len(list), rows, claimsKey)
	}
	var out any
	if cols < 0 {
		vs := make([]string, len(list))
		for i, raw := range list {
			if json.Unmarshal(raw, &vs[i]) != nil {
				return "", r.errf(fmt.Sprintf("%s[%d]", key, i), "want a verdict string, got %s", kind(raw))
			}
		}
		out = vs
	} else {
		m := make([][]string, len(list))
		for i, raw := range list {
			var row []json.RawMessage
			if json.Unmarshal(raw, &row) != nil || row == nil {
				return "", r.errf(fmt.Sprintf("%s[%d]", key, i), "want a list of verdicts (one per retrieved chunk), got %s", kind(raw))
			}
			if len(row) != cols {
				return "", r.errf(fmt.Sprintf("%s[%d]", key, i), "has %d verdicts for the %d chunks of retrieved_context", len(row), cols)
			}
			m[i] = make([]string, len(row))
			for j, e := range row {
				if json.Unmarshal(e, &m[i][j]) != nil {
					return "", r.errf(fmt.Sprintf("%s[%d][%d]", key, i, j), "want a verdict string, got %s", kind(e))
				}
			}
		}
		out = m
	}
	b, err := json.Marshal(out)
	return string(b), err
}
