package store

import (
	"context"
	"errors"
	"time"
)

// IsBusy says whether err is SQLite's "database is locked" (SQLITE_BUSY):
// another connection held the write lock past the busy timeout.
func IsBusy(err error) bool {
	var coded interface{ Code() int }
	return err != nil && errors.As(err, &coded) && coded.Code()&0xff == sqliteBusy
}

// writerActive says whether another connection holds the write lock now: it
// tries to take it without waiting (busy_timeout 0 on one connection) and
// gives it back at once.
func (s *Store) writerActive(ctx context.Context) (bool, error) {
	c, err := s.db.Conn(ctx)
	if err != nil {
		return false, err
	}
	defer c.Close()
	if _, err := c.ExecContext(ctx, "PRAGMA busy_timeout=0"); err != nil {
		return false, err
	}
	defer c.ExecContext(context.Background(), "PRAGMA busy_timeout="+s.busyMS)
	_, err = c.ExecContext(ctx, "BEGIN IMMEDIATE")
	if IsBusy(err) {
		return true, nil
	}
	if err != nil {
		return false, err
	}
	_, err = c.ExecContext(ctx, "ROLLBACK")
	return false, err
}

// busyTimeout is the busy timeout Open sets on every connection.
const busyTimeout = 10 * time.Second

// WaitForWriters returns once no other process holds the database's write
// lock and no import is in progress (an import writes in steps: between
// two of them the lock is free, but the import is not done), or when ctx
// ends. The commands that read wait so, and see an import whole or not at
// all. waiting is called once, when it starts to wait, so the caller can
// say so; it is not called when the database is free.
func (s *Store) WaitForWriters(ctx context.Context, waiting func()) error {
	return s.waitFor(ctx, waiting, true)
}

// WaitForLock is WaitForWriters for the screens: they wait for the write
// lock only, not for an import to be done (they leave its items out while
// it runs).
func (s *Store) WaitForLock(ctx context.Context, waiting func()) error {
	return s.waitFor(ctx, waiting, false)
}

func (s *Store) waitFor(ctx context.Context, waiting func(), imports bool) error {
	said := false
	for {
		busy, err := s.writerActive(ctx)
		if err == nil && !busy && imports {
			busy, err = s.importRunning()
		}
		if err != nil || !busy {
			return err
		}
		if !said && waiting != nil {
			waiting()
			said = true
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(100 * time.Millisecond):
		}
	}
}

// Retry runs fn, and again after WaitForWriters for as long as it fails
// with SQLITE_BUSY (a writer came in between, or an import runs): fn must
// be one transaction, which a busy failure left unwritten.
func (s *Store) Retry(ctx context.Context, waiting func(), fn func() error) error {
	return s.retry(ctx, waiting, fn, true)
}

// RetryLock is Retry for the screens, waiting with WaitForLock.
func (s *Store) RetryLock(ctx context.Context, waiting func(), fn func() error) error {
	return s.retry(ctx, waiting, fn, false)
}

func (s *Store) retry(ctx context.Context, waiting func(), fn func() error, imports bool) error {
	said := false
	say := func() {
		if !said && waiting != nil {
			waiting()
		}
		said = true
	}
	for {
		if err := s.waitFor(ctx, say, imports); err != nil {
			return err
		}
		err := fn()
		if !IsBusy(err) || ctx.Err() != nil {
			return err
		}
		say()
	}
}
