-- Schema version 1: sources, items, the label log and sessions (ARCHITECTURE.md).
-- Items of every kind share one table (ids, order, source, parent) so labels,
-- notes, flags and batches refer to any kind; each kind keeps its own columns
-- in a table of its own. A new kind is a new table here plus a schema entry.

CREATE TABLE sources (
  id           INTEGER PRIMARY KEY,
  name         TEXT NOT NULL UNIQUE,
  language     TEXT NOT NULL DEFAULT '',
  jurisdiction TEXT NOT NULL DEFAULT ''
);

CREATE TABLE items (
  id         INTEGER PRIMARY KEY,      -- also the import order
  ext_id     TEXT NOT NULL UNIQUE,     -- the id users see and files carry
  kind       TEXT NOT NULL,            -- 'qa', 'claim', later 'relevance', ...
  source_id  INTEGER REFERENCES sources(id),
  parent_id  INTEGER REFERENCES items(id), -- a claim's QA pair
  hash       TEXT NOT NULL,            -- content hash, to tell identical re-imports
  origin_file TEXT NOT NULL DEFAULT '',
  imported_at TEXT NOT NULL
);
CREATE INDEX items_kind ON items(kind, id);
CREATE INDEX items_parent ON items(parent_id);

CREATE TABLE context_units (
  id        INTEGER PRIMARY KEY,
  ext_id    TEXT NOT NULL UNIQUE,
  source_id INTEGER REFERENCES sources(id),
  text      TEXT NOT NULL
);

CREATE TABLE qa_pairs (
  item_id   INTEGER PRIMARY KEY REFERENCES items(id),
  language  TEXT NOT NULL DEFAULT '',
  hop       TEXT NOT NULL DEFAULT 'single',
  question  TEXT NOT NULL,
  answer    TEXT NOT NULL,
  rationale TEXT NOT NULL DEFAULT '',
  category  TEXT NOT NULL DEFAULT '',   -- the generated category
  extra     TEXT NOT NULL DEFAULT '{}'  -- unknown keys kept as JSON
);

CREATE TABLE qa_contexts (
  qa_item_id INTEGER NOT NULL REFERENCES items(id),
  position   INTEGER NOT NULL,
  context_id INTEGER NOT NULL REFERENCES context_units(id),
  PRIMARY KEY (qa_item_id, position)
) WITHOUT ROWID;

CREATE TABLE claims (
  item_id   INTEGER PRIMARY KEY REFERENCES items(id),
  position  INTEGER NOT NULL,
  subject   TEXT NOT NULL DEFAULT '',
  predicate TEXT NOT NULL DEFAULT '',
  object    TEXT NOT NULL DEFAULT '',
  text      TEXT NOT NULL DEFAULT '',   -- sub-sentence claims have text, not a triple
  origin    TEXT NOT NULL DEFAULT 'extracted', -- 'extracted' | 'annotator'
  added_by  INTEGER REFERENCES annotators(id)
);

CREATE TABLE predictions (
  item_id INTEGER NOT NULL REFERENCES items(id),
  system  TEXT NOT NULL,
  value   TEXT NOT NULL,   -- normalised when known, verbatim otherwise
  PRIMARY KEY (item_id, system)
) WITHOUT ROWID;

CREATE TABLE annotators (
  id         INTEGER PRIMARY KEY,
  name       TEXT NOT NULL UNIQUE,
  human      INTEGER NOT NULL DEFAULT 1,
  created_at TEXT NOT NULL
);

CREATE TABLE sessions (
  id           INTEGER PRIMARY KEY,
  annotator_id INTEGER NOT NULL REFERENCES annotators(id),
  started_at   TEXT NOT NULL,
  ended_at     TEXT,
  active_ms    INTEGER NOT NULL DEFAULT 0,
  client       TEXT NOT NULL DEFAULT 'local'
);

-- The append-only label log. A retraction is an event whose retracts names the
-- event it undoes. role 'adjudicate' marks a lead's final label.
CREATE TABLE label_events (
  id           INTEGER PRIMARY KEY,
  annotator_id INTEGER NOT NULL REFERENCES annotators(id),
  item_id      INTEGER NOT NULL REFERENCES items(id),
  field        TEXT NOT NULL,
  value        TEXT,
  role         TEXT NOT NULL DEFAULT 'annotate',
  created_at   TEXT NOT NULL,
  active_ms    INTEGER NOT NULL DEFAULT 0,
  session_id   INTEGER REFERENCES sessions(id),
  guidelines_version TEXT NOT NULL DEFAULT '',
  retracts     INTEGER REFERENCES label_events(id)
);
CREATE INDEX label_events_key ON label_events(annotator_id, item_id, field, role);
CREATE INDEX label_events_retracts ON label_events(retracts) WHERE retracts IS NOT NULL;
CREATE INDEX label_events_session ON label_events(session_id);

-- Derived from label_events in the same transaction as every write: the
-- latest non-retracted value per (role, annotator, item, field). Reports read
-- this instead of replaying the log.
CREATE TABLE current_labels (
  role         TEXT NOT NULL,
  annotator_id INTEGER NOT NULL,
  item_id      INTEGER NOT NULL,
  field        TEXT NOT NULL,
  value        TEXT NOT NULL,
  event_id     INTEGER NOT NULL,
  PRIMARY KEY (role, annotator_id, item_id, field)
) WITHOUT ROWID;
CREATE INDEX current_labels_item ON current_labels(item_id, field);

-- Derived: an item is here for an annotator when every asked field has a label.
CREATE TABLE done_items (
  annotator_id INTEGER NOT NULL,
  item_id      INTEGER NOT NULL,
  kind         TEXT NOT NULL,
  PRIMARY KEY (annotator_id, item_id)
) WITHOUT ROWID;

CREATE TABLE batches (
  id         INTEGER PRIMARY KEY,
  name       TEXT NOT NULL UNIQUE,
  kind       TEXT NOT NULL,
  pilot      INTEGER NOT NULL DEFAULT 0,
  overlap    INTEGER NOT NULL DEFAULT 0,  -- 0: every assignee gets every item
  seed       INTEGER,
  source     TEXT NOT NULL DEFAULT '',
  created_at TEXT NOT NULL
);
CREATE TABLE batch_items (
  batch_id INTEGER NOT NULL REFERENCES batches(id),
  position INTEGER NOT NULL,
  item_id  INTEGER NOT NULL REFERENCES items(id),
  PRIMARY KEY (batch_id, position)
) WITHOUT ROWID;
CREATE INDEX batch_items_item ON batch_items(item_id);
CREATE TABLE batch_assignees (
  batch_id     INTEGER NOT NULL REFERENCES batches(id),
  annotator_id INTEGER NOT NULL REFERENCES annotators(id),
  PRIMARY KEY (batch_id, annotator_id)
) WITHOUT ROWID;
-- Which assignee gets which item (with overlap, not everyone gets everything).
CREATE TABLE assignments (
  batch_id     INTEGER NOT NULL REFERENCES batches(id),
  annotator_id INTEGER NOT NULL REFERENCES annotators(id),
  item_id      INTEGER NOT NULL REFERENCES items(id),
  PRIMARY KEY (batch_id, annotator_id, item_id)
) WITHOUT ROWID;

-- Notes and flags are append-only too: the latest row per (annotator, item) wins.
CREATE TABLE notes (
  id           INTEGER PRIMARY KEY,
  item_id      INTEGER NOT NULL REFERENCES items(id),
  annotator_id INTEGER NOT NULL REFERENCES annotators(id),
  field        TEXT NOT NULL DEFAULT '',
  text         TEXT NOT NULL,
  created_at   TEXT NOT NULL,
  session_id   INTEGER REFERENCES sessions(id)
);
CREATE INDEX notes_item ON notes(item_id, annotator_id);
CREATE TABLE flags (
  id           INTEGER PRIMARY KEY,
  item_id      INTEGER NOT NULL REFERENCES items(id),
  annotator_id INTEGER NOT NULL REFERENCES annotators(id),
  field        TEXT NOT NULL DEFAULT '',
  flagged      INTEGER NOT NULL,
  created_at   TEXT NOT NULL,
  session_id   INTEGER REFERENCES sessions(id)
);
CREATE INDEX flags_item ON flags(item_id, annotator_id);
