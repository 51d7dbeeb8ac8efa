package store

import (
	"fmt"
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

// A backup's rows built by SQLite. Reading a row column by column costs
// three driver calls per column, each behind the connection's mutex: most
// of a backup's time at a million claims. json_object builds the whole row
// in one column, in the same bytes as appendBackupRow, except for what
// SQLite writes otherwise:
//
//   - a real (15 significant digits where Go writes the shortest exact
//     form) and a blob (refused): from the first row with either, the rest
//     of the table is read row by row (the rows already written are
//     skipped: same snapshot, same order);
//   - strings: SQLite escapes less than encoding/json (<, >, &, U+2028,
//     invalid UTF-8), so a row with a backslash, one of <>& or a byte above
//     0x7f has its strings written again by appendJSONString.

// backupRowsSQL yields rows built by json_object until the table ends
// (rest false) or a row that needs the row-by-row path (rest true: the
// caller reads from row n on). stopped: yield asked to stop.
func backupRowsSQL(q querier, t BackupTable, yield func([]byte, error) bool) (n int, rest, stopped bool) {
	args := make([]string, len(t.Columns))
	for i, c := range t.Columns {
		args[i] = "'" + strings.ReplaceAll(c, "'", "''") + "'," + quoteIdent(c)
	}
	rows, err := q.Query("SELECT json_object(" + strings.Join(args, ",") + ") FROM " + quoteIdent(t.Name) + " ORDER BY " + strings.Join(t.key, ", "))
	if err != nil {
		return 0, false, !yield(nil, err)
	}
	defer rows.Close()
	var line, buf []byte
	for rows.Next() {
		if err := rows.Scan(&line); err != nil {
			return n, false, !yield(nil, err)
		}
		out := line
		switch escapes, real := scanRowJSON(line); {
		case real:
			return n, true, false
		case escapes:
			if buf, err = reencodeStrings(buf[:0], line); err != nil {
				return n, false, !yield(nil, fmt.Errorf("%s: %w", t.Name, err))
			}
			out = buf
		}
		if !yield(out, nil) {
			return n, false, true
		}
		n++
	}
	if err := rows.Err(); err != nil {
		if strings.Contains(err.Error(), "BLOB") {
			return n, true, false
		}
		return n, false, !yield(nil, err)
	}
	return n, false, false
}

// scanRowJSON reports whether the row's strings hold a character whose
// escape differs, and whether a number outside them is a real.
func scanRowJSON(b []byte) (escapes, real bool) {
	in := false
	for i := 0; i < len(b); i++ {
		c := b[i]
		switch {
		case c == '\\':
			escapes = true
			i++ // the escaped character
		case c == '"':
			in = !in
		case c == '<' || c == '>' || c == '&' || c >= 0x80:
			escapes = true
		case !in && (c == '.' || c == 'e' || c == 'E'):
			real = true
		}
	}
	return escapes, real
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
