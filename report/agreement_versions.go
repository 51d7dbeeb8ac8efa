package report

import (
	"cmp"
	"fmt"
	"io"
	"slices"
	"strconv"

	"github.com/annotate-dev/annotate/metrics"
	"github.com/annotate-dev/annotate/store"
	"github.com/annotate-dev/annotate/tally"
)

// VersionAgreement is a field's agreement over the labels made under one
// version of its guidelines: each annotator's label counts only if it was
// made under that version, so an item two annotators labelled under
// different versions is compared in neither. The statistics are those of
// the whole field, computed the same way on the subset.
type VersionAgreement struct {
	// Version as the labels recorded it: the number of the field's
	// version, or, for labels made before the guidelines were kept in the
	// database, the release's version ("" when none was recorded).
	Version   string         `json:"version"`
	Author    string         `json:"author,omitempty"`     // of a numbered version
	CreatedAt string         `json:"created_at,omitempty"` // of a numbered version
	Labels    map[string]int `json:"labels"`               // per annotator, the labels that count

	Items             int                        `json:"items"`
	Complete          int                        `json:"complete"`
	Units             int                        `json:"units"`
	PercentAgreement  *float64                   `json:"percent_agreement"`
	FleissKappa       *float64                   `json:"fleiss_kappa"`
	KrippendorffAlpha *float64                   `json:"krippendorff_alpha"`
	GwetAC1           *float64                   `json:"gwet_ac1"`
	Scaled            *ScaledAgreement           `json:"scaled,omitempty"` // an ordinal or interval field
	PerClass          map[string]*ClassAgreement `json:"per_class"`
	Pairs             []*PairAgreement           `json:"pairs"`

	FleissKappaCI95       *[2]float64 `json:"fleiss_kappa_ci95,omitempty"`
	KrippendorffAlphaCI95 *[2]float64 `json:"krippendorff_alpha_ci95,omitempty"`
	GwetAC1CI95           *[2]float64 `json:"gwet_ac1_ci95,omitempty"`
}

// byGuidelinesVersion splits every field of the report by the guidelines
// version of its labels, in one read: the counted labels of the field's
// annotators (the asked-when rule applied, values outside the schema left
// out), and the version each was made under.
func byGuidelinesVersion(rx *store.ReadTx, rep *AgreementReport, o AgreementOptions) error {
	for _, name := range rep.order {
		fa := rep.Fields[name]
		versions, err := rx.LabelGuidelineVersions(name)
		if err != nil {
			return err
		}
		known, err := rx.GuidelineVersions(name)
		if err != nil {
			return err
		}
		// rows[version] holds one unit per item with a label made under it.
		rows := map[string][][]int{}
		err = rx.FamiliesWithField(name, func(fams []*tally.Family) error {
			for _, f := range fams {
				members := []*tally.Member{&f.Root}
				for i := range f.Children {
					members = append(members, &f.Children[i])
				}
				for _, m := range members {
					byVersion := map[string][]int{}
					for i, r := range fa.raters {
						v, ok := f.Counted(m, r.id)[name]
						code := slices.Index(fa.Classes, v)
						if !ok || code < 0 {
							continue
						}
						gv := versions[store.LabelVersionKey{Item: m.ID, Annotator: r.id}]
						if byVersion[gv] == nil {
							byVersion[gv] = missingRow(len(fa.raters))
						}
						byVersion[gv][i] = code
					}
					for gv, row := range byVersion {
						rows[gv] = append(rows[gv], append(row, int(m.ID)))
					}
				}
			}
			return nil
		})
		if err != nil {
			return err
		}
		fa.ByGuidelinesVersion = []*VersionAgreement{}
		for _, gv := range sortedVersions(rows) {
			fa.ByGuidelinesVersion = append(fa.ByGuidelinesVersion, versionAgreement(fa, gv, rows[gv], known, o))
		}
	}
	return nil
}

func missingRow(n int) []int {
	row := make([]int, n)
	for i := range row {
		row[i] = metrics.Missing
	}
	return row
}

// versionAgreement computes one version's statistics from its units (each
// row the raters' codes, then the item id, which orders the units).
func versionAgreement(fa *FieldAgreement, gv string, units [][]int, known []store.GuidelineVersion, o AgreementOptions) *VersionAgreement {
	k := len(fa.raters)
	slices.SortFunc(units, func(a, b []int) int { return cmp.Compare(a[k], b[k]) })
	r := metrics.Ratings{Raters: k, K: len(fa.Classes)}
	labels := map[string]int{}
	for _, u := range units {
		r.Codes = append(r.Codes, u[:k]...)
		for i, c := range u[:k] {
			if c >= 0 {
				labels[fa.raters[i].name]++
			}
		}
	}
	s := agreementOf(metrics.PatternsOf(r), func() metrics.Ratings { return r }, fa.raters, fa.Classes, fa.scale, o)
	va := &VersionAgreement{Version: gv, Labels: labels,
		Items: s.Items, Complete: s.Complete, Units: s.Units,
		PercentAgreement: s.PercentAgreement, FleissKappa: s.FleissKappa, KrippendorffAlpha: s.KrippendorffAlpha, GwetAC1: s.GwetAC1,
		Scaled: s.Scaled, PerClass: s.PerClass, Pairs: s.Pairs,
		FleissKappaCI95: s.FleissKappaCI95, KrippendorffAlphaCI95: s.KrippendorffAlphaCI95, GwetAC1CI95: s.GwetAC1CI95}
	if n, err := strconv.Atoi(gv); err == nil {
		for _, v := range known {
			if v.Version == n {
				va.Author, va.CreatedAt = v.Author, v.CreatedAt
			}
		}
	}
	return va
}

// sortedVersions orders the versions as the store does: numbered ones by
// number, then the releases' versions of older labels, then "".
func sortedVersions(rows map[string][][]int) []string {
	var out []string
	for v := range rows {
		out = append(out, v)
	}
	slices.SortFunc(out, store.CompareVersions)
	return out
}

// writeVersions prints a field's split by guidelines version: one row per
// version, the coefficients of the whole field's table and each pair's
// Cohen's kappa.
func writeVersions(w io.Writer, fa *FieldAgreement) error {
	if fa.ByGuidelinesVersion == nil {
		return nil
	}
	if len(fa.ByGuidelinesVersion) == 0 {
		_, err := fmt.Fprintln(w, "  by guidelines version: no label that counts")
		return err
	}
	fmt.Fprintln(w, "  by guidelines version (each annotator's labels made under it):")
	var labels []string
	for _, v := range fa.ByGuidelinesVersion {
		labels = append(labels, versionName(v))
	}
	t := newTable(w, append(labels, "guidelines version"))
	head := []string{"items", "by all", "agree %", "Fleiss' kappa", "alpha", "AC1"}
	if fa.Scaled != nil {
		head = append(head, "alpha, "+fa.Scaled.Metric)
	}
	for _, p := range fa.Pairs {
		head = append(head, p.A+" / "+p.B+" kappa")
	}
	t.row("guidelines version", head...)
	for i, v := range fa.ByGuidelinesVersion {
		cells := []string{itoa(v.Items), itoa(v.Complete), pctOf(v.PercentAgreement), coefOf(v.FleissKappa), coefOf(v.KrippendorffAlpha), coefOf(v.GwetAC1)}
		if v.Scaled != nil {
			cells = append(cells, coefOf(v.Scaled.KrippendorffAlpha))
		}
		for _, p := range v.Pairs {
			cells = append(cells, coefOf(p.CohenKappa))
		}
		t.row(labels[i], cells...)
	}
	return t.flush()
}

// versionName is how the text names a version: "guidelines version 2
// (lead, 2026-12-01)", a release's version as recorded, or "not recorded".
func versionName(v *VersionAgreement) string {
	switch {
	case v.Version == "":
		return "not recorded"
	case v.Author != "":
		day := v.CreatedAt
		if len(day) > 10 {
			day = day[:10]
		}
		return "guidelines version " + v.Version + " (" + v.Author + ", " + day + ")"
	}
	return "guidelines version " + v.Version
}
