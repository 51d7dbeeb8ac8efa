package exporter

import (
	"slices"
	"sort"
)

// cardFacts is what the dataset card says of a config when it is exported:
// each kind declares its own (kind_*.go), and the card lists what the
// exported configs declare, each once.
type cardFacts struct {
	tasks   []string // the Hub's task categories: "question-answering"
	taskIDs []string // the Hub's task ids: "open-domain-qa"
	tags    []string // beside retrieval-augmented-generation: "claim-verification"
	// creators are the language_creators of its texts beside "found" (the
	// documents and contexts): "machine-generated", "expert-generated".
	creators []string
	protocol string  // the annotation protocol its labels follow, for the card's summary
	paper    *origin // the work to cite for it
	// paperIfLabelled: paper is cited only when someone labelled in
	// annotate (else the protocol was not used here).
	paperIfLabelled bool
	risk            string // its line of Bias, Risks, and Limitations
}

// The Hub's vocabularies in the order the card's header lists them.
var (
	hubTaskOrder   = []string{"question-answering", "text-retrieval", "text-classification"}
	hubTaskIDOrder = []string{"open-domain-qa", "document-retrieval", "natural-language-inference", "fact-checking"}
	hubTagOrder    = []string{"claim-verification", "hallucination", "relevance-judgments"}
	creatorOrder   = []string{"machine-generated", "expert-generated"}
)

// declared lists what the exported configs declare (of picks it), each
// once: in order's order when order is given, else in config order (kinds
// in their order: a parent before what refers to it).
func (c *card) declared(of func(cardFacts) []string, order []string) []string {
	seen := map[string]bool{}
	var out []string
	for _, x := range c.configs {
		k, ok := x.kind.(described)
		if !ok {
			continue
		}
		for _, v := range of(k.facts()) {
			if v != "" && !seen[v] {
				seen[v] = true
				out = append(out, v)
			}
		}
	}
	if order != nil {
		sort.SliceStable(out, func(i, j int) bool { return slices.Index(order, out[i]) < slices.Index(order, out[j]) })
	}
	return out
}

// declaredPapers lists the works the exported configs cite, each once, in
// config order; labelled: someone labelled in annotate.
func (c *card) declaredPapers(labelled bool) []origin {
	var out []origin
	for _, x := range c.configs {
		k, ok := x.kind.(described)
		if !ok {
			continue
		}
		f := k.facts()
		if f.paper == nil || f.paperIfLabelled && !labelled {
			continue
		}
		if p := *f.paper; !slices.ContainsFunc(out, func(o origin) bool { return o.name == p.name }) {
			out = append(out, p)
		}
	}
	return out
}
