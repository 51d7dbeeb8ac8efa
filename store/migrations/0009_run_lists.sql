-- Schema version 6: a run's results as one row per (run, query), and the
-- run's chunk-level list beside its document ranking.
--
-- A run of 5,000 queries at depth 100 is 500,000 (query, document) rows;
-- written one row each (run_results, with its three B-trees) an import of
-- four such runs took a minute. One row per (run, query) holds the same
-- ranking as JSON arrays, which SQL still reads with json_each.

CREATE TABLE run_lists (
  run_id        INTEGER NOT NULL REFERENCES runs(id),
  query_item_id INTEGER NOT NULL REFERENCES items(id),
  -- The ranking of documents: chunks mapped to their document, each
  -- document at its best rank, ranks renumbered 1..n. Element i (from 0)
  -- is the document item id at rank i+1.
  docs          TEXT NOT NULL,
  -- Each document's best score, in the order of docs (null: none given).
  scores        TEXT NOT NULL,
  -- The chunk-level list: the document item id of every retrieved line
  -- (a chunk, or the document itself) in rank order, repeats included.
  -- NULL for runs imported before this version: not known.
  chunk_docs    TEXT,
  -- The chunk id of every element of chunk_docs (null where the line named
  -- the document itself). NULL when chunk_docs is.
  chunk_ids     TEXT,
  PRIMARY KEY (run_id, query_item_id)
) WITHOUT ROWID;
CREATE INDEX run_lists_query ON run_lists(query_item_id);

INSERT INTO run_lists(run_id, query_item_id, docs, scores)
  SELECT run_id, query_item_id, json_group_array(doc_item_id ORDER BY rank), json_group_array(score ORDER BY rank)
  FROM run_results GROUP BY run_id, query_item_id;

DROP TABLE run_results;

-- run_chunks keeps the chunks of runs imported before this version (the
-- relevance screen still jumps to them); new runs keep theirs in chunk_ids.
