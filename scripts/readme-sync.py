#!/usr/bin/env python3
"""Puts real output into the blocks of README.md and the docs pages, or checks that it is there.

    scripts/readme-examples.sh > /tmp/examples.txt
    scripts/readme-screens.sh > /tmp/screens.txt
    python3 scripts/readme-sync.py /tmp/examples.txt /tmp/screens.txt          # rewrite README.md
    python3 scripts/readme-sync.py --check /tmp/examples.txt /tmp/screens.txt  # exit 1 on any difference

Console blocks (```console): every line "$ COMMAND" is followed by what
COMMAND printed in readme-examples.sh's output (the n-th time the README
shows a command is the n-th time the script ran it). A line "…" alone cuts
a long output: the lines above it are the output's first lines, the lines
below it its last lines; the rest of the output must match exactly.

Screen blocks: a line <!-- screen: NAME --> before a ```text block; the
block holds readme-screens.sh's capture NAME. Clock times (HH:MM:SS) are
compared as such, not by value: the answer editor shows when its draft was
saved.

Commands the script ran that no block shows are listed (a warning), so a
new example is not forgotten. Needs only the standard library.
"""

import re
import sys

CUT = "…"
CLOCK = re.compile(r"\b\d\d:\d\d:\d\d\b")


def parse_examples(path):
    """[(command, [output lines])] in the order the script ran them."""
    runs = []
    for line in open(path, encoding="utf-8").read().split("\n"):
        if line.startswith("$ "):
            runs.append((line[2:], []))
        elif line.startswith("(screens)"):
            runs.append((None, []))
        elif runs:
            runs[-1][1].append(line)
    out = []
    for cmd, lines in runs:
        if cmd is None:
            continue
        if lines and lines[-1] == "":  # the script's separator
            lines = lines[:-1]
        if lines and lines[-1] == "":
            lines = lines[:-1]
        out.append((cmd, lines))
    return out


def parse_screens(path):
    shots, name = {}, None
    for line in open(path, encoding="utf-8").read().split("\n"):
        if line.startswith("=== screen "):
            name = line[len("=== screen "):]
            shots[name] = []
        elif name is not None:
            shots[name].append(line)
    for name, lines in shots.items():
        while lines and lines[-1] == "":
            lines.pop()
    return shots


def fill(shown, real):
    """The real output, cut where the shown one is cut."""
    if CUT not in shown:
        return list(real)
    i = shown.index(CUT)
    head, tail = shown[:i], shown[i + 1:]
    if len(head) + len(tail) >= len(real):
        return list(real)  # nothing left to cut
    return real[:len(head)] + [CUT] + (real[len(real) - len(tail):] if tail else [])


def console_block(body, runs, used, problems, where):
    """Rewrites the lines of one console block."""
    segs, new = [], []
    for line in body:
        if line.startswith("$ "):
            segs.append([line[2:], []])
        elif segs:
            segs[-1][1].append(line)
        else:
            problems.append(f"{where}: a console block must start with a $ line")
            return body
    for cmd, shown in segs:
        k = used.get(cmd, 0)
        found = [out for c, out in runs if c == cmd]
        if k >= len(found):
            problems.append(f"{where}: `{cmd}`: readme-examples.sh does not run it"
                            + (f" {k + 1} times" if found else ""))
            new += ["$ " + cmd] + shown
            continue
        used[cmd] = k + 1
        real = fill(shown, found[k])
        if real != shown:
            problems.append(f"{where}: `{cmd}`: the output differs from readme-examples.sh's")
        new += ["$ " + cmd] + real
    return new


# The pages with real examples. README.md is a tour: its blocks are matched
# on their own (its n-th `$ CMD` is the n-th run of CMD). The docs pages are
# one sequence, in this order: the n-th time they show a command, across the
# pages, is the n-th time the script ran it.
TOUR = "README.md"
PAGES = ["docs/screens.md", "docs/commands.md", "docs/campaign.md", "docs/serve.md",
         "docs/canlegalragbench.md"]


def sync_page(path, runs, shots, used, problems, shown_screens):
    """The page with its blocks rewritten from the runs and captures."""
    text = open(path, encoding="utf-8").read().split("\n")
    out, i, screen = [], 0, None
    while i < len(text):
        line = text[i]
        m = re.fullmatch(r"<!-- screen: (\S+) -->", line.strip())
        if m:
            screen = m.group(1)
        if line.startswith("```") and line.strip() != "```":
            lang = line[3:].strip()
            j = i + 1
            while j < len(text) and text[j] != "```":
                j += 1
            body = text[i + 1:j]
            where = f"{path}:{i + 1}"
            if lang == "console":
                body = console_block(body, runs, used, problems, where)
            elif lang == "text" and screen is not None:
                shown_screens.add(screen)
                if screen not in shots:
                    problems.append(f"{where}: no capture {screen} in readme-screens.sh's output")
                else:
                    real = shots[screen]
                    if [CLOCK.sub("HH:MM:SS", s) for s in real] != [CLOCK.sub("HH:MM:SS", s) for s in body]:
                        problems.append(f"{where}: screen {screen} differs from readme-screens.sh's capture")
                        body = real
                screen = None
            out += [line] + body + ["```"]
            i = j + 1
            continue
        if line.strip() and not m:
            screen = None if not line.startswith("<") else screen
        out.append(line)
        i += 1
    return out


def main(argv):
    check = "--check" in argv
    args = [a for a in argv if a != "--check"]
    if len(args) != 2:
        sys.exit(__doc__)
    runs, shots = parse_examples(args[0]), parse_screens(args[1])
    problems, shown_screens, shown = [], set(), set()
    pages = {}
    tour_used, docs_used = {}, {}
    pages[TOUR] = sync_page(TOUR, runs, shots, tour_used, problems, shown_screens)
    for path in PAGES:
        pages[path] = sync_page(path, runs, shots, docs_used, problems, shown_screens)
    # Every run should be shown once in the docs pages (the tour only repeats).
    unshown = [c for c, _ in runs if docs_used.get(c, 0) == 0]
    for c in dict.fromkeys(unshown):
        print(f"warning: no docs page block shows `{c}`", file=sys.stderr)
    for s in shots:
        if s not in shown_screens:
            print(f"warning: no block shows screen {s}", file=sys.stderr)
    for p in problems:
        print(p, file=sys.stderr)
    if check:
        sys.exit(1 if problems else 0)
    for path, lines in pages.items():
        open(path, "w", encoding="utf-8").write("\n".join(lines))
    print(f"{len(pages)} pages: {len(problems)} block(s) rewritten or flagged", file=sys.stderr)


if __name__ == "__main__":
    main(sys.argv[1:])
