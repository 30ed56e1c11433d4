"""Gemini CLI as it draws itself: an Ink app in the main screen, like Claude Code.

Static history (the logo, "✦" answers, tool results in frames) above a live region: the
loading line ("⠏ Counting electrons... (esc to cancel, 4s)"), the input box
("│ >   Type your message or @path/to/file │") and the status footer, or a tool
confirmation in a frame in the input box's place. On a resize it clears and redraws.
"""

import content as C
from common import BOLD, DIM, ESC, InkLog, RESET, framed, hanging, preamble, sgr, shell_prompt, width, wrap

BLUE = sgr(38, 2, 71, 150, 228)
PURPLE = sgr(38, 2, 132, 122, 206)
GRAY = sgr(38, 5, 245)
RED = sgr(38, 5, 203)
GREEN = sgr(38, 5, 114)
YELLOW = sgr(38, 5, 221)
BRAILLE = "⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏"
PHRASES = ["I'm Feeling Lucky", "Reticulating splines...", "Counting electrons...", "Consulting the digital spirits...",
           "Warming up the AI hamsters...", "Analyzing the parser", "Planning the test changes"]

LOGO = [
    " ███            █████████  ██████████ ██████   ██████ █████ ██████   █████ █████",
    "░░░███         ███░░░░░███░░███░░░░░█░░██████ ██████ ░░███ ░░██████ ░░███ ░░███",
    "  ░░░███      ███     ░░░  ░███  █ ░  ░███░█████░███  ░███  ░███░███ ░███  ░███",
    "    ░░░███   ░███          ░██████    ░███░░███ ░███  ░███  ░███░░███░███  ░███",
]
SMALL_LOGO = [" ███ █████████", "░░░███ ░░░░░███", "  ░░░███  GEMINI"]


class GeminiUI:
    name = "gemini"
    hooks = {"start": "SessionStart", "submit": "BeforeAgent", "tool_pre": "BeforeTool", "tool_post": "AfterTool",
             "approval": "Notification:ToolPermission", "finish": "AfterAgent", "error": None, "idle_later": None}

    def __init__(self, case, rng, style="numbered"):
        self.case = case
        self.rng = rng
        self.style = style
        self.ink = InkLog(case)
        self.items = []
        self.mode = "input"
        self.text = ""
        self.secs = 0
        self.phrase = PHRASES[0]
        self.spec = None
        self.choice = 0

    @property
    def cols(self):
        return self.case.cols

    def item_lines(self, item):
        w = self.cols
        kind = item[0]
        if kind == "logo":
            logo = LOGO if w >= 82 else SMALL_LOGO
            lines = [BLUE + l + RESET for l in logo] + [""]
            lines += ["Tips for getting started:"] + hanging("Ask questions, edit files, or run commands.", w, "1. ")
            lines += hanging("Be specific for the best results.", w, "2. ")
            lines += hanging("Create GEMINI.md files to customize your interactions with Gemini.", w, "3. ")
            lines += hanging("/help for more information.", w, "4. ")
            return lines
        if kind == "user":
            return [GRAY + l + RESET for l in hanging(item[1], w, "> ")]
        if kind == "assistant":
            return [l for l in hanging(item[1], w, f"{PURPLE}✦{RESET} ")]
        if kind == "tool":
            _, tool, arg, out, ok = item
            mark = f"{GREEN}✔{RESET}" if ok else f"{RED}✕{RESET}"
            inner = hanging(f"{BOLD}{tool}{RESET} {arg}", w - 4, f"{mark}  ", "   ")
            if out:
                inner.append("")
                inner += [f"   {o}"[: w - 4] for o in out[:5]]
            return framed(inner, w, GRAY)
        if kind == "error":
            return [RED + l + RESET for l in hanging(item[1], w, "✕ ")]
        if kind == "info":
            return [YELLOW + l + RESET for l in hanging(item[1], w, "ℹ ")]
        raise ValueError(kind)

    def static_lines(self, items):
        out = []
        for item in items:
            out += self.item_lines(item) + [""]
        return out

    def loading(self):
        g = BRAILLE[self.secs % len(BRAILLE)]
        elapsed = f"{self.secs}s" if self.secs < 60 else f"{self.secs // 60}m {self.secs % 60}s"
        body = wrap(f"{self.phrase} (esc to cancel, {elapsed})", self.cols - 2)
        return [f"{BLUE}{g}{RESET} {body[0]}"] + [f"  {b}" for b in body[1:]]

    def input_lines(self):
        w = self.cols
        if self.text:
            body = wrap(self.text, w - 8)
            body[-1] += ESC + "[7m " + ESC + "[27m"
        else:
            body = [GRAY + "  Type your message or @path/to/file" + RESET if w >= 44 else GRAY + "  Type your message" + RESET]
        inner = [f"{PURPLE}>{RESET} {body[0]}"] + [f"  {b}" for b in body[1:]]
        lines = framed(inner, w, GRAY)
        footer = "~/proj (main*)     no sandbox (see /docs)     gemini-2.5-pro (99% context left)"
        if width(footer) > w:
            lines += [GRAY + "~/proj (main*)" + RESET, GRAY + "no sandbox (see /docs)" + RESET,
                      GRAY + "gemini-2.5-pro (99% context left)"[: w + 10] + RESET]
        else:
            lines.append(GRAY + footer + RESET)
        return lines

    def confirmation(self):
        kind, detail, target = self.spec
        w = self.cols
        inner_w = w - 4
        if kind == "bash":
            head = hanging(f"{BOLD}Shell{RESET} {detail[0]} ({detail[1]})", inner_w, f"{YELLOW}?{RESET}  ", "   ")
            body = ["  " + l for l in wrap(detail[0], inner_w - 2)]
            question = f"Allow execution of: '{detail[0].split()[0]}'?" if self.style == "numbered" else "Allow execution?"
        else:
            name = target or "notes/plan.md"
            head = hanging(f"{BOLD}Edit{RESET} {name}: if text == \"\": => if not text:", inner_w, f"{YELLOW}?{RESET}  ", "   ")
            body = [f"{n:>3} {m} {t}"[: inner_w] for n, m, t in (detail or C.DIFF)]
            question = "Apply this change?"
        options = ["Yes, allow once", "Yes, allow always", "No, suggest changes (esc)"]
        if kind != "bash":
            options.insert(2, "Modify with external editor")
        opt_lines = []
        for i, o in enumerate(options):
            if self.style == "numbered":
                opt_lines += hanging(o, inner_w, (f"{GREEN}● " if i == self.choice else "  ") + f"{i + 1}. ", "     ")
            else:
                opt_lines += hanging(o, inner_w, f"{GREEN}● " if i == self.choice else "  ", "  ")
            if i == self.choice:
                opt_lines[-1] += RESET
        inner = head + [""] + body + [""] + wrap(question, inner_w) + [""] + opt_lines
        return framed(inner, w, YELLOW)

    def dynamic(self):
        if self.mode == "approval":
            return self.confirmation()
        lines = []
        if self.mode == "working":
            lines += self.loading() + [""]
        return lines + self.input_lines()

    def draw(self, new=()):
        static = self.static_lines(new)
        self.items += list(new)
        self.ink.frame(self.dynamic(), static)

    def startup(self, resume_items=None):
        c = self.case
        c.preamble_rows = preamble(c, self.rng) if getattr(c, "with_preamble", False) else 0
        c.out(shell_prompt() + ("gemini --resume 3" if resume_items else "gemini") + "\n")
        c.launch()
        c.out(ESC + "[?25l" + ESC + "]0;Gemini - proj" + "\x07")
        self.draw([("logo",)] + list(resume_items or []))
        c.hook(self.hooks["start"])

    def tick_idle(self):
        """Ink draws only on change."""

    def old_transcript(self, rng):
        return [("user", rng.choice(C.PROMPTS)), ("assistant", rng.choice(C.ANSWERS)),
                ("info", "Resumed session 3 (12 messages).")]

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
        if hook_first:
            c.hook(self.hooks["submit"])
        if between:
            between()
        prompt, self.text = self.text, ""
        self.mode, self.secs = "working", 0
        self.phrase = self.rng.choice(PHRASES)
        self.draw([("user", prompt)])
        if not hook_first:
            c.hook(self.hooks["submit"])

    def tick(self, secs=1):
        self.case.advance(secs * 1000)
        self.secs += secs
        if self.secs % 3 == 0:
            self.phrase = self.rng.choice(PHRASES)
        self.draw()

    def tool(self, tool, arg, output):
        self.case.hook(self.hooks["tool_pre"])
        self.tick()
        self.draw([("tool", "Shell", arg, output, True)])
        self.case.hook(self.hooks["tool_post"])

    def say(self, text):
        self.draw([("assistant", text)])

    def approval(self, kind, detail, target=None):
        self.case.hook(self.hooks["tool_pre"])
        self.mode = "approval"
        self.spec = (kind, detail, target)
        self.choice = 0
        self.draw()
        self.case.hook(self.hooks["approval"])

    def answer(self, key="1"):
        self.case.input(key)
        kind, detail, target = self.spec
        self.mode = "working"
        self.draw([("tool", "Shell" if kind == "bash" else "Edit", detail[0] if kind == "bash" else target or "notes/plan.md",
                    [], True)])
        self.case.hook(self.hooks["tool_post"])

    def finish(self, text, hook_first=False, between=None):
        if hook_first:
            self.case.hook(self.hooks["finish"])
        if between:
            between()
        self.mode = "input"
        self.draw([("assistant", text)])
        if not hook_first:
            self.case.hook(self.hooks["finish"])

    def error(self, text):
        self.mode = "input"
        self.draw([("error", text)])

    def interrupt(self):
        self.case.input("esc")
        self.mode = "input"
        self.draw([("info", "Request cancelled.")])

    def select_option(self, n):
        self.case.input("down" if n > self.choice else "up")
        self.choice = n
        self.draw()

    def deny(self):
        self.case.input("esc")
        self.mode, self.choice = "input", 0
        self.draw([("info", "Request cancelled.")])
        return "idle"

    def resize(self, cols, rows, redraw=True):
        self.case.resize(cols, rows)
        if redraw:
            self.redraw()

    def redraw(self):
        self.ink.clear_all(self.static_lines(self.items), self.dynamic())


ERRORS = [
    "[API Error: got status: 429 Too Many Requests. Quota exceeded for quota metric 'Gemini 2.5 Pro Requests']",
    "[API Error: exception TypeError: fetch failed sending request]",
    "[API Error: got status: 500 Internal Server Error. An internal error has occurred.]",
]


def processes(rng):
    return rng.choice([
        [(0, "bash", None), (1, "node", "gemini"), (2, "node", "gemini-cli")],
        [(0, "bash", None), (1, "node", "gemini-cli")],
        [(0, "zsh", None), (1, "gemini", None)],
    ])


def cases(rng):
    from scenarios import standard
    sizes = [(120, 40), (100, 30), (80, 24), (40, 30), (200, 50), (100, 14)]
    return standard("gemini", GeminiUI, rng, sizes, ["numbered", "plain"], processes, ERRORS)
