package demo

import "github.com/annotate-dev/annotate/store"

// Some of the demo is not in files: what a lead does after importing (a
// relevance pool cut from the runs). The files that need it register a step
// with AddSetup; the demo runs the steps, in order, once every file is in.

var setups []func(*store.Store) error

// AddSetup adds a step run after the demo's files are imported.
func AddSetup(fn func(*store.Store) error) { setups = append(setups, fn) }

// Setup runs the steps on a freshly seeded demo database.
func Setup(s *store.Store) error {
	for _, fn := range setups {
		if err := fn(s); err != nil {
			return err
		}
	}
	return nil
}
