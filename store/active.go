package store

import (
	"database/sql"
	"time"
)

// ActiveSince is the active time (ms) of the annotator's decisions recorded
// at or after t: the home screen's "today". It reads the kept hourly totals
// (active_hours) of the whole hours from t on, and the log only for the part
// of an hour before them when t is not on the hour (a time zone off UTC by a
// fraction of an hour): never the day's events one by one.
func (rx *ReadTx) ActiveSince(annotator string, t time.Time) (int64, error) {
	from, hour, until := activeBounds(t)
	var ms int64
	err := rx.q.QueryRow(activeSinceSQL, annotator, hour, from, until).Scan(&ms)
	if err == sql.ErrNoRows { // no such annotator: no time
		return 0, nil
	}
	return ms, err
}

// activeSinceSQL: ?1 the annotator, ?2 the first whole hour, [?3, ?4) the
// stamps of the partial hour before it (empty when t is on the hour).
const activeSinceSQL = `SELECT
	  (SELECT COALESCE(SUM(h.ms), 0) FROM active_hours h WHERE h.annotator_id = a.id AND h.hour >= ?2)
	+ (SELECT COALESCE(SUM(e.active_ms), 0) FROM label_events e
	   WHERE e.annotator_id = a.id AND e.created_at >= ?3 AND e.created_at < ?4)
	FROM annotators a WHERE a.name = ?1`

// activeBounds splits the time from t on into the partial hour [from, until)
// read from the log and the whole hours from hour on read from active_hours.
// Stamps are RFC 3339 UTC text; a whole second is compared without its "Z"
// so that a stamp with a fraction in that second sorts after it.
func activeBounds(t time.Time) (from, hour, until string) {
	t = t.UTC()
	next := t.Truncate(time.Hour)
	if next.Before(t) {
		next = next.Add(time.Hour)
	}
	from = t.Format(time.RFC3339Nano)
	if t.Nanosecond() == 0 {
		from = t.Format("2006-01-02T15:04:05")
	}
	return from, next.Format("2006-01-02T15"), next.Format("2006-01-02T15")
}
