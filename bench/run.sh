#!/usr/bin/env bash
# Runs the benchmarks of issues 11 ("Targets") and 19 (speed where a user
# feels it), every figure beside its rival in the same run: builds annotate
# and the driver (bench/*.go), generates 10k, 100k and 1M claims, imports them
# (and the second fixture, gen2.go) with annotate and with the sqlite3 shell
# from CSV, runs the reports against pandas, scikit-learn, statsmodels and
# NLTK (bench/rivals.py), launch → home and keys in a pty, cost beside the
# shell's SQL, the jsonl and csv exports beside the shell, the streamed
# exports' peak memory beside their sizes (Label Studio, Prodigy, TREC, hf;
# bench/exports.go), the labels-only import, a restore of a backup beside
# the import of the same data (twice, interleaved: bench/restore.go), keys
# on every kind's annotation screen (the other kinds and jo's
# judged answers added to the file: bench/genkinds.go) and a new annotator's
# claim queue opening, and the TUI's in-process benchmarks, and writes the
# one table to bench/RESULTS.md, with the load average at the start and end
# of each size (keeping the sections bench queues and bench restore wrote
# there).
#
#   bench/run.sh                       # every size (about an hour; run it on a quiet machine)
#   bench/run.sh -sizes 10000 -tui=false   # a quick check (under a minute)
#   bench/run.sh -sizes 10000 -keys 400    # more key presses in the pty
#
# Needs: Debian's sqlite3, python3-pandas, python3-sklearn, python3-statsmodels,
# python3-nltk (run with /usr/bin/python3), and /usr/bin/time. Not run by go test.
# bench speed (two builds before/after a change), bench queues (every
# kind's screen, two builds on fixtures kept between runs), bench restore
# (the restore beside the import, two builds interleaved) and bench import
# stay as their own subcommands (main.go).
set -euo pipefail
cd "$(dirname "$0")/.."
work=${BENCH_WORK:-${TMPDIR:-/tmp}/annotate-bench}
mkdir -p "$work"
go build -o "$work/annotate" ./cmd/annotate
go build -o "$work/bench" ./bench
exec "$work/bench" run -annotate "$work/annotate" -work "$work" -results bench/RESULTS.md \
  -command "bench/run.sh $*" "$@"
