"""Claude Code as it draws itself: an Ink app in the main screen.

The transcript is static output above a live region that Ink erases and redraws on every
change: the spinner line ("✻ Pondering… (12s · ↑ 1.2k tokens · esc to interrupt)"), the
input box ("╭─╮ │ > │ ╰─╯" in 1.x, "> " between two rules in 2.x) with its footer
("  ? for shortcuts"), or a permission prompt in the input box's place. On a resize it clears
the screen and the scrollback and prints everything again at the new width.
"""

import content as C
from common import BOLD, DIM, ESC, InkLog, RESET, framed, hanging, preamble, sgr, shell_prompt, width, wrap

ORANGE = sgr(38, 2, 215, 119, 87)
GRAY = sgr(38, 5, 244)
RED = sgr(38, 5, 196)
GREEN = sgr(38, 5, 114)
GLYPHS = ["·", "✢", "✳", "✶", "✻", "✽"]
VERBS = ["Thinking", "Pondering", "Cogitating", "Noodling", "Clauding", "Brewing", "Schlepping", "Wrangling"]


class ClaudeUI:
    name = "claude"
    hooks = {
        "start": "SessionStart", "submit": "UserPromptSubmit", "tool_pre": "PreToolUse",
        "tool_post": "PostToolUse", "approval": "Notification", "finish": "Stop", "error": None,
        "idle_later": "Notification:idle_prompt", "select": "Notification",
    }

    def __init__(self, case, rng, style="v1", mode_footer=None):
        self.case = case
        self.rng = rng
        self.style = style
        self.ink = InkLog(case)
        self.items = []
        self.mode = "input"
        self.text = ""
        self.secs = 0
        self.tokens = 0
        self.glyph = 0
        self.verb = rng.choice(VERBS)
        self.todos = None
        self.approval_spec = None
        self.choice = 0
        self.footer = mode_footer or rng.choice(["  ? for shortcuts", "  ? for shortcuts",
                                                 "  ⏵⏵ accept edits on (shift+tab to cycle)",
                                                 "  ⏸ plan mode on (shift+tab to cycle)"])

    # --- rendering ---

    @property
    def cols(self):
        return self.case.cols

    def item_lines(self, item):
        w = self.cols
        kind = item[0]
        if kind == "welcome":
            if self.style == "v1":
                bw = min(w, 58)
                lines = framed([f"{ORANGE}✻{RESET} Welcome to {BOLD}Claude Code{RESET}!", "",
                                f"  {DIM}/help for help, /status for your current setup{RESET}"
                                if bw >= 52 else f"  {DIM}/help for help{RESET}", "",
                                f"  {DIM}cwd: ~/proj{RESET}"], bw, GRAY)
                lines += ["", " Tips for getting started:", ""]
                for i, tip in enumerate(["Run /init to create a CLAUDE.md file with instructions for Claude",
                                         "Use Claude to help with file analysis, editing, bash commands and git",
                                         "Be as specific as you would with another engineer for the best results"]):
                    lines += hanging(tip, w, f" {i + 1}. ")
                return lines
            return [f" {ORANGE}▐▛███▜▌{RESET}   {BOLD}Claude Code{RESET} v2.0.14",
                    f"{ORANGE}▝▜█████▛▘{RESET}  Sonnet 4.5 · Claude Max",
                    f"  {ORANGE}▘▘ ▝▝{RESET}    ~/proj"]
        if kind == "user":
            if self.style == "v1":
                return [GRAY + l + RESET for l in hanging(item[1], w, "> ")]
            return [sgr(48, 5, 237) + l + RESET for l in hanging(item[1], w, "> ")]
        if kind == "assistant":
            return hanging(item[1], w, "⏺ ")
        if kind == "tool":
            _, tool, arg, output = item
            lines = hanging(f"{tool}({arg})", w, f"{GREEN}⏺{RESET} ")
            shown = output[:3]
            for i, o in enumerate(shown):
                prefix = "  ⎿  " if i == 0 else "     "
                lines.append(prefix + o[: max(1, w - len(prefix))])
            if len(output) > 3:
                lines.append(f"     {DIM}… +{len(output) - 3} lines (ctrl+r to expand){RESET}")
            if not output:
                lines.append("  ⎿  (No content)")
            return lines
        if kind == "note":
            color = RED if item[2] == "error" else ""
            return [color + l + (RESET if color else "") for l in hanging(item[1], w, "  ⎿  ")]
        raise ValueError(kind)

    def static_lines(self, items):
        out = []
        for item in items:
            out += self.item_lines(item) + [""]
        return out

    def spinner_lines(self):
        g = GLYPHS[self.glyph % len(GLYPHS)]
        tok = f"{self.tokens / 1000:.1f}k" if self.tokens >= 1000 else str(self.tokens)
        if self.style == "v1":
            tail = f"({self.secs}s · ↑ {tok} tokens · esc to interrupt)"
        else:
            tail = f"(esc to interrupt · {self.secs}s · ↓ {tok} tokens)" if self.secs % 2 else \
                "(esc to interrupt · ctrl+t to show todos)"
        body = wrap(f"{self.verb}… {tail}", self.cols - 2)
        lines = [f"{ORANGE}{g} {body[0]}{RESET}"] + [f"  {DIM}{b}{RESET}" for b in body[1:]]
        if self.todos:
            for i, (done, t) in enumerate(self.todos):
                mark = "☒" if done else "☐"
                lines.append(("  ⎿  " if i == 0 else "     ") + f"{mark} {t}"[: self.cols - 5])
        return lines

    def input_lines(self):
        w = self.cols
        if self.text:
            body = wrap(self.text, w - 6) if self.style == "v1" else wrap(self.text, w - 2)
            body[-1] += ESC + "[7m " + ESC + "[27m"
        else:
            placeholder = 'Try "write a test for parser.py"'
            if width(placeholder) > w - 6:
                placeholder = 'Try "fix lint"'
            body = [ESC + "[7mT" + ESC + "[27m" + DIM + placeholder[1:] + RESET]
        if self.style == "v1":
            inner = [f"> {body[0]}"] + [f"  {b}" for b in body[1:]]
            return framed(inner, w, GRAY) + [f"{DIM}{self.footer}{RESET}"]
        rule = GRAY + "─" * w + RESET
        return [rule, f"> {body[0]}"] + [f"  {b}" for b in body[1:]] + [rule, f"{DIM}{self.footer}{RESET}"]

    def approval_lines(self):
        kind, detail, target = self.approval_spec
        w = self.cols
        inner_w = w - 4
        if kind == "bash":
            header = "Bash command"
            body = [f"  {l}" for l in wrap(detail[0], inner_w - 2)] + [f"  {DIM}{l}{RESET}" for l in wrap(detail[1], inner_w - 2)]
            question = "Do you want to proceed?"
            second = f"Yes, and don't ask again for {detail[0].split()[0]} commands in /home/dev/proj"
        elif kind == "edit":
            header = "Edit file"
            diff = [f"{target}", ""] + [f"{n:>3} {m} {t}" for n, m, t in detail]
            body = framed(diff, inner_w, GRAY) if self.style == "v1" else [f"  {l}" for l in diff]
            question = f"Do you want to make this edit to {target.split('/')[-1]}?"
            second = "Yes, allow all edits during this session (shift+tab)"
        else:
            header = "Create file"
            body = [f"  {target}", "", f"  {DIM}# Notes{RESET}", f"  {DIM}Scratch file for the refactoring.{RESET}"]
            question = f"Do you want to create {target.split('/')[-1]}?"
            second = "Yes, allow all edits during this session (shift+tab)"
        q = wrap(question, inner_w - 1)
        options = []
        for i, label in enumerate(["Yes", second, "No, and tell Claude what to do differently (esc)"]):
            mark = "❯ " if i == self.choice else "  "
            lines = hanging(label, inner_w - 1, f"{mark}{i + 1}. ", "     ")
            if i == self.choice:
                lines = [ORANGE + l + RESET for l in lines]
            options += lines
        if self.style == "v1":
            inner = [BOLD + header + RESET, ""] + body + [""] + q + options
            return framed(inner, w, ORANGE)
        lines = [ORANGE + "─" * w + RESET, f" {BOLD}{header}{RESET}", ""] + [f" {l}" for l in body] + [""]
        lines += [f" {l}" for l in q] + [f" {o}" for o in options]
        return lines

    def select_lines(self):
        w = self.cols
        lines = [GRAY + "─" * w + RESET, f" {sgr(48, 5, 25)} ☐ Approach {RESET}", ""]
        lines += [f" {l}" for l in wrap("Which approach should I take for the parser fix?", w - 2)] + [""]
        lines += [f" {ORANGE}❯ 1. Rewrite{RESET}", f"      {DIM}Rewrite the tokenizer from scratch{RESET}"[: w + 20],
                  "   2. Patch", f"      {DIM}Guard the empty input case{RESET}", "   3. Type something.", ""]
        lines += [f" {DIM}{l}{RESET}" for l in wrap("Enter to select · Tab/Arrow keys to navigate · Esc to cancel", w - 2)]
        return lines

    def dynamic(self):
        if self.mode == "transcript":
            return [DIM + "  Showing detailed transcript · Ctrl+R to toggle"[: self.cols + 4] + RESET]
        if self.mode == "approval":
            return self.approval_lines()
        if self.mode == "select":
            return self.select_lines()
        lines = []
        if self.mode == "working":
            lines += self.spinner_lines() + [""]
        return lines + self.input_lines()

    def draw(self, new_items=()):
        static = self.static_lines(new_items)
        self.items += list(new_items)
        self.ink.frame(self.dynamic(), static)

    # --- what happens ---

    def startup(self, resume_items=None):
        c = self.case
        c.preamble_rows = preamble(c, self.rng) if getattr(c, "with_preamble", False) else 0
        c.out(shell_prompt() + ("claude --resume 7d1c" if resume_items else "claude") + "\n")
        c.launch()
        c.out(ESC + "[?2004h" + ESC + "[?1004h" + ESC + "[?25l")
        items = [("welcome",)] + list(resume_items or [])
        self.draw(items)

    def type_text(self, text):
        self.case.input()
        self.text = text
        self.draw()

    def tick_idle(self):
        """Nothing moves on an idle or waiting screen: Ink draws only on change."""

    def old_transcript(self, rng):
        return [("user", rng.choice(C.PROMPTS)), ("assistant", rng.choice(C.ANSWERS)),
                ("user", "and the docs?"), ("assistant", rng.choice(C.ANSWERS))]

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
        self.mode, self.secs, self.tokens = "working", 0, 0
        self.verb = self.rng.choice(VERBS)
        self.todos = self.rng.choice([None, None, [[False, "Run the failing test"], [False, "Fix the parser guard"],
                                                   [False, "Run the whole suite"]]])
        self.draw([("user", prompt)])
        if not hook_first:
            c.hook(self.hooks["submit"])

    def tick(self, secs=1):
        """The spinner advances: elapsed time, tokens and glyph."""
        self.case.advance(secs * 1000)
        self.secs += secs
        self.tokens += self.rng.randint(40, 900) * secs
        self.glyph += 1
        if self.todos:
            for t in self.todos:
                if not t[0]:
                    t[0] = True
                    break
        if self.secs > 8 and self.rng.random() < 0.2:
            self.verb = "Compacting conversation"
        self.draw()

    def tool(self, tool, arg, output):
        c = self.case
        c.hook(self.hooks["tool_pre"])
        self.tick()
        self.draw([("tool", tool, arg, output)])
        c.hook(self.hooks["tool_post"])

    def say(self, text):
        self.draw([("assistant", text)])

    def approval(self, kind, detail, target=None):
        self.case.hook(self.hooks["tool_pre"])
        self.mode = "approval"
        self.approval_spec = (kind, detail, target)
        self.choice = 0
        self.draw()
        self.case.hook(self.hooks["approval"])

    def select(self):
        self.mode = "select"
        self.draw()
        self.case.hook(self.hooks["select"])

    def answer(self, key="1"):
        self.case.input(key)
        kind, detail, target = self.approval_spec or ("bash", ("", ""), None)
        self.mode = "working"
        self.glyph += 1
        if self.approval_spec and kind == "bash":
            self.draw([("tool", "Bash", detail[0], [])])
        elif self.approval_spec:
            self.draw([("tool", "Update" if kind == "edit" else "Write", target, [f"Updated {target} with 2 additions and 2 removals"])])
        else:
            self.draw([("tool", "AskUserQuestion", "Approach", ["User answered: Rewrite"])])
        self.approval_spec = None
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
        self.draw([("note", text, "error")])

    def interrupt(self):
        self.case.input("esc")
        self.mode = "input"
        self.draw([("note", f"{RED}Interrupted by user{RESET}", "plain")])

    def overlay(self):
        """Ctrl+R: the detailed transcript in place of the live region; no spinner, no input box."""
        self.case.input("ctrl+r")
        self.saved_mode, self.mode = self.mode, "transcript"
        self.redraw()

    def overlay_close(self):
        self.case.input("ctrl+r")
        self.mode = self.saved_mode
        self.redraw()

    def select_option(self, n):
        """The user moves the selection in a permission prompt."""
        self.case.input("down" if n > self.choice else "up")
        self.choice = n
        self.draw()

    def deny(self):
        """The user refuses: the turn stops and the agent waits for what to do instead. Returns the state."""
        self.case.input("3")
        kind, detail, target = self.approval_spec
        self.mode, self.choice, self.approval_spec = "input", 0, None
        self.draw([("tool", "Bash" if kind == "bash" else "Update", detail[0] if kind == "bash" else target,
                    [f"{RED}User rejected {'command' if kind == 'bash' else 'update to ' + str(target)}{RESET}"])])
        return "idle"

    def resize(self, cols, rows, redraw=True):
        self.case.resize(cols, rows)
        if redraw:
            self.redraw()

    def redraw(self):
        self.ink.clear_all(self.static_lines(self.items), self.dynamic())

    def exit(self):
        self.ink.frame([], None)
        self.case.out(ESC + "[?2004l" + ESC + "[?25h")
        self.case.out(shell_prompt())


ERRORS = [
    'API Error: 529 {"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}',
    "API Error: Request timed out.",
    "Claude usage limit reached. Your limit will reset at 5pm (Europe/Berlin).",
]


def processes(rng):
    return rng.choice([
        [(0, "bash", None), (1, "claude", None)],
        [(0, "bash", None), (1, "node", "claude")],
        [(0, "zsh", None), (1, "node", "claude-code")],
    ])


def transcript_view(ui, case, rng):
    """The user opens the transcript while the agent works: the screen shows no spinner, hooks
    still tell; then closes it again."""
    ui.startup()
    ui.type_text(rng.choice(C.PROMPTS))
    ui.submit()
    case.expect("working")
    cmd, out = rng.choice(C.COMMANDS)
    ui.tool("Bash", cmd, out)
    case.expect("working")
    ui.overlay()
    case.expect("working")
    case.advance(4_000)
    case.hook(ui.hooks["tool_pre"])
    case.expect("working")
    case.advance(20_000)
    case.hook(ui.hooks["tool_post"])
    case.expect("working")
    ui.overlay_close()
    case.expect("working")
    ui.finish(rng.choice(C.ANSWERS))
    case.expect("done")


def cases(rng):
    from scenarios import standard, select, _case
    sizes = [(120, 40), (100, 30), (80, 24), (40, 30), (200, 50), (100, 14)]
    extra = [("select", "question", select), ("transcript-view", "hooks", transcript_view)]
    return standard("claude", ClaudeUI, rng, sizes, ["v1", "v2"], processes, ERRORS, extra)
