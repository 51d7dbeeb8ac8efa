package importer

import (
	"strings"
	"testing"

	"github.com/annotate-dev/annotate/store/storetest"
)

// One rule for annotator names on every format that names one: printable,
// one word, no list separator; and a new name close to one the database
// knows, or to one met earlier in the same import, is refused as a typo.
// Errors name the file, the line (or record) and the key the name was read
// from, and the import changes nothing.
func TestAnnotatorNamesOfEveryFormat(t *testing.T) {
	const pair = `{"id":"q1","source":"GDPR","question":"Q?","answer":"A.","contexts":[{"id":"p1","text":"T"}],"claims":[{"id":"q1-c1","triplet":["s","p","o"]}]}` + "\n"
	label := func(who string) string {
		return `{"annotator":"` + who + `","item":"q1","field":"question_validity","value":"valid"}` + "\n"
	}
	ls := func(who string) string {
		return `[{"data":{"annotate_id":"q1"},"annotations":[{"completed_by":"` + who + `","result":[{"from_name":"question_validity","type":"choices","value":{"choices":["valid"]}}]}]}]`
	}
	prodigy := func(who string) string {
		return `{"label":"question_validity","meta":{"annotate_id":"q1"},"answer":"accept","_annotator_id":"` + who + `"}` + "\n"
	}
	for _, c := range []struct{ name, content, want string }{
		{"sep.jsonl", label("jo") + label("a,b"), `sep.jsonl:2: field "annotator": the annotator's name: "a,b" is not a name: it holds ','`},
		{"semi.jsonl", label("a;b"), `semi.jsonl:1: field "annotator": the annotator's name: "a;b" is not a name: it holds ';'`},
		{"space.jsonl", label("jo sam"), `space.jsonl:1: field "annotator": the annotator's name: "jo sam" is not a name: it holds a space`},
		{"native.jsonl", strings.TrimSuffix(pair, "}\n") + `,"labels":{"jo,sam":{"question_validity":"valid"}}}` + "\n",
			`native.jsonl:1: field "labels.jo,sam": the annotator's name: "jo,sam" is not a name`},
		{"added.jsonl", `{"id":"q1","source":"GDPR","question":"Q?","answer":"A.","contexts":[{"id":"p1","text":"T"}],"claims":[{"id":"q1-a1","triplet":["s","p","o"],"origin":"annotator","added_by":"jo\u202e"}]}`,
			`added.jsonl:1: field "added_by": the annotator's name: "jo\u202e" is not a name: it holds the bidirectional control U+202E`},
		{"ls.json", ls("a,b@firm.example"), `ls.json: record 1: field "annotations[0].completed_by": the annotator's name: "a,b" is not a name`},
		{"prodigy.jsonl", prodigy("claims;jo"), `prodigy.jsonl:1: field "_annotator_id": the annotator's name: "claims;jo" is not a name`},
		// The typo rule: "Jo" beside the known jo, whatever the format.
		{"typo.jsonl", label("Jo"), `typo.jsonl:1: field "annotator": no annotator "Jo" yet; did you mean "jo"? (to create "Jo" on purpose: annotate annotator add Jo)`},
		{"typo-native.jsonl", strings.TrimSuffix(pair, "}\n") + `,"labels":{"saam":{"question_validity":"valid"}}}` + "\n",
			`typo-native.jsonl:1: field "labels.saam": no annotator "saam" yet; did you mean "sam"?`},
		{"typo-ls.json", ls("JO@firm.example"), `typo-ls.json: record 1: field "annotations[0].completed_by": no annotator "JO" yet; did you mean "jo"?`},
		{"typo-prodigy.jsonl", prodigy("sma"), ``}, // 2 edits from sam: 3 characters allow 1
		// --annotator is held to the same rule as the names files give.
		{"noname.jsonl", `{"item":"q1","field":"question_validity","value":"valid"}` + "\n", ""},
		// Two new names of one import, close to each other.
		{"pair.jsonl", label("kim") + label("Kim"), `pair.jsonl:2: field "annotator": no annotator "Kim" yet; did you mean "kim"?`},
	} {
		t.Run(c.name, func(t *testing.T) {
			s := openDB(t)
			dir := t.TempDir()
			if _, err := Import(s, []string{writeFile(t, dir, "items.jsonl", pair), writeFile(t, dir, "labels.jsonl", label("jo")+label("sam"))}, Options{}); err != nil {
				t.Fatal(err)
			}
			before, err := storetest.Read(t, s).Annotators()
			if err != nil {
				t.Fatal(err)
			}
			opt := Options{}
			if c.name == "noname.jsonl" {
				opt.Annotator = "SAM"
				c.want = `noname.jsonl:1: field "annotator": no annotator "SAM" yet; did you mean "sam"?`
			}
			_, err = Import(s, []string{writeFile(t, dir, c.name, c.content)}, opt)
			if c.want == "" {
				if err != nil {
					t.Fatalf("%v, want it imported", err)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("%v\nwant %s", err, c.want)
			}
			after, err := storetest.Read(t, s).Annotators()
			if err != nil || len(after) != len(before) {
				t.Errorf("the refused import changed the annotators: %v (%v)", after, err)
			}
		})
	}
}
