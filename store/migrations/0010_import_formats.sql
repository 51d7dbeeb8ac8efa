-- The formats data came in as (importer format names: native, claimrag,
-- refchecker-human, ragchecker, canlegalragbench-queries, …), so the
-- dataset card names where its data comes from (source_datasets). One row
-- per format, with how many files of it were imported and when first.
CREATE TABLE import_formats (
  format   TEXT PRIMARY KEY,
  files    INTEGER NOT NULL DEFAULT 0,
  first_at TEXT NOT NULL
);
