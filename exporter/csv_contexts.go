package exporter

import (
	"bytes"
	"encoding/json"
	"strings"
	"unicode/utf8"

	"github.com/annotate-dev/annotate/store"
)

// csvContexts turns a row's contexts (a JSON array of {"id","text"}) into
// its two cells, context_ids (one id a line) and contexts (the texts, a
// blank line between), remembering the last array it decoded: the claims of
// a pair come one after another with the same contexts, and decoding them
// was a fifth of the csv export's time. The same bytes give the same cells.
type csvContexts struct {
	raw        []byte // the last array decoded, copied
	ids, texts string
}

func (m *csvContexts) cells(raw json.RawMessage) (ids, texts string, err error) {
	if m.raw != nil && bytes.Equal(raw, m.raw) {
		return m.ids, m.texts, nil
	}
	ids, texts, ok := plainContextCells(string(raw))
	if !ok {
		var ctx []store.Context
		if err := json.Unmarshal(raw, &ctx); err != nil {
			return "", "", err
		}
		idList, textList := make([]string, len(ctx)), make([]string, len(ctx))
		for j, x := range ctx {
			idList[j], textList[j] = x.ID, x.Text
		}
		ids, texts = strings.Join(idList, "\n"), strings.Join(textList, "\n\n")
	}
	m.raw = append(m.raw[:0], raw...)
	m.ids, m.texts = ids, texts
	return ids, texts, nil
}

// plainContextCells reads the array as SQLite's json_group_array of
// json_object('id', …, 'text', …) writes it, when no string in it needs
// decoding (no escape, valid UTF-8: the string is its bytes, as
// encoding/json would read it); anything else is not ok, for encoding/json
// to read. TestPlainContextCellsIsJSON holds it to encoding/json.
func plainContextCells(s string) (ids, texts string, ok bool) {
	if s == "[]" {
		return "", "", true
	}
	if len(s) < 2 || s[0] != '[' || s[len(s)-1] != ']' {
		return "", "", false
	}
	s = s[1 : len(s)-1]
	var idb, textb strings.Builder
	str := func(prefix string) (string, bool) {
		if !strings.HasPrefix(s, prefix) {
			return "", false
		}
		s = s[len(prefix):]
		end := strings.IndexByte(s, '"')
		if end < 0 {
			return "", false
		}
		v := s[:end]
		for i := 0; i < len(v); i++ {
			if v[i] < 0x20 || v[i] == '\\' {
				return "", false
			}
		}
		if !utf8.ValidString(v) {
			return "", false
		}
		s = s[end+1:]
		return v, true
	}
	for n := 0; ; n++ {
		id, ok := str(`{"id":"`)
		if !ok {
			return "", "", false
		}
		text, ok := str(`,"text":"`)
		if !ok || !strings.HasPrefix(s, "}") {
			return "", "", false
		}
		s = s[1:]
		if n > 0 {
			idb.WriteByte('\n')
			textb.WriteString("\n\n")
		}
		idb.WriteString(id)
		textb.WriteString(text)
		if s == "" {
			return idb.String(), textb.String(), true
		}
		if s[0] != ',' {
			return "", "", false
		}
		s = s[1:]
	}
}
