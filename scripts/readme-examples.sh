#!/usr/bin/env bash
# Runs the examples of the docs pages (docs/commands.md, campaign.md, serve.md,
# canlegalragbench.md; README.md's tour repeats some) in their order on a
# fresh database and prints each command with its output, as their console
# blocks show them:
# regenerate those blocks from this output (scripts/readme-sync.py does it),
# never by hand. Not run by CI or go test.
#
# The data: the embedded demo (demo/), the example label files written for
# the README (docs/example/, see its README.md) and the importer's test
# slices of the public formats (importer/testdata/).
#
# Two steps have no command line, so the script does them on the screens
# through tmux, as a user would: jo flags gdpr-004 and writes a note on it,
# and the lead accepts a gold answer. Sessions are stamped with the wall
# clock, so before the reports that print them (progress --sessions, cost)
# the script moves every session to fixed times (sqlite3, as the tests'
# seedSessionsDB does): session N runs 09:00-09:25 UTC on 2026-03-0N.
#
# Needs go, tmux, sqlite3 and jq.
# usage: scripts/readme-examples.sh > /tmp/readme-examples.txt
set -uo pipefail
cd "$(dirname "$0")/.."
for tool in go tmux sqlite3 jq; do
	command -v "$tool" >/dev/null || { echo "readme-examples: needs $tool" >&2; exit 1; }
done
work=$(mktemp -d)
sock="annotate-readme-$$"
trap 'tmux -L "$sock" kill-server 2>/dev/null; rm -rf "$work"' EXIT
go build -o "$work/bin/annotate" ./cmd/annotate || exit 1
mkdir -p "$work/importer"
cp -r demo docs "$work/"
cp -r importer/testdata "$work/importer/"
cd "$work"
export PATH="$work/bin:$PATH" ANNOTATE_DB=campaign.db ANNOTATE_USER=jo NO_COLOR=1 TZ=UTC

# run CMD: prints "$ CMD", then what CMD prints (stdout and stderr), then a
# blank line. CMD is shell text, so a pipe (| head) shows as written.
run() {
	printf '$ %s\n' "$1"
	eval "$1" 2>&1
	echo
}

# The screens, in a private tmux server (no user config).
tm() { tmux -L "$sock" -f /dev/null "$@"; }
# wait_for TEXT: until the screen shows TEXT (10 s at most).
wait_for() {
	for _ in $(seq 100); do
		tm capture-pane -p -t s 2>/dev/null | grep -qF -- "$1" && return 0
		sleep 0.1
	done
	echo "readme-examples: the screen never showed \"$1\":" >&2
	tm capture-pane -p -t s >&2
	exit 1
}
# on_screen CMD: runs CMD (annotate ...) in a 100x30 terminal.
on_screen() { tm new-session -d -s s -x 100 -y 30 -c "$work" "$1"; }
# screen_closed: until the program has quit.
screen_closed() {
	for _ in $(seq 100); do
		tm has-session -t s 2>/dev/null || return 0
		sleep 0.1
	done
	echo "readme-examples: the screen did not quit" >&2
	exit 1
}
# fixed_session_times: session N ran 09:00-09:25 UTC on 2026-03-0N.
fixed_session_times() {
	sqlite3 "$ANNOTATE_DB" "UPDATE sessions SET
		started_at = printf('2026-03-%02dT09:00:00Z', id),
		ended_at = printf('2026-03-%02dT09:25:00Z', id)" || exit 1
}

run 'annotate help | sed -n "/^Available Commands/,/^$/p"'

# --- import ---------------------------------------------------------------
printf '{"id":"gdpr-900","source":"GDPR","question":"Q?","answer":"A.","contexts":[{"id":"p","text":"t"}]}\n{"id":"gdpr-901","source":"GDPR","question":7,"answer":"A.","contexts":[{"id":"p","text":"t"}]}\n' >bad.jsonl
run 'annotate import demo/demo.jsonl docs/example/labels-jo.jsonl docs/example/labels-sam.jsonl'
run 'annotate import demo/demo.jsonl'
run 'annotate import bad.jsonl'
run 'annotate --db formats.db import importer/testdata/GDPR-RAG-LAW.json importer/testdata/GDPR-CLAIM-LAW.json'
run 'annotate --db formats.db import importer/testdata/refchecker_check_strict.json'
run 'annotate --db formats.db import importer/testdata/dolly_gpt4_answers.json'
run 'annotate --db formats.db import --json importer/testdata/ragchecker_checking_outputs.json | jq .total'
printf '{"id":"gdpr-902","source":"GDPR","question":"Q?","answer":"A.","answer":"B.","contexts":[{"id":"p","text":"t"}]}\n' >dup.jsonl
run 'annotate import dup.jsonl'

# --- batches --------------------------------------------------------------
run 'annotate batch create pilot --kind qa --size 10 --pilot --assign jo,sam'
run 'annotate batch create qa-multi --kind qa --hop multi --assign jo,sam'
run 'annotate batch create qa-1 --kind qa --assign jo,sam,lea --overlap 2 --seed 7'
run 'annotate batch create claims-1 --kind claim --source GDPR --only-correct-answers --assign jo,sam'
run 'annotate batch list'
run 'annotate completion bash | head -n 1'
run 'annotate batch create qa-2 --kind qa --assign jo'
run 'annotate batch create claims-2 --kind claim --source gdpr --assign jo'
run 'annotate batch creat claims-2'

# --- progress and notes ---------------------------------------------------
run 'annotate progress --annotator jo'
run 'annotate progress --annotator jo --json | jq -c ".[0]"'
echo '(screens) jo opens gdpr-004 with g, flags it with f and writes a note with m'
echo
on_screen 'annotate --as jo'
wait_for 'enter start'
tm send-keys -t s g
wait_for 'item id'
tm send-keys -t s -l gdpr-004
tm send-keys -t s Enter
wait_for 'QA gdpr-004'
tm send-keys -t s f
wait_for '⚑'
tm send-keys -t s m
wait_for 'Note on gdpr-004'
tm send-keys -t s -l 'false premise or not? the question assumes consent is the only ground'
tm send-keys -t s Enter
wait_for 'Note saved'
tm send-keys -t s q
wait_for 'enter start'
tm send-keys -t s q
screen_closed
fixed_session_times
run 'annotate progress --sessions --annotator jo --session-limit 20m'
run 'annotate notes --batch pilot'

# --- guidelines -----------------------------------------------------------
run 'annotate guidelines | head -n 2 | cut -c1-72'
run 'annotate guidelines claim_validity | head -n 14'
# The lead adds a rule to persona's guidelines: an "editor" that appends a line.
printf '#!/bin/sh\nprintf "\\nA lawyer asking on behalf of a client is a legal_expert.\\n" >> "$1"\n' > add-rule.sh
chmod +x add-rule.sh
run 'annotate annotator add lead'
run 'EDITOR=./add-rule.sh annotate guidelines edit persona --as lead'
# Versions are stamped with the wall clock: version 1 (written when the
# database was created) at 08:00 on 2026-03-01, the edit at 10:00 on 2026-03-03.
sqlite3 "$ANNOTATE_DB" "UPDATE guideline_versions SET created_at = CASE version
	WHEN 1 THEN '2026-03-01T08:00:00Z' ELSE '2026-03-03T10:00:00Z' END" || exit 1
run 'annotate guidelines history persona'

# --- reports --------------------------------------------------------------
run 'annotate stats --annotator jo'
run 'annotate metrics --annotator jo'
run 'annotate metrics --annotator jo --ci --json | jq -c ".verification.all.kappa, .verification.all.kappa_ci95"'
run 'annotate --db rag.db import --source NILE --system bm25_gpt4 importer/testdata/ragchecker_checking_outputs.json'
run 'annotate --db rag.db import --source NILE --system e5_gpt4 importer/testdata/ragchecker_checking_outputs.json'
run 'annotate --db rag.db import docs/example/rag-jo.jsonl'
run 'annotate --db rag.db rag --expert jo'
run 'annotate agreement --field entailment --disagreements'
run 'annotate agreement --field entailment --annotators jo,sam,lea'
run 'annotate agreement --field persona --ci'
run 'annotate agreement --field persona --by-guidelines-version'
run 'annotate agreement --json | jq -c ".fields.answer_correctness | {items, percent_agreement, fleiss_kappa, krippendorff_alpha, gwet_ac1}"'

# --- review ---------------------------------------------------------------
run 'annotate review --json --as lead | jq -c ".agreements, .pending, .units[0]"'
run 'annotate review --accept --as lead'
run 'annotate review --json --as lead --system refchecker --annotator jo | jq -c ".cells[0]"'
run 'annotate batch create claims-2 --kind claim --source CIVIL --only-correct-answers --adjudicated --assign lea'
run 'annotate metrics --adjudicated'

# --- export ---------------------------------------------------------------
run 'annotate export --format hf --out legal-rag-dataset --annotator jo'
run 'head -n 12 legal-rag-dataset/README.md'
run 'ls legal-rag-dataset/data/claims'
run 'annotate export --format hf --data-format jsonl --out legal-rag-jsonl --annotator jo'
run 'head -n 1 legal-rag-jsonl/data/claims/test.jsonl | jq -c .'
run 'annotate export --format csv --out tables --adjudicated'
run 'head -n 1 tables/claims.csv'
run 'annotate export --format jsonl --out backup'
run 'annotate --db restored.db import backup'
run 'annotate --db restored.db import backup'
run 'annotate export --format jsonl --labels-only --out native'
run 'annotate export --format jsonl --out backup'

# --- serve (what can run without a client: the checks at start) ----------
# A public key (from server/ssh_test.go) without the annotator's name.
echo 'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAILcH0EGObSkCXOHHVovHQ978Ht6vbEYOhU7IDDek+1YT' >team_keys
run 'annotate serve'
run 'annotate serve --authorized-keys team_keys'

# --- CanLegalRAGBench: relevance and ir -------------------------------------
run 'annotate import demo/canlegal-gen.jsonl demo/canlegal.jsonl'
run 'annotate import --format trec-run demo/canlegal.run'
run 'annotate import --format qrels demo/canlegal.qrels'
run 'annotate batch create rel-1 --kind relevance --runs dense-irg-rerank,dense-irg,dense-rerank,bm25l --depth 10 --queries 6 --stratify jurisdiction,issue --seed 7 --assign jo,sam --overlap 2'
run 'annotate batch create rel-2 --kind relevance --runs dense-irg-rerank,bm25l --depth 5 --queries 2 --graded --seed 1 --assign lea,sam --overlap 2'
run 'annotate import docs/example/relevance-jo.jsonl docs/example/relevance-sam.jsonl'
run 'annotate agreement --field relevance'
run 'annotate import docs/example/relevance-grades-lea.jsonl docs/example/relevance-grades-sam.jsonl'
run 'annotate agreement --field relevance_grade'
run 'annotate ir --annotator jo'
run 'annotate ir --annotator jo --by jurisdiction --rank-by recall'
run 'annotate ir --annotator jo --pooled --json | jq -c ".runs.bm25l"'

# --- CanLegalRAGBench: gold answers, generated claims, gen and cost --------
run 'annotate batch create answers-1 --kind answer_task --size 8 --assign jo,sam'
run 'annotate import docs/example/answers-jo.jsonl'
run 'annotate review --kind answer_task --json --as lead'
echo '(screens) the lead accepts the first gold answer with y'
echo
on_screen 'annotate review --kind answer_task --as lead'
wait_for 'Is this a gold answer'
tm send-keys -t s y
wait_for 'answer 2 of 2'
tm send-keys -t s q
screen_closed
run 'annotate review --kind answer_task --json --as lead | jq -c ".answers[] | [.item, .review]"'
run 'annotate batch create gen-ng --kind gen_claim --sample 3 --where not_grounded --seed 1 --assign jo'
run 'annotate batch create gen-rest --kind gen_claim --system demo-system-a --condition oracle --assign jo'
run 'annotate batch create gen-rest-b --kind gen_claim --assign jo'
run 'annotate import docs/example/gen-claims-jo.jsonl'
run 'annotate gen'
run 'annotate gen --system demo-system-b --condition pipeline --json | jq -c ".systems, .hallucination_rate"'
run 'annotate gen --by persona'
run 'annotate annotator set jo --rate 20 --currency CAD --role student'
run 'annotate annotator set sam --rate 20 --currency CAD --role student'
run 'annotate annotator set lead --rate 60 --currency CAD --role lead'
fixed_session_times
run 'annotate cost'
run 'annotate cost --json | jq -c ".annotators.lead | {rate, currency, items, session_hours, cost}"'
run 'annotate gen --taxonomy docs/example/taxonomy.yaml | tail -n 9'
run "annotate guidelines error_category | sed -n '/^### Values/,/^### When/p'"
run 'annotate gen --taxonomy default | tail -n 12'
run "annotate stats --annotator jo | sed -n '/^Queries/,\$p'"
run 'annotate export --out canlegal-dataset --annotator jo'
run 'ls canlegal-dataset/data'
run 'annotate export --out canlegal-jsonl --data-format jsonl --annotator jo'
run 'head -n 3 canlegal-jsonl/data/qrels_after/test.jsonl'
run 'annotate batch list'
run 'annotate completion bash | head -n 1'
