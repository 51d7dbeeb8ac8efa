#!/usr/bin/env bash
# Drives the QA screen through tmux as a user would and kills the program
# with SIGKILL at seeded random moments, ROUNDS times (default 50): every
# decision the last screen showed as made must be in the database (see
# kill_check.py). The plan of each round (keys, pauses, moment of the kill)
# follows from SEED (default 1); the timing of a real terminal does not.
# Needs tmux and python3. Not run by CI or go test.
#
# usage: scripts/kill-check.sh [ROUNDS] [SEED]
set -euo pipefail
cd "$(dirname "$0")/.."
rounds=${1:-50}
seed=${2:-1}
export PYTHONDONTWRITEBYTECODE=1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
go build -o "$work/annotate" ./cmd/annotate
python3 scripts/kill_check.py "$work/annotate" demo/demo.jsonl "$work" "$rounds" "$seed"
