#!/usr/bin/env bash
# Runs the README's examples in order on a fresh database (the embedded demo
# and the example label files of docs/example) and prints each command with
# its output, as the README shows them: regenerate the README's console
# blocks from this, never by hand. Not run by CI or go test.
#
# usage: scripts/readme-examples.sh > /tmp/readme-examples.txt
set -uo pipefail
cd "$(dirname "$0")/.."
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
go build -o "$work/bin/annotate" ./cmd/annotate || exit 1
export PATH="$work/bin:$PATH" ANNOTATE_DB="$work/campaign.db" ANNOTATE_USER=jo NO_COLOR=1
cp -r demo docs "$work/"
cd "$work"
run() {
	echo '$ '"$*"
	"$@" 2>&1
	echo
}
printf '{"id":"gdpr-900","source":"GDPR","question":"Q?","answer":"A.","contexts":[{"id":"p","text":"t"}]}\n{"id":"gdpr-901","source":"GDPR","question":7,"answer":"A.","contexts":[{"id":"p","text":"t"}]}\n' > bad.jsonl
run annotate import demo/demo.jsonl docs/example/labels-jo.jsonl docs/example/labels-sam.jsonl
run annotate import demo/demo.jsonl
run annotate import bad.jsonl
run annotate batch create pilot --kind qa --size 10 --pilot --assign jo,sam
run annotate batch create qa-1 --kind qa --assign jo,sam,lea --overlap 2 --seed 7
run annotate batch create claims-1 --kind claim --only-correct-answers --assign jo,sam
run annotate batch list
run annotate progress --annotator jo
run annotate notes --batch pilot
run annotate stats --annotator jo
run annotate metrics --annotator jo
run annotate agreement --field entailment --disagreements
run annotate agreement --field entailment --annotators jo,sam,lea
run annotate review --as lead --accept
run annotate metrics --adjudicated
run annotate export --format hf --out legal-rag-dataset --annotator jo
run annotate export --format jsonl --out backup
run annotate import backup
for f in demo/*.jsonl; do [ "$f" = demo/demo.jsonl ] || run annotate import "$f"; done
for f in demo/*.run; do [ -e "$f" ] && run annotate import --format trec-run "$f"; done
for f in demo/*.qrels; do [ -e "$f" ] && run annotate import --format qrels "$f"; done
run annotate stats --annotator jo
for c in ir gen cost; do annotate $c --help >/dev/null 2>&1 && run annotate $c; done
