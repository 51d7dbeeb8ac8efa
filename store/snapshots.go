package store

import (
	"context"
	"errors"
)

// Snapshots opens up to n read views of one and the same commit, so that a
// reader can spread one moment of the database over several connections
// (the backup reads its tables on the second core too). A WAL reader's
// snapshot is the last commit when it first reads; the views start while
// this connection holds the write lock, so no commit falls between them.
//
// The lock is only tried, never waited for: when another connection is
// writing (an import, an annotator's decision in flight) or the file is
// read-only, Snapshots returns a single view, and the caller reads on one
// connection as before. It always returns at least one view unless err.
func (s *Store) Snapshots(n int) ([]*ReadTx, error) {
	if n <= 1 {
		one, err := s.Snapshot()
		if err != nil {
			return nil, err
		}
		return []*ReadTx{one}, nil
	}
	ctx := context.Background()
	lock, err := s.db.Conn(ctx)
	if err != nil {
		return nil, err
	}
	defer lock.Close()
	if _, err := lock.ExecContext(ctx, "PRAGMA busy_timeout=0"); err != nil {
		return nil, err
	}
	defer lock.ExecContext(ctx, "PRAGMA busy_timeout="+s.busyMS)
	if _, err := lock.ExecContext(ctx, "BEGIN IMMEDIATE"); err != nil {
		// Busy, or a read-only file: one view, read on one connection.
		return s.Snapshots(1)
	}
	views := make([]*ReadTx, 0, n)
	for range n {
		v, err := s.Snapshot()
		if err != nil {
			_, rerr := lock.ExecContext(ctx, "ROLLBACK")
			for _, v := range views {
				v.Close()
			}
			return nil, errors.Join(err, rerr)
		}
		views = append(views, v)
	}
	if _, err := lock.ExecContext(ctx, "ROLLBACK"); err != nil {
		for _, v := range views {
			v.Close()
		}
		return nil, err
	}
	return views, nil
}
