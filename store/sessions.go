package store

import (
	"time"
)

// Session is one sitting of an annotator.
type Session struct {
	ID        int64
	Annotator string
	StartedAt time.Time
}

// StartSession opens a session for the annotator (client: "local", "ssh", "demo").
func (s *Store) StartSession(annotator, client string) (Session, error) {
	var sess Session
	err := s.write(func(tx *wtx) error {
		aid, err := annotatorID(tx, annotator)
		if err != nil {
			return err
		}
		sess = Session{Annotator: annotator, StartedAt: time.Now()}
		res, err := tx.Exec("INSERT INTO sessions(annotator_id, started_at, client) VALUES (?,?,?)", aid, sess.StartedAt.UTC().Format(time.RFC3339Nano), client)
		if err != nil {
			return err
		}
		sess.ID, err = res.LastInsertId()
		return err
	})
	return sess, err
}

// EndSession closes a session. Active time is added label by label already, so
// a session that is never ended (a crash) still has its time.
func (s *Store) EndSession(id int64) error {
	return s.write(func(tx *wtx) error {
		_, err := tx.Exec("UPDATE sessions SET ended_at=? WHERE id=? AND ended_at IS NULL", now(), id)
		return err
	})
}

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

// SetNote records the annotator's note on an item (the latest note wins; an
// empty text clears it). field is the field on screen when it was written.
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

// ItemNote returns the annotator's current note text and flag on an item.
func (s *Store) ItemNote(annotator string, item int64) (text string, flagged bool, err error) {
	return itemNote(s.db, annotator, item)
}

func itemNote(q querier, annotator string, item int64) (text string, flagged bool, err error) {
	err = q.QueryRow(`SELECT
		COALESCE((SELECT n.text FROM notes n JOIN annotators a ON a.id=n.annotator_id WHERE a.name=? AND n.item_id=? ORDER BY n.id DESC LIMIT 1),''),
		COALESCE((SELECT f.flagged FROM flags f JOIN annotators a ON a.id=f.annotator_id WHERE a.name=? AND f.item_id=? ORDER BY f.id DESC LIMIT 1),0)`,
		annotator, item, annotator, item).Scan(&text, &flagged)
	return text, flagged, err
}

// Notes lists the current notes and flags of every annotator (batch "" : all
// items), the latest per (annotator, item), for the pilot's feedback meeting.
func (s *Store) Notes(batch string) ([]Note, error) {
	filter := ""
	args := []any{}
	if batch != "" {
		filter = " AND x.item_id IN (SELECT bi.item_id FROM batch_items bi JOIN batches b ON b.id=bi.batch_id WHERE b.name=?)"
		args = append(args, batch, batch)
	}
	rows, err := s.db.Query(`
		WITH ln AS (SELECT x.* FROM notes x WHERE x.id IN (SELECT MAX(id) FROM notes GROUP BY annotator_id, item_id)`+filter+`),
		     lf AS (SELECT x.* FROM flags x WHERE x.id IN (SELECT MAX(id) FROM flags GROUP BY annotator_id, item_id)`+filter+`),
		     keys AS (SELECT annotator_id, item_id FROM ln WHERE text<>'' UNION SELECT annotator_id, item_id FROM lf WHERE flagged)
		SELECT a.name, i.id, i.ext_id, i.kind, COALESCE(ln.field, lf.field, ''), COALESCE(ln.text,''), COALESCE(lf.flagged,0), COALESCE(ln.created_at, lf.created_at)
		FROM keys k JOIN annotators a ON a.id=k.annotator_id JOIN items i ON i.id=k.item_id
		LEFT JOIN ln ON ln.annotator_id=k.annotator_id AND ln.item_id=k.item_id
		LEFT JOIN lf ON lf.annotator_id=k.annotator_id AND lf.item_id=k.item_id
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

func nullID(id int64) any {
	if id == 0 {
		return nil
	}
	return id
}
