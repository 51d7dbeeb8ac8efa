"""Seeded SIGKILL rounds against the QA screen (run by kill-check.sh).

Each round imports the demo into a new database, opens jo's QA queue in
tmux, types "y 1 1 1" per item with seeded random pauses (bursts of typing
ahead included), and SIGKILLs the program at a seeded random moment: during
startup, while keys arrive, while a decision is being saved or an item
loads. The last screen is then read from tmux. Every decision it showed as
made must be in the database: the ✓ line of the item on screen, and all
four fields of every item before it in the queue, but for the decisions the
status line says wait for the database (the last ones typed). Labels the database holds
beyond the screen are counted (a decision is committed before it shows, so
a kill can fall between the two), and every stored label must be one the
keys typed asked for.

usage: kill_check.py ANNOTATE DEMO_JSONL WORKDIR ROUNDS SEED
"""

import os
import random
import signal
import subprocess
import sys
import time

from screens import Screen, Tmux, qa_order, stored_labels, wait_until

# "y 1 1 1" on a QA pair records these, in this order.
KEYS = ["y", "1", "1", "1"]
FIELDS = [("question_validity", "valid"), ("category", "general_legal_research"),
          ("persona", "citizen"), ("answer_correctness", "correct")]


def plan(rng):
    """The round's keys, the pause before each, and when to kill: at a
    moment of the round (seconds after the program starts), or within 30 ms
    of a key (as its decision is being saved or shown)."""
    n = rng.randint(0, 28)
    pauses = [rng.uniform(0, 1.2)]  # before the first key: sometimes before the first screen
    for _ in range(1, n):
        pauses.append(rng.choice([0.0, 0.0, rng.uniform(0.005, 0.05), rng.uniform(0.05, 0.3)]))
    keys = [KEYS[i % 4] for i in range(n)]
    if n and rng.random() < 0.5:
        return keys, pauses, None, (rng.randint(1, n), rng.uniform(0, 0.03))
    return keys, pauses, rng.uniform(0.05, sum(pauses) + 0.8), None


def main():
    annotate, demo, work, rounds, seed = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4]), sys.argv[5]
    tmux = Tmux("annotate-kill-check")
    totals = dict(typed=0, stored=0, shown=0, kept=0, missing=0, beyond=0, wrong=0, off_item=0)
    failures = []
    try:
        for r in range(1, rounds + 1):
            rng = random.Random(f"{seed}/{r}")
            keys, pauses, kill_at, after_key = plan(rng)
            db = os.path.join(work, f"round{r}.db")
            subprocess.run([annotate, "--db", db, "import", demo], check=True, capture_output=True)
            order = qa_order(annotate, db)
            session = f"r{r}"
            # --claims-later: the QA queue only, so "y 1 1 1" is one pair per four
            # keys (without it a correct answer brings its claims next).
            tmux.start(session, f"{annotate} --db {db} --as jo --kind qa --claims-later")
            began = time.monotonic()
            pid = tmux.pid(session)
            sent = 0
            for key, pause in zip(keys, pauses):
                time.sleep(pause)
                if kill_at is not None and time.monotonic() - began >= kill_at:
                    break
                tmux.keys(session, key)
                sent += 1
                if after_key and sent == after_key[0]:
                    time.sleep(after_key[1])
                    break
            if kill_at is not None:
                time.sleep(max(0.0, kill_at - (time.monotonic() - began)))
            os.kill(pid, signal.SIGKILL)
            kill_at = time.monotonic() - began
            if not wait_until(lambda: tmux.dead(session), 5):
                failures.append(f"round {r}: the program did not die")
                continue
            s = Screen(tmux.screen(session))
            tmux.kill_session(session)

            # What the screen showed as made.
            shown = {}
            if s.item is None:
                totals["off_item"] += 1
            else:
                before = order.index(s.item) if s.item in order else -1
                if before != s.position - 1:
                    failures.append(f"round {r}: the screen shows {s.item} as item {s.position}, "
                                    f"the queue has it at {before + 1}")
                # In order: every field of the items before, the ✓ line,
                # then what is shown as not saved yet; the last s.waiting
                # of them were shown as waiting, not as made.
                seen = [((item, field), value) for item in order[:max(before, 0)] for field, value in FIELDS]
                seen += [((s.item, field), value) for field, value in s.checks + s.unsaved]
                for k, value in seen[:len(seen) - s.waiting]:
                    shown[k] = value

            stored = {(item, field): v for (_, item, field), v in stored_labels(annotate, db, "jo").items()}
            missing = [(k, v) for k, v in shown.items() if stored.get(k) != v]
            # The labels the keys sent could record, in order.
            asked = {}
            for i in range(sent):
                asked[(order[i // 4], FIELDS[i % 4][0])] = FIELDS[i % 4][1]
            wrong = [(k, v) for k, v in stored.items() if asked.get(k) != v]
            beyond = len([k for k in stored if k not in shown])
            totals["typed"] += sent
            totals["stored"] += len(stored)
            totals["shown"] += len(shown)
            totals["kept"] += len(shown) - len(missing)
            totals["missing"] += len(missing)
            totals["beyond"] += beyond
            totals["wrong"] += len(wrong)
            where = f"{s.item} (item {s.position}, {len(s.checks)} ✓)" if s.item else "no item on screen"
            print(f"round {r:2}: {sent:2} keys, killed at {kill_at:4.2f} s on {where}: "
                  f"shown {len(shown):3}, kept {len(shown) - len(missing):3}, stored beyond the screen {beyond}")
            for k, v in missing:
                failures.append(f"round {r}: the screen showed {k[0]} {k[1]}={v}; the database has {stored.get(k)!r}")
            for k, v in wrong:
                failures.append(f"round {r}: the database has {k[0]} {k[1]}={v}, which no key asked for")
    finally:
        tmux.close()

    print(f"\n{rounds} rounds (seed {seed}): keys typed {totals['typed']}, labels stored {totals['stored']}; "
          f"decisions shown as made {totals['shown']}, "
          f"kept {totals['kept']}, lost {totals['missing']}; labels stored beyond the last screen "
          f"{totals['beyond']}; labels no key asked for {totals['wrong']}; "
          f"rounds killed with no item on screen {totals['off_item']}")
    for f in failures:
        print("FAIL", f)
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
