package store

// pooled reads through the pool, one statement at a time: the store's own
// tests read so between their writes (other packages' tests use
// storetest.Read). The product reads only through Read and Snapshot.
func (s *Store) pooled() *ReadTx { return &ReadTx{q: s.db} }
