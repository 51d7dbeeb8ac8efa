#!/usr/bin/env bash
# Drives the annotation screens through tmux as a user would, then kills the
# program with SIGKILL and counts what the database kept: "y 1 1 1" on three
# QA pairs must leave 12 labels (validity, category, persona, correctness).
# Needs tmux and python3 (for reading the SQLite file).
set -euo pipefail
cd "$(dirname "$0")/.."
work=$(mktemp -d)
trap 'tmux kill-session -t annotate-kill 2>/dev/null || true; rm -rf "$work"' EXIT
go build -o "$work/annotate" ./cmd/annotate
"$work/annotate" --db "$work/x.db" import demo/demo.jsonl
tmux new-session -d -s annotate-kill -x 120 -y 40 "$work/annotate --db $work/x.db --as jo --kind qa"
sleep 1.5
for item in 1 2 3; do
  for k in y 1 1 1; do tmux send-keys -t annotate-kill "$k"; sleep 0.15; done
done
sleep 0.3
echo "--- screen before the kill:"
tmux capture-pane -p -t annotate-kill | head -3
pkill -KILL -f "$work/annotate --db" || true
sleep 0.3
python3 - "$work/x.db" <<'PY'
import sqlite3, sys
c = sqlite3.connect(sys.argv[1])
n = c.execute("SELECT COUNT(*) FROM current_labels WHERE role='annotate'").fetchone()[0]
print(f"labels in the database after SIGKILL: {n} (want 12)")
sys.exit(0 if n == 12 else 1)
PY
