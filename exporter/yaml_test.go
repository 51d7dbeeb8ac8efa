package exporter

import (
	"encoding/json"
	"fmt"
	"strings"
)

// A YAML reader for the subset the card header uses (gopkg.in/yaml.v3 is not
// a dependency of the module): block mappings and sequences by indentation,
// "- key: value" items, plain scalars and double-quoted (JSON) strings.

type yline struct {
	indent int
	text   string
	n      int
}

// frontMatter returns the YAML between the leading "---" lines of a card.
func frontMatter(card string) (string, error) {
	if !strings.HasPrefix(card, "---\n") {
		return "", fmt.Errorf("the card does not start with ---")
	}
	end := strings.Index(card[4:], "\n---\n")
	if end < 0 {
		return "", fmt.Errorf("no closing --- after the YAML header")
	}
	return card[4 : 4+end+1], nil
}

func parseYAML(src string) (any, error) {
	var ls []yline
	for i, l := range strings.Split(src, "\n") {
		t := strings.TrimLeft(l, " ")
		if t == "" || strings.HasPrefix(t, "#") {
			continue
		}
		if strings.Contains(l, "\t") {
			return nil, fmt.Errorf("line %d: tab in indentation", i+1)
		}
		ls = append(ls, yline{indent: len(l) - len(t), text: t, n: i + 1})
	}
	v, rest, err := yBlock(ls)
	if err == nil && len(rest) > 0 {
		err = fmt.Errorf("line %d: unexpected indentation", rest[0].n)
	}
	return v, err
}

func isItem(l yline) bool { return l.text == "-" || strings.HasPrefix(l.text, "- ") }

func yBlock(ls []yline) (any, []yline, error) {
	if len(ls) == 0 {
		return nil, ls, nil
	}
	if isItem(ls[0]) {
		return ySeq(ls, ls[0].indent)
	}
	return yMap(ls, ls[0].indent)
}

func yMap(ls []yline, indent int) (any, []yline, error) {
	m := map[string]any{}
	for len(ls) > 0 && ls[0].indent == indent && !isItem(ls[0]) {
		l := ls[0]
		ls = ls[1:]
		k, v, ok := strings.Cut(l.text, ":")
		if len(k) > 2 && k[0] == '\'' && k[len(k)-1] == '\'' { // a single-quoted key ('0': a class name)
			k = k[1 : len(k)-1]
		}
		if !ok || strings.ContainsAny(k, `"'`) {
			return nil, nil, fmt.Errorf("line %d: want key: value, got %q", l.n, l.text)
		}
		if _, dup := m[k]; dup {
			return nil, nil, fmt.Errorf("line %d: duplicate key %q", l.n, k)
		}
		v = strings.TrimSpace(v)
		if v != "" {
			s, err := yScalar(v, l.n)
			if err != nil {
				return nil, nil, err
			}
			m[k] = s
			continue
		}
		// A nested block: deeper, or a sequence at the same indentation.
		if len(ls) > 0 && (ls[0].indent > indent || ls[0].indent == indent && isItem(ls[0])) {
			var err error
			if m[k], ls, err = yBlock(ls); err != nil {
				return nil, nil, err
			}
		} else {
			m[k] = nil
		}
	}
	return m, ls, nil
}

func ySeq(ls []yline, indent int) (any, []yline, error) {
	var out []any
	for len(ls) > 0 && ls[0].indent == indent && isItem(ls[0]) {
		l := ls[0]
		rest := strings.TrimSpace(strings.TrimPrefix(l.text, "-"))
		if k, _, ok := strings.Cut(rest, ":"); ok && !strings.HasPrefix(rest, `"`) && !strings.Contains(k, " ") {
			// "- key: value": a mapping whose keys are indented past the dash.
			ls = append([]yline{{indent: indent + 2, text: rest, n: l.n}}, ls[1:]...)
			v, r, err := yMap(ls, indent+2)
			if err != nil {
				return nil, nil, err
			}
			out, ls = append(out, v), r
			continue
		}
		s, err := yScalar(rest, l.n)
		if err != nil {
			return nil, nil, err
		}
		out, ls = append(out, s), ls[1:]
	}
	return out, ls, nil
}

func yScalar(v string, n int) (any, error) {
	if strings.HasPrefix(v, `"`) {
		var s string
		if err := json.Unmarshal([]byte(v), &s); err != nil {
			return nil, fmt.Errorf("line %d: bad quoted string %s: %v", n, v, err)
		}
		return s, nil
	}
	if strings.ContainsAny(v[:1], `'{[&*!|>%@`+"`") {
		return nil, fmt.Errorf("line %d: %q needs quoting in YAML", n, v)
	}
	if strings.Contains(v, ": ") || strings.Contains(v, " #") {
		return nil, fmt.Errorf("line %d: %q would not read as one plain scalar", n, v)
	}
	return v, nil
}
