package tui

import "testing"

// The store's reasons in the words the read-only screen shows.
func TestNotAskedWhy(t *testing.T) {
	for reason, want := range map[string]string{
		"":                                     "",
		"answer_correctness=incorrect":         "jo judged the answer incorrect",
		"answer_correctness=partially_correct": "jo judged the answer partially correct",
		"question_validity=invalid":            "jo judged the question invalid",
		"answer_correctness unlabelled":        "jo has not judged the answer yet",
		"answer_correctness not asked":         "jo has not judged the answer yet",
	} {
		if got := notAskedWhy("jo", reason); got != want {
			t.Errorf("%q: %q, want %q", reason, got, want)
		}
	}
	if got := notAskedWhy("j\x1bo", "answer_correctness=incorrect"); got != "j␛o judged the answer incorrect" {
		t.Errorf("a name with a control character reaches the screen as %q", got)
	}
}
