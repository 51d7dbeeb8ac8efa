-- Schema version 20: the documents' citations indexed as the answer
-- screen looks them up, case aside (COLLATE NOCASE): the index of version 3
-- compared them case and all, so a citation typed was checked against
-- every document's, a scan that grew with the database, at every draft.
DROP INDEX IF EXISTS documents_citation;
CREATE INDEX documents_citation ON documents(citation COLLATE NOCASE);
