package tally

// The names of the kept counts. Rater is who labelled (Anyone for counts of
// items); Source is the item's source; A and B are said per name.
// Version names the rules below and in the kinds' files. Change it with
// them: a database whose counts were kept by other rules is recounted when
// it is opened (TestVersionFingerprint says when it is due).
const Version = "3"

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
	// Done+InBatch, Gated+InBatch: A kind, B batch id. The same, per batch
	// (assigned to the annotator, or open).
	InBatch = "_in_batch"
	// Agree: A field, B the pattern "id=value|id=value" (annotators in id
	// order, canonical values only). Items by pattern.
	Agree = "agree"
	// OpenDisagreement: A field. Items where annotators' counted values
	// differ and the lead has not decided (nor made the field moot).
	OpenDisagreement = "open_disagreement"
)
