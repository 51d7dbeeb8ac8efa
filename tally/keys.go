package tally

// The names of the kept counts. Rater is who labelled (Anyone for counts of
// items); Source is the item's source; A and B are said per name.
// Version names the rules below and in the kinds' files. Change it with
// them: a database whose counts were kept by other rules is recounted when
// it is opened (TestVersionFingerprint says when it is due).
const Version = "8"

const (
	// Items: A kind. Items of the kind that have queues (claims the
	// extractor produced, not those an annotator added).
	Items = "items"
	// Queued: A kind, B batch id. Items of a batch, per assignee (Anyone
	// for a batch open to everyone).
	Queued = "queued"
	// Predictions: A system, B field. Items with a prediction.
	Predictions = "predictions"
	// Label: A field, B value (canonical, or verbatim when outside the
	// schema). Labels the asked-when rule counts. A free-text field counts
	// under B "" (that it is there); a multi-valued field once per element.
	Label = "label"
	// NotAsked: A field, B reason ("answer_correctness=incorrect").
	// Labels the asked-when rule leaves out.
	NotAsked = "not_asked"
	// Done: A kind. Items the annotator finished.
	Done = "done"
	// Gated: A kind, B the reason. Items that ask the annotator nothing
	// because of the parent's labels.
	Gated = "gated"
	// AtOnce: A kind. Items of a kind that waits for its parent's labels
	// (claims: asked once the answer is judged correct) that are asked at
	// once, whatever the labels: under Anyone when asked of everyone (the
	// pair was imported as given, or the item is in an open batch that asks
	// at once), else under each assignee of a batch that asks at once.
	AtOnce = "at_once"
	// Offered: A kind. Items of such a kind asked of the rater because of
	// their labels on the parent (an answer they judged correct), not at once.
	Offered = "offered"
	// Withheld: A kind. Items asked at once that the rater's own labels on
	// the parent gate (an answer they judged incorrect). A queue of such a
	// kind holds AtOnce + Offered - Withheld items.
	Withheld = "withheld"
	// Done+InBatch, Gated+InBatch, AtOnce+InBatch, Offered+InBatch,
	// Withheld+InBatch: A kind, B batch id. The same, per batch
	// (assigned to the annotator, or open).
	InBatch = "_in_batch"
	// Agree: A field, B the pattern "id=value|id=value" (annotators in id
	// order, canonical values only). Items by pattern.
	Agree = "agree"
	// OpenDisagreement: A field. Items where annotators' counted values
	// differ and the lead has not decided (nor made the field moot).
	OpenDisagreement = "open_disagreement"
)
