package store

import (
	"errors"
	"strconv"
	"strings"

	"github.com/annotate-dev/annotate/internal/jsontext"
)

// The backup's fast read: one text column a row, built by SQLite, instead of
// one Go value a column. A profile of the plain read (plainBackupRows) put
// half its time in fetching columns one at a time through the driver (three
// calls into SQLite a column, each behind the connection's mutex, and one
// string allocated a text column); packed, a row costs one fetch and one
// allocation whatever its width. The row is SQLite's json_array of the
// columns (one function call a row: building it with || costs SQLite more
// than the fetches it saves), read back into the values the plain read
// would have scanned and written as appendBackupRow writes them:
//
//	null          NULL
//	digits        an integer, as SQLite writes it (what strconv writes)
//	"…"           a text, unescaped to its bytes (jsontext.AppendUnescaped)
//
// Anything else hands the table over to the plain read at that row (the same
// snapshot, the same order): a real (SQLite writes it to 15 digits), a blob
// (json_array refuses it), an escape JSON does not have. So
// whatever the data, the lines are the plain read's: TestPackedBackupIsPlain
// checks it on every kind of value.

func (t BackupTable) packedSQL() string {
	cols := make([]string, len(t.Columns))
	for i, c := range t.Columns {
		cols[i] = quoteIdent(c)
	}
	return "SELECT json_array(" + strings.Join(cols, ", ") + ") FROM " + quoteIdent(t.Name) + " ORDER BY " + strings.Join(t.key, ", ")
}

// errUnpackable: a row holds a value the packed read does not carry.
var errUnpackable = errors.New("a value the packed read does not carry")

// packedKeys are the line's column keys, `{"col":` then `,"col":`, as
// appendBackupRow writes them.
func packedKeys(cols []string) []string {
	keys := make([]string, len(cols))
	for i, c := range cols {
		sep := byte(',')
		if i == 0 {
			sep = '{'
		}
		keys[i] = string(append(jsontext.AppendString([]byte{sep}, c), ':'))
	}
	return keys
}

// appendPackedRow writes the line of a json_array row as appendBackupRow
// writes it from the values the plain read scans (nil, int64, string): the
// same jsontext.AppendString for texts, AppendInt's digits for integers,
// without boxing each value in an interface. scratch is a buffer to unescape texts in,
// returned for the next row.
func appendPackedRow(b []byte, keys []string, s string, scratch []byte) ([]byte, []byte, error) {
	if len(s) < 2 || s[0] != '[' || s[len(s)-1] != ']' {
		return b, scratch, errUnpackable
	}
	s = s[1 : len(s)-1]
	for i, key := range keys {
		if i > 0 {
			if s == "" || s[0] != ',' {
				return b, scratch, errUnpackable
			}
			s = s[1:]
		}
		b = append(b, key...)
		switch {
		case strings.HasPrefix(s, "null"):
			b = append(b, "null"...)
			s = s[4:]
		case s != "" && s[0] == '"':
			end, escaped := 1, false
			for end < len(s) && s[end] != '"' {
				if s[end] == '\\' {
					escaped = true
					end++
				}
				end++
			}
			if end >= len(s) {
				return b, scratch, errUnpackable
			}
			if !escaped {
				b = jsontext.AppendString(b, s[1:end])
			} else {
				var ok bool
				if scratch, ok = jsontext.AppendUnescapedString(scratch[:0], s[1:end]); !ok {
					return b, scratch, errUnpackable
				}
				b = jsontext.AppendString(b, scratch)
			}
			s = s[end+1:]
		default:
			end := 0
			for end < len(s) && (s[end] >= '0' && s[end] <= '9' || s[end] == '-' && end == 0) {
				end++
			}
			if end == 0 || end < len(s) && s[end] != ',' || !canonicalInt(s[:end]) {
				return b, scratch, errUnpackable // a real, or not a number
			}
			b = append(b, s[:end]...)
			s = s[end:]
		}
	}
	if s != "" {
		return b, scratch, errUnpackable
	}
	return append(b, '}'), scratch, nil
}

// canonicalInt: digits as strconv.AppendInt writes an int64 (SQLite's
// %lld): no leading zero, no "-0", in range; they are then copied as they
// are.
func canonicalInt(d string) bool {
	digits := strings.TrimPrefix(d, "-")
	if digits == "" || digits[0] == '0' && (len(digits) > 1 || len(d) > 1) {
		return false
	}
	for i := 0; i < len(digits); i++ {
		if digits[i] < '0' || digits[i] > '9' {
			return false
		}
	}
	if len(digits) < 19 {
		return true
	}
	_, err := strconv.ParseInt(d, 10, 64)
	return err == nil
}

// packedBackupRows is backupRows read packed; it reports how many rows it
// yielded before meeting a value it cannot carry (handOff), for the plain
// read to go on from there.
func packedBackupRows(q querier, t BackupTable, yield func([]byte, error) bool) (handOff int, done bool) {
	rows, err := q.Query(t.packedSQL())
	if err != nil {
		return 0, false // the plain read says why
	}
	defer rows.Close()
	keys := packedKeys(t.Columns)
	var packed string
	var buf, scratch []byte
	n := 0
	for rows.Next() {
		if err := rows.Scan(&packed); err != nil {
			return n, false
		}
		// The driver's string is assigned, not copied.
		if buf, scratch, err = appendPackedRow(buf[:0], keys, packed, scratch); err != nil {
			return n, false
		}
		n++
		if !yield(buf, nil) {
			return 0, true
		}
	}
	if rows.Err() != nil {
		// json_array refuses a blob; any other error the plain read
		// meets again, and reports.
		return n, false
	}
	return 0, true
}
