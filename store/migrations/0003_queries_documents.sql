-- Schema version 3: the CanLegalRAGBench kinds query and document
-- (docs/relevance.md): their own rows beside items.

CREATE TABLE queries (
  item_id      INTEGER PRIMARY KEY REFERENCES items(id),
  text         TEXT NOT NULL,
  persona      TEXT NOT NULL DEFAULT '',  -- lay | professional
  jurisdiction TEXT NOT NULL DEFAULT '',  -- e.g. ON, BC, AB
  issue        TEXT NOT NULL DEFAULT '',
  seed_doc     TEXT NOT NULL DEFAULT '',  -- the seed document's id (it may not be imported)
  seed_group   TEXT NOT NULL DEFAULT '',  -- the variations of one seed share it
  extra        TEXT NOT NULL DEFAULT '{}' -- unknown keys kept as JSON
);
CREATE INDEX queries_seed_group ON queries(seed_group);

CREATE TABLE documents (
  item_id      INTEGER PRIMARY KEY REFERENCES items(id),
  title        TEXT NOT NULL DEFAULT '',
  citation     TEXT NOT NULL DEFAULT '',
  court        TEXT NOT NULL DEFAULT '',
  jurisdiction TEXT NOT NULL DEFAULT '',
  year         INTEGER,
  text         TEXT NOT NULL,
  extra        TEXT NOT NULL DEFAULT '{}'
);
CREATE INDEX documents_citation ON documents(citation);

-- Chunks of a document that retrieval runs may name instead of it.
CREATE TABLE document_chunks (
  chunk_id    TEXT PRIMARY KEY,
  doc_item_id INTEGER NOT NULL REFERENCES items(id),
  start       INTEGER NOT NULL,
  end         INTEGER NOT NULL
) WITHOUT ROWID;
CREATE INDEX document_chunks_doc ON document_chunks(doc_item_id, start);
