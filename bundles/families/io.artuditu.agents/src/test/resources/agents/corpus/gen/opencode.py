"""opencode as it draws itself: a full-screen TUI in the alternate screen.

Every frame is the whole screen; only rows that changed are written (cursor position, the
row, erase to its end). The message list fills the top, the editor (a bar "┃" on its left)
and a hint line sit at the bottom: "enter send" at rest, "esc interrupt" while busy. A
permission request appears above the editor. The alternate screen is not reflowed on a
resize: the TUI draws everything again at the new size.
"""

import content as C
from common import BOLD, DIM, ESC, RESET, cup, hanging, preamble, sgr, shell_prompt, strip_sgr, width, wrap

ACCENT = sgr(38, 2, 250, 178, 131)
GRAY = sgr(38, 5, 245)
RED = sgr(38, 5, 203)
GREEN = sgr(38, 5, 114)
YELLOW = sgr(38, 5, 221)
SPIN = "⣾⣽⣻⢿⡿⣟⣯⣷"
LOGO = ["█▀▀█ █▀▀█ █▀▀ █▀▀▄ █▀▀ █▀▀█ █▀▀▄ █▀▀", "█░░█ █░░█ █▀▀ █░░█ █░░ █░░█ █░░█ █▀▀", "▀▀▀▀ █▀▀▀ ▀▀▀ ▀  ▀ ▀▀▀ ▀▀▀▀ ▀▀▀  ▀▀▀"]


class OpencodeUI:
    name = "opencode"
    hooks = {"start": None, "submit": None, "tool_pre": "tool.execute.before", "tool_post": "tool.execute.after",
             "approval": "permission.updated", "finish": "session.idle", "error": "session.error", "idle_later": None}

    def __init__(self, case, rng, style="v1"):
        self.case = case
        self.rng = rng
        self.style = style
        self.messages = []
        self.mode = "input"
        self.text = ""
        self.frame = 0
        self.spec = None
        self.previous = None

    @property
    def cols(self):
        return self.case.cols

    def message_lines(self):
        w = self.cols
        out = []
        for m in self.messages:
            kind = m[0]
            if kind == "user":
                out += [f"{ACCENT}┃{RESET} {l}" for l in wrap(m[1], w - 4)] + [""]
            elif kind == "assistant":
                out += ["  " + l for l in wrap(m[1], w - 4)] + [""]
            elif kind == "tool":
                out += [f"  {GRAY}${RESET} {m[1]}"[: w + 20]] + [f"  {DIM}{o[: w - 4]}{RESET}" for o in m[2][:4]] + [""]
            elif kind == "error":
                out += [f"  {RED}{l}{RESET}" for l in wrap("Error: " + m[1], w - 4)] + [""]
            elif kind == "note":
                out += [f"  {GRAY}{l}{RESET}" for l in wrap(m[1], w - 4)] + [""]
        return out

    def permission_lines(self):
        kind, detail, target = self.spec
        w = self.cols
        what = f"→ Bash  {detail[0]}" if kind == "bash" else f"→ Edit  {target or 'notes/plan.md'}"
        lines = [f"{YELLOW}┃{RESET}  {YELLOW}△{RESET} {BOLD}Permission required{RESET}"]
        lines += [f"{YELLOW}┃{RESET}  {l}" for l in wrap(what, w - 5)]
        lines += [f"{YELLOW}┃{RESET}"]
        if self.style == "v1":
            lines += [f"{YELLOW}┃{RESET}  {BOLD}Allow once{RESET}   Allow always   Reject"]
        else:
            lines += [f"{YELLOW}┃{RESET}  {l}" for l in wrap("enter accept   a accept always   d deny", w - 5)]
        return lines

    def hint(self):
        if self.mode in ("working", "approval"):
            g = SPIN[self.frame % len(SPIN)]
            return f"  {ACCENT}{g}{RESET} working…   {BOLD}esc{RESET} interrupt"
        return f"  {BOLD}enter{RESET} send"

    def compose(self):
        w, rows = self.cols, self.case.rows
        bottom = [f"{ACCENT}┃{RESET}"]
        text = self.text + "█" if self.text else GRAY + "Ask anything... \"Fix a TODO in the codebase\"" + RESET
        body = wrap(self.text + "█", w - 4) if self.text else [text if w >= 50 else GRAY + "Ask anything..." + RESET]
        bottom += [f"{ACCENT}┃{RESET}  {b}" for b in body]
        bottom += [f"{ACCENT}┃{RESET}"]
        model = "Build  claude-sonnet-4-5 Anthropic"
        hint = self.hint()
        gap = w - width(strip_sgr(hint)) - width(model)
        bottom.append(hint + (" " * gap + GRAY + model + RESET if gap > 1 else ""))
        bottom.append(GRAY + ("  opencode v0.15.8  ~/proj:main" + " " * max(1, w - 50) + "ctrl+p commands")[: w] + RESET)
        area = rows - len(bottom)
        if not self.messages:
            top = [""] * max(0, area // 2 - 4)
            for l in LOGO:
                top.append(" " * max(0, (w - width(l)) // 2) + (l if width(l) <= w else l[: w]))
            top.append("")
            for cmd, what, key in [("/new", "new session", "ctrl+x n"), ("/help", "show help", "ctrl+x h"),
                                   ("/sessions", "list sessions", "ctrl+x l")]:
                line = f"{cmd:<10} {what:<16} {key}"
                top.append(" " * max(0, (w - len(line)) // 2) + line[: w])
        else:
            top = self.message_lines()
        if self.mode == "approval":
            top = top + self.permission_lines() + [""]
        top = top[-area:] if len(top) > area else top + [""] * (area - len(top))
        return top + bottom

    def draw(self, full=False):
        rows = self.compose()
        s = ESC + "[?25l"
        if full or self.previous is None or len(self.previous) != len(rows):
            s += ESC + "[2J"
            self.previous = [None] * len(rows)
        for i, row in enumerate(rows):
            if row != self.previous[i]:
                plain = width(strip_sgr(row))
                s += cup(i + 1) + (row if plain <= self.cols else strip_sgr(row)[: self.cols]) + \
                    (ESC + "[K" if plain < self.cols else "")
        self.previous = rows
        self.case.out(s)

    def startup(self, resume_items=None):
        c = self.case
        c.preamble_rows = preamble(c, self.rng) if getattr(c, "with_preamble", False) else 0
        c.out(shell_prompt() + ("opencode --session ses_7f2a" if resume_items else "opencode") + "\n")
        c.launch()
        c.out(ESC + "[?1049h" + ESC + "[?1000h" + ESC + "[?1006h" + ESC + "[?2004h")
        self.messages = list(resume_items or [])
        self.draw(full=True)

    def tick_idle(self):
        """Nothing moves at rest."""

    def old_transcript(self, rng):
        return [("user", rng.choice(C.PROMPTS)), ("assistant", rng.choice(C.ANSWERS))]

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
        self.case.input("enter")
        if between:
            between()
        self.messages.append(("user", self.text))
        self.text = ""
        self.mode = "working"
        self.draw()

    def tick(self, secs=1):
        self.case.advance(secs * 1000)
        self.frame += secs
        self.draw()

    def tool(self, tool, arg, output):
        self.case.hook(self.hooks["tool_pre"])
        self.tick()
        self.messages.append(("tool", arg, output))
        self.draw()
        self.case.hook(self.hooks["tool_post"])

    def say(self, text):
        self.messages.append(("assistant", text))
        self.draw()

    def approval(self, kind, detail, target=None):
        self.case.hook(self.hooks["tool_pre"])
        self.mode = "approval"
        self.spec = (kind, detail, target)
        self.draw()
        self.case.hook(self.hooks["approval"])

    def answer(self, key="1"):
        self.case.input("enter")
        kind, detail, target = self.spec
        self.mode = "working"
        self.messages.append(("tool", detail[0], []) if kind == "bash" else ("note", f"✓ Edit {target or 'notes/plan.md'}"))
        self.draw()
        self.case.hook(self.hooks["tool_post"])

    def finish(self, text, hook_first=False, between=None):
        if hook_first:
            self.case.hook(self.hooks["finish"])
        if between:
            between()
        self.mode = "input"
        self.messages.append(("assistant", text))
        self.draw()
        if not hook_first:
            self.case.hook(self.hooks["finish"])

    def error(self, text):
        self.mode = "input"
        self.messages.append(("error", text))
        self.draw()
        self.case.hook(self.hooks["error"])

    def select_option(self, n):
        """The choices are keys, not a moving selection: the screen does not change."""
        self.case.input("right")

    def deny(self):
        self.case.input("d")
        self.mode = "input"
        self.messages.append(("note", "Permission rejected: the tool call was not run."))
        self.draw()
        return "idle"

    def interrupt(self):
        self.case.input("esc")
        self.case.input("esc")
        self.mode = "input"
        self.messages.append(("note", "The operation was aborted."))
        self.draw()

    def resize(self, cols, rows, redraw=True):
        self.case.resize(cols, rows)
        if redraw:
            self.redraw()

    def redraw(self):
        self.draw(full=True)


ERRORS = [
    "AI_APICallError: Overloaded",
    "ProviderAuthError: Anthropic API key is missing or invalid",
    "AI_RetryError: Failed after 3 attempts. Last error: fetch failed",
]


def processes(rng):
    return rng.choice([
        [(0, "bash", None), (1, "node", "opencode"), (2, "opencode", None)],
        [(0, "zsh", None), (1, "opencode", None)],
        [(0, "bash", None), (1, "bun", "opencode")],
    ])


def cases(rng):
    from scenarios import standard
    sizes = [(120, 40), (100, 30), (80, 24), (40, 30), (200, 50), (100, 14)]
    return standard("opencode", OpencodeUI, rng, sizes, ["v1", "v2"], processes, ERRORS)
