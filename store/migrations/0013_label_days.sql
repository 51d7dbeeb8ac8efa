-- Decisions and active time per day (UTC) and annotator, kept by triggers
-- in the transaction that appends or moves an event, so that the lead's
-- dashboard draws labels per day and active hours from a few rows rather
-- than a scan of the label log. A retraction (undo) is not a decision.
CREATE TABLE label_days (
  day          TEXT NOT NULL,    -- YYYY-MM-DD of the event's created_at
  annotator_id INTEGER NOT NULL,
  labels       INTEGER NOT NULL, -- events that are not retractions
  active_ms    INTEGER NOT NULL,
  PRIMARY KEY (day, annotator_id)
) WITHOUT ROWID;

INSERT INTO label_days(day, annotator_id, labels, active_ms)
  SELECT substr(created_at, 1, 10), annotator_id, SUM(retracts IS NULL), SUM(active_ms)
  FROM label_events GROUP BY 1, 2;

CREATE TRIGGER label_days_insert AFTER INSERT ON label_events BEGIN
  INSERT INTO label_days(day, annotator_id, labels, active_ms)
  VALUES (substr(NEW.created_at, 1, 10), NEW.annotator_id, NEW.retracts IS NULL, NEW.active_ms)
  ON CONFLICT(day, annotator_id) DO UPDATE SET labels = labels + excluded.labels, active_ms = active_ms + excluded.active_ms;
END;

-- Events are never deleted; a test or a repair may move one in time.
CREATE TRIGGER label_days_update AFTER UPDATE OF created_at, active_ms, annotator_id, retracts ON label_events BEGIN
  UPDATE label_days SET labels = labels - (OLD.retracts IS NULL), active_ms = active_ms - OLD.active_ms
  WHERE day = substr(OLD.created_at, 1, 10) AND annotator_id = OLD.annotator_id;
  INSERT INTO label_days(day, annotator_id, labels, active_ms)
  VALUES (substr(NEW.created_at, 1, 10), NEW.annotator_id, NEW.retracts IS NULL, NEW.active_ms)
  ON CONFLICT(day, annotator_id) DO UPDATE SET labels = labels + excluded.labels, active_ms = active_ms + excluded.active_ms;
END;
