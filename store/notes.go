package store

// Notes and flags: what an annotator or the lead wrote beside a label.

// Note is a free-text note or a flag on an item.
type Note struct {
	Annotator string
	ItemID    int64
	ItemExtID string
	Kind      string
	Field     string
	Text      string
	Flagged   bool
	CreatedAt string
}

// SetNote records the annotator's note on one field of an item: field is
// the field on screen when it was written ("" : the item as a whole). Each
// (annotator, item, field) has its own note; the latest wins and an empty
// text clears it.
func (s *Store) SetNote(annotator string, item int64, field, text string, session int64) error {
	return s.write(func(tx *wtx) error {
		aid, err := annotatorID(tx, annotator)
		if err != nil {
			return err
		}
		_, err = tx.Exec("INSERT INTO notes(item_id,annotator_id,field,text,created_at,session_id) VALUES (?,?,?,?,?,?)",
			item, aid, field, text, now(), nullID(session))
		return err
	})
}

// SetFlag flags or unflags an item for discussion.
func (s *Store) SetFlag(annotator string, item int64, field string, flagged bool, session int64) error {
	return s.write(func(tx *wtx) error {
		aid, err := annotatorID(tx, annotator)
		if err != nil {
			return err
		}
		_, err = tx.Exec("INSERT INTO flags(item_id,annotator_id,field,flagged,created_at,session_id) VALUES (?,?,?,?,?,?)",
			item, aid, field, flagged, now(), nullID(session))
		return err
	})
}

// ItemNote returns the annotator's current notes on an item, the notes of
// its fields one a line in the order of the fields' names, and its flag.
func (rx *ReadTx) ItemNote(annotator string, item int64) (text string, flagged bool, err error) {
	return itemNote(rx.q, annotator, item)
}

// FieldNotes returns the annotator's current note on each field of an item
// ("" : the item as a whole); a cleared note is not there.
func (rx *ReadTx) FieldNotes(annotator string, item int64) (map[string]string, error) {
	return fieldNotes(rx.q, annotator, item)
}

// latestNotes selects the ids of an (annotator name, item)'s latest note per field.
const latestNotes = `SELECT MAX(n.id) FROM notes n JOIN annotators a ON a.id=n.annotator_id WHERE a.name=? AND n.item_id=? GROUP BY n.field`

func fieldNotes(q querier, annotator string, item int64) (map[string]string, error) {
	rows, err := q.Query(`SELECT field, text FROM notes WHERE id IN (`+latestNotes+`) AND text<>''`, annotator, item)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := map[string]string{}
	for rows.Next() {
		var f, t string
		if err := rows.Scan(&f, &t); err != nil {
			return nil, err
		}
		out[f] = t
	}
	return out, rows.Err()
}

func itemNote(q querier, annotator string, item int64) (text string, flagged bool, err error) {
	err = q.QueryRow(`SELECT
		COALESCE((SELECT group_concat(text, char(10) ORDER BY field) FROM notes WHERE id IN (`+latestNotes+`) AND text<>''),''),
		COALESCE((SELECT f.flagged FROM flags f JOIN annotators a ON a.id=f.annotator_id WHERE a.name=? AND f.item_id=? ORDER BY f.id DESC LIMIT 1),0)`,
		annotator, item, annotator, item).Scan(&text, &flagged)
	return text, flagged, err
}

// Notes lists the current notes and flags of every annotator (batch "" : all
// items), for the pilot's feedback meeting: a note under the field it was
// written on (the latest per annotator, item and field), a flag under the
// field on screen when it was set (the latest per annotator and item).
func (rx *ReadTx) Notes(batch string) ([]Note, error) {
	filter := ""
	args := []any{}
	if batch != "" {
		filter = " AND x.item_id IN (SELECT bi.item_id FROM batch_items bi JOIN batches b ON b.id=bi.batch_id WHERE b.name=?)"
		args = append(args, batch, batch)
	}
	rows, err := rx.q.Query(`
		WITH ln AS (SELECT x.* FROM notes x WHERE x.id IN (SELECT MAX(id) FROM notes GROUP BY annotator_id, item_id, field) AND x.text<>''`+filter+`),
		     lf AS (SELECT x.* FROM flags x WHERE x.id IN (SELECT MAX(id) FROM flags GROUP BY annotator_id, item_id) AND x.flagged`+filter+`),
		     keys AS (SELECT annotator_id, item_id, field FROM ln UNION SELECT annotator_id, item_id, field FROM lf)
		SELECT a.name, i.id, i.ext_id, i.kind, k.field, COALESCE(ln.text,''), lf.id IS NOT NULL, COALESCE(ln.created_at, lf.created_at)
		FROM keys k JOIN annotators a ON a.id=k.annotator_id JOIN items i ON i.id=k.item_id
		LEFT JOIN ln ON ln.annotator_id=k.annotator_id AND ln.item_id=k.item_id AND ln.field=k.field
		LEFT JOIN lf ON lf.annotator_id=k.annotator_id AND lf.item_id=k.item_id AND lf.field=k.field
		ORDER BY 5, i.id, a.name`, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []Note
	for rows.Next() {
		var n Note
		if err := rows.Scan(&n.Annotator, &n.ItemID, &n.ItemExtID, &n.Kind, &n.Field, &n.Text, &n.Flagged, &n.CreatedAt); err != nil {
			return nil, err
		}
		out = append(out, n)
	}
	return out, rows.Err()
}
