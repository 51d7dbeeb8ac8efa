package store

import (
	"fmt"
	"iter"
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

// A backup's rows built by SQLite. Reading a row column by column costs
// three driver calls per column, each behind the connection's mutex: most
// of a backup's time at a million claims. json_object builds the whole row
// in one column, in the same bytes as appendBackupRow, provided that:
//
//   - the table holds no real and no blob (SQLite prints a real with 15
//     significant digits where Go prints the shortest exact form, and
//     refuses blobs): checked once per table, else the row-by-row path;
//   - its strings need no escape: SQLite escapes less than encoding/json
//     (<, >, &, U+2028, invalid UTF-8), so a row with a backslash, one of
//     <>& or a byte above 0x7f has its strings re-encoded by
//     appendJSONString.

// backupRowsSQL streams the rows through json_object when the table allows
// it; ok is false when it does not (the caller reads column by column).
func backupRowsSQL(q querier, t BackupTable) (iter.Seq2[[]byte, error], bool, error) {
	var typed []string
	for _, c := range t.Columns {
		typed = append(typed, "typeof("+quoteIdent(c)+") IN ('real','blob')")
	}
	var mixed bool
	if err := q.QueryRow("SELECT EXISTS (SELECT 1 FROM " + quoteIdent(t.Name) + " WHERE " + strings.Join(typed, " OR ") + ")").Scan(&mixed); err != nil {
		return nil, false, err
	}
	if mixed {
		return nil, false, nil
	}
	args := make([]string, len(t.Columns))
	for i, c := range t.Columns {
		args[i] = "'" + strings.ReplaceAll(c, "'", "''") + "'," + quoteIdent(c)
	}
	query := "SELECT json_object(" + strings.Join(args, ",") + ") FROM " + quoteIdent(t.Name) + " ORDER BY " + strings.Join(t.key, ", ")
	return func(yield func([]byte, error) bool) {
		rows, err := q.Query(query)
		if err != nil {
			yield(nil, err)
			return
		}
		defer rows.Close()
		var line, buf []byte
		for rows.Next() {
			if err := rows.Scan(&line); err != nil {
				yield(nil, err)
				return
			}
			out := line
			if needsReencode(line) {
				if buf, err = reencodeStrings(buf[:0], line); err != nil {
					yield(nil, fmt.Errorf("%s: %w", t.Name, err))
					return
				}
				out = buf
			}
			if !yield(out, nil) {
				return
			}
		}
		if err := rows.Err(); err != nil {
			yield(nil, err)
		}
	}, true, nil
}

// needsReencode: the row's JSON has a character whose escape differs.
func needsReencode(b []byte) bool {
	for _, c := range b {
		if c == '\\' || c == '<' || c == '>' || c == '&' || c >= 0x80 {
			return true
		}
	}
	return false
}

// reencodeStrings copies a JSON object, writing each string again as
// appendJSONString does (numbers, null and punctuation are copied).
func reencodeStrings(dst, src []byte) ([]byte, error) {
	for i := 0; i < len(src); {
		if src[i] != '"' {
			dst = append(dst, src[i])
			i++
			continue
		}
		j := i + 1
		for j < len(src) && src[j] != '"' {
			if src[j] == '\\' {
				j++
			}
			j++
		}
		if j >= len(src) {
			return nil, fmt.Errorf("unterminated string in %q", src)
		}
		s, err := unquoteKeepBytes(src[i+1 : j])
		if err != nil {
			return nil, err
		}
		dst = appendJSONString(dst, s)
		i = j + 1
	}
	return dst, nil
}

// unquoteKeepBytes undoes a JSON string's escapes and keeps every other byte
// as it is, invalid UTF-8 included (encoding/json would replace it, and
// appendJSONString must see it to write \ufffd as the row-by-row path does).
func unquoteKeepBytes(q []byte) (string, error) {
	out := make([]byte, 0, len(q))
	for i := 0; i < len(q); i++ {
		if q[i] != '\\' {
			out = append(out, q[i])
			continue
		}
		i++
		if i >= len(q) {
			return "", fmt.Errorf("bad escape in %q", q)
		}
		switch c := q[i]; c {
		case '"', '\\', '/':
			out = append(out, c)
		case 'b':
			out = append(out, '\b')
		case 'f':
			out = append(out, '\f')
		case 'n':
			out = append(out, '\n')
		case 'r':
			out = append(out, '\r')
		case 't':
			out = append(out, '\t')
		case 'u':
			r, n, err := hexRune(q[i+1:])
			if err != nil {
				return "", err
			}
			i += n
			if utf16.IsSurrogate(r) {
				if r2, n2, err := hexRune(q[min(i+3, len(q)):]); err == nil && i+2 < len(q) && q[i+1] == '\\' && q[i+2] == 'u' {
					if pair := utf16.DecodeRune(r, r2); pair != utf8.RuneError {
						r = pair
						i += 2 + n2
					}
				}
			}
			out = utf8.AppendRune(out, r)
		default:
			return "", fmt.Errorf("bad escape \\%c in %q", c, q)
		}
	}
	return string(out), nil
}

// hexRune reads the four hex digits of a \u escape.
func hexRune(b []byte) (rune, int, error) {
	if len(b) < 4 {
		return 0, 0, fmt.Errorf("short \\u escape")
	}
	v, err := strconv.ParseUint(string(b[:4]), 16, 32)
	return rune(v), 4, err
}
