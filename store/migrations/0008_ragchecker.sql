-- Schema version 6: RAGChecker's checking output kept whole, so `annotate
-- rag` recomputes its metrics; and the extractor of each claim, so the
-- response-level meta-evaluation can pick one when a checker ran on the
-- claims of several extractors.

-- One result of a RAGChecker checking output: the response's QA pair, the
-- system that answered, and the four claim × chunk matrices as imported
-- (JSON; NULL when the file had none). answer2response: one verdict per
-- response claim; response2answer: one per ground-truth claim;
-- retrieved2response[response claim][chunk]; retrieved2answer[ground-truth
-- claim][chunk]. The ground-truth claims are the claims of answer_item_id
-- (the ground-truth answer's pair, shared by every system's result for the
-- query), in position order.
CREATE TABLE rag_results (
  item_id            INTEGER PRIMARY KEY REFERENCES items(id),
  system             TEXT NOT NULL,
  query_id           TEXT NOT NULL,
  answer_item_id     INTEGER REFERENCES items(id),
  answer2response    TEXT,
  response2answer    TEXT,
  retrieved2response TEXT,
  retrieved2answer   TEXT
);
CREATE INDEX rag_results_system ON rag_results(system, item_id);

-- The extractor whose output a claim is (RefChecker's <extractor>_response_kg
-- key); '' when the file does not say.
ALTER TABLE claims ADD COLUMN extractor TEXT NOT NULL DEFAULT '';
