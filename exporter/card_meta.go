package exporter

import (
	"fmt"
	"regexp"
	"sort"
	"strings"
	"unicode"

	"github.com/annotate-dev/annotate/internal/textsafe"
	"github.com/annotate-dev/annotate/store"
)

// What the card's header and sections say depends on the kinds the export
// holds and on where their data came from: the task categories, the source
// datasets, the papers cited, the languages. This file decides those from
// the configs written and from what the database recorded at import.

// checkCardText refuses a string the card would print (--name, --contact)
// when it holds a control character (a newline included) or a
// bidirectional override: it would break the title or the YAML header, or
// show text other than what is stored.
func checkCardText(flag, s string) error {
	for i, r := range s {
		if unicode.IsControl(r) || textsafe.IsBidiControl(r) {
			return fmt.Errorf("%s %q: character %d (%U) is a control character; the dataset card takes one line of printable text", flag, s, len([]rune(s[:i]))+1, r)
		}
	}
	if strings.TrimSpace(s) == "" {
		return fmt.Errorf("%s: empty or blank; the dataset card needs a text", flag)
	}
	return nil
}

// origin is a dataset data may come from, as the card cites it.
type origin struct {
	name   string // as the text says it
	source string // source_datasets value
	url    string
	bibtex string
}

var (
	originClaimRAG = origin{"ClaimRAG-LAW", "extended|SNTSVV/ClaimRAG-LAW", "https://huggingface.co/datasets/SNTSVV/ClaimRAG-LAW",
		"@misc{das2026claimraglaw,\n  title  = {Fine-grained Claim-level RAG Benchmark for Law},\n" +
			"  author = {Das, Souvick and Abualhaija, Sallam and Bianculli, Domenico},\n  year   = {2026},\n" +
			"  eprint = {2605.21071},\n  archivePrefix = {arXiv}\n}"}
	originCanLegal = origin{"CanLegalRAGBench", "extended|UBC-VL/CanLegalRAGBench", "https://github.com/NLP-UBC/CanLegalRAGBench",
		"@misc{canlegalragbench,\n  title        = {CanLegalRAGBench: Evaluating Retrieval-Augmented Generation on Canadian Case Law},\n" +
			"  howpublished = {\\url{https://github.com/NLP-UBC/CanLegalRAGBench}}\n}"}
	originRefChecker = origin{"RefChecker", "extended|amazon-science/RefChecker", "https://github.com/amazon-science/RefChecker",
		"@misc{hu2024refchecker,\n  title  = {RefChecker: Reference-based Fine-grained Hallucination Checker and Benchmark for Large Language Models},\n" +
			"  author = {Hu, Xiangkun and Ru, Dongyu and Qiu, Lin and Guo, Qipeng and Zhang, Tianhang and Xu, Yang and Luo, Yun and Liu, Pengfei and Zhang, Yue and Zhang, Zheng},\n" +
			"  year   = {2024},\n  eprint = {2405.14486},\n  archivePrefix = {arXiv}\n}"}
	originRAGChecker = origin{"RAGChecker", "extended|amazon-science/RAGChecker", "https://github.com/amazon-science/RAGChecker",
		"@misc{ru2024ragchecker,\n  title  = {RAGChecker: A Fine-grained Framework for Diagnosing Retrieval-Augmented Generation},\n" +
			"  author = {Ru, Dongyu and Qiu, Lin and Hu, Xiangkun and Zhang, Tianhang and Shi, Peng and Chang, Shuaichen and Cheng, Jiayang and Wang, Cunxiang and Sun, Shichao and Li, Huanyu and Zhang, Zizhao and Wang, Binjie and Jiang, Jiarong and He, Tong and Wang, Zhiguo and Liu, Pengfei and Zhang, Yue and Zhang, Zheng},\n" +
			"  year   = {2024},\n  eprint = {2408.08067},\n  archivePrefix = {arXiv}\n}"}
)

// originOf is the dataset an import format's data comes from; ok false for
// the native formats (and any other: the data is the database's own).
func originOf(format string) (origin, bool) {
	switch {
	case format == "claimrag":
		return originClaimRAG, true
	case strings.HasPrefix(format, "canlegalragbench"):
		return originCanLegal, true
	case strings.HasPrefix(format, "refchecker"):
		return originRefChecker, true
	case format == "ragchecker":
		return originRAGChecker, true
	}
	return origin{}, false
}

// origins lists the datasets the imported formats come from, in the order
// first imported, and whether native data (the database's own) was imported
// too. A database whose formats were not recorded (made before they were)
// counts as native.
func origins(formats []string) (out []origin, native bool) {
	seen := map[string]bool{}
	for _, f := range formats {
		o, ok := originOf(f)
		if !ok {
			native = true
			continue
		}
		if !seen[o.name] {
			seen[o.name] = true
			out = append(out, o)
		}
	}
	return out, native || len(formats) == 0
}

// sourceDatasets is the header's source_datasets: "original" for native
// data, "extended|<dataset>" for each dataset imported.
func sourceDatasets(formats []string) []string {
	os, native := origins(formats)
	var out []string
	if native {
		out = append(out, "original")
	}
	for _, o := range os {
		out = append(out, o.source)
	}
	return out
}

// tags name what the data is for, from the kinds present.
func (c *card) tags() []string {
	return append([]string{"retrieval-augmented-generation"}, c.declared(func(f cardFacts) []string { return f.tags }, hubTagOrder)...)
}

// has is true when one of the configs was written.
func (c *card) has(names ...string) bool {
	for _, n := range names {
		if c.config(n) != nil {
			return true
		}
	}
	return false
}

// totalRows is the number of rows over every config: the Hub's size
// category counts them all.
func (c *card) totalRows() int {
	n := 0
	for _, x := range c.configs {
		n += x.rows
	}
	return n
}

// person is true for an annotator who is a person: the gold set's
// pseudo-annotator of imported qrels is not.
func person(name string) bool { return name != goldAnnotator }

// imported is true for an annotator whose labels were all imported as
// given (no session, no active time): labels made outside annotate.
func imported(w store.Work) bool { return w.Annotated && !w.InTool }

// people lists the annotators who labelled in annotate and the
// adjudicators, persons only; outside lists those whose labels were
// imported as given.
func (c *card) people() (annotators, adjudicators []string) {
	for _, w := range c.rep.work {
		if !person(w.Annotator) || imported(w) {
			continue
		}
		if w.Annotated {
			annotators = append(annotators, w.Annotator)
		}
		if w.Adjudicate {
			adjudicators = append(adjudicators, w.Annotator)
		}
	}
	return annotators, adjudicators
}

// labelledInTool is true when a person labelled items in annotate (not
// only imported labels): what the card says of the screens and the
// protocol holds only then.
func (c *card) labelledInTool() bool {
	annotators, _ := c.people()
	return len(annotators) > 0
}

// labelSetImported is true when the rows' label set is an annotator's whose
// labels were all imported as given.
func (c *card) labelSetImported() bool {
	for _, w := range c.rep.work {
		if w.Annotator == c.e.labels.Annotator && !c.e.labels.Adjudicated {
			return imported(w)
		}
	}
	return false
}

func (c *card) outside() []string {
	var out []string
	for _, w := range c.rep.work {
		if person(w.Annotator) && imported(w) {
			out = append(out, w.Annotator)
		}
	}
	return out
}

// hasGold is true when the database holds the gold set's imported qrels.
func (c *card) hasGold() bool {
	for _, w := range c.rep.work {
		if w.Annotator == goldAnnotator {
			return true
		}
	}
	return false
}

// kindLanguages is what the card says of the languages: per kind with a
// text, the languages declared, and those told from the words of the items
// that declare none.
type kindLanguages struct {
	kind     string
	declared map[string]int
	detected string // "" : none told
	unknown  int    // items with no language declared
}

// cardLanguages reads the languages of the QA pairs, queries and
// documents: as declared, else told from the words of the first items.
func (e *exporter) cardLanguages() ([]kindLanguages, []string, error) {
	ls, err := e.snap.Languages()
	if err != nil {
		return nil, nil, err
	}
	byKind := map[string]*kindLanguages{}
	var order []string
	for _, l := range ls {
		k := byKind[l.Kind]
		if k == nil {
			k = &kindLanguages{kind: l.Kind, declared: map[string]int{}}
			byKind[l.Kind] = k
			order = append(order, l.Kind)
		}
		if l.Language == "" {
			k.unknown += l.Items
		} else {
			k.declared[strings.ReplaceAll(l.Language, "_", "-")] += l.Items // fr_CA: fr-ca
		}
	}
	seen := map[string]bool{}
	var out []kindLanguages
	for _, kind := range order {
		k := byKind[kind]
		if k.unknown > 0 {
			texts, err := e.snap.UndeclaredTexts(kind, 50)
			if err != nil {
				return nil, nil, err
			}
			k.detected = detectLanguage(texts)
		}
		for l := range k.declared {
			seen[l] = true
		}
		if k.detected != "" {
			seen[k.detected] = true
		}
		out = append(out, *k)
	}
	langs := make([]string, 0, len(seen))
	for l := range seen {
		if languageCode.MatchString(l) {
			langs = append(langs, l)
		}
	}
	sort.Strings(langs)
	return out, langs, nil
}

// languageCode is what the Hub takes in `language:`: an ISO 639-1 (or
// 639-3) code, optionally with BCP-47 subtags ("en", "fr-CA"). A declared
// value that is not one ("English") stays out of the header; the body
// names it.
var languageCode = regexp.MustCompile(`^[a-z]{2,3}(-[a-z0-9]{2,8})*$`)

// stopwords are frequent function words of the languages the card can tell
// apart (legal texts of Europe and Canada): a text's language is the one
// whose words it uses most, if clearly.
var stopwords = map[string][]string{
	"en": {"the", "of", "and", "to", "in", "is", "that", "for", "on", "with", "by", "be", "as", "are", "was", "or", "an", "this", "not", "which",
		"i", "my", "do", "how", "can", "have", "what", "if", "it", "you"},
	"fr": {"le", "la", "les", "de", "des", "du", "et", "en", "un", "une", "est", "que", "qui", "dans", "pour", "par", "sur", "au", "aux", "pas",
		"je", "mon", "ma", "il", "elle", "ne", "quel", "quelle", "peut", "dois"},
	"de": {"der", "die", "das", "und", "ist", "nicht", "mit", "von", "den", "dem", "des", "ein", "eine", "zu", "auf", "für", "sich", "im", "wird", "oder"},
	"es": {"el", "los", "las", "del", "y", "que", "por", "con", "para", "una", "es", "se", "lo", "como", "más", "su", "al", "sus", "este", "esta"},
}

// detectLanguage tells the language of texts from their function words;
// "" when they have fewer than 5 or no language clearly leads (twice the
// runner-up).
func detectLanguage(texts []string) string {
	score := map[string]int{}
	index := map[string][]string{}
	for l, ws := range stopwords {
		for _, w := range ws {
			index[w] = append(index[w], l)
		}
	}
	for _, t := range texts {
		for _, w := range strings.FieldsFunc(strings.ToLower(t), func(r rune) bool { return !unicode.IsLetter(r) }) {
			for _, l := range index[w] {
				score[l]++
			}
		}
	}
	best, second := "", 0
	for _, l := range sortedKeys(score) {
		switch n := score[l]; {
		case best == "" || n > score[best]:
			second = score[best]
			best = l
		case n > second:
			second = n
		}
	}
	if best == "" || score[best] < 5 || score[best] < 2*second {
		return ""
	}
	return best
}
