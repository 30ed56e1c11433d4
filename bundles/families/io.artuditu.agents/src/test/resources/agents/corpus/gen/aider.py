"""Aider as it draws itself: plain lines, a prompt_toolkit prompt, rich's live markdown.

Start-up lines, a rule, then the prompt ("> ", or "architect> ") redrawn in place as the
user types (CR, the prompt, erase to end of line). After a submit: a "Waiting for <model>"
spinner redrawn with CR, then the answer streamed in (its last lines rewritten with
cursor-up and erase), the token report, edits and commits, then the rule and the prompt.
Questions are prompts too: "Run shell command? (Y)es/(N)o/(D)on't ask again [Yes]: ".
"""

import content as C
from common import DIM, ESC, RESET, preamble, sgr, shell_prompt, strip_sgr, width, wrap

GREEN = sgr(32)
BLUE = sgr(38, 5, 33)
RED = sgr(31)
YELLOW = sgr(33)
SCANNER = ["█░░░░░░░", "░█░░░░░░", "░░█░░░░░", "░░░█░░░░", "░░░░█░░░", "░░░░░█░░", "░░░░░░█░", "░░░░░░░█"]


class AiderUI:
    name = "aider"
    hooks = {"start": None, "submit": None, "tool_pre": None, "tool_post": None, "approval": None,
             "finish": "AwaitingInput", "error": "AwaitingInput", "idle_later": None}

    def __init__(self, case, rng, style="plain"):
        self.case = case
        self.rng = rng
        self.style = style
        self.prompt = "> " if style == "plain" else "architect> "
        self.text = ""
        self.frame = 0
        self.live = 0  # rows of the streaming answer that may still be rewritten
        self.current = None  # the line redrawn in place: the prompt, a question or the spinner

    @property
    def cols(self):
        return self.case.cols

    def rule(self):
        return BLUE + "─" * self.cols + RESET + "\n"

    def prompt_line(self):
        self.current = GREEN + self.prompt + RESET + self.text
        return "\r" + self.current + ESC + "[K"

    def show_prompt(self):
        self.case.out(self.rule() + ESC + "[?2004h" + self.prompt_line())

    def startup(self, resume_items=None):
        c = self.case
        c.preamble_rows = preamble(c, self.rng) if getattr(c, "with_preamble", False) else 0
        c.out(shell_prompt() + "aider --model sonnet" + ("  --restore-chat-history" if resume_items else "") + "\n")
        c.launch()
        lines = ["Aider v0.86.1", "Main model: anthropic/claude-sonnet-4-20250514 with diff edit format, infinite output",
                 "Weak model: anthropic/claude-3-5-haiku-20241022", "Git repo: .git with 48 files",
                 "Repo-map: using 4096 tokens, auto refresh"]
        c.out("\n".join(lines) + "\n")
        if resume_items:
            for role, text in resume_items:
                c.out((GREEN + "> " + RESET if role == "user" else "") + text + "\n\n")
        self.show_prompt()

    def tick_idle(self):
        """The prompt does not move."""

    def old_transcript(self, rng):
        return [("user", rng.choice(C.PROMPTS)), ("assistant", rng.choice(C.ANSWERS))]

    def type_text(self, text):
        self.case.input()
        self.text = text
        self.case.out(self.prompt_line())

    def type_ahead(self, text):
        """Input is not read while a turn runs here."""
        return False

    def submit(self, hook_first=False, between=None):
        c = self.case
        c.input("enter")
        if between:
            between()
        self.text = ""
        c.out("\n" + ESC + "[?2004l" + "\n")
        self.frame = 0
        self.spin()

    def spin(self):
        line = (SCANNER[self.frame % len(SCANNER)] + " Waiting for anthropic/claude-sonnet-4-20250514")[: self.cols - 1]
        self.current = line
        self.case.out("\r" + line + ESC + "[K")
        self.frame += 1

    def unspin(self):
        self.current = None
        self.case.out("\r" + ESC + "[K")

    def tick(self, secs=1):
        self.case.advance(secs * 1000)
        if self.live:
            self.stream("and the rest of it follows as the model writes it.")
        else:
            self.spin()

    def stream(self, text):
        """A piece of the answer: rich rewrites the last rows of the live block."""
        lines = wrap(text, self.cols)
        s = ""
        if self.live:
            s += (ESC + "[1A") * self.live + "\r"
        self.live = min(len(lines), 3)
        s += "\n".join(l + ESC + "[K" for l in lines) + "\n"
        self.case.out(s)

    def tool(self, tool, arg, output):
        self.case.advance(1000)
        self.unspin()
        self.stream("I'll run the tests to see what fails.")
        self.live = 0
        self.case.out(f"\n{DIM}```bash{RESET}\n{arg}\n{DIM}```{RESET}\n\n")
        self.case.out(f"Run shell command? (Y)es/(N)o/(D)on't ask again [Yes]: y\n")
        self.case.out(f"\nRunning {arg}\n" + "\n".join(output) + "\n")
        self.case.out("Add command output to the chat? (Y)es/(N)o/(D)on't ask again [Yes]: y\n")
        self.case.out(f"Added {len(output)} lines of output to the chat.\n\n")
        self.spin()

    def say(self, text):
        self.unspin()
        self.stream(text)

    def approval(self, kind, detail, target=None):
        self.unspin()
        self.live = 0
        c = self.case
        if kind == "bash":
            c.out(f"\n{DIM}```bash{RESET}\n{detail[0]}\n{DIM}```{RESET}\n")
            question = "Run shell command? (Y)es/(N)o/(D)on't ask again [Yes]: "
        elif kind == "edit":
            c.out(f"\n{target}\n")
            question = f"Allow edits to {target} which was not previously added to chat? (Y)es/(N)o [Yes]: "
        else:
            question = f"Create new file {target}? (Y)es/(N)o [Yes]: "
        self.current = YELLOW + question + RESET
        c.out(ESC + "[?2004h" + self.current)

    def answer(self, key="1"):
        c = self.case
        c.input("y")
        c.out("y\n" + ESC + "[?2004l")
        c.out("\n")
        self.spin()

    def finish(self, text, hook_first=False, between=None):
        c = self.case
        if hook_first:
            c.hook(self.hooks["finish"])
        self.unspin()
        self.live = 0
        for para in [text]:
            c.out("\n".join(wrap(para, self.cols)) + "\n\n")
        c.out(f"Tokens: 4.2k sent, {self.rng.randint(80, 900)} received. Cost: $0.02 message, $0.05 session.\n")
        if self.rng.random() < 0.6:
            c.out(f"Applied edit to src/parser.py\nCommit {self.rng.randrange(16**7):07x} fix: handle empty input in parser\n"
                  "You can use /undo to undo and discard each aider commit.\n")
        if between:
            between()
        self.show_prompt()
        if not hook_first:
            c.hook(self.hooks["finish"])

    def error(self, text):
        c = self.case
        self.unspin()
        self.live = 0
        c.out(RED + "\n".join(wrap(text, self.cols)) + RESET + "\n\n")
        self.show_prompt()
        c.hook(self.hooks["error"])

    def select_option(self, n):
        """Aider's questions are typed answers: nothing to move."""
        return None

    def deny(self):
        c = self.case
        c.input("n")
        c.out("n\n" + ESC + "[?2004l")
        self.show_prompt()
        return "idle"

    def interrupt(self):
        c = self.case
        c.input("ctrl+c")
        self.unspin()
        self.live = 0
        c.out("\n\n^C again to exit\n")
        self.show_prompt()

    def resize(self, cols, rows, redraw=True):
        self.case.resize(cols, rows)
        if redraw:
            self.redraw()

    def redraw(self):
        """prompt_toolkit redraws its prompt (or question) line; the spinner redraws its own."""
        if self.current:
            up = (width(strip_sgr(self.current)) - 1) // self.cols
            self.case.out((f"{ESC}[{up}A" if up else "") + "\r" + ESC + "[J" + self.current)

    def select(self):
        raise NotImplementedError


ERRORS = [
    "litellm.RateLimitError: AnthropicException - This request would exceed the rate limit for your organization.",
    "litellm.AuthenticationError: AnthropicException - invalid x-api-key",
    "The API provider's servers are down or overloaded.",
]


def processes(rng):
    return rng.choice([
        [(0, "bash", None), (1, "aider", None)],
        [(0, "bash", None), (1, "python3.12", "aider")],
        [(0, "zsh", None), (1, "python3", "aider")],
    ])


def cases(rng):
    from scenarios import standard
    sizes = [(120, 40), (100, 30), (80, 24), (40, 30), (200, 50), (100, 14)]
    return standard("aider", AiderUI, rng, sizes, ["plain", "architect"], processes, ERRORS)
