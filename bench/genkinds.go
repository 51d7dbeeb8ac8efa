package main

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
)

// The other kinds' queues, beside the QA pairs and claims of gen.go, so
// that every annotation screen is measured on a database of the size the
// claims give it (the queues figure of bench run, queues.go). For a
// fixture of n claims:
//
//   - n/20 queries (CanLegalRAGBench's: a persona, a province, a seed
//     group of 8), each with its answer task;
//   - n/20 documents of about 1.2 KB, two chunks each;
//   - one run, bench-run, ranking 10 documents per query (its chunks, as
//     the benchmark's pipelines name them): the pool of the relevance
//     queue, n/2 (query, document) pairs;
//   - a generated answer per query with five claims and a judge's verdicts:
//     n/4 generated claims.
//
// And jo, who has judged the QA pairs' questions and answers (not the
// claims, nor the missed-claims step) on the QA screen with the claims
// left for later: jo's claim queue holds the claims of the answers jo
// judged correct, four in five.

var (
	kindPersonas  = []string{"lay", "professional"}
	provinces     = []string{"ON", "BC", "AB", "QC", "NS"}
	kindIssues    = []string{"tenancy_entry", "tenancy_deposit", "employment_notice", "employment_overtime", "family_property"}
	kindVerdicts  = [][2]string{{"supported", "grounded"}, {"not_supported", "grounded"}, {"supported", "not_grounded"}, {"not_supported", "not_grounded"}}
	kindDocsPerQ  = 10
	kindClaimsPer = 5
)

// kindsSize is the number of queries (and documents) of a fixture of n claims.
func kindsSize(claims int) int { return max(1, claims/20) }

// generateKinds writes the native JSONL of the queries, documents,
// generated answers and answer tasks to w, and the TREC run to run; it
// returns the number of queries.
func generateKinds(w, run io.Writer, claims int) (int, error) {
	bw := bufio.NewWriterSize(w, 1<<20)
	rw := bufio.NewWriterSize(run, 1<<20)
	n := kindsSize(claims)
	b := make([]byte, 0, 8192)
	for d := range n {
		b = b[:0]
		text := fmt.Sprintf("FICTIONAL DECISION %d, WRITTEN FOR THE ANNOTATE BENCHMARK. The tenant complained that the landlord entered the unit "+
			"without notice to inspect a leaking pipe. The court held that a landlord may enter without written notice only in an emergency or "+
			"with the tenant's consent, and that a slow leak that had lasted for weeks was not an emergency. ", d)
		for len(text) < 1200 {
			text += "The landlord was ordered to pay the tenant a rent abatement of one month, and the board reminded both parties of their duties under the Act. "
		}
		held := len(text) / 2
		b = fmt.Appendf(b, `{"kind":"document","id":"bd-%d","title":"Tenant %d v. Landlord (fictional)","citation":"2099 ONSC %d","court":"ONSC","jurisdiction":"%s","year":2099,"text":%q,"chunks":[{"id":"bd-%d#facts","start":0,"end":%d},{"id":"bd-%d#held","start":%d,"end":%d}]}`+"\n",
			d, d, d, provinces[d%len(provinces)], text, d, held, d, held, len(text))
		if _, err := bw.Write(b); err != nil {
			return 0, err
		}
	}
	for q := range n {
		b = b[:0]
		qid := "bq-" + strconv.Itoa(q)
		b = fmt.Appendf(b, `{"kind":"query","id":"%s","text":"My landlord came into my apartment %d times this month without telling me, to look at a leak. Is that allowed, and what can I do about it?","persona":"%s","jurisdiction":"%s","issue":"%s","seed_group":"bg-%d","seed_doc":"bd-%d"}`+"\n",
			qid, q%9+2, kindPersonas[q%2], provinces[q%len(provinces)], kindIssues[q/8%len(kindIssues)], q/8, q)
		b = fmt.Appendf(b, `{"kind":"answer_task","id":"%s/answer","query":"%s"}`+"\n", qid, qid)
		b = fmt.Appendf(b, `{"kind":"gen_answer","id":"bg-a-%d","query":"%s","system":"bench-system","condition":"%s","answer":"A landlord may enter without notice only in an emergency or with the tenant's consent; a slow leak is not an emergency, so the tenant may ask the board for a rent abatement.","documents":["bd-%d"],"claims":[`,
			q, qid, []string{"oracle", "pipeline"}[q%2], q)
		for c := range kindClaimsPer {
			if c > 0 {
				b = append(b, ',')
			}
			v := kindVerdicts[(q+c)%len(kindVerdicts)]
			b = fmt.Appendf(b, `{"id":"bg-a-%d-c%d","text":"Claim %d of answer %d: a landlord may enter without notice only in an emergency.","predictions":{"judge":{"accuracy_support":"%s","grounded":"%s"}}}`,
				q, c+1, c+1, q, v[0], v[1])
		}
		b = append(b, "]}\n"...)
		if _, err := bw.Write(b); err != nil {
			return 0, err
		}
		for k := range kindDocsPerQ {
			d := (q + k*7919) % n
			chunk := "facts"
			if k%2 == 1 {
				chunk = "held"
			}
			if _, err := fmt.Fprintf(rw, "%s Q0 bd-%d#%s %d %.3f bench-run\n", qid, d, chunk, k+1, 1-float64(k)/20); err != nil {
				return 0, err
			}
		}
	}
	if err := bw.Flush(); err != nil {
		return 0, err
	}
	return n, rw.Flush()
}

// generateJoLabels writes jo's labels on the QA pairs of a fixture of n
// claims (gen.go): question validity, category, persona and answer
// correctness as a1 judged them; no claim and no missed-claims check.
func generateJoLabels(w io.Writer, claims int) (labels int, err error) {
	bw := bufio.NewWriterSize(w, 1<<20)
	b := make([]byte, 0, 1024)
	for q := range claims / claimsPerPair {
		b = b[:0]
		for _, l := range pairLabels(q, false) {
			if l[0] == "missed_claims_checked" {
				continue
			}
			b = append(b, `{"annotator":"jo","item":`...)
			b = strconv.AppendQuote(b, pairID(q))
			b = fmt.Appendf(b, `,"field":%q,"value":%q}`+"\n", l[0], l[1])
			labels++
		}
		if _, err := bw.Write(b); err != nil {
			return 0, err
		}
	}
	return labels, bw.Flush()
}

// writeKinds writes kinds.jsonl, kinds.run and jo.jsonl into dir.
func writeKinds(dir string, claims int) (queries, labels int, err error) {
	create := func(name string) (*os.File, error) { return os.Create(filepath.Join(dir, name)) }
	kinds, err := create("kinds.jsonl")
	if err != nil {
		return 0, 0, err
	}
	defer kinds.Close()
	run, err := create("kinds.run")
	if err != nil {
		return 0, 0, err
	}
	defer run.Close()
	jo, err := create("jo.jsonl")
	if err != nil {
		return 0, 0, err
	}
	defer jo.Close()
	if queries, err = generateKinds(kinds, run, claims); err != nil {
		return 0, 0, err
	}
	if labels, err = generateJoLabels(jo, claims); err != nil {
		return 0, 0, err
	}
	for _, f := range []*os.File{kinds, run, jo} {
		if err := f.Close(); err != nil {
			return 0, 0, err
		}
	}
	return queries, labels, nil
}
