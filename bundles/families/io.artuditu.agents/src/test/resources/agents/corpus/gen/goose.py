"""goose as it draws itself: a line-oriented session with a rustyline prompt and cliclack widgets.

"( O)> " waits for input (redrawn in place as the user types); a spinner with a phrase
("◒  Spreading the good vibes...") redrawn with CR and erase-line while the model thinks;
tool calls printed as "─── shell | developer ───" blocks; in approve mode a cliclack
selection ("◆  Goose would like to call the above tool, do you allow?") that collapses to
"◇ … Allow" once answered.
"""

import content as C
from common import BOLD, DIM, ESC, RESET, preamble, sgr, shell_prompt, strip_sgr, width, wrap

CYAN = sgr(36)
GREEN = sgr(32)
RED = sgr(31)
MAGENTA = sgr(35)
SPIN = "◒◐◓◑"
PHRASES = ["Spreading the good vibes...", "Consulting the rubber duck...", "Thinking...", "Untangling the yarn...",
           "Herding the bits..."]


class GooseUI:
    name = "goose"
    hooks = {"start": None, "submit": None, "tool_pre": None, "tool_post": None, "approval": None, "finish": None,
             "error": None, "idle_later": None}

    def __init__(self, case, rng, style="v1"):
        self.case = case
        self.rng = rng
        self.style = style
        self.text = ""
        self.frame = 0
        self.phrase = PHRASES[0]
        self.current = None
        self.select_rows = 0
        self.choice = 0

    @property
    def cols(self):
        return self.case.cols

    def prompt(self):
        self.current = f"{BOLD}( O)>{RESET} " + (self.text or DIM + "Press Enter to send, Ctrl-J for new line" + RESET)
        if width(strip_sgr(self.current)) >= self.cols:
            self.current = f"{BOLD}( O)>{RESET} " + self.text
        return "\r" + self.current + ESC + "[K"

    def context(self, pct):
        dots = "●" * (pct // 10) + "○" * (10 - pct // 10)
        return f"Context: {dots} {pct}% ({pct * 2000}/200000 tokens)"[: self.cols]

    def startup(self, resume_items=None):
        c = self.case
        c.preamble_rows = preamble(c, self.rng) if getattr(c, "with_preamble", False) else 0
        c.out(shell_prompt() + ("goose session --resume --name fix-parser" if resume_items else "goose session") + "\n")
        c.launch()
        lines = [f"{'resuming' if resume_items else 'starting'} session | provider: anthropic model: claude-sonnet-4-5",
                 f"    {DIM}session id: 20251201_4{RESET}", f"    {DIM}working directory: /home/dev/proj{RESET}", ""]
        if resume_items:
            for role, text in resume_items:
                lines += (["( O)> " + text] if role == "user" else wrap(text, self.cols)) + [""]
        else:
            lines += wrap("goose is running! Enter your instructions, or try asking what goose can do.", self.cols) + [""]
        lines.append(self.context(0))
        c.out("\n".join(lines) + "\n" + self.prompt())

    def tick_idle(self):
        """The prompt does not move."""

    def old_transcript(self, rng):
        return [("user", rng.choice(C.PROMPTS)), ("assistant", rng.choice(C.ANSWERS))]

    def type_text(self, text):
        self.case.input()
        self.text = text
        self.case.out(self.prompt())

    def type_ahead(self, text):
        """Input is not read while a turn runs here."""
        return False

    def submit(self, hook_first=False, between=None):
        c = self.case
        c.input("enter")
        if between:
            between()
        c.out("\r" + f"{BOLD}( O)>{RESET} " + self.text + ESC + "[K\n")
        self.text = ""
        self.phrase = self.rng.choice(PHRASES)
        self.spin()

    def spin(self):
        self.current = f"{MAGENTA}{SPIN[self.frame % 4]}{RESET}  {self.phrase}"
        self.case.out(ESC + "[?25l\r" + ESC + "[2K" + self.current)
        self.frame += 1

    def unspin(self):
        self.current = None
        self.case.out("\r" + ESC + "[2K" + ESC + "[?25h")

    def tick(self, secs=1):
        self.case.advance(secs * 1000)
        self.spin()

    def tool_header(self, arg):
        head = "─── shell | developer "
        return [DIM + head + "─" * max(0, self.cols - len(head)) + RESET] + [f"{BOLD}command{RESET}: {l}" for l in wrap(arg, self.cols - 9)]

    def tool(self, tool, arg, output):
        self.case.advance(1000)
        self.unspin()
        self.case.out("\n".join(self.tool_header(arg) + [""] + [o[: self.cols] for o in output] + [""]) + "\n")
        self.spin()

    def say(self, text):
        self.unspin()
        self.case.out("\n".join(wrap(text, self.cols)) + "\n")
        self.spin()

    def approval(self, kind, detail, target=None, redraw=False):
        if redraw:
            self.case.out((ESC + "[1A") * self.select_rows + "\r" + ESC + "[J" + "\n".join(self.selection()) + "\n")
            return
        self.unspin()
        self.choice = 0
        arg = detail[0] if kind == "bash" else f"edit {target or 'notes/plan.md'}"
        lines = self.tool_header(arg) + [""]
        sel = self.selection()
        self.select_rows = len(sel)
        self.current = None
        self.case.out("\n".join(lines + sel) + "\n")

    def selection(self):
        q = "Goose would like to call the above tool, do you allow?"
        sel = [f"{CYAN}◆{RESET}  " + l for l in wrap(q, self.cols - 3)[:1]] + ["│  " + l for l in wrap(q, self.cols - 3)[1:]]
        for i, label in enumerate(["Allow", "Always Allow", "Deny", "Cancel"]):
            sel.append(f"│  {GREEN}●{RESET} {label}" if i == self.choice else f"│  ○ {label}")
        sel.append("└")
        return sel

    def answer(self, key="1"):
        c = self.case
        c.input("enter")
        q = "Goose would like to call the above tool, do you allow?"
        s = (ESC + "[1A") * self.select_rows + "\r" + ESC + "[J"
        s += "\n".join([f"{GREEN}◇{RESET}  " + q[: self.cols - 3], f"│  {DIM}Allow{RESET}", ""]) + "\n"
        c.out(s)
        self.spin()

    def finish(self, text, hook_first=False, between=None):
        c = self.case
        self.unspin()
        c.out("\n".join(wrap(text, self.cols)) + "\n\n" + self.context(self.rng.randint(3, 40)) + "\n")
        if between:
            between()
        c.out(self.prompt())

    def error(self, text):
        self.unspin()
        self.case.out(RED + "\n".join(wrap("Ran into this error: " + text, self.cols)) + RESET + "\n\n"
                      + "\n".join(wrap("Please retry if you think this is a transient or recoverable error.", self.cols))
                      + "\n\n" + self.prompt())

    def select_option(self, n):
        self.case.input("down" if n > self.choice else "up")
        self.choice = n
        self.approval(None, None, redraw=True)

    def deny(self):
        """Deny goes back to the model, which carries on without the tool."""
        c = self.case
        c.input("enter")
        q = "Goose would like to call the above tool, do you allow?"
        c.out((ESC + "[1A") * self.select_rows + "\r" + ESC + "[J"
              + "\n".join([f"{GREEN}◇{RESET}  " + q[: self.cols - 3], f"│  {DIM}Deny{RESET}", ""]) + "\n")
        self.choice = 0
        self.spin()
        return "working"

    def interrupt(self):
        self.case.input("ctrl+c")
        self.unspin()
        self.case.out("\n".join(wrap("Interrupted before the model replied and removed the last message.", self.cols))
                      + "\n\n" + self.prompt())

    def resize(self, cols, rows, redraw=True):
        self.case.resize(cols, rows)
        if redraw:
            self.redraw()

    def redraw(self):
        if self.current:
            up = (width(strip_sgr(self.current)) - 1) // self.cols
            self.case.out((f"{ESC}[{up}A" if up else "") + "\r" + ESC + "[J" + self.current)


ERRORS = [
    "Request failed with status: 529 Overloaded",
    "Authentication error: invalid x-api-key",
    "Context length exceeded. Please start a new session.",
]


def processes(rng):
    return rng.choice([
        [(0, "bash", None), (1, "goose", None)],
        [(0, "zsh", None), (1, "goose", None), (2, "bash", None)],
    ])


def cases(rng):
    from scenarios import standard
    sizes = [(120, 40), (100, 30), (80, 24), (40, 30), (200, 50), (100, 14)]
    return standard("goose", GooseUI, rng, sizes, ["v1"], processes, ERRORS)
