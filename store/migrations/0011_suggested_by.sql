-- Schema version 11: labels made with a system's prediction preselected
-- (`annotate --suggest SYSTEM`). suggested_by names the system whose
-- prediction the screen preselected when the label was made (NULL: blind).
-- A current label's is that of its event (current_labels.event_id), so the
-- reports that separate blind from suggested labels join on it; the partial
-- index keeps that join as short as the suggested events are few.
ALTER TABLE label_events ADD COLUMN suggested_by TEXT;
CREATE INDEX label_events_suggested ON label_events(suggested_by) WHERE suggested_by IS NOT NULL;
