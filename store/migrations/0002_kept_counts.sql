-- Schema version 2: counts kept in the write transaction (package tally),
-- predictions of any field, and keys that put an item's rows together.

-- An item's labels by every rater sit together: the write path reloads one
-- family (a QA pair and its claims) at a time.
CREATE TABLE current_labels_v2 (
  item_id      INTEGER NOT NULL,
  field        TEXT NOT NULL,
  role         TEXT NOT NULL,
  annotator_id INTEGER NOT NULL,
  value        TEXT NOT NULL,
  event_id     INTEGER NOT NULL,
  PRIMARY KEY (item_id, field, role, annotator_id)
) WITHOUT ROWID;
INSERT INTO current_labels_v2(item_id, field, role, annotator_id, value, event_id)
  SELECT item_id, field, role, annotator_id, value, event_id FROM current_labels;
DROP TABLE current_labels;
ALTER TABLE current_labels_v2 RENAME TO current_labels;

-- A prediction names the field it predicts: a claim's entailment, a QA
-- pair's response-level verdict (RefChecker's Y), a generated claim's
-- accuracy_support and grounded.
CREATE TABLE predictions_v2 (
  item_id INTEGER NOT NULL REFERENCES items(id),
  system  TEXT NOT NULL,
  field   TEXT NOT NULL,
  value   TEXT NOT NULL,
  PRIMARY KEY (item_id, system, field)
) WITHOUT ROWID;
INSERT INTO predictions_v2(item_id, system, field, value)
  SELECT p.item_id, p.system, CASE i.kind WHEN 'qa' THEN 'response' ELSE 'entailment' END, p.value
  FROM predictions p JOIN items i ON i.id = p.item_id;
DROP TABLE predictions;
ALTER TABLE predictions_v2 RENAME TO predictions;

-- Items an annotator's queues skip (finished, or asking nothing), rebuilt
-- from the labels by the migration's Go step.
DROP TABLE done_items;
CREATE TABLE done_items (
  item_id      INTEGER NOT NULL,
  annotator_id INTEGER NOT NULL,
  gated        INTEGER NOT NULL DEFAULT 0, -- asks the annotator nothing (parent's labels), rather than finished
  PRIMARY KEY (item_id, annotator_id)
) WITHOUT ROWID;

-- The sums of every family's contribution (tally.Key -> n), rebuilt by the
-- migration's Go step and kept up to date by every write.
CREATE TABLE kept_counts (
  name      TEXT NOT NULL,
  rater     INTEGER NOT NULL,
  source_id INTEGER NOT NULL,
  a         TEXT NOT NULL,
  b         TEXT NOT NULL,
  n         INTEGER NOT NULL,
  PRIMARY KEY (name, rater, source_id, a, b)
) WITHOUT ROWID;

-- "Today's" active time of one annotator (the home screen).
CREATE INDEX label_events_time ON label_events(annotator_id, created_at);
-- Which batch an item is in, and for whom (the kept counts of queues).
CREATE INDEX assignments_item ON assignments(item_id, batch_id, annotator_id);

-- Settings of the file itself: which rules of package tally computed the
-- kept counts (a build with other rules recomputes them when it opens it).
CREATE TABLE meta (
  key   TEXT PRIMARY KEY,
  value TEXT NOT NULL
) WITHOUT ROWID;
