-- The languages annotate speaks to an annotator (English, French).
--
-- An annotator's preference: "en", "fr", or '' (none: the config file, then
-- the locale decide).
ALTER TABLE annotators ADD COLUMN lang TEXT NOT NULL DEFAULT '';

-- The guidelines in both languages under one version number: each version
-- of a field holds the English text in force (text) and the French text
-- in force (text_fr); changed says which of the two this version changed
-- ('en', 'fr'; '' both: the text annotate ships, version 1). A field whose
-- French last changed before its English did has a French text older than
-- its English one. The French of the versions already there is filled in
-- on open (store/guidelines_lang.go): version 1's from the shipped French,
-- each later one's from the version before it.
ALTER TABLE guideline_versions ADD COLUMN text_fr TEXT NOT NULL DEFAULT '';
ALTER TABLE guideline_versions ADD COLUMN changed TEXT NOT NULL DEFAULT 'en' CHECK (changed IN ('', 'en', 'fr'));
UPDATE guideline_versions SET changed = '' WHERE version = 1 AND author = 'annotate' AND source LIKE 'embedded %';
