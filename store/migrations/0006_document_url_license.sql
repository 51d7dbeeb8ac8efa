-- Schema version 6: where a document was published and under which licence
-- (CanLegalRAGBench's documents.parquet gives both, url and
-- upstream_license, per document).

ALTER TABLE documents ADD COLUMN url TEXT NOT NULL DEFAULT '';
ALTER TABLE documents ADD COLUMN license TEXT NOT NULL DEFAULT '';
