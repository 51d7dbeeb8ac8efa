"""Helpers for the scripts that drive annotate's screens through tmux.

The screens run in a private tmux server (its own socket, no user config),
so the scripts never touch the user's tmux. A pane stays on screen after its
program dies (remain-on-exit, with no "Pane is dead" line that would scroll
it), so the last screen can be read after a SIGKILL.
"""

import json
import os
import re
import subprocess
import tempfile
import time

HEADER = re.compile(r"^\s*QA (\S+) · item (\d+) of (\d+)")
WAITING = re.compile(r"⧗ (\d+) decisions? not saved yet")


class Tmux:
    def __init__(self, name):
        self.base = ["tmux", "-L", f"{name}-{os.getpid()}", "-f", "/dev/null"]

    def run(self, *args):
        return subprocess.run(self.base + list(args), check=True, capture_output=True, text=True).stdout

    def start(self, session, command, width=120, height=40):
        """Runs command (exec'd, so the pane's pid is the program's) in a new session."""
        self.run("new-session", "-d", "-s", session, "-x", str(width), "-y", str(height), "exec " + command,
                 ";", "set-option", "-t", session, "remain-on-exit", "on",
                 ";", "set-option", "-t", session, "remain-on-exit-format", "")

    def pid(self, session):
        return int(self.run("display-message", "-p", "-t", session, "#{pane_pid}").strip())

    def dead(self, session):
        return self.run("display-message", "-p", "-t", session, "#{pane_dead}").strip() == "1"

    def keys(self, session, *keys):
        self.run("send-keys", "-t", session, *keys)

    def screen(self, session):
        return self.run("capture-pane", "-p", "-t", session)

    def kill_session(self, session):
        subprocess.run(self.base + ["kill-session", "-t", session], capture_output=True)

    def close(self):
        subprocess.run(self.base + ["kill-server"], capture_output=True)


class Screen:
    """What a QA screen shows: the item, its position, the decisions shown
    as made on it (the ✓ line), those shown as not saved yet on it (after
    ⧗), and how many decisions the status line says wait in all (items
    left while they waited included)."""

    def __init__(self, text):
        self.text = text
        self.item, self.position, self.total = None, 0, 0
        self.checks = []  # [(field, value)] in the order shown
        self.unsaved = []  # [(field, value)] shown as not saved yet
        self.waiting = 0
        for line in text.splitlines():
            m = HEADER.match(line)
            if m and self.item is None:
                self.item, self.position, self.total = m.group(1), int(m.group(2)), int(m.group(3))
            m = WAITING.search(line)
            if m:
                self.waiting = int(m.group(1))
            if line.startswith("✓ ") or line.startswith("⧗ not saved yet: "):
                made, _, unsaved = line.partition("⧗ not saved yet: ")
                for part in made[2:].split(" · ") if made.startswith("✓ ") else []:
                    if part.strip():
                        field, _, value = part.strip().partition(" ")
                        self.checks.append((field, value.strip()))
                for part in unsaved.split(" · ") if unsaved else []:
                    field, _, value = part.strip().partition(" ")
                    self.unsaved.append((field, value.strip()))
        self.waiting = max(self.waiting, len(self.unsaved))

    def progress(self):
        """Decisions shown as made in the queue so far, counting 4 a finished item."""
        return (self.position - 1) * 4 + len(self.checks) if self.item else None


def qa_order(annotate, db):
    """The QA pairs' ids in queue order (import order, as export writes them)."""
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "x")
        subprocess.run([annotate, "--db", db, "export", "--format", "jsonl", "--out", out],
                       check=True, capture_output=True)
        ids = []
        with open(os.path.join(out, "items.jsonl"), encoding="utf-8") as f:
            for line in f:
                ids.append(json.loads(line)["id"])
        return ids


def stored_labels(annotate, db, annotator=None):
    """{(annotator, item, field): value} of the current labels, through export."""
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "x")
        cmd = [annotate, "--db", db, "export", "--format", "jsonl", "--out", out]
        if annotator:
            cmd += ["--annotator", annotator]
        subprocess.run(cmd, check=True, capture_output=True)
        labels = {}
        with open(os.path.join(out, "labels.jsonl"), encoding="utf-8") as f:
            for line in f:
                l = json.loads(line)
                labels[(l["annotator"], l["item"], l["field"])] = l["value"]
        return labels


def wait_until(pred, timeout, step=0.05):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        v = pred()
        if v:
            return v
        time.sleep(step)
    return pred()
