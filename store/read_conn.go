package store

import (
	"context"
	"database/sql"
	"database/sql/driver"
)

// readConn is a read transaction on a connection of its own: every query
// sees the database as of its first read.
type readConn struct {
	ctx  context.Context
	conn *sql.Conn
}

func (s *Store) openReadConn() (*readConn, error) {
	ctx := context.Background()
	conn, err := s.db.Conn(ctx)
	if err != nil {
		return nil, err
	}
	// A plain BEGIN is deferred: no write lock (the pool's BeginTx would say
	// BEGIN IMMEDIATE, see Open); the readConn starts at the first read.
	if _, err := conn.ExecContext(ctx, "BEGIN"); err != nil {
		conn.Close()
		return nil, err
	}
	sn := &readConn{ctx: ctx, conn: conn}
	if _, err := conn.ExecContext(ctx, "SELECT 1 FROM sqlite_schema LIMIT 1"); err != nil {
		sn.close()
		return nil, err
	}
	return sn, nil
}

func (sn *readConn) Query(q string, args ...any) (*sql.Rows, error) {
	return sn.conn.QueryContext(sn.ctx, q, args...)
}

func (sn *readConn) QueryRow(q string, args ...any) *sql.Row {
	return sn.conn.QueryRowContext(sn.ctx, q, args...)
}

func (sn *readConn) close() error {
	if _, err := sn.conn.ExecContext(sn.ctx, "ROLLBACK"); err != nil {
		// Still in the transaction, maybe: have the pool drop the
		// connection rather than hand it to the next caller.
		sn.conn.Raw(func(any) error { return driver.ErrBadConn })
		sn.conn.Close()
		return err
	}
	return sn.conn.Close()
}
