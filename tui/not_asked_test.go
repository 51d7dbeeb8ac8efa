package tui

import (
	"testing"

	"github.com/annotate-dev/annotate/internal/lang"
)

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
		if got := notAskedWhy(nil, "jo", reason); got != want {
			t.Errorf("%q: %q, want %q", reason, got, want)
		}
	}
	if got := notAskedWhy(nil, "j\x1bo", "answer_correctness=incorrect"); got != "j␛o judged the answer incorrect" {
		t.Errorf("a name with a control character reaches the screen as %q", got)
	}
}

// The same reasons in French: the verb agrees, the value is its label.
func TestNotAskedWhyInFrench(t *testing.T) {
	fr := lang.New(lang.French)
	for reason, want := range map[string]string{
		"answer_correctness=incorrect":         "jo a jugé la réponse incorrecte",
		"answer_correctness=partially_correct": "jo a jugé la réponse partiellement correcte",
		"question_validity=invalid":            "jo a jugé la question invalide",
		"answer_correctness unlabelled":        "jo n'a pas encore jugé la réponse",
	} {
		if got := notAskedWhy(fr, "jo", reason); got != want {
			t.Errorf("%q: %q, want %q", reason, got, want)
		}
	}
}
