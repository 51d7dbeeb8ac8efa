package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strings"
	"unicode"

	"github.com/annotate-dev/annotate/internal/lang"
	"github.com/annotate-dev/annotate/internal/names"
	"github.com/annotate-dev/annotate/roles"
	"github.com/annotate-dev/annotate/store"
	"github.com/spf13/cobra"
)

func init() {
	register(func(g *globals) *cobra.Command {
		cmd := &cobra.Command{Use: "annotator", Short: "Create an annotator; set what the cost report needs of one"}
		cmd.AddCommand(newAnnotatorSetCmd(g), newAnnotatorAddCmd(g))
		return cmd
	})
}

func newAnnotatorSetCmd(g *globals) *cobra.Command {
	var rate float64
	var currency, role, language string
	cmd := &cobra.Command{
		Use:   "set NAME",
		Short: "Set an annotator's hourly rate, currency, role and language (created if new)",
		Long: `set records what an annotator is paid, for annotate cost: --rate (per hour),
--currency (a code such as CAD), --role (a word: student, paralegal, ...);
and --lang, the language annotate speaks to them (en or fr; auto: the
config file and the locale decide), on their own terminal and over serve.
Only the flags given change. A new name creates the annotator, so rates can
be set before the work starts; a new name close to a known one ("Jo" beside
"jo") is refused as a typo: annotate annotator add creates it.

The role lead is checked: only a lead reviews, adjudicates, accepts
agreements and gold answers, edits or imports the guidelines, cuts batches,
changes the taxonomy and opens the dashboard. Giving the role lead, or
taking it from a lead, is a lead's action (--as a lead); while no annotator
is a lead, anyone may make the first. The last lead keeps the role until
another lead is made.`,
		Example: "  annotate annotator set jo --rate 20 --currency CAD --role student\n  annotate annotator set kim --rate 40 --currency CAD --role paralegal\n  annotate annotator set ana --role lead --as lead\n  annotate annotator set kim --lang fr",
		Args:    cobra.ExactArgs(1),
		RunE: g.withDB(func(cmd *cobra.Command, args []string, s *store.Store) error {
			name := args[0]
			if err := checkAnnotator("annotator set", name); err != nil {
				return err
			}
			f := cmd.Flags()
			if !f.Changed("rate") && !f.Changed("currency") && !f.Changed("role") && !f.Changed("lang") {
				return fmt.Errorf("nothing to set: give --rate, --currency, --role or --lang")
			}
			if f.Changed("lang") {
				if language == "auto" {
					language = ""
				} else if l, err := lang.Parse(language); err != nil {
					return fmt.Errorf("--lang %w (or auto: the config file and the locale decide)", err)
				} else {
					language = l
				}
			}
			var r *float64
			if f.Changed("rate") {
				if rate < 0 || math.IsNaN(rate) || math.IsInf(rate, 0) {
					return fmt.Errorf("--rate: want an amount per hour, 0 or more, got %v", rate)
				}
				r = &rate
			}
			if f.Changed("currency") {
				currency = strings.ToUpper(strings.TrimSpace(currency))
				if len(currency) < 2 || len(currency) > 8 || strings.IndexFunc(currency, func(c rune) bool { return c < 'A' || c > 'Z' }) >= 0 {
					return fmt.Errorf("--currency: want a currency code such as CAD, EUR or USD, got %q", currency)
				}
			}
			if f.Changed("role") {
				role = strings.TrimSpace(role)
				if role == "" || strings.IndexFunc(role, func(c rune) bool { return !unicode.IsPrint(c) }) >= 0 {
					return fmt.Errorf("--role: want a word such as student, paralegal or lead, got %q", role)
				}
				if roles.IsLead(role) {
					role = roles.Lead
				}
			}
			// A new name close to a known one is a typo until created on
			// purpose (annotator add), as with --as.
			if _, err := checkIdentity(s, "annotator set", name); err != nil {
				return err
			}
			var check func([]store.AnnotatorRate) error
			if f.Changed("role") {
				check = g.mayGiveRole(name, role)
			}
			a, err := s.SetAnnotator(check, name, r, currency, role)
			if err != nil {
				return err
			}
			if f.Changed("lang") {
				if err := s.SetAnnotatorLang(name, language); err != nil {
					return err
				}
			}
			spoken, err := store.ReadWith(s, (*store.ReadTx).AnnotatorLang, name)
			if err != nil {
				return err
			}
			out := cmd.OutOrStdout()
			if g.json {
				return json.NewEncoder(out).Encode(map[string]any{"annotator": a.Name, "rate": a.Rate, "currency": a.Currency, "role": a.Role, "lang": spoken})
			}
			rt := "no rate"
			if a.Rate != nil {
				rt = strings.TrimSpace(fmt.Sprintf("%.2f %s an hour", *a.Rate, a.Currency))
			}
			if a.Role != "" {
				rt += ", " + a.Role
			}
			if spoken != "" {
				rt += ", lang " + spoken
			}
			fmt.Fprintf(out, "%s: %s\n", a.Name, rt)
			return nil
		}),
	}
	f := cmd.Flags()
	f.Float64Var(&rate, "rate", 0, "hourly rate")
	f.StringVar(&currency, "currency", "", "currency code, e.g. CAD")
	f.StringVar(&role, "role", "", "role, e.g. student, paralegal, lead")
	f.StringVar(&language, "lang", "", "the language annotate speaks to them: en, fr, or auto (the config file and the locale decide)")
	return cmd
}

func newAnnotatorAddCmd(g *globals) *cobra.Command {
	var lead bool
	cmd := &cobra.Command{
		Use:   "add NAME",
		Short: "Create an annotator on purpose (e.g. one whose name is close to another's); --lead makes a lead",
		Long: `add creates an annotator. A new name given with --as is created when its
screen opens, unless it is close to a known annotator's (another case, or
an edit or two away: "Jo" beside "jo", "jon" beside "joe"): that is taken
for a typo and refused with "did you mean …?". add is the way to create
such a name on purpose. A name that exists already is left as it is.

--lead gives the annotator the role lead, which the lead's actions need
(review, guidelines edit, batch create, the dashboard, ...). While no
annotator is a lead, anyone may make the first; after that only a lead
(--as) makes another.`,
		Example: "  annotate annotator add Jo\n  annotate --as Jo\n  annotate annotator add ana --lead",
		Args:    cobra.ExactArgs(1),
		RunE: g.withDB(func(cmd *cobra.Command, args []string, s *store.Store) error {
			name := args[0]
			if err := checkAnnotator("annotator add", name); err != nil {
				return err
			}
			before, err := store.ReadValue(s, (*store.ReadTx).Roles)
			if err != nil {
				return err
			}
			var known []string
			exists, wasLead := false, false
			for _, a := range before {
				if a.Name == name {
					exists, wasLead = true, roles.IsLead(a.Role)
				}
				known = append(known, a.Name)
			}
			switch {
			case lead && !wasLead:
				if _, err := s.SetAnnotator(g.mayGiveRole(name, roles.Lead), name, nil, "", roles.Lead); err != nil {
					return err
				}
			case !exists:
				if err := s.EnsureAnnotator(name); err != nil {
					return err
				}
			}
			out := cmd.OutOrStdout()
			if g.json {
				role := ""
				if lead || wasLead {
					role = roles.Lead
				}
				return json.NewEncoder(out).Encode(map[string]any{"annotator": name, "created": !exists, "role": role})
			}
			switch {
			case exists && (wasLead || !lead):
				fmt.Fprintf(out, "annotator %s exists already; nothing changed\n", name)
				return nil
			case exists:
				fmt.Fprintf(out, "annotator %s now has the role lead\n", name)
				return nil
			}
			fmt.Fprintf(out, "annotator %s created", name)
			if lead {
				fmt.Fprint(out, ", with the role lead")
			}
			if m := names.Close(name, known); len(m) > 0 {
				fmt.Fprintf(out, " (beside %s)", strings.Join(m, ", "))
			}
			fmt.Fprintln(out)
			return nil
		}),
	}
	cmd.Flags().BoolVar(&lead, "lead", false, "give the annotator the role lead (a lead's action once there is a lead)")
	return cmd
}

// mayGiveRole is the check of a role change, run on the roles as they
// stand in the write transaction: making or unmaking a lead is a lead's
// action (roles.MayChange), by the name given on purpose (never $USER).
func (g *globals) mayGiveRole(name, role string) func([]store.AnnotatorRate) error {
	by := ""
	if g.asGivenOnPurpose() {
		by = g.as
	}
	return func(rs []store.AnnotatorRate) error {
		err := roles.MayChange(personsOf(rs), by, name, role)
		if err != nil && by == "" {
			return errors.New("giving or taking the role lead is the lead's: name yourself with --as NAME (or set ANNOTATE_USER); $USER is not used for the lead")
		}
		return err
	}
}
