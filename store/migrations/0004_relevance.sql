-- Schema version 4: relevance judgments of CanLegalRAGBench (§4.3) and the
-- retrieval runs whose pooled documents the experts judge.

-- A relevance item is one (query, document) pair; its ext id is
-- "<query id>/<document id>". Its labels (relevance, irrelevance_reason,
-- relevance_grade) live in the label log like every other label.
CREATE TABLE relevance_pairs (
  item_id       INTEGER PRIMARY KEY REFERENCES items(id),
  query_item_id INTEGER NOT NULL REFERENCES items(id),
  doc_item_id   INTEGER NOT NULL REFERENCES items(id),
  UNIQUE (query_item_id, doc_item_id)
);
CREATE INDEX relevance_pairs_doc ON relevance_pairs(doc_item_id);

-- A retrieval run (a TREC run file's tag, or --run). Runs are data about
-- systems: the annotation screens never read these tables.
CREATE TABLE runs (
  id          INTEGER PRIMARY KEY,
  name        TEXT NOT NULL UNIQUE,
  hash        TEXT NOT NULL,             -- of its results, to tell identical re-imports
  origin_file TEXT NOT NULL DEFAULT '',
  imported_at TEXT NOT NULL
);

-- A run's ranking of documents per query: chunks mapped to their document,
-- each document at its best rank, ranks renumbered 1..n. Keyed by rank
-- before query: the top k of every query (annotate ir, pools) is one range.
CREATE TABLE run_results (
  run_id        INTEGER NOT NULL REFERENCES runs(id),
  rank          INTEGER NOT NULL,
  query_item_id INTEGER NOT NULL REFERENCES items(id),
  doc_item_id   INTEGER NOT NULL REFERENCES items(id),
  score         REAL,
  PRIMARY KEY (run_id, rank, query_item_id)
) WITHOUT ROWID;
CREATE UNIQUE INDEX run_results_doc ON run_results(run_id, query_item_id, doc_item_id);
CREATE INDEX run_results_query ON run_results(query_item_id, doc_item_id);

-- The chunks a run named for a query and document (the relevance screen
-- jumps to them, whichever run it was).
CREATE TABLE run_chunks (
  query_item_id INTEGER NOT NULL REFERENCES items(id),
  doc_item_id   INTEGER NOT NULL REFERENCES items(id),
  chunk_id      TEXT NOT NULL,
  run_id        INTEGER NOT NULL REFERENCES runs(id),
  PRIMARY KEY (query_item_id, doc_item_id, chunk_id, run_id)
) WITHOUT ROWID;

-- How a relevance batch was cut (batch create --kind relevance), so a pool
-- can be told apart and cut again the same way.
CREATE TABLE relevance_pools (
  batch_id INTEGER PRIMARY KEY REFERENCES batches(id),
  runs     TEXT NOT NULL,                -- JSON array of run names
  depth    INTEGER NOT NULL,
  queries  INTEGER NOT NULL,             -- queries sampled
  stratify TEXT NOT NULL DEFAULT '',     -- e.g. "jurisdiction,issue"
  graded   INTEGER NOT NULL DEFAULT 0    -- judgments take a grade 0, 1, 2
);
