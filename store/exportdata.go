package store

import (
	"database/sql"
	"encoding/json"
	"fmt"
	"iter"
	"maps"
	"slices"
	"strings"

	"github.com/annotate-dev/annotate/schema"
)

// Streaming reads for `annotate export` (the QA pairs' and claims' streams are
// in kind_qa_export.go and kind_claim_export.go). Each stream is one SQL statement
// whose rows are handed over one at a time, so exporting a million claims
// holds one row in memory, not the dataset. Everything per row (contexts,
// labels, predictions, notes) comes from correlated subqueries on primary
// keys or indexes, which SQLite answers in microseconds without a sort.

// Snapshot opens a read view (a ReadTx) that lasts until Close, held open
// across a long export: every stream read through it sees the same
// database state, even while annotators keep labelling. It takes no write
// lock. (Read is the same for the length of a function.)
func (s *Store) Snapshot() (*ReadTx, error) {
	c, err := s.openReadConn()
	if err != nil {
		return nil, err
	}
	return &ReadTx{q: c, conn: c}, nil
}

// Close ends a view opened by Snapshot.
func (x *ReadTx) Close() error {
	if x.conn == nil {
		return nil
	}
	return x.conn.close()
}

// LabelSet names whose labels an export reads: one annotator's current labels,
// or the adjudicated ones (the latest adjudication per item and field,
// whoever adjudicated).
type LabelSet struct {
	Annotator   string
	Adjudicated bool
}

// LabelSetItems is a label set and the number of items of a kind it has
// current labels on.
type LabelSetItems struct {
	LabelSet
	Items int
}

// LabelSetsOf lists the label sets with a current label of one of fields on
// items of kind k: each annotator's, by name, then the adjudicated set; for
// the export that carries every label set (one row per item and set).
func (x *ReadTx) LabelSetsOf(k schema.Kind, fields []string) ([]LabelSetItems, error) {
	b, _ := json.Marshal(fields)
	var out []LabelSetItems
	err := eachRow(x.q, `SELECT l.role = ?, COALESCE(a.name, ''), COUNT(DISTINCT l.item_id)
		FROM current_labels l JOIN items i ON i.id = l.item_id LEFT JOIN annotators a ON a.id = l.annotator_id AND l.role <> ?
		WHERE i.kind = ? AND l.field IN (SELECT value FROM json_each(?))
		GROUP BY l.role, l.annotator_id ORDER BY l.role = ?, a.name`,
		[]any{RoleAdjudicate, RoleAdjudicate, string(k), string(b), RoleAdjudicate}, func(sc func(...any) error) error {
			var s LabelSetItems
			err := sc(&s.Adjudicated, &s.Annotator, &s.Items)
			out = append(out, s)
			return err
		})
	return out, err
}

// ExportOptions shapes the rows of a stream.
type ExportOptions struct {
	Labels LabelSet
	Fields []string // label fields to read as columns, e.g. schema field names
	Notes  bool     // read the notes of the label set's annotator (all annotators' for adjudicated)
	// AllClaims keeps annotator-added claims whose addition was undone. A
	// published dataset leaves them out (they do not stand); a native export
	// keeps the database as it is.
	AllClaims bool
	Systems   []string // prediction columns of claims, in this order
	// Suggested reads, per row, which labels of the label set were made
	// with a system's prediction preselected (ExportQA.Suggested).
	Suggested bool
}

// ExportLabel is one current label of the native labels file.
type ExportLabel struct {
	Annotator         string
	Item              string
	Field             string
	Value             string
	Role              string
	ActiveMs          int64
	GuidelinesVersion string
	SuggestedBy       string // the system whose prediction was preselected; "": blind
}

// labelCols returns the label column (every current label of the item in the
// label set, as one JSON object: one index range read instead of a lookup
// per field) and the note column, with their arguments.
func (x *ReadTx) labelCols(o ExportOptions, item string) (string, []any, error) {
	if len(o.Fields) == 0 && !o.Notes {
		return ", NULL, NULL", nil, nil // no label set needed
	}
	role, aid := RoleAdjudicate, int64(0)
	if !o.Labels.Adjudicated {
		var err error
		if aid, err = knownAnnotator(x.q, o.Labels.Annotator); err != nil {
			return "", nil, err
		}
		role = RoleAnnotate
	}
	var b strings.Builder
	fmt.Fprintf(&b, ", (SELECT json_group_object(field, value) FROM current_labels WHERE role=? AND annotator_id=? AND item_id=%s)", item)
	args := []any{role, aid}
	switch {
	case !o.Notes:
		b.WriteString(", NULL")
	case o.Labels.Adjudicated:
		// Adjudication weighs everyone's remarks, so every annotator's
		// current notes (the latest per field, one a line).
		fmt.Fprintf(&b, `, (SELECT group_concat(a.name || ': ' || n.text, char(10) ORDER BY n.id) FROM notes n JOIN annotators a ON a.id = n.annotator_id
			WHERE n.id IN (SELECT MAX(id) FROM notes WHERE item_id=%s GROUP BY annotator_id, field) AND n.text <> '')`, item)
	default:
		fmt.Fprintf(&b, `, (SELECT group_concat(n.text, char(10) ORDER BY n.id) FROM notes n
			WHERE n.id IN (SELECT MAX(id) FROM notes WHERE item_id=%s AND annotator_id=? GROUP BY field) AND n.text <> '')`, item)
		args = append(args, aid)
	}
	return b.String(), args, nil
}

// rowLabelCols are the label, note and suggestion columns of an item's
// export row (labelCols, then suggestedCol), with their arguments.
func (x *ReadTx) rowLabelCols(o ExportOptions, item string) (string, []any, error) {
	cols, args, err := x.labelCols(o, item)
	if err != nil {
		return "", nil, err
	}
	scol, sargs, err := x.suggestedCol(o, item)
	if err != nil {
		return "", nil, err
	}
	return cols + scol, append(args, sargs...), nil
}

// suggestedCol is the column of the labels of the label set on an item
// made with a suggestion, "field=system" one a line (NULL when not asked
// for: o.Suggested), with its arguments.
func (x *ReadTx) suggestedCol(o ExportOptions, item string) (string, []any, error) {
	if !o.Suggested || o.Labels.Annotator == "" && !o.Labels.Adjudicated {
		return ", NULL", nil, nil
	}
	role, aid := RoleAdjudicate, int64(0)
	if !o.Labels.Adjudicated {
		if err := x.q.QueryRow("SELECT id FROM annotators WHERE name=?", o.Labels.Annotator).Scan(&aid); err != nil {
			return "", nil, err
		}
		role = RoleAnnotate
	}
	return fmt.Sprintf(`, (SELECT group_concat(c.field || '=' || e.suggested_by, char(10)) FROM current_labels c
		JOIN label_events e ON e.id = c.event_id WHERE c.item_id = %s AND c.role = ? AND c.annotator_id = ? AND e.suggested_by IS NOT NULL)`, item),
		[]any{role, aid}, nil
}

// scanSuggested splits the suggested column ("field=system" lines).
func scanSuggested(col sql.NullString) []string {
	if !col.Valid || col.String == "" {
		return []string{}
	}
	return strings.Split(col.String, "\n")
}

// scanLabels keeps the asked-for fields of a label column.
func scanLabels(fields []string, col sql.NullString) (map[string]string, error) {
	m := make(map[string]string, len(fields))
	if !col.Valid || len(fields) == 0 {
		return m, nil
	}
	return m, flatObject(col.String, func(k, v string) {
		for _, f := range fields {
			if f == k {
				m[f] = v
			}
		}
	})
}

// flatObject reads a JSON object of strings as SQLite's json_group_object
// writes it, calling fn for each member. It exists because encoding/json took
// a tenth of a million-row export for these two-member objects; strings
// without escapes (nearly all) are sliced, not copied.
func flatObject(s string, fn func(k, v string)) error {
	i := 0
	next := func(c byte) bool {
		if i < len(s) && s[i] == c {
			i++
			return true
		}
		return false
	}
	str := func() (string, error) {
		if !next('"') {
			return "", fmt.Errorf("bad label object %q at %d", s, i)
		}
		start := i
		for i < len(s) && s[i] != '"' {
			if s[i] == '\\' { // an escape: find the closing quote, let encoding/json decode
				end := i
				for ; end < len(s) && s[end] != '"'; end++ {
					if s[end] == '\\' {
						end++
					}
				}
				if end >= len(s) {
					return "", fmt.Errorf("bad label object %q", s)
				}
				var out string
				err := json.Unmarshal([]byte(s[start-1:end+1]), &out)
				i = end + 1
				return out, err
			}
			i++
		}
		v := s[start:i]
		if !next('"') {
			return "", fmt.Errorf("bad label object %q", s)
		}
		return v, nil
	}
	if !next('{') {
		return fmt.Errorf("bad label object %q", s)
	}
	for !next('}') {
		if i > 1 && !next(',') {
			return fmt.Errorf("bad label object %q at %d", s, i)
		}
		k, err := str()
		if err != nil {
			return err
		}
		if !next(':') {
			return fmt.Errorf("bad label object %q at %d", s, i)
		}
		v, err := str()
		if err != nil {
			return err
		}
		fn(k, v)
	}
	return nil
}

// Labels streams every current label of every annotator in the primary key
// order of current_labels (no sort): item by item (import order), field by
// field; an adjudicated label under the name of who adjudicated.
func (x *ReadTx) Labels() iter.Seq2[ExportLabel, error] {
	return func(yield func(ExportLabel, error) bool) {
		rows, err := x.q.Query(`SELECT a.name, i.ext_id, l.field, l.value, l.role, e.active_ms, e.guidelines_version, COALESCE(e.suggested_by, '')
			FROM current_labels l JOIN label_events e ON e.id = l.event_id JOIN annotators a ON a.id = e.annotator_id
			JOIN items i ON i.id = l.item_id
			ORDER BY l.item_id, l.field, l.role, l.annotator_id`)
		if err != nil {
			yield(ExportLabel{}, err)
			return
		}
		defer rows.Close()
		for rows.Next() {
			var l ExportLabel
			if err := rows.Scan(&l.Annotator, &l.Item, &l.Field, &l.Value, &l.Role, &l.ActiveMs, &l.GuidelinesVersion, &l.SuggestedBy); err != nil {
				yield(l, err)
				return
			}
			if !yield(l, nil) {
				return
			}
		}
		if err := rows.Err(); err != nil {
			yield(ExportLabel{}, err)
		}
	}
}

// Systems lists the systems that have predictions, sorted.
func (x *ReadTx) Systems() ([]string, error) {
	return x.strings("SELECT DISTINCT system FROM predictions ORDER BY system")
}

func (x *ReadTx) strings(q string, args ...any) ([]string, error) {
	rows, err := x.q.Query(q, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var v string
		if err := rows.Scan(&v); err != nil {
			return nil, err
		}
		out = append(out, v)
	}
	return out, rows.Err()
}

// Work is what one annotator did, from the label log (retracted decisions
// included: their time was spent too).
type Work struct {
	Annotator  string
	Items      int   // distinct items labelled
	ActiveMs   int64 // active time over every event
	Annotated  bool  // has labels of their own (role annotate)
	Adjudicate bool  // made adjudications
	First      string
	Last       string
	Guidelines []string // guidelines versions in force, sorted
	InTool     bool     // some label was made in a session or with active time (not only imported)
}

// Work lists the annotators who have labels, in creation order, in one scan
// of the log (and one walk of each annotator's index entries). It reads outside any snapshot so that it can run beside an
// export's streams.
//
// Each annotator's distinct items are counted by a subquery that walks
// their entries of label_events_key, whose order makes them distinct as
// they come: COUNT(DISTINCT item_id) in the scan would collect every item
// in a temporary b-tree first, memory that grows with the log (about 9 MB
// more at a million claims, during an export that otherwise holds flat).
func (rx *ReadTx) Work() ([]Work, error) {
	rows, err := rx.q.Query(`SELECT a.name,
		(SELECT COUNT(*) FROM (SELECT DISTINCT d.item_id FROM label_events d WHERE d.annotator_id = a.id)),
		COALESCE(SUM(e.active_ms), 0),
		MAX(e.role = 'annotate'), MAX(e.role = 'adjudicate'), MIN(e.created_at), MAX(e.created_at),
		COALESCE(group_concat(DISTINCT NULLIF(e.guidelines_version, '')), ''), MAX(e.session_id IS NOT NULL OR e.active_ms > 0)
		FROM label_events e JOIN annotators a ON a.id = e.annotator_id GROUP BY e.annotator_id ORDER BY e.annotator_id`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []Work
	for rows.Next() {
		var w Work
		var gl string
		if err := rows.Scan(&w.Annotator, &w.Items, &w.ActiveMs, &w.Annotated, &w.Adjudicate, &w.First, &w.Last, &gl, &w.InTool); err != nil {
			return nil, err
		}
		if gl != "" {
			w.Guidelines = strings.Split(gl, ",")
			slices.Sort(w.Guidelines)
		}
		out = append(out, w)
	}
	return out, rows.Err()
}

// ExportItem is an item of a kind with its own rows (query, …) and its labels
// in the label set, for export.
type ExportItem struct {
	*Item
	Labels       map[string]string
	ParentLabels map[string]string // the label set's labels on its parent
	Note         sql.NullString
}

// CountItems is the number of items of a kind an ExportItems stream yields.
func (x *ReadTx) CountItems(k schema.Kind) (int, error) {
	var n int
	err := x.q.QueryRow("SELECT COUNT(*) FROM items WHERE kind = ?", k).Scan(&n)
	return n, err
}

// ItemsByID reads the items among ids (a batch: a few hundred) of kind k
// through the one read model of an item, by item id.
func (x *ReadTx) ItemsByID(k schema.Kind, ids []int64) (map[int64]*Item, error) {
	items, err := loadItems(x.q, ids)
	maps.DeleteFunc(items, func(_ int64, it *Item) bool { return it.Kind != string(k) })
	return items, err
}

// ExportItems streams the items of a kind in import order, through the one read
// model of an item (Item, its kind's payload) with the label set's labels,
// a few hundred items per query.
func (x *ReadTx) ExportItems(k schema.Kind, o ExportOptions) iter.Seq2[*ExportItem, error] {
	return func(yield func(*ExportItem, error) bool) {
		cols, args, err := x.labelCols(o, "i.id")
		if err != nil {
			yield(nil, err)
			return
		}
		parentCols, pargs := ", NULL", []any(nil)
		if cols != ", NULL, NULL" {
			// The same labels subquery on the parent (the first of cols).
			pc, pa, err := x.labelCols(ExportOptions{Labels: o.Labels, Fields: []string{"-"}}, "i.parent_id")
			if err != nil {
				yield(nil, err)
				return
			}
			parentCols, pargs = strings.TrimSuffix(pc, ", NULL"), pa
		}
		after := int64(0)
		for {
			var ids []int64
			byID := map[int64]*ExportItem{}
			rows, err := x.q.Query(`SELECT i.id`+cols+parentCols+` FROM items i WHERE i.kind = ? AND i.id > ? ORDER BY i.id LIMIT 500`,
				append(append(append([]any{}, args...), pargs...), k, after)...)
			if err != nil {
				yield(nil, err)
				return
			}
			for rows.Next() {
				var id int64
				var labels, note, plabels sql.NullString
				if err := rows.Scan(&id, &labels, &note, &plabels); err != nil {
					rows.Close()
					yield(nil, err)
					return
				}
				it := &ExportItem{Note: note, Labels: map[string]string{}, ParentLabels: map[string]string{}}
				all := func(m map[string]string) func(k, v string) { return func(k, v string) { m[k] = v } }
				if labels.Valid {
					if err := flatObject(labels.String, all(it.Labels)); err != nil {
						rows.Close()
						yield(nil, err)
						return
					}
				}
				if plabels.Valid {
					if err := flatObject(plabels.String, all(it.ParentLabels)); err != nil {
						rows.Close()
						yield(nil, err)
						return
					}
				}
				ids = append(ids, id)
				byID[id] = it
			}
			rows.Close()
			if err := rows.Err(); err != nil {
				yield(nil, err)
				return
			}
			if len(ids) == 0 {
				return
			}
			items, err := loadItems(x.q, ids)
			if err != nil {
				yield(nil, err)
				return
			}
			for _, id := range ids {
				e := byID[id]
				e.Item = items[id]
				if !yield(e, nil) {
					return
				}
			}
			after = ids[len(ids)-1]
		}
	}
}
