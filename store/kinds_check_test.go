package store

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/annotate-dev/annotate/schema"
)

// A kind whose store registration is missing refuses to open the store,
// naming the kind and the call it lacks.
func TestOpenRefusesAKindMissingARegistration(t *testing.T) {
	if _, err := Open(filepath.Join(t.TempDir(), "ok.db")); err != nil {
		t.Fatalf("every kind of this build is registered, yet: %v", err)
	}
	defer withKinds(func(k Kind) Kind {
		if k.Kind() == schema.KindQuery {
			return nil
		}
		return k
	})()
	_, err := Open(filepath.Join(t.TempDir(), "x.db"))
	if err == nil || !strings.Contains(err.Error(), "kind query: not registered in the store (store.Register of its store.Kind, in its store/kind_*.go)") {
		t.Fatalf("open with the query kind's store.Kind missing: %v", err)
	}
}

// A kind naming a table that neither a migration nor the kind creates
// refuses to open the store, naming the kind and the table.
func TestOpenRefusesAKindWithoutItsTable(t *testing.T) {
	defer withKinds(func(k Kind) Kind {
		if k.Kind() == schema.KindQuery {
			return tablelessQuery{}
		}
		return k
	})()
	_, err := Open(filepath.Join(t.TempDir(), "x.db"))
	if err == nil || !strings.Contains(err.Error(), "kind query: its table query_texts is in no migration") {
		t.Fatalf("open with the query kind's table missing: %v", err)
	}
}

// withKinds registers the kinds again, each as swap makes it (nil leaves
// it out), until the returned func puts them back.
func withKinds(swap func(Kind) Kind) (restore func()) {
	saved := kinds
	kinds = schema.Registry[Kind]{}
	for _, k := range saved.All() {
		if k = swap(k); k != nil {
			kinds.Add(k)
		}
	}
	return func() { kinds = saved }
}

type tablelessQuery struct{ queryKind }

func (tablelessQuery) Table() string { return "query_texts" }
