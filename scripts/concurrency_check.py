"""Imports and screens at once (run by concurrency-check.sh).

Four annotators (a1…a4) label ITEMS QA pairs each ("y 1 1 1") in four tmux
screens while eight "annotate import" processes, started at seeded moments
during the labelling, each add PAIRS new QA pairs with two claims apiece.
MODE "paced" drives each screen as a careful person would: a key, then a
look at the screen until it shows the decision, then a short seeded pause.
MODE "ahead" types as a fast typist would, a key every 30 ms without
looking, and then waits for the screen to catch up: every key must still
be applied.

Printed: imports that succeeded, QA pairs expected and in the database,
labels expected and stored (per annotator), and every error: a failed
import, a key the screen did not take within 30 s, an error on a screen, a
screen that did not quit cleanly.

usage: concurrency_check.py ANNOTATE DEMO_JSONL WORKDIR SEED ITEMS PAIRS MODE
"""

import json
import os
import random
import subprocess
import sys
import threading
import time

from screens import Screen, Tmux, qa_order, stored_labels, wait_until

# "y 1 1 1" per QA pair; the screens run --claims-later, so an answer judged
# correct does not bring its claims into the QA queue.
KEYS = ["y", "1", "1", "1"]
IMPORTERS, SCREENS = 8, 4
ERROR_WORDS = ("error", "locked", "could not", "failed")


def status_lines(text):
    """The bottom of a screen (field card, ✓ line, status, help), where the
    screens report failures; the item's own text above may say anything."""
    return "\n".join([l for l in text.splitlines() if l.strip()][-6:])


def glance(text):
    """A screen's header and bottom, for error messages."""
    lines = [l for l in text.splitlines() if l.strip()]
    return "\n".join(["    " + l.rstrip() for l in lines[:1] + ["    …"] + lines[-6:]])


def write_import(path, n, prefix):
    with open(path, "w", encoding="utf-8") as f:
        for j in range(n):
            pid = f"{prefix}-{j:04}"
            f.write(json.dumps({
                "id": pid, "source": "GDPR", "language": "en", "hop": "single",
                "question": f"Imported question {j} about lawful processing?", "answer": "Yes, under Article 6.",
                "category": "factual_recall",
                "contexts": [{"id": f"{pid}-p1", "text": "Processing shall be lawful only if and to the extent "
                                                         "that at least one of the following applies."}],
                "claims": [{"id": f"{pid}-c{c}", "triplet": ["Article 6", "sets", "lawful grounds"],
                            "predictions": {"refchecker": "Entailment"}} for c in (1, 2)],
            }) + "\n")


def main():
    annotate, demo, work, seed = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4]
    items, pairs, mode = int(sys.argv[5]), int(sys.argv[6]), sys.argv[7]
    if mode not in ("paced", "ahead"):
        sys.exit(f"mode {mode!r}: paced or ahead")
    rng = random.Random(seed)
    db = os.path.join(work, "c.db")
    subprocess.run([annotate, "--db", db, "import", demo], check=True, capture_output=True)
    base = len(qa_order(annotate, db))
    files = []
    for i in range(IMPORTERS):
        path = os.path.join(work, f"import{i}.jsonl")
        write_import(path, pairs, f"imp{i}")
        files.append(path)

    tmux = Tmux("annotate-concurrency-check")
    errors, lock = [], threading.Lock()

    def error(msg):
        with lock:
            errors.append(msg)

    annotators = [f"a{i + 1}" for i in range(SCREENS)]
    try:
        status = {a: os.path.join(work, a + ".status") for a in annotators}
        for a in annotators:
            tmux.start(a, f"sh -c '{annotate} --db {db} --as {a} --kind qa --claims-later; echo $? > {status[a]}'")
        for a in annotators:
            if not wait_until(lambda: Screen(tmux.screen(a)).item, 30):
                error(f"{a}: the first item never showed")

        slowest = [0.0]

        def drive(a, pauses):
            if mode == "ahead":
                for key in KEYS * items:
                    tmux.keys(a, key)
                    time.sleep(0.03)
                if not wait_until(lambda: (Screen(tmux.screen(a)).progress() or 0) >= 4 * items, 60):
                    error(f"{a}: {Screen(tmux.screen(a)).progress()} of {4 * items} keys shown after 60 s; "
                          f"the screen shows:\n{glance(tmux.screen(a))}")
                return
            for n, key in enumerate(KEYS * items):
                sent = time.monotonic()
                tmux.keys(a, key)
                done = wait_until(lambda: (Screen(tmux.screen(a)).progress() or 0) >= n + 1, 30, step=0.01)
                with lock:
                    slowest[0] = max(slowest[0], time.monotonic() - sent)
                if not done:
                    error(f"{a}: key {n + 1} ({key}) not shown after 30 s; the screen shows:\n{glance(tmux.screen(a))}")
                    return
                text = status_lines(tmux.screen(a))
                if any(w in text.lower() for w in ERROR_WORDS):
                    error(f"{a}: after key {n + 1} the screen shows:\n{text}")
                time.sleep(pauses[n])

        imports = [None] * IMPORTERS

        spans = [None] * IMPORTERS

        def run_import(i, delay):
            time.sleep(delay)
            start = time.monotonic()
            imports[i] = subprocess.run([annotate, "--db", db, "import", files[i]], capture_output=True, text=True)
            spans[i] = (start - began, time.monotonic() - began)

        threads = [threading.Thread(target=drive, args=(a, [rng.uniform(0, 0.08) for _ in range(4 * items)]))
                   for a in annotators]
        threads += [threading.Thread(target=run_import, args=(i, rng.uniform(0, 2.0))) for i in range(IMPORTERS)]
        began = time.monotonic()
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        took = time.monotonic() - began

        for a in annotators:
            tmux.keys(a, "q")
            tmux.keys(a, "q")
        for a in annotators:
            if not wait_until(lambda: os.path.exists(status[a]) and tmux.dead(a), 10):
                error(f"{a}: the screen did not quit")
                continue
            with open(status[a]) as f:
                code = f.read().strip()
            if code != "0":
                error(f"{a}: the program exited with status {code}")
    finally:
        tmux.close()

    ok = 0
    for i, r in enumerate(imports):
        if r is not None and r.returncode == 0:
            ok += 1
        else:
            error(f"import {i}: exit {r.returncode if r else 'none'}: {r.stderr.strip() if r else ''}")
    qa = len(qa_order(annotate, db))
    stored = stored_labels(annotate, db)
    per = {a: sum(1 for (who, _, _) in stored if who == a) for a in annotators}
    expected = 4 * items
    for a in annotators:
        if per[a] != expected:
            error(f"{a}: {per[a]} labels stored, want {expected}")
    if qa != base + ok * pairs:
        error(f"{qa} QA pairs in the database, want {base + ok * pairs}")

    print(f"{took:.1f} s of labelling ({mode}) and importing at once (seed {seed}); imports ran "
          + ", ".join(f"{a:.1f}-{b:.1f} s" for a, b in sorted(s for s in spans if s)))
    print(f"imports succeeded: {ok} of {IMPORTERS} ({pairs} QA pairs and {2 * pairs} claims each)")
    print(f"QA pairs: expected {base + IMPORTERS * pairs}, in the database {qa}")
    print(f"labels: expected {expected * SCREENS}, stored {sum(per.values())} "
          f"({', '.join(f'{a} {per[a]}' for a in annotators)})")
    if mode == "paced":
        print(f"longest wait for a key's decision to show: {slowest[0]:.2f} s")
    print(f"errors: {len(errors)}")
    for e in errors:
        print("ERROR", e)
    sys.exit(1 if errors else 0)


if __name__ == "__main__":
    main()
