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
	k := schema.KindQuery
	saved := sqlOf[k]
	delete(sqlOf, k)
	defer func() { sqlOf[k] = saved }()
	_, err := Open(filepath.Join(t.TempDir(), "x.db"))
	if err == nil || !strings.Contains(err.Error(), "kind query: no queue and batch SQL (registerSQL, in its store/kind_*.go)") {
		t.Fatalf("open with the query kind's SQL missing: %v", err)
	}
}
