package toykind

import (
	"github.com/annotate-dev/annotate/exporter"
	"github.com/annotate-dev/annotate/importer"
	"github.com/annotate-dev/annotate/schema"
	"github.com/annotate-dev/annotate/store"
	"github.com/annotate-dev/annotate/tally"
	"github.com/annotate-dev/annotate/tui"
	"github.com/annotate-dev/annotate/tui/adjudicate"
)

// The toy kind: a citation an annotator checks, one two-way field. Every
// registration a kind makes is here, in the order ARCHITECTURE.md's
// "Kinds" lists them (the export's and the screens' are types of
// kind_export_test.go and kind_screen_test.go); a bare kind keeps its id alone (no table: a kind of
// the product adds one in a migration, which a test package cannot).

const kindCitation schema.Kind = "citation_check"

const citationOK = "citation_ok"

func init() {
	schema.Register(schema.Spec{Kind: kindCitation, Order: 995, Title: "Citation checks", Noun: "citation check", Annotated: true,
		Fields: []schema.Field{{Name: citationOK, Values: []string{"yes", "no"}, TwoWay: true}}})
	store.RegisterBareKind(kindCitation)
	tally.RegisterKind(kindCitation, tally.KindRules{})
	importer.RegisterBareNative(kindCitation, "citation_checks")
	exporter.Register(citationExport{})
	tui.Register(citationScreen{})
	adjudicate.Register(citationReview{})
}
