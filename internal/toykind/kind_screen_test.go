package toykind

import (
	"github.com/annotate-dev/annotate/schema"
	"github.com/annotate-dev/annotate/tui"
	"github.com/annotate-dev/annotate/tui/adjudicate"
)

// The toy kind's screens: on the review screens (adjudicate.Kind) and on
// the annotation screens (tui.Kind), the citation above the pane and what
// it is cited for in it, drawn with the building blocks the product's
// kinds use (the screens' Drawing).

// citationOf is what the screens and the export show of a toy item, read
// from its payload as the store hands it over (citationKind.Payloads): the
// citation (its id) and the text it is cited for ("" when not given).
func citationOf(payload any) (id, citedFor string) {
	if c, ok := payload.(*citation); ok {
		return c.ID, c.Cited
	}
	return "", ""
}

// citationReview draws a citation check on the review screens.
type citationReview struct{}

func (citationReview) Kind() schema.Kind { return kindCitation }

func (citationReview) Top(dr adjudicate.Drawing, w int) []string {
	c, _ := citationOf(dr.Detail().Payload)
	return dr.Labelled("Cites", c, w)
}

func (citationReview) Pane(dr adjudicate.Drawing, w int) []string {
	_, about := citationOf(dr.Detail().Payload)
	return dr.Text(about, w)
}

func (citationReview) PaneTitle(adjudicate.Drawing) string { return "Cited for" }

// citationScreen shows a citation check on the annotation screens.
type citationScreen struct{}

func (citationScreen) Kind() schema.Kind { return kindCitation }

func (citationScreen) Names() tui.Names {
	return tui.Names{Label: "Citation", Queue: "Citation checks", Noun: "citation check"}
}

func (citationScreen) Top(dr tui.Drawing, w int) []string {
	c, _ := citationOf(dr.Item().Payload)
	return dr.Labelled("Cites", c, w)
}

func (citationScreen) Pane(dr tui.Drawing, w int) []string {
	_, about := citationOf(dr.Item().Payload)
	return dr.Text(about, w)
}

func (citationScreen) PaneTitle(tui.Drawing) string { return "Cited for" }
