#!/usr/bin/env bash
# Kills a restore with SIGKILL at ROUNDS moments spread over its run (the
# tables written, the checks, the rebuilds, the commit) and checks what it
# leaves: no database, an empty file, or a new database with no row of the
# backup and the schema of a new one (the triggers a restore drops while it
# writes are there); and a restore into it afterwards succeeds and equals
# the original, every table.
# The backup is of bench/gen.go's file of CLAIMS claims (default 100000).
# Needs sqlite3. Not run by CI or go test.
#
# usage: scripts/restore-kill-check.sh [ROUNDS] [CLAIMS]
set -euo pipefail
cd "$(dirname "$0")/.."
rounds=${1:-10}
claims=${2:-100000}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
go build -o "$work/annotate" ./cmd/annotate
go build -o "$work/bench" ./bench
a="$work/annotate"
"$work/bench" gen -claims "$claims" -out "$work/items.jsonl" >/dev/null
"$a" --db "$work/original.db" import "$work/items.jsonl" >/dev/null 2>&1
"$a" --db "$work/original.db" export --format jsonl --out "$work/backup" >/dev/null
start=$(date +%s.%N)
"$a" --db "$work/timed.db" import "$work/backup" >/dev/null
whole=$(echo "$(date +%s.%N) - $start" | bc)
echo "a whole restore: ${whole} s"

schema() { sqlite3 "$1" "SELECT type, name, tbl_name, sql FROM sqlite_schema ORDER BY type, name"; }
dump() {
  for t in $(sqlite3 "$1" "SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite%' ORDER BY name"); do
    cols=$(sqlite3 "$1" "SELECT group_concat(cid + 1, ', ') FROM pragma_table_info('$t')")
    echo "$t $(sqlite3 -quote "$1" "SELECT * FROM \"$t\" ORDER BY $cols" | sha256sum)"
  done
}
want_schema=$(schema "$work/timed.db")
want_dump=$(dump "$work/original.db")
failed=0
steps=$(( rounds > 1 ? rounds - 1 : 1 ))
for i in $(seq 1 "$rounds"); do
  db="$work/killed-$i.db"
  # The moments: evenly over the whole restore, from 5% to 95%.
  at=$(echo "$whole * (0.05 + 0.9 * ($i - 1) / $steps)" | bc -l)
  "$a" --db "$db" import "$work/backup" >/dev/null 2>&1 &
  pid=$!
  sleep "$at"
  kill -9 "$pid" 2>/dev/null || true
  wait "$pid" 2>/dev/null || true
  if [ ! -e "$db" ]; then
    echo "kill $i at $(printf %.1f "$at") s: no database"
  elif [ "$(sqlite3 "$db" "SELECT count(*) FROM sqlite_schema")" = 0 ]; then
    echo "kill $i at $(printf %.1f "$at") s: an empty file (killed before its schema was made)"
  else
    rows=$(sqlite3 "$db" "SELECT (SELECT count(*) FROM items) + (SELECT count(*) FROM label_events) + (SELECT count(*) FROM current_labels)")
    if [ "$rows" != 0 ]; then
      echo "kill $i at $(printf %.1f "$at") s: FAILED, $rows rows of the backup left"
      failed=1
    elif [ "$(schema "$db")" != "$want_schema" ]; then
      echo "kill $i at $(printf %.1f "$at") s: FAILED, the schema is not a new database's"
      failed=1
    else
      echo "kill $i at $(printf %.1f "$at") s: a new, empty database, its schema whole"
    fi
  fi
  "$a" --db "$db" import "$work/backup" >/dev/null
  if [ "$(dump "$db")" != "$want_dump" ]; then
    echo "kill $i: FAILED, the restore after it differs from the original"
    failed=1
  fi
  rm -f "$db" "$db-wal" "$db-shm"
done
[ "$failed" = 0 ] && echo "every kill left nothing of the backup, and the restore after it equals the original"
exit "$failed"
