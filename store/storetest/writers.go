package storetest

import (
	"testing"
	"time"

	"github.com/annotate-dev/annotate/internal/proc"
	"github.com/annotate-dev/annotate/store"
)

// MarkWriting stands for a long writer of this process (an import, when
// what is store.ImportWriter) until the returned func is called: it writes
// the row of writers such a writer writes before it takes the write lock,
// so a test can hold the lock as that writer and check what the screens
// and commands waiting for it say. The ids below zero are never an
// import's.
func MarkWriting(t testing.TB, s *store.Store, what string) (done func()) {
	t.Helper()
	db := DB(t, s)
	me := proc.Self()
	var id int64
	if err := db.QueryRow("SELECT MIN(COALESCE(MIN(id), 0), 0) - 1 FROM writers").Scan(&id); err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec("INSERT INTO writers(id, what, host, boot, pid, pid_start, since) VALUES (?,?,?,?,?,?,?)",
		id, what, me.Host, me.Boot, me.PID, me.Start, time.Now().UTC().Format(time.RFC3339Nano)); err != nil {
		t.Fatal(err)
	}
	return func() {
		if _, err := db.Exec("DELETE FROM writers WHERE id=?", id); err != nil {
			t.Error(err)
		}
	}
}
