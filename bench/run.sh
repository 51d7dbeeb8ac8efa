#!/usr/bin/env bash
# Runs the benchmarks of issue 11 ("Targets"): builds annotate and the driver
# (bench/*.go), generates 10k, 100k and 1M claims, imports them with annotate
# and with the sqlite3 shell from CSV, runs the reports against pandas,
# scikit-learn, statsmodels and NLTK (bench/rivals.py), the exports and the
# TUI benchmarks, and writes the table to bench/RESULTS.md.
#
#   bench/run.sh                       # every size (about half an hour)
#   bench/run.sh -sizes 10000 -tui=false   # a quick check
#
# Needs: Debian's sqlite3, python3-pandas, python3-sklearn, python3-statsmodels,
# python3-nltk (run with /usr/bin/python3), and /usr/bin/time. Not run by go test.
set -euo pipefail
cd "$(dirname "$0")/.."
work=${BENCH_WORK:-${TMPDIR:-/tmp}/annotate-bench}
mkdir -p "$work"
go build -o "$work/annotate" ./cmd/annotate
go build -o "$work/bench" ./bench
exec "$work/bench" run -annotate "$work/annotate" -work "$work" -results bench/RESULTS.md \
  -command "bench/run.sh $*" "$@"
