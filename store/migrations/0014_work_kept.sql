-- Work totals kept in the write transaction, so the home screen's "today"
-- and the cost and session reports read a few rows instead of the label log.
-- The label log is append-only, so triggers on its inserts keep every total
-- exact on every write path (screens, undo, adjudication, imports) without
-- each path knowing about them. A "task" is the cost report's: the item's
-- kind, or 'review' for the lead's adjudications.

-- Active time of each annotator's events per UTC hour ('YYYY-MM-DDTHH', the
-- first 13 characters of created_at). A day in any whole-hour time zone is
-- whole hours; the home screen reads the hours of today, plus the events of
-- any partial first hour through label_events_time.
CREATE TABLE active_hours (
  annotator_id INTEGER NOT NULL,
  hour         TEXT NOT NULL,
  ms           INTEGER NOT NULL,
  PRIMARY KEY (annotator_id, hour)
) WITHOUT ROWID;

-- Per annotator and task, over decisions (events that retract nothing): the
-- distinct items and parents decided, and their active time.
CREATE TABLE work_tasks (
  annotator_id INTEGER NOT NULL,
  task         TEXT NOT NULL,
  items        INTEGER NOT NULL,
  groups_      INTEGER NOT NULL,
  ms           INTEGER NOT NULL,
  PRIMARY KEY (annotator_id, task)
) WITHOUT ROWID;

-- The items behind work_tasks.items (keyed by item first: imports append in
-- item order, and a re-parented item finds its rows).
CREATE TABLE work_items (
  item_id      INTEGER NOT NULL,
  annotator_id INTEGER NOT NULL,
  task         TEXT NOT NULL,
  PRIMARY KEY (item_id, annotator_id, task)
) WITHOUT ROWID;

-- The parents behind work_tasks.groups_, with how many of the work items
-- have each (an item re-parented by a re-import moves its count).
CREATE TABLE work_groups (
  parent_id    INTEGER NOT NULL,
  annotator_id INTEGER NOT NULL,
  task         TEXT NOT NULL,
  n            INTEGER NOT NULL,
  PRIMARY KEY (parent_id, annotator_id, task)
) WITHOUT ROWID;

-- Per session, over all its events: the latest stamp (text, as MAX compares
-- it), the active time and the number of events.
CREATE TABLE session_events (
  session_id INTEGER PRIMARY KEY,
  last       TEXT NOT NULL,
  ms         INTEGER NOT NULL,
  n          INTEGER NOT NULL
);

-- Per session and task, over its decisions: active time (the cost report
-- shares a session's length out by it).
CREATE TABLE session_tasks (
  session_id INTEGER NOT NULL,
  task       TEXT NOT NULL,
  ms         INTEGER NOT NULL,
  PRIMARY KEY (session_id, task)
) WITHOUT ROWID;

-- Backfill from the log, before the triggers exist.
INSERT INTO active_hours(annotator_id, hour, ms)
  SELECT annotator_id, substr(created_at, 1, 13), SUM(active_ms) FROM label_events
  WHERE active_ms <> 0 GROUP BY 1, 2;
INSERT INTO work_items(item_id, annotator_id, task)
  SELECT DISTINCT e.item_id, e.annotator_id, CASE WHEN e.role = 'adjudicate' THEN 'review' ELSE i.kind END
  FROM label_events e JOIN items i ON i.id = e.item_id WHERE e.retracts IS NULL;
INSERT INTO work_groups(parent_id, annotator_id, task, n)
  SELECT i.parent_id, w.annotator_id, w.task, COUNT(*) FROM work_items w JOIN items i ON i.id = w.item_id
  WHERE i.parent_id IS NOT NULL GROUP BY 1, 2, 3;
INSERT INTO work_tasks(annotator_id, task, items, groups_, ms)
  SELECT e.annotator_id, CASE WHEN e.role = 'adjudicate' THEN 'review' ELSE i.kind END, 0, 0, SUM(e.active_ms)
  FROM label_events e JOIN items i ON i.id = e.item_id WHERE e.retracts IS NULL GROUP BY 1, 2;
UPDATE work_tasks SET
  items = (SELECT COUNT(*) FROM work_items w WHERE w.annotator_id = work_tasks.annotator_id AND w.task = work_tasks.task),
  groups_ = (SELECT COUNT(*) FROM work_groups g WHERE g.annotator_id = work_tasks.annotator_id AND g.task = work_tasks.task);
INSERT INTO session_events(session_id, last, ms, n)
  SELECT session_id, MAX(created_at), SUM(active_ms), COUNT(*) FROM label_events
  WHERE session_id IS NOT NULL GROUP BY session_id;
INSERT INTO session_tasks(session_id, task, ms)
  SELECT e.session_id, CASE WHEN e.role = 'adjudicate' THEN 'review' ELSE i.kind END, SUM(e.active_ms)
  FROM label_events e JOIN items i ON i.id = e.item_id
  WHERE e.retracts IS NULL AND e.session_id IS NOT NULL GROUP BY 1, 2;

CREATE TRIGGER label_events_active_hours AFTER INSERT ON label_events WHEN NEW.active_ms <> 0
BEGIN
  INSERT INTO active_hours(annotator_id, hour, ms) VALUES (NEW.annotator_id, substr(NEW.created_at, 1, 13), NEW.active_ms)
    ON CONFLICT DO UPDATE SET ms = ms + excluded.ms;
END;

CREATE TRIGGER label_events_work AFTER INSERT ON label_events WHEN NEW.retracts IS NULL
BEGIN
  INSERT INTO work_tasks(annotator_id, task, items, groups_, ms)
    SELECT NEW.annotator_id, CASE WHEN NEW.role = 'adjudicate' THEN 'review' ELSE i.kind END, 0, 0, NEW.active_ms
    FROM items i WHERE i.id = NEW.item_id
    ON CONFLICT DO UPDATE SET ms = ms + excluded.ms;
  INSERT OR IGNORE INTO work_items(item_id, annotator_id, task)
    SELECT NEW.item_id, NEW.annotator_id, CASE WHEN NEW.role = 'adjudicate' THEN 'review' ELSE i.kind END
    FROM items i WHERE i.id = NEW.item_id;
END;

CREATE TRIGGER label_events_session AFTER INSERT ON label_events WHEN NEW.session_id IS NOT NULL
BEGIN
  INSERT INTO session_events(session_id, last, ms, n) VALUES (NEW.session_id, NEW.created_at, NEW.active_ms, 1)
    ON CONFLICT DO UPDATE SET last = max(last, excluded.last), ms = ms + excluded.ms, n = n + 1;
  INSERT INTO session_tasks(session_id, task, ms)
    SELECT NEW.session_id, CASE WHEN NEW.role = 'adjudicate' THEN 'review' ELSE i.kind END, NEW.active_ms
    FROM items i WHERE i.id = NEW.item_id AND NEW.retracts IS NULL
    ON CONFLICT DO UPDATE SET ms = ms + excluded.ms;
END;

-- Fires only for a new row (INSERT OR IGNORE skips a known item).
CREATE TRIGGER work_items_new AFTER INSERT ON work_items
BEGIN
  UPDATE work_tasks SET items = items + 1 WHERE annotator_id = NEW.annotator_id AND task = NEW.task;
  INSERT INTO work_groups(parent_id, annotator_id, task, n)
    SELECT i.parent_id, NEW.annotator_id, NEW.task, 1 FROM items i WHERE i.id = NEW.item_id AND i.parent_id IS NOT NULL
    ON CONFLICT DO UPDATE SET n = n + 1;
END;

CREATE TRIGGER work_groups_new AFTER INSERT ON work_groups
BEGIN
  UPDATE work_tasks SET groups_ = groups_ + 1 WHERE annotator_id = NEW.annotator_id AND task = NEW.task;
END;

CREATE TRIGGER work_groups_gone AFTER DELETE ON work_groups
BEGIN
  UPDATE work_tasks SET groups_ = groups_ - 1 WHERE annotator_id = OLD.annotator_id AND task = OLD.task;
END;

-- A re-import may move an item to another parent: its work items count
-- under the new parent, no longer under the old one.
CREATE TRIGGER items_reparent_work AFTER UPDATE OF parent_id ON items WHEN OLD.parent_id IS NOT NEW.parent_id
BEGIN
  UPDATE work_groups SET n = n - 1 WHERE parent_id = OLD.parent_id
    AND EXISTS (SELECT 1 FROM work_items w WHERE w.item_id = OLD.id
                AND w.annotator_id = work_groups.annotator_id AND w.task = work_groups.task);
  DELETE FROM work_groups WHERE parent_id = OLD.parent_id AND n = 0;
  INSERT INTO work_groups(parent_id, annotator_id, task, n)
    SELECT NEW.parent_id, w.annotator_id, w.task, 1 FROM work_items w WHERE w.item_id = NEW.id AND NEW.parent_id IS NOT NULL
    ON CONFLICT DO UPDATE SET n = n + 1;
END;

-- The application never rewrites an event; a test (or a hand repair) that
-- moves one in time or changes its active time moves its totals with it.
CREATE TRIGGER label_events_restamp AFTER UPDATE OF created_at, active_ms ON label_events
BEGIN
  UPDATE active_hours SET ms = ms - OLD.active_ms WHERE annotator_id = OLD.annotator_id AND hour = substr(OLD.created_at, 1, 13);
  DELETE FROM active_hours WHERE annotator_id = OLD.annotator_id AND hour = substr(OLD.created_at, 1, 13) AND ms = 0;
  INSERT INTO active_hours(annotator_id, hour, ms)
    SELECT NEW.annotator_id, substr(NEW.created_at, 1, 13), NEW.active_ms WHERE NEW.active_ms <> 0
    ON CONFLICT DO UPDATE SET ms = ms + excluded.ms;
  UPDATE work_tasks SET ms = ms - OLD.active_ms + NEW.active_ms
    WHERE OLD.retracts IS NULL AND annotator_id = OLD.annotator_id
      AND task = (SELECT CASE WHEN OLD.role = 'adjudicate' THEN 'review' ELSE i.kind END FROM items i WHERE i.id = OLD.item_id);
  UPDATE session_tasks SET ms = ms - OLD.active_ms + NEW.active_ms
    WHERE OLD.retracts IS NULL AND session_id = OLD.session_id
      AND task = (SELECT CASE WHEN OLD.role = 'adjudicate' THEN 'review' ELSE i.kind END FROM items i WHERE i.id = OLD.item_id);
  UPDATE session_events SET ms = ms - OLD.active_ms + NEW.active_ms,
      last = (SELECT MAX(e.created_at) FROM label_events e WHERE e.session_id = OLD.session_id)
    WHERE session_id = OLD.session_id;
END;
