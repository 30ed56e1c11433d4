"""What every agent's generator shares: the case being written, text layout, Ink's redraw.

A case is a list of steps and one byte stream. `Case.out(text)` appends program output the
way a PTY delivers it (the line discipline turns "\n" into "\r\n") and records an
`output N` step for those N bytes; the other methods record the other steps. Checkpoints
(`expect`) carry the true state, decided by the scenario, never by the rules.
"""

import os
import unicodedata

ESC = "\x1b"


def sgr(*codes):
    return ESC + "[" + ";".join(str(c) for c in codes) + "m"


RESET = sgr(0)
DIM = sgr(2)
BOLD = sgr(1)


def cup(row, col=1):
    """Cursor position, 1-based as on the wire."""
    return f"{ESC}[{row};{col}H"


def width(s):
    """Display width of plain text (no escapes): CJK wide and fullwidth count 2."""
    n = 0
    for ch in s:
        if unicodedata.combining(ch):
            continue
        n += 2 if unicodedata.east_asian_width(ch) in ("W", "F") else 1
    return n


def pad(s, w):
    """s padded with spaces to display width w (s must not be wider)."""
    return s + " " * max(0, w - width(s))


def cut(s, w):
    out, n = "", 0
    for ch in s:
        cw = width(ch)
        if n + cw > w:
            break
        out += ch
        n += cw
    return out


def wrap(text, w):
    """Word wrap to display width w; a word wider than w is broken. Paragraphs split on "\n"."""
    lines = []
    for para in text.split("\n"):
        line = ""
        for word in para.split(" "):
            while width(word) > w:
                room = w - width(line) - (1 if line else 0)
                if room < 4:
                    lines.append(line)
                    line, room = "", w
                head = cut(word, room)
                lines.append((line + " " + head) if line else head)
                line, word = "", word[len(head):]
            candidate = (line + " " + word) if line else word
            if width(candidate) > w:
                lines.append(line)
                line = word
            else:
                line = candidate
        lines.append(line)
    return lines


def hanging(text, w, first, rest=None):
    """text wrapped to w after a first-line prefix; later lines get rest (default: spaces)."""
    rest = " " * width(strip_sgr(first)) if rest is None else rest
    body = wrap(text, w - width(strip_sgr(first)))
    return [first + body[0]] + [rest + b for b in body[1:]]


class Case:
    """One labelled case: its header, its steps and its output bytes."""

    def __init__(self, agent, name, kind, cols, rows, processes, description, pane_agent=None):
        self.agent = agent  # the generator family (folder)
        self.name = name
        self.kind = kind
        self.cols = cols
        self.rows = rows
        self.processes = processes  # [(depth, name, script or None)]
        self.description = description
        self.identified = pane_agent if pane_agent is not None else agent  # "none" for no agent
        self.steps = []
        self.data = bytearray()
        self.checkpoints = 0

    def out(self, text, raw=False):
        if not text:
            return
        if not raw:
            text = text.replace("\r\n", "\n").replace("\n", "\r\n")
        b = text.encode("utf-8")
        self.data += b
        self.steps.append(f"output {len(b)}")

    def launch(self):
        """The agent's process starts here (the shell ran the command): it can be identified from now on."""
        self.steps.append("launch")

    def input(self, what="keys"):
        self.steps.append(f"input {what}")

    def hook(self, event):
        """A hook event reported for the pane; None (the agent has no such hook) records nothing."""
        if event:
            self.steps.append(f"hook {event}")

    def advance(self, ms):
        self.steps.append(f"advance {ms}")

    def resize(self, cols, rows):
        self.steps.append(f"resize {cols} {rows}")
        self.cols, self.rows = cols, rows

    def expect(self, status, mode=None):
        self.steps.append(f"expect {status}" if mode is None else f"expect@{mode} {status}")
        self.checkpoints += 1

    def write(self, root):
        d = os.path.join(root, self.agent)
        os.makedirs(d, exist_ok=True)
        with open(os.path.join(d, self.name + ".bin"), "wb") as f:
            f.write(self.data)
        lines = [f"# {self.description}", f"agent {self.identified}", f"kind {self.kind}",
                 f"size {self.initial[0]} {self.initial[1]}"]
        for depth, name, script in self.processes:
            lines.append(f"process {depth} {name}" + (f" {script}" if script else ""))
        lines += self.steps
        with open(os.path.join(d, self.name + ".case"), "w", encoding="utf-8") as f:
            f.write("\n".join(lines) + "\n")

    def start(self):
        self.initial = (self.cols, self.rows)
        return self


def new_case(agent, name, kind, cols, rows, processes, description, pane_agent=None):
    return Case(agent, name, kind, cols, rows, processes, description, pane_agent).start()


PREAMBLE = [
    ("cat ~/notes/agents.txt", ["claude shows '✻ Thinking… (esc to interrupt)' while it works",
                                "codex: • Working (12s • esc to interrupt)",
                                "Do you want to proceed?", "❯ 1. Yes", "› 1. Yes, proceed"]),
    ("git log --oneline -3", ["4f2a1c9 detector: Allow command? prompts", "9e1b0d2 (esc to cancel, 4s) for gemini",
                              "1c0ffee aider [Yes]: prompt"]),
    ("ls", ["README.md  pom.xml  src  target"]),
    ("grep -rn 'esc to interrupt' src | head -2", ["src/rules.txt:3:✻ Pondering… (3s · esc to interrupt)",
                                                   "src/rules.txt:9:│ > │"]),
]


def preamble(case, rng):
    """Earlier shell commands and their output, some naming the rules' phrases; returns the rows used."""
    used = 0
    for cmd, out in rng.sample(PREAMBLE, rng.randint(1, 3)):
        text = shell_prompt() + cmd + "\n" + "\n".join(l[: case.cols] for l in out) + "\n"
        case.out(text)
        used += 1 + len(out)
    return min(used, case.rows - 1)


def shell_prompt(user="dev", host="box", cwd="~/proj"):
    return f"{sgr(1, 32)}{user}@{host}{RESET}:{sgr(1, 34)}{cwd}{RESET}$ "


class InkLog:
    """Ink's log-update: each frame erases the previous one line by line, then writes itself.

    Static output (finished transcript items) is written between the erase and the frame,
    so it stays above, as Ink's <Static> does.
    """

    def __init__(self, case):
        self.case = case
        self.previous = 0

    def erase(self):
        if self.previous == 0:
            return ""
        s = ""
        for i in range(self.previous):
            s += ESC + "[2K" + (ESC + "[1A" if i < self.previous - 1 else "")
        return s + ESC + "[G"

    def fit(self, lines):
        """Ink lays text out to the width: a line wider than the terminal becomes several."""
        out = []
        for line in lines:
            plain = strip_sgr(line)
            if width(plain) <= self.case.cols:
                out.append(line)
                continue
            while width(plain) > self.case.cols:
                head = cut(plain, self.case.cols)
                out.append(head)
                plain = plain[len(head):]
            out.append(plain)
        return out

    def frame(self, lines, static=None):
        lines = self.fit(lines)
        static = self.fit(static) if static else static
        s = self.erase()
        if static:
            s += "\n".join(static) + "\n"
        s += "\n".join(lines) + "\n"
        self.previous = len(lines) + 1
        self.case.out(s)

    def clear_all(self, static, lines):
        """What an Ink app does on resize: clear screen and scrollback, print everything again."""
        lines = self.fit(lines)
        static = self.fit(static) if static else static
        s = ESC + "[2J" + ESC + "[3J" + ESC + "[H"
        if static:
            s += "\n".join(static) + "\n"
        s += "\n".join(lines) + "\n"
        self.previous = len(lines) + 1
        self.case.out(s)


def strip_sgr(s):
    out, i = "", 0
    while i < len(s):
        if s[i] == ESC:
            j = i + 1
            if j < len(s) and s[j] == "[":
                j += 1
                while j < len(s) and not ("@" <= s[j] <= "~"):
                    j += 1
                i = j + 1
                continue
        out += s[i]
        i += 1
    return out


def framed(inner_lines, w, color=None, left_pad=1):
    """Like box, for lines that may carry SGR: pads by their plain width."""
    c0 = color or ""
    c1 = RESET if color else ""
    inner = w - 2
    out = [f"{c0}╭{'─' * inner}╮{c1}"]
    for line in inner_lines:
        room = inner - left_pad
        plain = strip_sgr(line)
        if width(plain) > room:
            line = cut(plain, room)
            plain = line
        out.append(f"{c0}│{c1}{' ' * left_pad}{line}{' ' * (room - width(plain))}{c0}│{c1}")
    out.append(f"{c0}╰{'─' * inner}╯{c1}")
    return out
