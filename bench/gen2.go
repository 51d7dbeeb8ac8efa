package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"strconv"
	"strings"
)

// A second fixture, independent of gen.go's, so the import is not tuned to
// one file's shape: other ids (hashed, of several lengths), other sources
// and languages, texts from a few words to several thousand characters
// (accents, quotes and backslashes that JSON must escape; about 6 KiB a
// pair where gen.go writes 2 KiB), one to nine
// claims a pair (triplets or free text, default or explicit ids), one to
// four context units, a quarter of them shared with earlier pairs, two
// prediction systems, and four annotators with uneven coverage, some of
// whom stopped halfway through an item. Everything follows from a fixed
// seed: every run writes the same bytes.

var (
	gen2Sources = []struct{ name, lang string }{{"ECHR", "en"}, {"CJEU", "fr"}, {"BGB", "de"}, {"CODE-CIVIL", ""}, {"UKSC", "en"}}
	gen2Words   = strings.Fields(`the court held that a member state must ensure effective judicial protection ` +
		`où la juridiction de renvoi demande si l'article s'oppose à une réglementation nationale ` +
		`der Vertrag ist nichtig wenn er gegen ein gesetzliches Verbot verstößt ` +
		`"reasonable" time limits \path\to\file appeal dismissed; costs awarded — proportionality test`)
	gen2Annotators = []string{"lawyer-07", "lawyer-12", "paralegal-3", "expert-de"}
)

// gen2Text is n words (n>0) drawn from the word list.
func gen2Text(r *rand.Rand, n int) string {
	var b strings.Builder
	for i := range n {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(gen2Words[r.IntN(len(gen2Words))])
	}
	return b.String()
}

// gen2Pair is one native line and the number of claims and labels in it.
type gen2Pair struct {
	ID       string        `json:"id"`
	Source   string        `json:"source"`
	Language string        `json:"language,omitempty"`
	Hop      string        `json:"hop,omitempty"`
	Question string        `json:"question"`
	Answer   string        `json:"answer"`
	Category string        `json:"category,omitempty"`
	Contexts []gen2Context `json:"contexts"`
	Claims   []gen2Claim   `json:"claims"`
	Labels   gen2AnnLabels `json:"labels,omitempty"`
}

type gen2Context struct {
	ID   string `json:"id"`
	Text string `json:"text"`
}

type gen2Claim struct {
	ID          string            `json:"id,omitempty"`
	Triplet     []string          `json:"triplet,omitempty"`
	Text        string            `json:"text,omitempty"`
	Predictions map[string]string `json:"predictions,omitempty"`
	Labels      gen2AnnLabels     `json:"labels,omitempty"`
}

// gen2AnnLabels is annotator -> field -> value (a map: encoding/json
// writes its keys sorted, so the bytes do not depend on map order).
type gen2AnnLabels map[string]map[string]string

// gen2ContextText is the text of context unit c: the same every time it
// is cited (a shared unit must not change).
func gen2ContextText(c int) string {
	r := rand.New(rand.NewPCG(uint64(c), 0x6f6e74657874))
	return fmt.Sprintf("§ %d. ", c) + gen2Text(r, 15+r.IntN(300))
}

func gen2ID(prefix string, n int, salt uint64) string {
	h := (uint64(n)+1)*0x9e3779b97f4a7c15 ^ salt
	return prefix + strconv.FormatUint(h>>(uint(n%3)*8), 36)
}

// generate2 writes pairs until they hold at least claims claims and
// returns the pairs, claims and labels written.
func generate2(w io.Writer, claims int) (pairs, written, labels int, err error) {
	bw := bufio.NewWriterSize(w, 1<<20)
	r := rand.New(rand.NewPCG(2026, 12))
	enc := json.NewEncoder(bw)
	enc.SetEscapeHTML(false)
	contexts := 0
	for q := 0; written < claims; q++ {
		src := gen2Sources[r.IntN(len(gen2Sources))]
		p := gen2Pair{ID: gen2ID(strings.ToLower(src.name)+"/", q, 0xa5a5), Source: src.name, Language: src.lang,
			Question: gen2Text(r, 4+r.IntN(60)) + "?", Answer: gen2Text(r, 8+r.IntN(250)),
			Category: []string{"", "factual_recall", "false_premise", "General legal research"}[r.IntN(4)]}
		if r.IntN(3) == 0 {
			p.Hop = "multi"
		}
		for range 1 + r.IntN(4) {
			c := contexts
			if contexts > 0 && r.IntN(4) == 0 {
				c = r.IntN(contexts) // shared with an earlier pair
			} else {
				contexts++
			}
			if !gen2HasContext(p.Contexts, c) {
				p.Contexts = append(p.Contexts, gen2Context{ID: "u" + strconv.Itoa(c*7919), Text: gen2ContextText(c)})
			}
		}
		n := min(1+r.IntN(9), claims-written)
		for j := range n {
			var c gen2Claim
			if r.IntN(2) == 0 {
				c.Triplet = []string{gen2Text(r, 1+r.IntN(3)), gen2Text(r, 1+r.IntN(2)), gen2Text(r, 1+r.IntN(12))}
			} else {
				c.Text = gen2Text(r, 3+r.IntN(60))
			}
			if r.IntN(5) == 0 {
				c.ID = gen2ID("clm-", q*16+j, 0x5a5a)
			}
			c.Predictions = map[string]string{"ragchecker": []string{"Entailment", "Neutral", "Contradiction"}[r.IntN(3)]}
			if r.IntN(2) == 0 {
				c.Predictions["alignscore"] = []string{"entailment", "contradiction"}[r.IntN(2)]
			}
			p.Claims = append(p.Claims, c)
		}
		written += n
		labels += gen2Label(r, &p)
		if err := enc.Encode(&p); err != nil {
			return 0, 0, 0, err
		}
		pairs++
	}
	return pairs, written, labels, bw.Flush()
}

func gen2HasContext(cs []gen2Context, c int) bool {
	id := "u" + strconv.Itoa(c*7919)
	for _, x := range cs {
		if x.ID == id {
			return true
		}
	}
	return false
}

// gen2Label gives the pair and its claims the labels of one to three
// annotators (the first of the four on 90% of the pairs, the others less),
// and returns how many.
func gen2Label(r *rand.Rand, p *gen2Pair) int {
	n := 0
	for k, who := range gen2Annotators {
		if r.IntN(10) >= []int{9, 4, 2, 1}[k] {
			continue
		}
		pl := map[string]string{}
		valid := r.IntN(12) != 0
		if !valid {
			pl["question_validity"] = "invalid"
			pl["invalid_reason"] = []string{"domain", "linguistic", "both"}[r.IntN(3)]
		} else {
			pl["question_validity"] = "valid"
			if r.IntN(6) != 0 { // else stopped after the first question
				pl["category"] = []string{"general_legal_research", "factual_recall", "false_premise", "jurisdiction_time_specific"}[r.IntN(4)]
				pl["persona"] = []string{"citizen", "civil_officer", "legal_expert"}[r.IntN(3)]
				pl["answer_correctness"] = []string{"correct", "correct", "partially_correct", "incorrect"}[r.IntN(4)]
				pl["missed_claims_checked"] = "checked"
			}
		}
		if p.Labels == nil {
			p.Labels = gen2AnnLabels{}
		}
		p.Labels[who] = pl
		n += len(pl)
		for i := range p.Claims {
			if r.IntN(7) == 0 {
				continue // not reached
			}
			cl := map[string]string{"claim_validity": []string{"correct", "correct", "correct", "incorrect"}[r.IntN(4)]}
			if r.IntN(4) != 0 {
				cl["entailment"] = []string{"entailment", "neutral", "contradiction"}[r.IntN(3)]
			}
			if p.Claims[i].Labels == nil {
				p.Claims[i].Labels = gen2AnnLabels{}
			}
			p.Claims[i].Labels[who] = cl
			n += len(cl)
		}
	}
	return n
}

// generateLabels writes, in the labels format (docs/formats.md), the labels
// of a new annotator a3 on every pair and claim of gen.go's fixture of
// claims claims: a labels-only import onto items that already have labels.
func generateLabels(w io.Writer, claims int) (labels int, err error) {
	bw := bufio.NewWriterSize(w, 1<<20)
	b := make([]byte, 0, 4096)
	line := func(item, field, value string) {
		b = append(b, `{"annotator":"a3","item":`...)
		b = strconv.AppendQuote(b, item)
		b = append(b, `,"field":"`...)
		b = append(b, field...)
		b = append(b, `","value":"`...)
		b = append(b, value...)
		b = append(b, "\"}\n"...)
		labels++
	}
	for q := range claims / claimsPerPair {
		b = b[:0]
		id := pairID(q)
		for _, l := range pairLabels(q, q%2 == 0) {
			line(id, l[0], l[1])
		}
		for j := range claimsPerPair {
			for _, l := range claimLabels(q*claimsPerPair+j, q%3 == 0) {
				line(id+"-c"+strconv.Itoa(j+1), l[0], l[1])
			}
		}
		if _, err := bw.Write(b); err != nil {
			return 0, err
		}
	}
	return labels, bw.Flush()
}
