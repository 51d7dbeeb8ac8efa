-- A busy database: who holds a screen, and who writes for long.
--
-- One live screen per annotator and database. The lease is a row of the
-- database itself, taken in a write transaction and checked again in the
-- transaction of every write the screen makes, so no file beside the
-- database (deleted, replaced, a symlink) can let a second screen in. The
-- holder is named by host, boot, pid and the process's start time, so a
-- screen killed without a word is known to be gone at once on its machine;
-- a holder on another machine is judged by its heartbeat.
CREATE TABLE screen_leases (
  name      TEXT PRIMARY KEY,         -- "jo", "lead (review)"
  token     TEXT NOT NULL,            -- this holding of it (a new one each time)
  host      TEXT NOT NULL,
  boot      TEXT NOT NULL DEFAULT '',
  pid       INTEGER NOT NULL,
  pid_start INTEGER NOT NULL DEFAULT 0,
  place     TEXT NOT NULL DEFAULT '', -- "tty /dev/pts/3", "ssh from 10.0.0.7:51234"
  since     TEXT NOT NULL,
  heartbeat TEXT NOT NULL
);

-- A long writer (an import) says who it is before it takes the write lock,
-- so that whoever waits for the lock can say what it waits for.
-- An import's id names its journal (import_undo): it is never that of a
-- journal still there.
CREATE TABLE writers (
  id        INTEGER PRIMARY KEY,
  what      TEXT NOT NULL,            -- "an import"
  host      TEXT NOT NULL,
  boot      TEXT NOT NULL DEFAULT '',
  pid       INTEGER NOT NULL,
  pid_start INTEGER NOT NULL DEFAULT 0,
  since     TEXT NOT NULL
);

-- An import writes in short steps, each its own transaction, so that it
-- never keeps the write lock from the screens for more than about a
-- second. What each step changed is journalled here, in the same
-- transaction, as the statement that takes it back: a failed import, or
-- one killed at any moment (found at the next open: its writer is gone), is
-- undone from the end. Until the import's last step commits, its writer
-- row says it runs: the commands that read wait for it, and the screens do
-- not offer its items. Its journal is cleared once it is done.
CREATE TABLE import_undo (
  seq       INTEGER PRIMARY KEY,   -- the order of the changes
  import_id INTEGER NOT NULL,      -- writers.id of the import
  tbl       TEXT NOT NULL,         -- the table changed
  rid       INTEGER,               -- the row's rowid (a table with one); for a range, the rowid before it
  upto      INTEGER,               -- a range of rows added (the label events of a step): its last rowid
  item      INTEGER,               -- the item the row belongs to, if any (its family is recounted)
  undo      TEXT NOT NULL          -- the statement that takes the change back
);
-- The items an import in progress added (the screens leave them out).
CREATE INDEX import_undo_items ON import_undo(rid) WHERE tbl = 'items';

-- Events are deleted only when an import is undone (import_undo): these
-- triggers take back what the triggers on their insert added, so that the
-- totals are those of the events that stay, and the current label of a
-- key whose event goes is the latest that stays (an import writes no
-- retraction). Rows that counted only the events gone go with them.
CREATE TRIGGER label_events_undone_current AFTER DELETE ON label_events
WHEN EXISTS (SELECT 1 FROM current_labels c WHERE c.role = OLD.role
  AND c.annotator_id = CASE OLD.role WHEN 'adjudicate' THEN 0 ELSE OLD.annotator_id END
  AND c.item_id = OLD.item_id AND c.field = OLD.field AND c.event_id = OLD.id)
BEGIN
  DELETE FROM current_labels WHERE role = OLD.role
    AND annotator_id = CASE OLD.role WHEN 'adjudicate' THEN 0 ELSE OLD.annotator_id END
    AND item_id = OLD.item_id AND field = OLD.field;
  INSERT INTO current_labels(role, annotator_id, item_id, field, value, event_id)
    SELECT e.role, CASE e.role WHEN 'adjudicate' THEN 0 ELSE e.annotator_id END, e.item_id, e.field, e.value, e.id
    FROM label_events e
    WHERE e.item_id = OLD.item_id AND e.field = OLD.field AND e.role = OLD.role
      AND (OLD.role = 'adjudicate' OR e.annotator_id = OLD.annotator_id)
      AND e.retracts IS NULL AND NOT EXISTS (SELECT 1 FROM label_events r WHERE r.retracts = e.id)
    ORDER BY e.id DESC LIMIT 1;
END;

CREATE TRIGGER label_days_undone AFTER DELETE ON label_events BEGIN
  UPDATE label_days SET labels = labels - (OLD.retracts IS NULL), active_ms = active_ms - OLD.active_ms
    WHERE day = substr(OLD.created_at, 1, 10) AND annotator_id = OLD.annotator_id;
  DELETE FROM label_days WHERE day = substr(OLD.created_at, 1, 10) AND annotator_id = OLD.annotator_id
    AND labels = 0 AND active_ms = 0
    AND NOT EXISTS (SELECT 1 FROM label_events e WHERE e.annotator_id = OLD.annotator_id
                    AND substr(e.created_at, 1, 10) = substr(OLD.created_at, 1, 10));
END;

CREATE TRIGGER label_events_undone_active_hours AFTER DELETE ON label_events WHEN OLD.active_ms <> 0
BEGIN
  UPDATE active_hours SET ms = ms - OLD.active_ms WHERE annotator_id = OLD.annotator_id AND hour = substr(OLD.created_at, 1, 13);
  DELETE FROM active_hours WHERE annotator_id = OLD.annotator_id AND hour = substr(OLD.created_at, 1, 13) AND ms = 0;
END;

CREATE TRIGGER label_events_undone_work AFTER DELETE ON label_events WHEN OLD.retracts IS NULL
BEGIN
  UPDATE work_tasks SET ms = ms - OLD.active_ms WHERE annotator_id = OLD.annotator_id
    AND task = (SELECT CASE WHEN OLD.role = 'adjudicate' THEN 'review' ELSE i.kind END FROM items i WHERE i.id = OLD.item_id);
  DELETE FROM work_items WHERE item_id = OLD.item_id AND annotator_id = OLD.annotator_id
    AND task = (SELECT CASE WHEN OLD.role = 'adjudicate' THEN 'review' ELSE i.kind END FROM items i WHERE i.id = OLD.item_id)
    AND NOT EXISTS (SELECT 1 FROM label_events e WHERE e.annotator_id = OLD.annotator_id AND e.item_id = OLD.item_id
                    AND e.retracts IS NULL AND (e.role = 'adjudicate') = (OLD.role = 'adjudicate'));
END;

CREATE TRIGGER label_events_undone_session AFTER DELETE ON label_events WHEN OLD.session_id IS NOT NULL
BEGIN
  UPDATE session_events SET ms = ms - OLD.active_ms, n = n - 1,
      last = COALESCE((SELECT MAX(e.created_at) FROM label_events e WHERE e.session_id = OLD.session_id), last)
    WHERE session_id = OLD.session_id;
  DELETE FROM session_events WHERE session_id = OLD.session_id AND n = 0;
  UPDATE session_tasks SET ms = ms - OLD.active_ms WHERE OLD.retracts IS NULL AND session_id = OLD.session_id
    AND task = (SELECT CASE WHEN OLD.role = 'adjudicate' THEN 'review' ELSE i.kind END FROM items i WHERE i.id = OLD.item_id);
  DELETE FROM session_tasks WHERE session_id = OLD.session_id AND ms = 0
    AND task = (SELECT CASE WHEN OLD.role = 'adjudicate' THEN 'review' ELSE i.kind END FROM items i WHERE i.id = OLD.item_id)
    AND NOT EXISTS (SELECT 1 FROM label_events e JOIN items i ON i.id = e.item_id WHERE e.session_id = OLD.session_id
                    AND e.retracts IS NULL AND (CASE WHEN e.role = 'adjudicate' THEN 'review' ELSE i.kind END) = session_tasks.task);
END;

-- A work item gone: its task counts one item less, its parent one work
-- item less (and, with none left, one group less: work_groups_gone).
CREATE TRIGGER work_items_gone AFTER DELETE ON work_items
BEGIN
  UPDATE work_tasks SET items = items - 1 WHERE annotator_id = OLD.annotator_id AND task = OLD.task;
  DELETE FROM work_tasks WHERE annotator_id = OLD.annotator_id AND task = OLD.task AND items = 0;
  UPDATE work_groups SET n = n - 1 WHERE annotator_id = OLD.annotator_id AND task = OLD.task
    AND parent_id = (SELECT parent_id FROM items WHERE id = OLD.item_id);
  DELETE FROM work_groups WHERE annotator_id = OLD.annotator_id AND task = OLD.task
    AND parent_id = (SELECT parent_id FROM items WHERE id = OLD.item_id) AND n = 0;
END;
