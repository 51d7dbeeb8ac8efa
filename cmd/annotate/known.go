package main

import (
	"slices"

	"github.com/annotate-dev/annotate/store"
	"github.com/spf13/cobra"
)

// knownValue is a flag whose value must be one the database knows.
type knownValue struct {
	flag, what string
	value      string
	list       func(*store.Snapshot) ([]string, error)
}

// checkKnown refuses a flag value the database does not know (a mistyped
// system, condition or judge) with the known ones and did-you-mean, instead
// of a report of empty tables. Only flags given on the command line are
// checked: a default names what the report uses when there is one.
func checkKnown(cmd *cobra.Command, s *store.Store, vals ...knownValue) error {
	var x *store.Snapshot
	for _, v := range vals {
		if !cmd.Flags().Changed(v.flag) || v.value == "" {
			continue
		}
		if x == nil {
			var err error
			if x, err = s.Snapshot(); err != nil {
				return err
			}
			defer x.Close()
		}
		known, err := v.list(x)
		if err != nil {
			return err
		}
		if !slices.Contains(known, v.value) {
			return flagError(v.flag, notFoundError(v.what, v.value, known))
		}
	}
	return nil
}

type flagErr struct {
	flag string
	err  error
}

func (e *flagErr) Error() string { return "--" + e.flag + ": " + e.err.Error() }
func (e *flagErr) Unwrap() error { return e.err }

func flagError(flag string, err error) error { return &flagErr{flag, err} }
