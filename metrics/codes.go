package metrics

// Reserved category codes; class codes are 0..k-1.
const (
	// Missing marks the absence of a label.
	Missing = -1
	// Other marks a label outside the classes (a system prediction such as
	// "unknown"); confusion matrices count it in their "other" column.
	Other = -2
)

// Encode returns the code of each value: its index in classes, Missing for
// the empty string, and Other for any other string not in classes.
// Keeping "unknown" (Other) apart from "absent" (Missing) is what lets a
// confusion matrix count out-of-schema predictions instead of dropping them.
func Encode(values, classes []string) []int {
	index := make(map[string]int, len(classes))
	for i, c := range classes {
		if _, dup := index[c]; !dup {
			index[c] = i
		}
	}
	codes := make([]int, len(values))
	for i, v := range values {
		switch c, ok := index[v]; {
		case ok:
			codes[i] = c
		case v == "":
			codes[i] = Missing
		default:
			codes[i] = Other
		}
	}
	return codes
}
