-- The guidelines the lead owns: every version of every field's section,
-- numbered 1, 2, 3… per field. Version 1 is the text this build embeds
-- (written on open: the text lives in package guidelines, not in SQL); each
-- edit or import that changes a section adds the next version with its
-- author and time. Labels record the version of their field in force when
-- they were made (label_events.guidelines_version, the number as text).
CREATE TABLE guideline_versions (
  field      TEXT NOT NULL,
  version    INTEGER NOT NULL CHECK (version >= 1),
  text       TEXT NOT NULL,
  author     TEXT NOT NULL,
  created_at TEXT NOT NULL,
  -- how the version came: "embedded 2026-12-01.1", "edit", "import FILE"
  source     TEXT NOT NULL DEFAULT '',
  PRIMARY KEY (field, version)
) WITHOUT ROWID;
