package main

import (
	"bufio"
	"fmt"
	"io"
	"strconv"
)

// The benchmark data: native JSONL (docs/formats.md), one QA
// pair a line with five claims inside, generated from the pair's number
// alone, so every run and every size writes the same lines.
//
// Pair q is from GDPR (even q) or CIVIL (odd q), with one context unit; every
// tenth pair also cites the previous pair's unit (a shared unit, multi-hop).
// Claims carry a refchecker verdict (one in 500 outside the classes).
//
// Annotator a1 labels every pair and claim; a2 labels 30% of the pairs
// (q%10 in {0, 3, 7}) and their claims, agreeing with a1 most of the time. The
// asked-when rule has work to do: invalid questions (1 in 20) carry an
// invalid_reason and sometimes a persona that must not count; answers
// judged partially correct or incorrect (1 in 5) gate their claims; claims
// judged incorrect (1 in 8) carry an entailment that must not count.
//
// At 1,000,000 claims: 200,000 pairs and 3.87M labels.

const claimsPerPair = 5

var (
	categories = []string{"general_legal_research", "factual_recall", "false_premise", "jurisdiction_time_specific"}
	personas   = []string{"citizen", "civil_officer", "legal_expert"}
	reasons    = []string{"domain", "linguistic", "both"}
	verdicts   = []string{"Entailment", "Neutral", "Contradiction"}
)

// nli maps 0..9 to entailment (0-5), neutral (6-8), contradiction (9).
func nli(x int) string {
	switch {
	case x < 6:
		return "entailment"
	case x < 9:
		return "neutral"
	}
	return "contradiction"
}

func pairID(q int) string {
	if q%2 == 0 {
		return "gdpr-" + strconv.Itoa(q)
	}
	return "civil-" + strconv.Itoa(q)
}

// pairLabels are an annotator's labels on pair q (field, value), in the
// order the TUI asks them.
func pairLabels(q int, second bool) [][2]string {
	valid := q%20 != 7
	if second && q%60 == 1 {
		valid = !valid
	}
	var out [][2]string
	if !valid {
		out = append(out, [2]string{"question_validity", "invalid"}, [2]string{"invalid_reason", reasons[q%3]})
		if q%2 == 1 {
			out = append(out, [2]string{"persona", personas[q%3]}) // kept from before: not asked
		}
	} else {
		cat := categories[q%4]
		if q%5 == 0 {
			cat = categories[(q+1)%4]
		}
		if second && q%9 == 0 {
			cat = categories[(q+2)%4]
		}
		persona := personas[q%3]
		if second && q%7 == 0 {
			persona = personas[(q+1)%3]
		}
		answer := "correct"
		switch q % 10 {
		case 3:
			answer = "partially_correct"
		case 6:
			answer = "incorrect"
		}
		if second && q%11 == 0 {
			answer = "correct"
		}
		out = append(out, [2]string{"question_validity", "valid"}, [2]string{"category", cat},
			[2]string{"persona", persona}, [2]string{"answer_correctness", answer})
	}
	marker := "checked"
	if q%11 == 5 {
		marker = "added"
	}
	return append(out, [2]string{"missed_claims_checked", marker})
}

// claimLabels are an annotator's labels on claim i (the i-th of the file).
func claimLabels(i int, second bool) [][2]string {
	validity := "correct"
	if i%8 == 0 || (second && i%13 == 0) {
		validity = "incorrect"
	}
	ent := nli((i * 7) % 10)
	if second && i%3 == 0 {
		ent = nli((i*7 + 5) % 10)
	}
	return [][2]string{{"claim_validity", validity}, {"entailment", ent}}
}

// withSecond: a2 labels the pairs q%10 in {0, 3, 7}, which include answers
// judged partially correct and invalid questions.
func withSecond(q int) bool { return q%10 == 0 || q%10 == 3 || q%10 == 7 }

// generate writes the JSONL of claims/5 pairs to w and returns the number of
// labels written.
func generate(w io.Writer, claims int) (labels int, err error) {
	bw := bufio.NewWriterSize(w, 1<<20)
	pairs := claims / claimsPerPair
	b := make([]byte, 0, 8192)
	for q := range pairs {
		b = b[:0]
		id := pairID(q)
		src := "GDPR"
		if q%2 == 1 {
			src = "CIVIL"
		}
		b = append(b, `{"id":`...)
		b = strconv.AppendQuote(b, id)
		b = append(b, `,"source":"`...)
		b = append(b, src...)
		b = append(b, '"')
		if src == "GDPR" {
			b = append(b, `,"language":"en"`...)
		}
		b = fmt.Appendf(b, `,"question":"What must a controller do under Article %d of the regulation when it processes personal data?"`, q)
		b = fmt.Appendf(b, `,"answer":"Under Article %d the controller must process personal data lawfully, fairly and transparently, keep records of processing activities and notify the supervisory authority of a breach without undue delay."`, q)
		b = append(b, `,"category":"`...)
		b = append(b, categories[q%4]...)
		b = append(b, `","contexts":[`...)
		b = appendContext(b, q)
		if q%10 == 9 {
			b = append(b, ',')
			b = appendContext(b, q-1)
		}
		b = append(b, `],"claims":[`...)
		for j := range claimsPerPair {
			i := q*claimsPerPair + j
			if j > 0 {
				b = append(b, ',')
			}
			b = append(b, `{"id":`...)
			b = strconv.AppendQuote(b, id+"-c"+strconv.Itoa(j+1))
			b = fmt.Appendf(b, `,"triplet":["The controller","must notify","the authority within %d hours"]`, i%97+1)
			v := verdicts[(i*7)%10*3/10%3]
			if i%500 == 499 {
				v = "Unverifiable"
			}
			b = append(b, `,"predictions":{"refchecker":"`...)
			b = append(b, v...)
			b = append(b, `"},"labels":{`...)
			b, labels = appendLabels(b, labels, claimLabels(i, false), claimLabels(i, true), withSecond(q))
			b = append(b, "}}"...)
		}
		b = append(b, `],"labels":{`...)
		b, labels = appendLabels(b, labels, pairLabels(q, false), pairLabels(q, true), withSecond(q))
		b = append(b, "}}\n"...)
		if _, err := bw.Write(b); err != nil {
			return 0, err
		}
	}
	return labels, bw.Flush()
}

func appendContext(b []byte, q int) []byte {
	b = fmt.Appendf(b, `{"id":"ctx-%d","text":"Paragraph %d. The controller shall be responsible for, and be able to demonstrate compliance with, the principles relating to processing of personal data; personal data shall be processed lawfully, fairly and in a transparent manner in relation to the data subject, and collected for specified, explicit and legitimate purposes (%d)."}`, q, q, q)
	return b
}

func appendLabels(b []byte, n int, a1, a2 [][2]string, second bool) ([]byte, int) {
	b = appendAnnotator(b, "a1", a1)
	n += len(a1)
	if second {
		b = append(b, ',')
		b = appendAnnotator(b, "a2", a2)
		n += len(a2)
	}
	return b, n
}

// appendAnnotator appends "name":{"field":"value",…}.
func appendAnnotator(b []byte, name string, labels [][2]string) []byte {
	b = append(b, '"')
	b = append(b, name...)
	b = append(b, `":{`...)
	for k, l := range labels {
		if k > 0 {
			b = append(b, ',')
		}
		b = append(b, '"')
		b = append(b, l[0]...)
		b = append(b, `":"`...)
		b = append(b, l[1]...)
		b = append(b, '"')
	}
	return append(b, '}')
}
