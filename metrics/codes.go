package metrics

// Reserved category codes; class codes are 0..k-1.
const (
	// Missing marks the absence of a label.
	Missing = -1
	// Other marks a label outside the classes (a system prediction such as
	// "unknown"); confusion matrices count it in their "other" column.
	Other = -2
)
