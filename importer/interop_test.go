package importer

import "testing"

// How Label Studio's completed_by becomes an annotator name.
func TestLabelStudioName(t *testing.T) {
	for raw, want := range map[string]string{
		`"ana@firm.example"`:                 "ana",
		`"a@b@firm.example"`:                 "a@b",
		`12`:                                 "label-studio-12",
		`{"id":5}`:                           "label-studio-5",
		`{"id":5,"email":"bo@firm.example"}`: "bo",
		`"jo"`:                               "jo",
		`null`:                               "",
	} {
		got, err := labelStudioName([]byte(raw))
		if err != nil || got != want {
			t.Errorf("%s: %q, %v; want %q", raw, got, err, want)
		}
	}
	for _, raw := range []string{`{"first_name":"x"}`, `true`, `[1]`} {
		if got, err := labelStudioName([]byte(raw)); err == nil {
			t.Errorf("%s: %q, want an error", raw, got)
		}
	}
}

// Label Studio tasks and Prodigy lines are told from the other formats by
// their keys.
func TestDetectLabelStudioProdigy(t *testing.T) {
	for _, c := range []struct{ name, body, want string }{
		{"ls.json", `[{"data":{"annotate_id":"x"},"annotations":[]}]`, FormatLabelStudio},
		{"ls.json", `[{"id":3,"data":{"text":"x"},"predictions":[]}]`, FormatLabelStudio},
		{"p.jsonl", `{"text":"x","answer":"accept","_input_hash":1}`, FormatProdigy},
		{"n.jsonl", `{"id":"q1","answer":"yes","question":"?"}`, FormatNative},
	} {
		got, err := detect(bytesInput(c.name, []byte(c.body), newProgress(nil)))
		if err != nil || got != c.want {
			t.Errorf("%s: %q, %v; want %s", c.body, got, err, c.want)
		}
	}
}
