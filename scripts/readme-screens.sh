#!/usr/bin/env bash
# Captures the screens README.md and docs/screens.md show: runs
# `annotate demo` in tmux at a given terminal size, presses the keys a user
# would and prints each screen as tmux captures it, under a line
# "=== screen NAME". scripts/readme-sync.py puts each capture in the README's
# text block marked <!-- screen: NAME -->. Not run by CI or go test.
#
# The answer editor shows the time its draft was saved, so that capture
# differs from run to run in that one place.
#
# Needs go and tmux.
# usage: scripts/readme-screens.sh > /tmp/readme-screens.txt
set -uo pipefail
cd "$(dirname "$0")/.."
for tool in go tmux; do
	command -v "$tool" >/dev/null || { echo "readme-screens: needs $tool" >&2; exit 1; }
done
work=$(mktemp -d)
sock="annotate-screens-$$"
trap 'tmux -L "$sock" kill-server 2>/dev/null; rm -rf "$work"' EXIT
go build -o "$work/bin/annotate" ./cmd/annotate || exit 1
cp -r docs "$work/"
cd "$work"
export PATH="$work/bin:$PATH" NO_COLOR=1 TZ=UTC
unset ANNOTATE_DB ANNOTATE_USER

tm() { tmux -L "$sock" -f /dev/null "$@"; }
# open W H CMD: runs CMD in a new W x H terminal (one at a time).
open() { tm new-session -d -s s -x "$1" -y "$2" -c "$work" "$3"; }
keys() { tm send-keys -t s "$@"; }
# wait_for TEXT: until the screen shows TEXT (10 s at most).
wait_for() {
	for _ in $(seq 100); do
		tm capture-pane -p -t s 2>/dev/null | grep -qF -- "$1" && return 0
		sleep 0.1
	done
	echo "readme-screens: the screen never showed \"$1\":" >&2
	tm capture-pane -p -t s >&2
	exit 1
}
# shot NAME: prints the screen (trailing blanks and blank rows dropped).
shot() {
	sleep 0.5 # let the last frame settle
	echo "=== screen $1"
	tm capture-pane -p -t s | sed -e 's/[[:space:]]*$//' | sed -e :a -e '/^\n*$/{$d;N;ba' -e '}'
	echo
}
# close: quits the program (esc, which leaves the answer editor, then q
# until it is gone).
close() {
	for _ in $(seq 50); do
		tm has-session -t s 2>/dev/null || return 0
		keys Escape
		sleep 0.2
		keys q
		sleep 0.2
	done
	echo "readme-screens: the screen did not quit" >&2
	exit 1
}
# demo DB: a fresh demo database (annotate demo --db, quit at once).
demo() {
	open 80 24 "annotate demo --db $1 --as jo"
	wait_for 'enter start'
	close
}

for size in "80 24" "120 40"; do
	set -- $size
	open "$1" "$2" "annotate demo --as jo"
	wait_for 'enter start'
	[ "$1" = 80 ] && shot "home-$1x$2" # wider, it only has more blank rows
	keys Enter
	wait_for 'question_validity'
	keys y
	wait_for '✓ question_validity valid'
	shot "qa-$1x$2"
	close
done

# In French: the locale chooses the language (LANG=fr_CA.UTF-8); a QA pair
# of the Code civil (g: go to civ-001) after y.
open 80 24 "env LANG=fr_CA.UTF-8 annotate demo --as jo"
wait_for 'enter commencer'
keys Enter
wait_for 'validité de la question'
keys g
keys -l civ-001
keys Enter
wait_for 'CIVIL'
keys y
wait_for 'Valide'
shot "qa-fr-80x24"
close

# What annotate demo --db prints when the annotator quits (q on home).
tm new-session -d -s s -x 80 -y 24 -c "$work" "annotate demo --db sample.db --as jo" \; \
	set-option -t s remain-on-exit on \; set-option -t s remain-on-exit-format ""
wait_for 'enter start'
keys q
for _ in $(seq 50); do
	[ "$(tm display-message -p -t s '#{pane_dead}')" = 1 ] && break
	sleep 0.1
done
shot demo-exit
tm kill-session -t s

demo claim.db
# A claim comes once its answer is judged correct: gdpr-001 valid, its
# generated category, citizen, correct; its first claim follows.
open 80 24 "annotate --db claim.db --as jo --kind qa"
wait_for 'question_validity'
keys y
wait_for '✓ question_validity valid'
keys Enter
wait_for 'persona'
keys 1
wait_for 'answer_correctness'
keys 1
wait_for 'claim_validity'
keys y
wait_for '✓ claim_validity correct'
shot claim-80x24
close

demo relevance.db
open 80 24 "annotate --db relevance.db --as jo --kind relevance"
wait_for 'Is the document relevant'
shot relevance-80x24
close

demo answer.db
open 80 24 "annotate --db answer.db --as jo --kind answer_task"
wait_for 'Write the answer'
keys -l 'No, not in general: the landlord must give written notice 24 hours before entering, unless there is an emergency or you consent at the time.'
keys Tab
keys -l 'gen-doc-1'
keys Enter
keys -l 'DTA s 27'
wait_for '2 known'
shot answer-80x24
close

# A generated claim is judged against the accepted gold answer: jo's
# answers (docs/example/answers-jo.jsonl), the first accepted by the lead.
demo gen.db
annotate --db gen.db import docs/example/answers-jo.jsonl >/dev/null 2>&1 || exit 1
open 80 24 "annotate --db gen.db --as lead review --kind answer_task"
wait_for 'Is this a gold answer'
shot answer-review-80x24
keys y
wait_for 'answer 2 of 2'
close
open 80 24 "annotate --db gen.db --as jo --kind gen_claim"
wait_for 'accuracy_support'
keys y
wait_for '✓ accuracy_support supported'
keys n
wait_for 'error_category'
keys 1
wait_for '[x] 1'
shot gen-claim-80x24
close

# The lead's adjudication: the example labels of jo and sam.
demo review.db
annotate --db review.db import docs/example/labels-jo.jsonl docs/example/labels-sam.jsonl >/dev/null || exit 1
open 80 24 "annotate --db review.db --as lead review"
wait_for 'pick the final label'
shot review-80x24
close

# The lead's dashboard on the example labels of jo and sam.
demo dashboard.db
annotate --db dashboard.db import docs/example/labels-jo.jsonl docs/example/labels-sam.jsonl >/dev/null || exit 1
open 120 40 "annotate --db dashboard.db --as lead dashboard"
wait_for 'Agreement ·'
shot dashboard-120x40
close
