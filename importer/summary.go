package importer

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/annotate-dev/annotate/internal/suggest"
	"github.com/annotate-dev/annotate/schema"
	"github.com/annotate-dev/annotate/store"
)

// Counts says what happened to the items of one kind.
type Counts struct {
	Added     int `json:"added"`
	Unchanged int `json:"unchanged"`
	Updated   int `json:"updated"`
}

func (c *Counts) add(r store.PutResult) {
	switch r {
	case store.Added:
		c.Added++
	case store.Updated:
		c.Updated++
	default:
		c.Unchanged++
	}
}

// Total is every item seen.
func (c Counts) Total() int { return c.Added + c.Unchanged + c.Updated }

// FileSummary is what one input file did.
type FileSummary struct {
	File   string `json:"file"`
	Format string `json:"format"`
	// The kinds of records of their own (kinds_rows.go) count in fields
	// of their own, declared in their files.
	qaSummary
	claimSummary
	// Items counts the items of the other kinds, by kind.
	Items           map[string]*Counts `json:"items,omitempty"`
	LabelsAdded     int                `json:"labels_added"`
	LabelsUnchanged int                `json:"labels_unchanged"` // the annotator's current label already had that value
	// UnknownValues counts label values outside the schema, per field then
	// value: they are kept verbatim and left out of metrics.
	UnknownValues map[string]map[string]int `json:"unknown_values,omitempty"`
	// UnknownPredictions counts system predictions outside the entailment
	// classes, per system then value (metrics show them as "other").
	UnknownPredictions map[string]map[string]int `json:"unknown_predictions,omitempty"`
	// UnknownKeys counts input keys no mapping knows (ClaimRAG-LAW, native):
	// kept with the QA pair as extra data, never fatal.
	UnknownKeys map[string]int `json:"unknown_keys,omitempty"`
	// Runs lists the TREC runs the file brought (trec.go).
	Runs []RunSummary `json:"runs,omitempty"`
	// Dropped counts what was read but not kept, by what it was.
	Dropped map[string]int `json:"dropped,omitempty"`
	// AbsentDocuments counts the documents gold citations named that were
	// in neither the database nor the import (release.go), imported as
	// absent documents; absentShown names the first few.
	AbsentDocuments int `json:"absent_documents,omitempty"`
	absentShown     []string
	// Quirks counts the records read as a benchmark's own script reads
	// them where that may surprise (release.go), by what was read.
	Quirks map[string]int `json:"quirks,omitempty"`
}

func (f *FileSummary) quirk(what string) {
	if f.Quirks == nil {
		f.Quirks = map[string]int{}
	}
	f.Quirks[what]++
}

// absentShownMax is how many absent documents a warning names.
const absentShownMax = 5

func (f *FileSummary) absent(citation string) {
	f.AbsentDocuments++
	if len(f.absentShown) < absentShownMax {
		f.absentShown = append(f.absentShown, citation)
	}
}

// maxDistinct bounds the distinct values a summary counts per field (and the
// distinct unknown keys): a file of any size gives a summary of bounded size.
const maxDistinct = 100

// otherValues counts the values past maxDistinct.
const otherValues = "(others)"

func (f *FileSummary) count(m *map[string]map[string]int, key, value string) {
	if *m == nil {
		*m = map[string]map[string]int{}
	}
	if (*m)[key] == nil {
		if len(*m) >= maxDistinct {
			key = otherValues
		}
		if (*m)[key] == nil {
			(*m)[key] = map[string]int{}
		}
	}
	if _, ok := (*m)[key][value]; !ok && len((*m)[key]) >= maxDistinct {
		value = otherValues
	}
	(*m)[key][value]++
}

func (f *FileSummary) countKey(key string) {
	if f.UnknownKeys == nil {
		f.UnknownKeys = map[string]int{}
	}
	if _, ok := f.UnknownKeys[key]; !ok && len(f.UnknownKeys) >= maxDistinct {
		key = otherValues
	}
	f.UnknownKeys[key]++
}

func (f *FileSummary) drop(what string) {
	if f.Dropped == nil {
		f.Dropped = map[string]int{}
	}
	f.Dropped[what]++
}

// Summary is what one import did, file by file.
type Summary struct {
	Files []FileSummary `json:"files"`
	// Backup is what restoring a backup folder did (backup.go).
	Backup *BackupSummary `json:"backup,omitempty"`
}

// Total adds up the files.
func (s Summary) Total() FileSummary {
	var t FileSummary
	for _, f := range s.Files {
		for _, k := range rowKinds {
			k.counts(&t).plus(*k.counts(&f))
		}
		t.LabelsAdded += f.LabelsAdded
		t.LabelsUnchanged += f.LabelsUnchanged
		for k, c := range f.Items {
			t.addCounts(k, *c)
		}
		t.Runs = append(t.Runs, f.Runs...)
	}
	return t
}

func (s *FileSummary) addCounts(kind string, c Counts) {
	if s.Items == nil {
		s.Items = map[string]*Counts{}
	}
	if s.Items[kind] == nil {
		s.Items[kind] = &Counts{}
	}
	s.Items[kind].plus(c)
}

func (c *Counts) plus(d Counts) {
	c.Added += d.Added
	c.Unchanged += d.Unchanged
	c.Updated += d.Updated
}

// rowsChanged counts the records of kinds of their own added or updated.
func (s *FileSummary) rowsChanged() int {
	n := 0
	for _, k := range rowKinds {
		c := k.counts(s)
		n += c.Added + c.Updated
	}
	return n
}

// rowsTotal counts the records of kinds of their own seen.
func (s *FileSummary) rowsTotal() int {
	n := 0
	for _, k := range rowKinds {
		n += k.counts(s).Total()
	}
	return n
}

// itemsChanged counts the items of other kinds added or updated.
func (s FileSummary) itemsChanged() int {
	n := 0
	for _, c := range s.Items {
		n += c.Added + c.Updated
	}
	for _, r := range s.Runs {
		if r.Status != "unchanged" {
			n++
		}
	}
	return n
}

// NoOp reports whether the import changed nothing: every item and label was
// already in the database.
func (s Summary) NoOp() bool {
	if s.Backup != nil && !s.Backup.NoOp() {
		return false
	}
	t := s.Total()
	return t.rowsChanged()+t.LabelsAdded+t.itemsChanged() == 0
}

// Warnings lists what was kept but deserves a look, one line each.
func (s Summary) Warnings() []string {
	var out []string
	for _, f := range s.Files {
		file := quoted(f.File)
		for _, field := range sortedKeys(f.UnknownValues) {
			for _, v := range byCount(f.UnknownValues[field]) {
				n := f.UnknownValues[field][v]
				value := fmt.Sprintf("unknown value %q", v) + didYouMean(field, v)
				if v == otherValues {
					value = "other unknown values"
				}
				out = append(out, fmt.Sprintf("warning: %s: %d %s of %s %s %s (kept, left out of metrics)",
					file, n, plural(n, "label", "labels"), quoted(field), plural(n, "has", "have"), value))
			}
		}
		for _, sys := range sortedKeys(f.UnknownPredictions) {
			for _, v := range byCount(f.UnknownPredictions[sys]) {
				n := f.UnknownPredictions[sys][v]
				value := fmt.Sprintf("unknown value %q", v) + didYouMean("entailment", v)
				if v == otherValues {
					value = "other unknown values"
				}
				out = append(out, fmt.Sprintf("warning: %s: %d %s of %s %s %s (kept, counted as \"other\" in metrics)",
					file, n, plural(n, "prediction", "predictions"), quoted(sys), plural(n, "has", "have"), value))
			}
		}
		if len(f.UnknownKeys) > 0 {
			var keys []string
			for _, k := range byCount(f.UnknownKeys) {
				name := quoted(k)
				if k == otherValues {
					name = "other keys"
				}
				keys = append(keys, fmt.Sprintf("%s (%d)", name, f.UnknownKeys[k]))
			}
			out = append(out, fmt.Sprintf("warning: %s: unknown keys, not interpreted (a QA pair's are kept with it as extra data): %s",
				file, strings.Join(keys, ", ")))
		}
		for _, m := range []map[string]int{f.Dropped, f.Quirks} {
			for _, what := range sortedKeys(m) {
				n := m[what]
				out = append(out, fmt.Sprintf("warning: %s: %s (%d %s)", file, what, n, plural(n, "record", "records")))
			}
		}
		if n := f.AbsentDocuments; n > 0 {
			shown := make([]string, len(f.absentShown))
			for i, c := range f.absentShown {
				shown[i] = strconv.Quote(c)
			}
			names := strings.Join(shown, ", ")
			if more := n - len(f.absentShown); more > 0 {
				names += fmt.Sprintf(" and %d more", more)
			}
			out = append(out, fmt.Sprintf("warning: %s: %d %s %s no document, neither in the database nor in this import (%s): "+
				"each is kept as an absent document, relevant and retrieved by no run, as the benchmark scores it; importing the document later replaces it",
				file, n, plural(n, "citation", "citations"), plural(n, "names", "name"), names))
		}
	}
	return out
}

// String is the report printed after an import.
func (s Summary) String() string {
	var b strings.Builder
	if s.Backup != nil {
		return s.Backup.String()
	}
	t := s.Total()
	if s.NoOp() {
		var parts []string
		for _, k := range rowKinds {
			if n := k.counts(&t).Total(); n > 0 {
				parts = append(parts, schema.Count(k.Kind(), n))
			}
		}
		if n := t.LabelsUnchanged; n > 0 {
			parts = append(parts, plural2(n, "label", "labels"))
		}
		for _, k := range sortedKeys(t.Items) {
			if n := t.Items[k].Total(); n > 0 {
				parts = append(parts, schema.Count(schema.Kind(k), n))
			}
		}
		if n := len(t.Runs); n > 0 {
			parts = append(parts, plural2(n, "run", "runs"))
		}
		fmt.Fprintf(&b, "nothing changed: all %s already in the database\n", joinAnd(parts))
	} else {
		for _, f := range s.Files {
			fmt.Fprintf(&b, "%s (%s): %s\n", quoted(f.File), f.Format, f.line())
		}
		if len(s.Files) > 1 {
			fmt.Fprintf(&b, "total: %s\n", t.line())
		}
	}
	for _, w := range s.Warnings() {
		b.WriteString(w + "\n")
	}
	return strings.TrimSuffix(b.String(), "\n")
}

func (f FileSummary) line() string {
	var parts []string
	// A file of native items or runs only does not speak of the kinds of
	// records of their own.
	if (len(f.Items) == 0 && len(f.Runs) == 0) || f.rowsTotal() > 0 {
		for _, k := range rowKinds {
			parts = append(parts, counts(k.Kind(), *k.counts(&f)))
		}
	}
	for _, k := range sortedKeys(f.Items) {
		parts = append(parts, counts(schema.Kind(k), *f.Items[k]))
	}
	for _, r := range f.Runs {
		parts = append(parts, r.String())
	}
	if len(f.Runs) > 0 && f.LabelsAdded+f.LabelsUnchanged == 0 {
		return strings.Join(parts, "; ")
	}
	labels := fmt.Sprintf("%s added", plural2(f.LabelsAdded, "label", "labels"))
	if f.LabelsUnchanged > 0 {
		labels += fmt.Sprintf(", %d already there", f.LabelsUnchanged)
	}
	return strings.Join(append(parts, labels), "; ")
}

// counts says what happened to the items of kind k: "2 claims added, 1 updated".
func counts(k schema.Kind, c Counts) string {
	s := schema.Count(k, c.Added) + " added"
	if c.Updated > 0 {
		s += fmt.Sprintf(", %d updated", c.Updated)
	}
	if c.Unchanged > 0 {
		s += fmt.Sprintf(", %d unchanged", c.Unchanged)
	}
	return s
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

func plural2(n int, one, many string) string { return fmt.Sprintf("%d %s", n, plural(n, one, many)) }

// quoted shows s as it is when it is printable, quoted with escapes when it
// has control characters: data never reaches the terminal raw.
func quoted(s string) string {
	for _, r := range s {
		if unicode.IsControl(r) || isBidiControl(r) || r == '\u2028' || r == '\u2029' || r == utf8.RuneError {
			return strconv.Quote(s)
		}
	}
	return s
}

// byCount orders keys by descending count, then name.
func byCount(m map[string]int) []string {
	keys := sortedKeys(m)
	sort.SliceStable(keys, func(i, j int) bool { return m[keys[i]] > m[keys[j]] })
	return keys
}

// joinAnd joins "a", "a and b", "a, b and c".
func joinAnd(parts []string) string {
	switch len(parts) {
	case 0:
		return "nothing"
	case 1:
		if strings.HasPrefix(parts[0], "1 ") {
			return parts[0] + " is"
		}
		return parts[0] + " are"
	}
	return strings.Join(parts[:len(parts)-1], ", ") + " and " + parts[len(parts)-1] + " are"
}

// didYouMean names the value of field nearest an unknown one ("citizn":
// citizen), within 2 edits of its normalised spelling, or a value it begins;
// "" when none is near.
func didYouMean(field, v string) string {
	f, ok := schema.Lookup(field)
	if !ok || f.Multi || len(f.Values) == 0 {
		return ""
	}
	norm := strings.ToLower(strings.NewReplacer(" ", "_", "-", "_", "/", "_").Replace(strings.TrimSpace(v)))
	if m := suggest.Nearest(norm, f.Values, 2, 1); len(m) > 0 {
		return fmt.Sprintf(": did you mean %q?", m[0])
	}
	return ""
}
