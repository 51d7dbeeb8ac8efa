package roles

import (
	"strings"
	"testing"
)

func TestNeed(t *testing.T) {
	none := []Person{{"jo", "student"}, {"kim", ""}}
	err := Need(none, "jo", "annotate review")
	if err == nil || !strings.Contains(err.Error(), "annotate review is the lead's, and no annotator is a lead yet: make one with annotate annotator add NAME --lead") {
		t.Errorf("no lead yet: %v", err)
	}
	team := append(none, Person{"ana", "lead"}, Person{"lee", "Lead"})
	for _, lead := range []string{"ana", "lee"} {
		if err := Need(team, lead, "annotate review"); err != nil {
			t.Errorf("the lead %s: %v", lead, err)
		}
	}
	err = Need(team, "jo", "annotate dashboard")
	if err == nil || !strings.Contains(err.Error(), "annotate dashboard is the lead's: jo does not have the role lead (leads: ana, lee; a lead grants it: annotate annotator set jo --role lead --as LEAD)") {
		t.Errorf("a student: %v", err)
	}
	err = Need(team, "Ana", "annotate batch create")
	if err == nil || !strings.Contains(err.Error(), `there is no annotator "Ana"; did you mean "ana"? (leads: ana, lee)`) {
		t.Errorf("a typo of the lead: %v", err)
	}
}

func TestMayChange(t *testing.T) {
	none := []Person{{"jo", "student"}, {"kim", ""}}
	// While no lead exists anyone (even nobody named) makes the first.
	if err := MayChange(none, "", "ana", Lead); err != nil {
		t.Errorf("the first lead: %v", err)
	}
	if err := MayChange(none, "jo", "jo", "paralegal"); err != nil {
		t.Errorf("another role: %v", err)
	}
	team := append(none, Person{"ana", Lead})
	if err := MayChange(team, "jo", "jo", Lead); err == nil || !strings.Contains(err.Error(), "making a lead is the lead's: jo does not have the role lead") {
		t.Errorf("jo making herself a lead: %v", err)
	}
	if err := MayChange(team, "ana", "jo", "LEAD"); err != nil {
		t.Errorf("the lead making jo a lead: %v", err)
	}
	if err := MayChange(team, "ana", "ana", "student"); err == nil || !strings.Contains(err.Error(), "ana is the only lead: make another lead first") {
		t.Errorf("the last lead stepping down: %v", err)
	}
	if err := MayChange(team, "jo", "ana", "student"); err == nil || !strings.Contains(err.Error(), "taking the role lead from ana is the lead's") {
		t.Errorf("jo unmaking the lead: %v", err)
	}
	two := append(team, Person{"lee", Lead})
	if err := MayChange(two, "ana", "ana", "student"); err != nil {
		t.Errorf("a lead stepping down beside another: %v", err)
	}
	if err := MayChange(two, "ana", "kim", "paralegal"); err != nil {
		t.Errorf("a role that is not lead: %v", err)
	}
}
