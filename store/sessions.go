package store

import (
	"github.com/annotate-dev/annotate/internal/clock"
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
		sess = Session{Annotator: annotator, StartedAt: clock.Now()}
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
