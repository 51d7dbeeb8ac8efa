package demo

import (
	"bufio"
	"bytes"
	"encoding/json"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"
)

type context struct {
	ID   string `json:"id"`
	Text string `json:"text"`
}

type claim struct {
	ID          string            `json:"id"`
	Triplet     []string          `json:"triplet"`
	Text        string            `json:"text"`
	Predictions map[string]string `json:"predictions"`
	Labels      json.RawMessage   `json:"labels"`
}

type pair struct {
	ID        string          `json:"id"`
	Source    string          `json:"source"`
	Language  string          `json:"language"`
	Hop       string          `json:"hop"`
	Question  string          `json:"question"`
	Answer    string          `json:"answer"`
	Rationale string          `json:"rationale"`
	Category  string          `json:"category"`
	Contexts  []context       `json:"contexts"`
	Claims    []claim         `json:"claims"`
	Labels    json.RawMessage `json:"labels"`
}

func load(t *testing.T) []pair {
	t.Helper()
	b := JSONL()
	if !utf8.Valid(b) {
		t.Fatal("demo data is not valid UTF-8")
	}
	var pairs []pair
	sc := bufio.NewScanner(bytes.NewReader(b))
	sc.Buffer(make([]byte, 0, 64*1024), 1<<20)
	for n := 1; sc.Scan(); n++ {
		line := sc.Bytes()
		if len(bytes.TrimSpace(line)) == 0 {
			t.Fatalf("line %d is empty", n)
		}
		dec := json.NewDecoder(bytes.NewReader(line))
		dec.DisallowUnknownFields()
		var p pair
		if err := dec.Decode(&p); err != nil {
			t.Fatalf("line %d: %v", n, err)
		}
		if dec.More() {
			t.Fatalf("line %d: more than one JSON value", n)
		}
		pairs = append(pairs, p)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return pairs
}

func TestFileName(t *testing.T) {
	if FileName != "demo.jsonl" {
		t.Errorf("FileName = %q", FileName)
	}
	b := JSONL()
	b[0] = 'x'
	if JSONL()[0] == 'x' {
		t.Error("JSONL returns the embedded slice itself")
	}
	if !bytes.HasSuffix(JSONL(), []byte("\n")) {
		t.Error("the file does not end with a newline")
	}
}

func TestPairs(t *testing.T) {
	pairs := load(t)
	perSource := map[string]int{}
	multiPerSource := map[string]int{}
	categories := map[string]int{}
	hops := map[string]int{}
	ids := map[string]bool{}
	ctxText := map[string]string{}
	claims := 0
	wantLang := map[string]string{"GDPR": "en", "CIVIL": "fr"}
	prefix := map[string]string{"GDPR": "gdpr-", "CIVIL": "civ-"}
	validCategory := map[string]bool{"general_legal_research": true, "factual_recall": true,
		"false_premise": true, "jurisdiction_time_specific": true}
	validPrediction := map[string]bool{"Entailment": true, "Neutral": true, "Contradiction": true}
	rationales := 0

	for _, p := range pairs {
		where := p.ID
		for field, v := range map[string]string{"id": p.ID, "source": p.Source,
			"question": p.Question, "answer": p.Answer} {
			if strings.TrimSpace(v) == "" {
				t.Errorf("%s: missing %s", where, field)
			}
		}
		if ids[p.ID] {
			t.Errorf("duplicate id %s", p.ID)
		}
		ids[p.ID] = true
		lang, ok := wantLang[p.Source]
		if !ok {
			t.Errorf("%s: unknown source %q", where, p.Source)
			continue
		}
		if p.Language != lang {
			t.Errorf("%s: language %q, want %q", where, p.Language, lang)
		}
		if !strings.HasPrefix(p.ID, prefix[p.Source]) {
			t.Errorf("%s: id does not start with %q", where, prefix[p.Source])
		}
		if p.Labels != nil {
			t.Errorf("%s: carries labels; the demo must start blind", where)
		}
		perSource[p.Source]++
		if !validCategory[p.Category] {
			t.Errorf("%s: category %q", where, p.Category)
		}
		categories[p.Category]++
		hops[p.Hop]++
		switch p.Hop {
		case "single":
			if len(p.Contexts) != 1 {
				t.Errorf("%s: single-hop with %d contexts", where, len(p.Contexts))
			}
		case "multi":
			multiPerSource[p.Source]++
			if len(p.Contexts) < 2 {
				t.Errorf("%s: multi-hop with %d contexts", where, len(p.Contexts))
			}
		default:
			t.Errorf("%s: hop %q", where, p.Hop)
		}
		if p.Rationale != "" {
			rationales++
		}
		if len(p.Contexts) == 0 {
			t.Errorf("%s: no contexts", where)
		}
		seen := map[string]bool{}
		for i, c := range p.Contexts {
			if strings.TrimSpace(c.ID) == "" || strings.TrimSpace(c.Text) == "" {
				t.Errorf("%s: context %d lacks id or text", where, i)
				continue
			}
			if seen[c.ID] {
				t.Errorf("%s: context %s listed twice", where, c.ID)
			}
			seen[c.ID] = true
			if prev, ok := ctxText[c.ID]; ok && prev != c.Text {
				t.Errorf("%s: context %s differs from an earlier unit with the same id", where, c.ID)
			}
			ctxText[c.ID] = c.Text
		}
		for i, c := range p.Claims {
			claims++
			if c.ID != p.ID+"-c"+strconv.Itoa(i+1) {
				t.Errorf("%s: claim %d has id %q", where, i+1, c.ID)
			}
			if ids[c.ID] {
				t.Errorf("duplicate id %s", c.ID)
			}
			ids[c.ID] = true
			if len(c.Triplet) != 3 {
				t.Errorf("%s: triplet with %d elements", c.ID, len(c.Triplet))
			}
			for _, s := range c.Triplet {
				if strings.TrimSpace(s) == "" {
					t.Errorf("%s: empty triplet element", c.ID)
				}
			}
			if c.Text != "" {
				t.Errorf("%s: has both triplet and text", c.ID)
			}
			if c.Labels != nil {
				t.Errorf("%s: carries labels", c.ID)
			}
			if pred, ok := c.Predictions["refchecker"]; !ok || !validPrediction[pred] {
				t.Errorf("%s: refchecker prediction %q", c.ID, pred)
			}
		}
	}

	for src := range wantLang {
		if perSource[src] < 12 {
			t.Errorf("%s: %d pairs, want at least 12", src, perSource[src])
		}
		if multiPerSource[src] < 3 {
			t.Errorf("%s: %d multi-hop pairs, want at least 3", src, multiPerSource[src])
		}
	}
	if claims < 60 {
		t.Errorf("%d claims, want at least 60", claims)
	}
	for c := range validCategory {
		if categories[c] == 0 {
			t.Errorf("no pair of category %s", c)
		}
	}
	if hops["single"] == 0 || hops["multi"] == 0 {
		t.Errorf("hops %v: want both single and multi", hops)
	}
	if rationales*2 <= len(pairs) {
		t.Errorf("only %d of %d pairs have a rationale", rationales, len(pairs))
	}
	t.Logf("%d pairs %v, %d claims, categories %v, hops %v, %d context units",
		len(pairs), perSource, claims, categories, hops, len(ctxText))
}

// TestPredictionsMixed checks that the predictions are not all the same, so
// that the demo exercises every class of the verification metrics.
func TestPredictionsMixed(t *testing.T) {
	count := map[string]int{}
	for _, p := range load(t) {
		for _, c := range p.Claims {
			count[c.Predictions["refchecker"]]++
		}
	}
	for _, v := range []string{"Entailment", "Neutral", "Contradiction"} {
		if count[v] == 0 {
			t.Errorf("no claim predicted %s", v)
		}
	}
}
