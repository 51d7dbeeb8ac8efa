-- A busy database: who holds a screen, and who writes for long.
--
-- One live screen per annotator and database. The lease is a row of the
-- database itself, taken in a write transaction and checked again in the
-- transaction of every write the screen makes, so no file beside the
-- database (deleted, replaced, a symlink) can let a second screen in. The
-- holder is named by host, boot, pid and the process's start time, so a
-- screen killed without a word is known to be gone at once on its machine;
-- a holder on another machine is judged by its heartbeat.
CREATE TABLE screen_leases (
  name      TEXT PRIMARY KEY,         -- "jo", "lead (review)"
  token     TEXT NOT NULL,            -- this holding of it (a new one each time)
  host      TEXT NOT NULL,
  boot      TEXT NOT NULL DEFAULT '',
  pid       INTEGER NOT NULL,
  pid_start INTEGER NOT NULL DEFAULT 0,
  place     TEXT NOT NULL DEFAULT '', -- "tty /dev/pts/3", "ssh from 10.0.0.7:51234"
  since     TEXT NOT NULL,
  heartbeat TEXT NOT NULL
);

-- A long writer (an import) says who it is before it takes the write lock,
-- so that whoever waits for the lock can say what it waits for.
CREATE TABLE writers (
  id        INTEGER PRIMARY KEY,
  what      TEXT NOT NULL,            -- "an import"
  host      TEXT NOT NULL,
  boot      TEXT NOT NULL DEFAULT '',
  pid       INTEGER NOT NULL,
  pid_start INTEGER NOT NULL DEFAULT 0,
  since     TEXT NOT NULL
);
