#!/usr/bin/env python3
"""Replays the examples of README.md and docs/ and puts what they print in their blocks, or checks it is there.

    scripts/readme-sync.py            # replay every tour, rewrite the blocks with what they printed
    scripts/readme-sync.py --check    # replay every tour; exit 1 on any difference (nothing rewritten)
    scripts/readme-sync.py --tour readme|docs [--check]   # one tour only

A tour is a set of pages read in order, replayed on a fresh copy of the
repository (its tracked files, as they are in the working tree) with the
`annotate` this checkout builds on PATH, as a reader who had run
`go install ./cmd/annotate` and followed the pages would: every block runs
in order, from the state the blocks before it left, and nothing else runs.
README.md is a tour of its own; the docs pages are one tour, in DOCS order.
Each block's commands run in one shell session: an `export` or a `cd` in a
block holds for the blocks after it. The environment starts empty but for
PATH, HOME, TERM and LANG; the first block of each tour sets what the
examples need, including ANNOTATE_NOW, which fixes the program's clock so
that every time it prints is the same on every run.

Blocks:

```console        every line "$ COMMAND" is run (a line ending in "\\" goes on on
                  the next); what it prints (stdout and stderr; trailing
                  blank lines left out) is the lines after it. A line "…" alone cuts a long output: the lines
                  above it are the output's first lines, the lines below it its
                  last; the rest must match exactly.
```keys WxH       a screen session in a WxH terminal (default 100x30): the line
                  "$ COMMAND" opens it, then each line holds keys, pressed in
                  order, each once the screen has settled: a single character,
                  a key name (enter, esc, tab, space, backspace, up, down, left,
                  right, pgup, pgdn, home, end, ctrl+X), or a "quoted text"
                  typed as it is; "#" starts a comment. The program is then
                  quit with q if it is still running.
<!-- screen -->   before a ```text block: the block is the screen as the last
                  keys block before it left it (captured before it is quit).
```sh and others  are not run: they show forms to adapt (paths, names), or
                  commands that open a screen or a server without keys.

Needs go, tmux, jq and python3 (the standard library).
"""

import difflib
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
import time

CUT = "…"
ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), ".."))
TOURS = {
    "readme": ["README.md"],
    "docs": ["docs/commands.md", "docs/screens.md", "docs/campaign.md", "docs/guidelines.md", "docs/serve.md",
             "docs/canlegalragbench.md", "docs/relevance.md", "docs/rag.md", "docs/metrics-ir.md"],
}
KEY_NAMES = {
    "enter": "Enter", "esc": "Escape", "tab": "Tab", "space": "Space", "backspace": "BSpace", "up": "Up",
    "down": "Down", "left": "Left", "right": "Right", "pgup": "PPage", "pgdn": "NPage", "home": "Home", "end": "End",
}


class Block:
    """A block of a page: its fence line, its body and what the replay made of it."""

    def __init__(self, page, line, kind, info, body):
        self.page, self.line, self.kind, self.info, self.body = page, line, kind, info, body
        self.screen = False  # a text block marked <!-- screen -->
        self.new = None      # the body the replay gives it

    def where(self):
        return f"{self.page}:{self.line}"


def parse_page(path):
    """The page's lines and its fenced blocks, in order."""
    lines = open(os.path.join(ROOT, path), encoding="utf-8").read().split("\n")
    blocks, i, marked = [], 0, False
    while i < len(lines):
        line = lines[i]
        if line.strip() == "<!-- screen -->":
            marked = True
        elif line.startswith("```") and line.strip() != "```":
            info = line[3:].strip().split()
            j = i + 1
            while j < len(lines) and lines[j] != "```":
                j += 1
            b = Block(path, i + 1, info[0] if info else "", info[1:], lines[i + 1:j])
            b.start, b.end = i + 1, j
            b.screen = marked and b.kind == "text"
            blocks.append(b)
            marked = False
            i = j
        elif line.strip():
            marked = False if not line.startswith("<") else marked
        i += 1
    return lines, blocks


def console_commands(b):
    """[(command, shown output lines)] of a console block."""
    out, i = [], 0
    body = b.body
    while i < len(body):
        line = body[i]
        if not line.startswith("$ "):
            raise SystemExit(f"{b.where()}: a console block's lines after a command are its output; "
                             f"it must start with a line \"$ COMMAND\", not {line!r}")
        cmd = [line[2:]]
        while cmd[-1].endswith("\\") and i + 1 < len(body):
            i += 1
            cmd.append(body[i])
        i += 1
        shown = []
        while i < len(body) and not body[i].startswith("$ "):
            shown.append(body[i])
            i += 1
        out.append(("\n".join(cmd), shown))
    return out


def fill(shown, real):
    """The real output, cut where the shown one is cut."""
    if CUT not in shown:
        return list(real)
    i = shown.index(CUT)
    head, tail = shown[:i], shown[i + 1:]
    if len(head) + len(tail) >= len(real):
        return list(real)  # nothing left to cut
    return real[:len(head)] + [CUT] + (real[len(real) - len(tail):] if tail else [])


class Session:
    """One tour's shell state: a fresh copy of the repository, an environment
    and a working folder that persist from one command to the next."""

    def __init__(self, tmp, name, binary):
        self.dir = os.path.join(tmp, name)
        self.clone = os.path.join(self.dir, "clone")
        os.makedirs(self.clone)
        files = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, check=True, capture_output=True).stdout
        for f in files.decode().split("\0"):
            if f and os.path.lexists(os.path.join(ROOT, f)):
                dst = os.path.join(self.clone, f)
                os.makedirs(os.path.dirname(dst), exist_ok=True)
                shutil.copy2(os.path.join(ROOT, f), dst, follow_symlinks=False)
        home = os.path.join(self.dir, "home")
        os.makedirs(home)
        self.env_file = os.path.join(self.dir, "env.sh")
        self.cwd_file = os.path.join(self.dir, "cwd")
        base = {"PATH": os.path.dirname(binary) + ":/usr/local/bin:/usr/bin:/bin", "HOME": home,
                "TERM": "xterm-256color", "LANG": "C.UTF-8"}
        with open(self.env_file, "w") as f:
            for k, v in base.items():
                f.write(f"export {k}={shlex.quote(v)}\n")
        with open(self.cwd_file, "w") as f:
            f.write(self.clone)
        self.sock = f"annotate-docs-{os.getpid()}-{name}"
        self.n = 0

    def prelude(self):
        return f"source {shlex.quote(self.env_file)} 2>/dev/null; cd \"$(cat {shlex.quote(self.cwd_file)})\"; "

    def run(self, cmd):
        """Runs a console command; returns its output lines."""
        script = (self.prelude() + 'eval "$1" 2>&1; rc=$?; export -p > ' + shlex.quote(self.env_file) +
                  '.new; pwd > ' + shlex.quote(self.cwd_file) + '; exit $rc')
        p = subprocess.run(["env", "-i", "/bin/bash", "--noprofile", "--norc", "-c", script, "_", cmd],
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=900)
        new = self.env_file + ".new"
        if os.path.exists(new):
            os.replace(new, self.env_file)
        out = p.stdout.decode("utf-8", "replace").split("\n")
        while out and out[-1] == "":  # trailing blank lines are not shown
            out.pop()
        return out

    # --- screens -----------------------------------------------------------
    def tm(self, *args, check=False):
        r = subprocess.run(["tmux", "-L", self.sock, "-f", "/dev/null", *args], capture_output=True, text=True)
        if check and r.returncode != 0:
            raise SystemExit(f"tmux {' '.join(args[:1])}: {r.stderr.strip()}")
        return r

    def pane(self):
        return self.tm("capture-pane", "-p", "-t", self.target).stdout

    def dead(self):
        r = self.tm("display-message", "-p", "-t", self.target, "#{pane_dead}")
        return r.returncode != 0 or r.stdout.strip() == "1"

    def settle(self, where, first=False, quiet=3):
        """Waits until the screen has not changed for quiet tenths of a
        second (and, at first, shows something)."""
        deadline = time.time() + (30 if first else 10)
        last, same = None, 0
        while time.time() < deadline:
            time.sleep(0.1)
            cur = self.pane()
            if first and not cur.strip():
                continue
            same = same + 1 if cur == last else 0
            last = cur
            if same >= quiet:
                return
        if first:
            raise SystemExit(f"{where}: the screen never showed anything")

    def keys(self, b, size, cmd, lines, capture):
        """Runs a keys block; returns the capture (a list of lines) or None."""
        w, h = size
        where = b.where()
        self.n += 1
        self.target = f"s{self.n}"
        shell = self.prelude() + "exec " + cmd
        self.tm("new-session", "-d", "-s", self.target, "-x", str(w), "-y", str(h),
                "env -i /bin/bash --noprofile --norc -c " + shlex.quote(shell),
                ";", "set-option", "-t", self.target, "remain-on-exit", "on",
                ";", "set-option", "-t", self.target, "remain-on-exit-format", "", check=True)
        try:
            self.settle(where, first=True)
            for n, line in lines:
                for tok in shlex.split(line, comments=True):
                    if self.dead():
                        raise SystemExit(f"{where}: the program ended before key {tok!r} (line {n} of the block)")
                    self.press(tok, f"{where} (line {n})")
                    self.settle(where)
            shot = None
            if capture:
                # What the screen does on its own after the last key (a draft
                # saved a second later, a check read back) is in the capture.
                self.settle(where, quiet=20)
                shot = [s.rstrip() for s in self.pane().split("\n")]
                while shot and not shot[-1]:
                    shot.pop()
            for _ in range(50):
                if self.dead():
                    break
                self.tm("send-keys", "-t", self.target, "Escape")
                time.sleep(0.2)
                self.tm("send-keys", "-t", self.target, "q")
                time.sleep(0.2)
            else:
                raise SystemExit(f"{where}: the program did not quit")
            return shot
        finally:
            self.tm("kill-session", "-t", self.target)

    def press(self, tok, where):
        """Presses a key by its name, or types a text as it is."""
        low = tok.lower()
        if low in KEY_NAMES:
            self.tm("send-keys", "-t", self.target, KEY_NAMES[low], check=True)
        elif re.fullmatch(r"ctrl\+[a-z]", low):
            self.tm("send-keys", "-t", self.target, "C-" + low[-1], check=True)
        else:
            self.tm("send-keys", "-t", self.target, "-l", tok, check=True)


def keys_block(b):
    """(size, command, [(line number, keys)]) of a keys block."""
    size = (100, 30)
    for a in b.info:
        m = re.fullmatch(r"(\d+)x(\d+)", a)
        if m:
            size = (int(m.group(1)), int(m.group(2)))
    if not b.body or not b.body[0].startswith("$ "):
        raise SystemExit(f"{b.where()}: a keys block starts with \"$ COMMAND\", the command that opens the screen")
    return size, b.body[0][2:], [(i + 2, l) for i, l in enumerate(b.body[1:]) if l.strip()]


def replay(tour, tmp, binary, problems):
    """Replays a tour's pages; sets each block's new body."""
    s = Session(tmp, tour, binary)
    pages = {}
    # A session that outlives the screens', so the tmux server does not exit
    # (and a new screen race its exit) between two keys blocks.
    s.tm("new-session", "-d", "-s", "keep", "sleep 86400", check=True)
    try:
        replay_pages(tour, s, pages, problems)
    finally:
        s.tm("kill-server")
    return pages


def replay_pages(tour, s, pages, problems):
    for path in TOURS[tour]:
        lines, blocks = parse_page(path)
        pages[path] = (lines, blocks)
        print(f"{tour}: {path}", file=sys.stderr)
        for k, b in enumerate(blocks):
            if b.kind == "console":
                new = []
                for cmd, shown in console_commands(b):
                    real = s.run(cmd)
                    new += ["$ " + l if i == 0 else l for i, l in enumerate(cmd.split("\n"))] + fill(shown, real)
                b.new = new
            elif b.kind == "keys":
                size, cmd, keys = keys_block(b)
                shots = [x for x in blocks[k + 1:] if x.screen]
                nxt = next((x for x in blocks[k + 1:] if x.kind == "keys" or x.screen), None)
                capture = nxt is not None and nxt.screen
                shot = s.keys(b, size, cmd, keys, capture)
                if capture:
                    shots[0].new = shot
        for b in blocks:
            if b.screen and b.new is None:
                problems.append(f"{b.where()}: a screen block with no keys block before it")
            if b.new is not None and b.new != b.body:
                problems.append(f"{b.where()}: the block differs from what its commands print:\n" + "\n".join(
                    difflib.unified_diff(b.body, b.new, "shown", "printed", lineterm="", n=1)))


def main(argv):
    check = "--check" in argv
    tours = list(TOURS)
    if "--tour" in argv:
        tours = [argv[argv.index("--tour") + 1]]
        if tours[0] not in TOURS:
            raise SystemExit(f"--tour: want {' or '.join(TOURS)}, got {tours[0]!r}")
    for tool in ("go", "tmux", "jq", "git"):
        if shutil.which(tool) is None:
            raise SystemExit(f"readme-sync: needs {tool}")
    tmp = tempfile.mkdtemp(prefix="annotate-docs-")
    try:
        binary = os.path.join(tmp, "bin", "annotate")
        subprocess.run(["go", "build", "-o", binary, "./cmd/annotate"], cwd=ROOT, check=True)
        problems, pages = [], {}
        for t in tours:
            pages.update(replay(t, tmp, binary, problems))
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    for p in problems:
        print(p, file=sys.stderr)
    if check:
        print(f"{len(problems)} block(s) differ" if problems else "every block prints what it shows", file=sys.stderr)
        sys.exit(1 if problems else 0)
    for path, (lines, blocks) in pages.items():
        out, last = [], 0
        for b in blocks:
            out += lines[last:b.start]
            out += b.new if b.new is not None else b.body
            last = b.end
        out += lines[last:]
        if out != lines:
            open(os.path.join(ROOT, path), "w", encoding="utf-8").write("\n".join(out))
    print(f"{len(problems)} block(s) rewritten", file=sys.stderr)


if __name__ == "__main__":
    main(sys.argv[1:])
