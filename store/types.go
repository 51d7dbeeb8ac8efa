package store

// Context is one context unit: a paragraph of a source.
type Context struct {
	ID   string // ext id, e.g. "gdpr-art6-p1"
	Text string
}

// QAPair is a question-answer pair as imported.
type QAPair struct {
	ID        string
	Source    string
	Language  string
	Hop       string // "single" | "multi"
	Question  string
	Answer    string
	Rationale string
	Category  string // the generated category
	Contexts  []Context
	Extra     string // unknown keys of the input, as a JSON object
	// Predictions are systems' response-level verdicts (RefChecker's Y):
	// system -> value.
	Predictions map[string]string
	// AsGiven: the pair is imported as given (its answer is a system
	// response, not under review): its claims are asked at once.
	AsGiven bool
	// Filled on read.
	ItemID int64
}

// Claim is a claim extracted from (or added to) a QA pair's answer.
type Claim struct {
	ID       string
	QAID     string
	Position int
	Triplet  [3]string // subject, predicate, object; empty for text claims
	Text     string    // sub-sentence claims
	Origin   string    // "extracted" | "annotator"
	AddedBy  string    // annotator who added it (origin "annotator")
	// Extractor names the extractor whose output the claim is (RefChecker's
	// <extractor>_response_kg), "" when the input does not say.
	Extractor string
	// Predictions by system name; never loaded for the annotation screens.
	Predictions map[string]string
	// Filled on read.
	ItemID int64
	Source string
}

// IsTriplet reports whether the claim is a triple rather than a text.
func (c Claim) IsTriplet() bool { return c.Text == "" }

// Label is one labelling decision to record. GuidelinesVersion is not
// read: every write records the version of the field's guidelines in force
// in its transaction (guidelines.go), whatever its caller passes, here or as
// a guidelines argument; callers can stop setting it.
type Label struct {
	Annotator         string
	ItemID            int64
	Field             string
	Value             string
	ActiveMs          int64
	SessionID         int64 // 0: none (imported)
	GuidelinesVersion string
	Adjudicate        bool // a lead's final label
}

// Event is one row of the label log.
type Event struct {
	ID        int64
	Annotator string
	ItemID    int64
	ItemExtID string
	Field     string
	Value     string
	Role      string
	CreatedAt string
	ActiveMs  int64
	Retracts  int64
}

// Role values of label events.
const (
	RoleAnnotate   = "annotate"
	RoleAdjudicate = "adjudicate"
)

// Origins of claims.
const (
	OriginExtracted = "extracted"
	OriginAnnotator = "annotator"
)

// ResponseField is the field of a response-level prediction on a QA pair.
const ResponseField = "response"
