package main

import (
	"slices"
	"strings"
	"testing"

	"github.com/spf13/cobra"

	"github.com/annotate-dev/annotate/schema"
	"github.com/annotate-dev/annotate/store"
	"github.com/annotate-dev/annotate/store/storetest"
	"github.com/annotate-dev/annotate/tui"
)

// The dashboard opens review with the review command's own resolution:
// the lead named explicitly, every annotator with labels compared on the
// field asked, or the system view against the expert asked; and its lock,
// so that a second review of the same lead is refused until the first is
// released.
func TestDashboardReviewOpener(t *testing.T) {
	_, s := storetest.Create(t, "annotate.db")
	defer s.Close()
	storetest.Seed(t, s, func(b *storetest.Builder) {
		b.QA("gdpr-001", "GDPR", "en", "factual_recall")
		b.Claim("gdpr-001", "gdpr-001-c1", map[string]string{"refchecker": "entailment"})
		for who, ent := range map[string]string{"jo": "entailment", "sam": "contradiction"} {
			b.Labels(who, "gdpr-001-c1", schema.ClaimValidity+"=correct", schema.Entailment+"="+ent)
		}
	})
	g := &globals{as: "lead"}
	t.Setenv("ANNOTATE_USER", "")
	open := reviewOpener(&cobra.Command{}, g, s)
	if _, _, err := open(tui.ReviewRequest{Field: schema.Entailment}); err == nil || !strings.Contains(err.Error(), "$USER is not used for the lead") {
		t.Fatalf("no lead named: %v", err)
	}
	t.Setenv("ANNOTATE_USER", "lead")
	if _, _, err := open(tui.ReviewRequest{Field: schema.Entailment}); err == nil || !strings.Contains(err.Error(), "no annotator is a lead yet") {
		t.Fatalf("no lead yet: %v", err)
	}
	makeLead(t, s, "lead")
	opt, release, err := open(tui.ReviewRequest{Field: schema.Entailment})
	if err != nil {
		t.Fatal(err)
	}
	if opt.StartSystem || opt.Lead != "lead" || opt.Query.Field != schema.Entailment || !slices.Equal(opt.Query.Annotators, []string{"jo", "sam"}) {
		t.Errorf("field review: %+v", opt)
	}
	if _, _, err := open(tui.ReviewRequest{Field: schema.Entailment}); err == nil || !strings.Contains(err.Error(), "already") {
		t.Errorf("a second review of the lead while the first is open: %v", err)
	}
	release()

	opt, release, err = open(tui.ReviewRequest{System: "refchecker", Expert: "jo"})
	if err != nil {
		t.Fatal(err)
	}
	defer release()
	want := []store.LabelSet{{Annotator: "jo"}, {Annotator: "sam"}, {Adjudicated: true}}
	if !opt.StartSystem || opt.System != "refchecker" || !slices.Equal(opt.Experts, want) {
		t.Errorf("system view: start %v, system %q, experts %+v; want %+v", opt.StartSystem, opt.System, opt.Experts, want)
	}
}
