"""Codex CLI as it draws itself: a ratatui inline viewport at the bottom of the main screen.

History cells are inserted above the viewport: while there is room below, the viewport is
scrolled down (SD inside a scroll region) and the cells written where it was; once it sits
on the last row, a scroll region above it scrolls the history up. The viewport holds the
status indicator ("• Working (5s • esc to interrupt)") while a turn runs, the composer
("› …") and its footer, or an approval request in the composer's place. Rows are drawn
with cursor positioning and erased to their end, never with Ink-style line erasing.
"""

import content as C
from common import BOLD, DIM, ESC, RESET, cup, cut, hanging, preamble, sgr, shell_prompt, strip_sgr, width, wrap

CYAN = sgr(36)
RED = sgr(31)
GREEN = sgr(32)
SPIN = "⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏"
HEADERS = ["Working", "Working", "Inspecting the parser", "Planning the change", "Running the tests", "Working"]


class Inline:
    """The viewport's place on the screen, and the sequences that move and draw it."""

    def __init__(self, case, top):
        self.case = case
        self.vtop = top
        self.vh = 0

    @property
    def rows(self):
        return self.case.rows

    def insert(self, lines):
        s = ""
        below = self.rows - (self.vtop + self.vh - 1)
        move = min(len(lines), max(0, below))
        if move:
            s += f"{ESC}[{self.vtop};{self.rows}r{cup(self.vtop)}{ESC}[{move}T{ESC}[r"
            for i, line in enumerate(lines[:move]):
                s += cup(self.vtop + i) + self.row(line)
            self.vtop += move
            lines = lines[move:]
        if lines:
            if self.vtop > 1:
                s += f"{ESC}[1;{self.vtop - 1}r{cup(self.vtop - 1)}"
                for line in lines:
                    s += "\n" + line
                s += f"{ESC}[r"
        return s

    def draw(self, lines, before=""):
        """One frame: history inserted first (before), then the viewport, written together."""
        s = before + ESC + "[?25l"
        if len(lines) > self.rows:
            # The bottom pane is at most the screen: its top (the diff's first lines) is cut.
            lines = lines[-self.rows:]
        h = len(lines)
        if self.vtop + h - 1 > self.rows:
            need = self.vtop + h - 1 - self.rows
            s += cup(self.rows) + "\n" * need
            self.vtop -= need
        for i, line in enumerate(lines):
            s += cup(self.vtop + i) + self.row(line)
        if h < self.vh:
            s += cup(self.vtop + h) + ESC + "[J"
        self.vh = h
        s += cup(self.vtop + max(0, self.cursor_row(lines)), 3) + ESC + "[?25h"
        self.case.out(s)

    def row(self, line):
        """A row's text, cut at the width as ratatui cuts it, erased to its end unless it fills
        the row (EL there would take the last cell)."""
        plain = strip_sgr(line)
        if width(plain) > self.case.cols:
            line = plain = cut(plain, self.case.cols)
        return line if width(plain) >= self.case.cols else line + ESC + "[K"

    @staticmethod
    def cursor_row(lines):
        for i, line in enumerate(lines):
            if line.startswith("› ") or line.startswith("▌ "):
                return i
        return len(lines) - 1


class CodexUI:
    name = "codex"
    hooks = {"start": None, "submit": None, "tool_pre": None, "tool_post": None, "approval": None,
             "finish": "agent-turn-complete", "error": None, "idle_later": None}

    def __init__(self, case, rng, style="v2"):
        self.case = case
        self.rng = rng
        self.style = style
        self.view = None
        self.mode = "input"
        self.text = ""
        self.secs = 0
        self.header = "Working"
        self.spec = None
        self.choice = 0
        self.items = []
        self.pending = ""

    @property
    def cols(self):
        return self.case.cols

    # --- cells ---

    def cell(self, item):
        w = self.cols
        kind = item[0]
        if kind == "header":
            inner = w - 4
            top = "╭" + "─" * (min(w, 52) - 2) + "╮"
            bw = len(top)
            body = [f">_ {BOLD}OpenAI Codex{RESET} (v0.46.0)", "", f"{DIM}model:{RESET}     gpt-5-codex",
                    f"{DIM}directory:{RESET} ~/proj"]
            lines = [top]
            for b in body:
                b = b if width(strip_sgr(b)) <= bw - 4 else strip_sgr(b)[: bw - 4]
                lines.append("│ " + b + " " * (bw - 4 - width(strip_sgr(b))) + " │")
            lines.append("╰" + "─" * (bw - 2) + "╯")
            lines += ["", f"  To get started, describe a task or try one of these commands:"[: w], "",
                      f"  /init - create an AGENTS.md file with instructions for Codex"[: w],
                      f"  /status - show current session configuration"[: w], ""]
            return lines
        if kind == "user":
            return [sgr(48, 5, 236) + l + RESET for l in hanging(item[1], w, "› ")] + [""]
        if kind == "exec":
            _, cmd, out = item
            lines = hanging(f"{BOLD}Ran{RESET} {cmd}", w, f"{GREEN}•{RESET} ", "  │ ")
            for i, o in enumerate(out[:4]):
                lines.append(("  └ " if i == 0 else "    ") + DIM + o[: w - 4] + RESET)
            if len(out) > 4:
                lines.append(f"    {DIM}… +{len(out) - 4} lines{RESET}")
            return lines + [""]
        if kind == "assistant":
            return hanging(item[1], w, "• ") + [""]
        if kind == "worked":
            label = f"─ Worked for {item[1]} ─"
            return [DIM + label + "─" * max(0, w - len(label)) + RESET, ""]
        if kind == "error":
            return [RED + l + RESET for l in hanging(item[1], w, "■ ")] + [""]
        raise ValueError(kind)

    def add(self, *items):
        """History cells, inserted with the next frame."""
        lines = []
        for item in items:
            self.items.append(item)
            lines += self.cell(item)
        self.pending += self.view.insert(lines)

    # --- the viewport ---

    def composer(self):
        w = self.cols
        mark = "›" if self.style == "v2" else "▌"
        if self.text:
            body = wrap(self.text, w - 2)
        else:
            body = [DIM + "Ask Codex to do anything" + RESET]
        lines = [""] + [f"{mark} {body[0]}"] + [f"  {b}" for b in body[1:]] + [""]
        footer = "  100% context left · ? for shortcuts" if self.style == "v2" else "  ⏎ send   ⇧⏎ newline   ⌃T transcript   ⌃C quit"
        return lines + [DIM + footer[: w] + RESET]

    def status(self):
        g = "•" if self.style == "v2" else SPIN[self.secs % len(SPIN)]
        elapsed = f"{self.secs}s" if self.secs < 60 else f"{self.secs // 60}m {self.secs % 60:02d}s"
        return [f"{g} {BOLD}{self.header}{RESET} {DIM}({elapsed} • esc to interrupt){RESET}"]

    def approval_lines(self):
        kind, detail, target = self.spec
        w = self.cols
        if self.style == "v2":
            title = "Would you like to run the following command?" if kind == "bash" else \
                "Would you like to make the following edits?"
            lines = [""] + ["  " + l for l in wrap(title, w - 2)] + [""]
            if kind == "bash":
                lines += ["  " + l for l in wrap("Reason: " + detail[1], w - 2)] + [""]
                lines += ["  " + l for l in wrap("$ " + detail[0], w - 2)] + [""]
            else:
                lines += ["  " + (target or "notes/plan.md")] + [f"  {n:>3} {m}{t}"[: w] for n, m, t in (detail or [])] + [""]
            opts = ["Yes, proceed", "Yes, and don't ask again for this command" if kind == "bash" else
                    "Yes, and don't ask again for these files", "No, and tell Codex what to do differently esc"]
            for i, o in enumerate(opts):
                lines += hanging(o, w, (f"{CYAN}› " if i == self.choice else "  ") + f"{i + 1}. ", "     ")
                if i == self.choice:
                    lines[-1] += RESET
            lines += ["", DIM + "  Press enter to confirm or esc to cancel"[: w] + RESET]
            return lines
        title = "Allow command?" if kind == "bash" else "Allow edits?"
        lines = ["", f"  {BOLD}{title}{RESET}", ""]
        lines += ["  " + l for l in wrap("$ " + detail[0] if kind == "bash" else (target or "notes/plan.md"), w - 2)] + [""]
        lines += [f"{CYAN}› Yes, proceed (y){RESET}"] + hanging("Yes, always for this session (a)", w, "  ") + \
            hanging("No, and tell Codex what to do differently (esc)", w, "  ")
        return lines

    def viewport(self):
        if self.mode == "approval":
            return self.approval_lines()
        lines = []
        if self.mode == "working":
            lines += self.status()
        return lines + self.composer()

    def draw(self):
        before, self.pending = self.pending, ""
        self.view.draw(self.viewport(), before)

    # --- what happens ---

    def startup(self, resume_items=None):
        c = self.case
        c.preamble_rows = preamble(c, self.rng) if getattr(c, "with_preamble", False) else 0
        c.out(shell_prompt() + ("codex resume 0199a2" if resume_items else "codex") + "\n")
        c.launch()
        c.out(ESC + "[?2004h" + ESC + "[>1u")
        self.view = Inline(c, min(2 + c.preamble_rows, c.rows))
        self.draw()
        self.add(("header",), *(resume_items or []))
        self.draw()

    def tick_idle(self):
        """The composer does not move while nothing happens."""

    def old_transcript(self, rng):
        return [("user", rng.choice(C.PROMPTS)), ("assistant", rng.choice(C.ANSWERS)), ("worked", "38s")]

    def type_text(self, text):
        self.case.input()
        self.text = text
        self.draw()

    def type_ahead(self, text):
        """The user types the next message while the turn runs; the input shows it."""
        self.case.input()
        self.text = text
        self.draw()
        return True

    def submit(self, hook_first=False, between=None):
        c = self.case
        c.input("enter")
        if between:
            between()
        prompt, self.text = self.text, ""
        self.mode, self.secs = "working", 0
        self.header = "Working"
        self.add(("user", prompt))
        self.draw()

    def tick(self, secs=1):
        self.case.advance(secs * 1000)
        self.secs += secs
        if self.style == "v2" and self.secs > 2:
            self.header = HEADERS[self.secs % len(HEADERS)]
        self.draw()

    def tool(self, tool, arg, output):
        self.tick()
        self.add(("exec", arg, output))
        self.draw()

    def say(self, text):
        self.add(("assistant", text))
        self.draw()

    def approval(self, kind, detail, target=None):
        self.choice = 0
        self.mode = "approval"
        self.spec = (kind, detail, target)
        self.draw()

    def answer(self, key="1"):
        self.case.input(key)
        kind, detail, target = self.spec
        self.mode = "working"
        self.draw()
        self.add(("exec", detail[0], []) if kind == "bash" else ("assistant", f"Edited {target or 'notes/plan.md'} (+2 -2)"))
        self.draw()

    def finish(self, text, hook_first=False, between=None):
        if hook_first:
            self.case.hook(self.hooks["finish"])
        if between:
            between()
        self.mode = "input"
        items = [("assistant", text)]
        if self.style == "v2":
            items.append(("worked", f"{self.secs + 3}s"))
        self.add(*items)
        self.draw()
        if not hook_first:
            self.case.hook(self.hooks["finish"])

    def error(self, text):
        self.mode = "input"
        self.add(("error", text))
        self.draw()

    def interrupt(self):
        self.case.input("esc")
        self.mode = "input"
        self.add(("error", "Conversation interrupted - tell the model what to do differently"))
        self.draw()

    def select_option(self, n):
        self.case.input("down" if n > self.choice else "up")
        self.choice = n
        self.draw()

    def deny(self):
        self.case.input("3")
        self.mode, self.choice = "input", 0
        self.add(("error", "You did not approve the command; tell Codex what to do differently"))
        self.draw()
        return "idle"

    def resize(self, cols, rows, redraw=True):
        self.case.resize(cols, rows)
        if redraw:
            self.redraw()

    def redraw(self):
        lines = self.viewport()
        self.view.vtop = max(1, self.case.rows - len(lines) + 1)
        self.case.out(cup(self.view.vtop) + ESC + "[J")
        self.view.vh = 0
        self.draw()


ERRORS = [
    "unexpected status 401 Unauthorized: Missing bearer or basic authentication in header",
    "stream disconnected before completion: error sending request for url (https://api.openai.com/v1/responses)",
    "You've hit your usage limit. Upgrade to Pro or try again in 2 hours.",
]


def processes(rng):
    return rng.choice([
        [(0, "bash", None), (1, "node", "codex"), (2, "codex", None)],
        [(0, "zsh", None), (1, "codex", None)],
        [(0, "bash", None), (1, "codex", None), (2, "bash", None), (3, "python3", "pytest")],
    ])


def cases(rng):
    from scenarios import standard
    sizes = [(120, 40), (100, 30), (80, 24), (40, 30), (200, 50), (100, 14)]
    return standard("codex", CodexUI, rng, sizes, ["v2", "v1"], processes, ERRORS)
