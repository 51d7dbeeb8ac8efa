-- Schema version 5: the CanLegalRAGBench answer side (the
-- CanLegalRAGBench paper, §3–5): gold-answer tasks and the expert's drafts,
-- systems' generated answers and their atomic claims, the error taxonomy in
-- force, and what the cost report needs of annotators.

-- A query an expert answers (items.ext_id is "<query id>/answer"). The
-- query's persona and jurisdiction are copied when the task is created, so
-- the counts kept by them never depend on another item's row.
CREATE TABLE answer_tasks (
  item_id       INTEGER PRIMARY KEY REFERENCES items(id),
  query_item_id INTEGER NOT NULL REFERENCES items(id),
  persona       TEXT NOT NULL DEFAULT '',
  jurisdiction  TEXT NOT NULL DEFAULT ''
);
CREATE UNIQUE INDEX answer_tasks_query ON answer_tasks(query_item_id);

-- What an expert has typed and not submitted yet: written at most once a
-- second while they type, never a label; submitting deletes it.
CREATE TABLE answer_drafts (
  annotator_id INTEGER NOT NULL REFERENCES annotators(id),
  item_id      INTEGER NOT NULL REFERENCES items(id),
  gold_answer  TEXT NOT NULL DEFAULT '',
  citations    TEXT NOT NULL DEFAULT '',  -- as typed, one per line
  active_ms    INTEGER NOT NULL DEFAULT 0, -- active time spent on the draft so far
  updated_at   TEXT NOT NULL,
  PRIMARY KEY (annotator_id, item_id)
) WITHOUT ROWID;

-- A system's generated answer to a query. documents: JSON array of the ids
-- of the documents the answer used.
CREATE TABLE gen_answers (
  item_id       INTEGER PRIMARY KEY REFERENCES items(id),
  query         TEXT NOT NULL,              -- the query's id
  query_item_id INTEGER REFERENCES items(id),
  system        TEXT NOT NULL,
  condition     TEXT NOT NULL,              -- oracle | pipeline
  answer        TEXT NOT NULL,
  documents     TEXT NOT NULL DEFAULT '[]',
  persona       TEXT NOT NULL DEFAULT '',   -- copied from the query
  jurisdiction  TEXT NOT NULL DEFAULT '',
  extra         TEXT NOT NULL DEFAULT '{}'
);
CREATE INDEX gen_answers_query ON gen_answers(query_item_id);
CREATE INDEX gen_answers_system ON gen_answers(system, condition);

-- An atomic claim of a generated answer.
CREATE TABLE gen_claims (
  item_id  INTEGER PRIMARY KEY REFERENCES items(id),
  position INTEGER NOT NULL,
  text     TEXT NOT NULL
);

-- The error taxonomy in force (--taxonomy FILE); empty: the default one.
CREATE TABLE error_taxonomy (
  position   INTEGER PRIMARY KEY,
  value      TEXT NOT NULL UNIQUE,
  label      TEXT NOT NULL,
  grp        TEXT NOT NULL,
  definition TEXT NOT NULL,
  example    TEXT NOT NULL DEFAULT ''
);

-- The cost report: an annotator's hourly rate, its currency and role
-- (annotate annotator set NAME --rate R --currency C --role ROLE).
ALTER TABLE annotators ADD COLUMN rate REAL;
ALTER TABLE annotators ADD COLUMN currency TEXT NOT NULL DEFAULT '';
ALTER TABLE annotators ADD COLUMN role TEXT NOT NULL DEFAULT '';
