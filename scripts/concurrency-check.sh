#!/usr/bin/env bash
# Eight "annotate import" processes and four annotators' screens (tmux)
# writing to one database at once; prints imports succeeded, QA pairs and
# labels expected against stored, and every error (see
# concurrency_check.py). Needs tmux and python3. Not run by CI or go test.
#
# MODE paced (default): each key waits for the screen to show the previous
# decision; ahead: keys typed every 30 ms without looking.
#
# usage: scripts/concurrency-check.sh [SEED] [ITEMS per annotator] [PAIRS per import] [MODE]
set -euo pipefail
cd "$(dirname "$0")/.."
seed=${1:-1}
items=${2:-10}
pairs=${3:-1000}
mode=${4:-paced}
export PYTHONDONTWRITEBYTECODE=1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
go build -o "$work/annotate" ./cmd/annotate
python3 scripts/concurrency_check.py "$work/annotate" demo/demo.jsonl "$work" "$seed" "$items" "$pairs" "$mode"
