-- Claims follow their answer: a claim is asked of an annotator once that
-- annotator judged its answer correct, except where the answer is not under
-- review. Two markers say where it is not.

-- A pair imported as given (RefChecker's and RAGChecker's outputs, where the
-- "answer" is a system response): its claims are asked of everyone at once.
ALTER TABLE qa_pairs ADD COLUMN as_given INTEGER NOT NULL DEFAULT 0;

-- A batch whose answers were judged elsewhere (cut --without-qa, or
-- --only-correct-answers --adjudicated): its assignees (everyone, when it
-- has none) are asked its items at once.
ALTER TABLE batches ADD COLUMN asks_at_once INTEGER NOT NULL DEFAULT 0;
