package store

import "testing"

// A view's page cache, held small by LimitCache, is the connection's own
// again after Close: the next reader the pool hands that connection to
// (several views open at once, so the one used before is among them)
// reads with the store's cache.
func TestLimitCachePutBackAtClose(t *testing.T) {
	s := openTemp(t)
	cacheOf := func(x *ReadTx) (v string) {
		t.Helper()
		if err := x.conn.QueryRow("PRAGMA cache_size").Scan(&v); err != nil {
			t.Fatal(err)
		}
		return v
	}
	x, err := s.Snapshot()
	if err != nil {
		t.Fatal(err)
	}
	own := cacheOf(x)
	if err := x.LimitCache(400); err != nil {
		t.Fatal(err)
	}
	if got := cacheOf(x); got != "-400" {
		t.Fatalf("cache_size while limited: %s, want -400", got)
	}
	if err := x.Close(); err != nil {
		t.Fatal(err)
	}
	var views []*ReadTx
	for range 3 {
		v, err := s.Snapshot()
		if err != nil {
			t.Fatal(err)
		}
		views = append(views, v)
	}
	for i, v := range views {
		if got := cacheOf(v); got != own {
			t.Errorf("view %d after the limited one closed: cache_size %s, want the connection's own %s", i, got, own)
		}
		v.Close()
	}
}
