-- Schema version 19: the fields a lead declares (annotate fields add
-- FILE.yaml) instead of a kind's Go code: every version of every declared
-- field, numbered 1, 2, 3… per field. When the database opens, the newest
-- version of each is put in force, in the order the fields were first
-- declared (id), so a field may be asked after another declared one. A
-- version is never changed nor removed; labels keep the guidelines' version
-- of the field as for every field (guideline_versions).
CREATE TABLE field_declarations (
  id          INTEGER PRIMARY KEY,
  field       TEXT NOT NULL,
  version     INTEGER NOT NULL CHECK (version >= 1),
  kind        TEXT NOT NULL,
  -- the declaration with its defaults filled in, as JSON (keys of the file)
  declaration TEXT NOT NULL,
  -- the file as the lead wrote it, and its name
  source_text TEXT NOT NULL,
  source      TEXT NOT NULL,
  -- what the version changes from the one before, in words, one per line
  changes     TEXT NOT NULL DEFAULT '',
  -- the version of the field's guidelines in force after this version
  guidelines_version INTEGER NOT NULL,
  author      TEXT NOT NULL,
  created_at  TEXT NOT NULL,
  UNIQUE (field, version)
);
