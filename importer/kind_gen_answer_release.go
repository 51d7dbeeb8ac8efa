package importer

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/annotate-dev/annotate/schema"
)

// CanLegalRAGBench's generated answers (release.go): evaluate_generation's
// answers.jsonl and the judge's per-row scores, each row a generated answer,
// with its claims when the judge's manual evaluation lists them.

// parseReleaseAnswers reads the generation outputs.
func parseReleaseAnswers(f *fileData, t *textReader) error {
	return f.eachReleaseRecord(t, func(r *rec) error {
		at, m := r.at, r.m
		query, err := r.needID("query_id")
		if err != nil {
			return err
		}
		answer, err := r.need("generated_answer")
		if err != nil {
			return err
		}
		system := f.opt.System
		gen, err := r.str("generator")
		if err != nil {
			return err
		}
		if system == "" {
			if system = gen; system == "" {
				return r.errf("generator", "empty: the row does not name its system (prepare_eval_input.py --generator); give it with --system NAME")
			}
		}
		if err := printable(at, "generator", "the system name", system); err != nil {
			return err
		}
		condition := f.opt.Condition
		cond, err := r.str("condition")
		if err != nil {
			return err
		}
		if condition == "" {
			if condition = cond; condition == "" {
				condition = schema.ConditionPipeline // prepare_eval_input.py's default
			}
		}
		if !slices.Contains(conditions, condition) {
			return r.errf("condition", "want \"oracle\" or \"pipeline\", got %q (--condition to say which)", condition)
		}
		// The native line of the answer: what it is staged as while its
		// query is not in yet, and parsed by the native parser so both ways
		// give the same item. Every other key of the row (generator,
		// retrieval_method, the judge's scores, …) is kept with it.
		native := map[string]any{"kind": string(schema.KindGenAnswer), "id": query + "/" + system + "/" + condition,
			"query": query, "system": system, "condition": condition, "answer": answer}
		if r.has("generator") {
			native["generator"] = gen
		}
		fp, err := r.object("factual_precision")
		if err != nil {
			return err
		}
		if fp != nil {
			sub := newRec(at, "factual_precision.", fp)
			claims, err := releaseJudgements(sub)
			if err != nil {
				return err
			}
			if claims != nil {
				native[genClaimsKey] = claims
			}
			// What is not a judgement (the prompts, the counts) is kept.
			if keys, rest := sub.unknown(); len(keys) > 0 {
				native["factual_precision"] = json.RawMessage(rest)
			}
		}
		keys, _ := r.unknown()
		for _, k := range keys {
			native[k] = m[k]
		}
		b, err := json.Marshal(native)
		if err != nil {
			return err
		}
		nm, err := object(at, b)
		if err != nil {
			return err
		}
		nf := *f
		nf.sum = &FileSummary{} // the native keys kept are no unknown keys of this file
		it, err := parseGenAnswer(&nf, newRec(at, "", nm))
		if err != nil {
			return err
		}
		it.idField, it.at, it.line = "query_id", at, b
		return f.out.item(f, it)
	})
}

// releaseJudgements reads the judge's per-claim verdicts of a manual
// evaluation row as the claims of the answer.
func releaseJudgements(r *rec) ([]map[string]any, error) {
	list, err := r.array("judgements")
	if err != nil || list == nil {
		return nil, err
	}
	r.get("decomposed_statements") // the same statements, without verdicts
	claims := []map[string]any{}
	for i, raw := range list {
		field := fmt.Sprintf("judgements[%d]", i)
		j, err := r.sub(field, raw)
		if err != nil {
			return nil, err
		}
		text, err := j.need("statement")
		if err != nil {
			return nil, err
		}
		var verdict string
		switch v := strings.TrimSpace(string(j.get("verdict"))); v {
		case "1", "true":
			verdict = "supported"
		case "0", "false":
			verdict = "not_supported"
		default:
			return nil, j.errf("verdict", "want 1 (supported by the reference answer) or 0, got %s", kind(j.get("verdict")))
		}
		c := map[string]any{"text": text, "predictions": map[string]map[string]string{ReleaseJudge: {schema.AccuracySupport: verdict}}}
		j.get("supported") // the verdict again
		j.get("reason")    // the judge's, not kept: a claim holds its text and verdicts
		claims = append(claims, c)
	}
	return claims, nil
}
