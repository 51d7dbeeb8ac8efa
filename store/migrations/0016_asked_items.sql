-- Schema version 16: whom each item of a kind that waits for its parent's
-- labels (claims: asked once their answer is judged correct) is asked of,
-- done or not. The claim queue walks these rows in item order, so that an
-- annotator's next claims, and their place in the queue, are found without
-- reading every claim of the database (a new annotator, asked nothing yet,
-- has none at once). Derived from the labels, pairs and batches like
-- done_items: filled by the recount of the kept counts (whose rules'
-- version changed with it), kept by every write, left out of backups.
CREATE TABLE asked_items (
  annotator_id INTEGER NOT NULL, -- -1: everyone (asked at once: the pair imported as given, an open batch that asks at once)
  item_id      INTEGER NOT NULL,
  PRIMARY KEY (annotator_id, item_id)
) WITHOUT ROWID;
