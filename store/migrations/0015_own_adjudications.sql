-- Schema version 15: a lead's adjudication of a unit in which they gave a
-- label of their own. The review refuses such a decision unless the lead
-- passes --allow-own; own_unit = 1 marks the adjudications made that way,
-- which agreement and the dataset card count. 0 on every other event (and
-- on every event written before this version: the review refused none).
ALTER TABLE label_events ADD COLUMN own_unit INTEGER NOT NULL DEFAULT 0;
