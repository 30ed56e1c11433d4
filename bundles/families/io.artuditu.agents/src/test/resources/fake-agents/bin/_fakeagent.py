"""Fake coding agents for tests: they look like the real CLIs to the detector, and do nothing.

Each of bin/{claude,codex,gemini,aider,opencode,goose} runs main(<kind>). The agent draws
its idle screen, reads keystrokes (raw mode when stdin is a terminal, plain bytes from a
pipe otherwise), and on a submitted line works for FAKE_AGENT_WORK_MS milliseconds
(default 1500) behind its working indicator. A line containing "approve" stops half way
for a permission prompt: "1", "y" or Enter allows it (the turn goes on), "3", "n" or Esc
refuses it (the turn ends). The turn ends with "Done: <the line>" and the prompt again.
A bracketed paste is one piece of the line, newlines
and all (as the real CLIs take a pasted message). With FAKE_AGENT_HOOK set, a submitted line is
also given to that program on its standard input (in the agent's folder, at most 30 s) before
the turn: a scripted agent that acts on what it was sent. Esc or Ctrl-C during a turn interrupts it; Ctrl-C or Ctrl-D at the prompt, or a line
"/exit", "/quit", "exit" or "quit", ends the program.

Sessions: the id comes from the arguments as the real CLI takes them (claude
--session-id X, --resume X [--fork-session]; codex resume X, fork X; gemini --resume X; opencode
--session X / -s X; goose --name X [--resume]), else a new one is made (as for a fork). The
agent prints "session: <id>" (with "(forked from <old>)" or "(resumed)") at start-up, and
writes the bare id to the file FAKE_AGENT_SESSION_FILE names, when set.

No curses: plain ANSI, written whole per frame. The size comes from the terminal (or
COLUMNS/LINES); on SIGWINCH the screen is drawn again.
"""

import os
import select
import shutil
import signal
import sys
import time
import uuid

ESC = "\x1b"


def sgr(*codes):
    return ESC + "[" + ";".join(str(c) for c in codes) + "m"


RESET, DIM, BOLD = sgr(0), sgr(2), sgr(1)


def session_from(kind, argv):
    """(id, note) from the arguments as the real CLI reads them."""
    def value(*flags):
        for i, a in enumerate(argv):
            for f in flags:
                if a == f and i + 1 < len(argv):
                    return argv[i + 1]
                if a.startswith(f + "="):
                    return a[len(f) + 1:]
        return None

    fresh = str(uuid.uuid4())
    if kind == "claude":
        resumed = value("--resume", "-r")
        if resumed and "--fork-session" in argv:
            return fresh, f"(forked from {resumed})"
        if resumed:
            return resumed, "(resumed)"
        return value("--session-id") or fresh, ""
    if kind == "codex":
        if len(argv) >= 2 and argv[0] == "resume":
            return argv[1], "(resumed)"
        if len(argv) >= 2 and argv[0] == "fork":
            return fresh, f"(forked from {argv[1]})"
        return fresh, ""
    if kind == "gemini":
        resumed = value("--resume")
        return (resumed, "(resumed)") if resumed else (fresh, "")
    if kind == "opencode":
        resumed = value("--session", "-s")
        return (resumed, "(resumed)") if resumed else (fresh, "")
    if kind == "goose":
        name = value("--name", "-n")
        if name:
            return name, "(resumed)" if "--resume" in argv or "-r" in argv else ""
        return fresh, ""
    return fresh, ""


class Skin:
    """How one agent looks. Lines may carry SGR; each is at most the width."""

    alt_screen = False

    def __init__(self, agent):
        self.a = agent

    @property
    def w(self):
        return self.a.cols

    def fit(self, text):
        return text[: self.w]

    def rule(self):
        return DIM + "─" * self.w + RESET

    def frame(self):
        raise NotImplementedError

    def echo(self, line):
        return [f"> {line}"]

    def done(self, line):
        return [f"Done: {line}", ""]


class Claude(Skin):
    GLYPHS = "·✢✳✶✻✽"

    def box(self, inner):
        out = ["╭" + "─" * (self.w - 2) + "╮"]
        for line in inner:
            line = line[: self.w - 4]
            out.append("│ " + line + " " * (self.w - 4 - len(line)) + " │")
        return out + ["╰" + "─" * (self.w - 2) + "╯"]

    def frame(self):
        a = self.a
        if a.state == "approval":
            return self.box(["Bash command", "", "  rm -rf build", "  Remove the build directory", "",
                             "Do you want to proceed?", "❯ 1. Yes",
                             "  2. Yes, and don't ask again for rm commands",
                             "  3. No, and tell Claude what to do differently (esc)"])
        lines = []
        if a.state == "working":
            g = self.GLYPHS[int(a.elapsed() * 4) % len(self.GLYPHS)]
            lines += [self.fit(f"{g} Thinking… ({int(a.elapsed())}s · ↑ {int(a.elapsed() * 300)} tokens · esc to interrupt)"), ""]
        lines += self.box(["> " + a.text]) + ["  ? for shortcuts"]
        return lines

    def done(self, line):
        return [self.fit(f"⏺ Done: {line}"), ""]

    def echo(self, line):
        return [self.fit(f"> {line}"), ""]


class Codex(Skin):
    def frame(self):
        a = self.a
        if a.state == "approval":
            return ["", "  Would you like to run the following command?", "", "  $ rm -rf build", "",
                    "› 1. Yes, proceed", "  2. Yes, and don't ask again for this command",
                    self.fit("  3. No, and tell Codex what to do differently esc"), "",
                    self.fit("  Press enter to confirm or esc to cancel")]
        lines = []
        if a.state == "working":
            lines += [self.fit(f"• Working ({int(a.elapsed())}s • esc to interrupt)")]
        lines += ["", self.fit("› " + (a.text or DIM + "Ask Codex to do anything" + RESET)), "",
                  self.fit("  100% context left · ? for shortcuts")]
        return lines

    def echo(self, line):
        return [self.fit(f"› {line}"), ""]

    def done(self, line):
        return [self.fit(f"• Done: {line}"), ""]


class Gemini(Claude):
    SPIN = "⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏"

    def frame(self):
        a = self.a
        if a.state == "approval":
            return self.box(["?  Shell rm -rf build (Remove the build directory)", "", "rm -rf build", "",
                             "Allow execution of: 'rm'?", "", "● 1. Yes, allow once", "  2. Yes, allow always",
                             "  3. No, suggest changes (esc)"])
        lines = []
        if a.state == "working":
            g = self.SPIN[int(a.elapsed() * 10) % len(self.SPIN)]
            lines += [self.fit(f"{g} Counting electrons... (esc to cancel, {int(a.elapsed())}s)"), ""]
        lines += self.box([">   " + (a.text or "Type your message or @path/to/file")])
        lines.append(self.fit("~/proj   no sandbox   gemini-2.5-pro (100% context left)"))
        return lines

    def done(self, line):
        return [self.fit(f"✦ Done: {line}"), ""]


class Aider(Skin):
    """Line-oriented: the live region is the one line the cursor is on."""

    def frame(self):
        a = self.a
        if a.state == "approval":
            return [self.fit("rm -rf build"), "Run shell command? (Y)es/(N)o/(D)on't ask again [Yes]: "]
        if a.state == "working":
            scanner = "░" * 8
            i = int(a.elapsed() * 8) % 8
            return [scanner[:i] + "█" + scanner[i + 1:] + " Waiting for fake-model"]
        return [self.rule(), "> " + a.text]

    def done(self, line):
        return [f"Done: {line}", "", "Tokens: 1.2k sent, 80 received.", ""]


class Goose(Aider):
    SPIN = "◒◐◓◑"

    def frame(self):
        a = self.a
        if a.state == "approval":
            return ["─── shell | developer ───", "command: rm -rf build", "",
                    "◆  Goose would like to call the above tool, do you allow?", "│  ● Allow", "│  ○ Always Allow",
                    "│  ○ Deny", "└"]
        if a.state == "working":
            return [f"{self.SPIN[int(a.elapsed() * 4) % 4]}  Thinking..."]
        return ["( O)> " + a.text]

    def done(self, line):
        return [f"Done: {line}", ""]


class Opencode(Skin):
    alt_screen = True
    SPIN = "⣾⣽⣻⢿⡿⣟⣯⣷"

    def screen(self, transcript):
        a = self.a
        bottom = ["┃", "┃  " + (a.text or "Ask anything..."), "┃"]
        if a.state in ("working", "approval"):
            bottom.append(f"  {self.SPIN[int(a.elapsed() * 8) % 8]} working…   esc interrupt")
        else:
            bottom.append("  enter send")
        bottom.append(self.fit("  opencode (fake)  ~/proj"))
        top = list(transcript)
        if a.state == "approval":
            top += ["┃  △ Permission required", "┃  → Bash  rm -rf build", "┃", "┃  Allow once   Allow always   Reject", ""]
        area = a.rows - len(bottom)
        top = top[-area:] if len(top) > area else top + [""] * (area - len(top))
        return [self.fit(l) for l in top + bottom]

    def echo(self, line):
        return [self.fit(f"┃ {line}"), ""]

    def done(self, line):
        return [self.fit(f"  Done: {line}"), ""]


SKINS = {"claude": Claude, "codex": Codex, "gemini": Gemini, "aider": Aider, "goose": Goose, "opencode": Opencode}


class Agent:
    def __init__(self, kind, argv):
        self.kind = kind
        self.skin = SKINS[kind](self)
        self.state = "idle"
        self.text = ""
        self.started = 0.0
        self.approve = False
        self.asked = False
        self.previous = 0
        self.transcript = []
        self.work_s = max(0.0, int(os.environ.get("FAKE_AGENT_WORK_MS", "1500")) / 1000)
        self.session, note = session_from(kind, argv)
        self.session_note = note
        self.resized = False
        self.size()

    def size(self):
        s = shutil.get_terminal_size((80, 24))
        self.cols, self.rows = max(20, s.columns), max(8, s.lines)

    def elapsed(self):
        return time.monotonic() - self.started

    def write(self, s):
        os.write(sys.stdout.fileno(), s.replace("\r\n", "\n").replace("\n", "\r\n").encode("utf-8"))

    # --- drawing ---

    def draw(self, static=()):
        self.transcript += list(static)
        if self.skin.alt_screen:
            rows = self.skin.screen(self.transcript)
            s = ESC + "[H" + "".join(ESC + f"[{i + 1};1H" + r + ESC + "[K" for i, r in enumerate(rows))
            self.write(s)
            return
        s = ""
        if self.previous:
            s += "".join(ESC + "[2K" + (ESC + "[1A" if i < self.previous - 1 else "") for i in range(self.previous))
            s += "\r"
        if static:
            s += "\n".join(static) + "\n"
        frame = self.skin.frame()
        s += "\n".join(frame)
        # Line-oriented agents leave the cursor at the end of their last line; the others below it.
        if isinstance(self.skin, Aider):
            self.previous = len(frame)
        else:
            s += "\n"
            self.previous = len(frame) + 1
        self.write(s)

    def redraw_all(self):
        self.size()
        if self.skin.alt_screen:
            self.write(ESC + "[2J")
            self.draw()
            return
        self.write(ESC + "[2J" + ESC + "[3J" + ESC + "[H")
        tail = self.transcript[-(self.rows // 2):]
        self.previous = 0
        self.transcript = self.transcript[: -len(tail)] if tail else self.transcript
        self.draw(tail)

    # --- what happens ---

    def start(self):
        if self.skin.alt_screen:
            self.write(ESC + "[?1049h" + ESC + "[2J")
        head = [f"{self.kind} (fake agent for tests)", f"session: {self.session}"
                + (f" {self.session_note}" if self.session_note else ""), ""]
        path = os.environ.get("FAKE_AGENT_SESSION_FILE")
        if path:
            with open(path, "w", encoding="utf-8") as f:
                f.write(self.session + "\n")
        self.draw(head)

    def submit(self):
        line, self.text = self.text.strip(), ""
        if line in ("/exit", "/quit", "exit", "quit"):
            return False
        if not line:
            self.draw()
            return True
        hook = os.environ.get("FAKE_AGENT_HOOK")
        if hook:
            import subprocess
            subprocess.run([hook], input=line.encode("utf-8"), timeout=30, check=False,
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        self.state, self.started = "working", time.monotonic()
        self.approve, self.asked = "approve" in line, False
        self.line = line.splitlines()[0] if "\n" in line else line
        self.draw(self.skin.echo(self.line))
        return True

    def finish(self, note=None):
        self.state = "idle"
        self.draw([note, ""] if note else self.skin.done(self.line))

    def tick(self):
        if self.state != "working":
            return
        if self.approve and not self.asked and self.elapsed() >= self.work_s / 2:
            self.asked = True
            self.state = "approval"
            self.draw()
            return
        if self.elapsed() >= self.work_s:
            self.finish()
            return
        self.draw()

    def key(self, k):
        """One key; returns False to end the program."""
        if self.state == "approval":
            if k in ("1", "y", "Y", "\r", "\n"):
                # the time spent asking is not work: the second half of the turn runs after the answer
                self.state, self.started = "working", time.monotonic() - self.work_s / 2
                self.draw(["Allowed: rm -rf build", ""])
            elif k in ("3", "n", "N", "esc"):
                self.finish("User rejected: rm -rf build")
            elif k == "ctrl-c":
                self.finish("Interrupted by user")
            return True
        if self.state == "working":
            if k in ("esc", "ctrl-c"):
                self.finish("Interrupted by user")
            elif k not in ("\r", "\n") and len(k) == 1 and k.isprintable():
                self.text += k
                self.draw()
            return True
        if k.startswith(PASTED):
            self.text += k[len(PASTED):]
            self.draw()
            return True
        if k in ("ctrl-c", "ctrl-d") and not self.text:
            return False
        if k in ("\r", "\n"):
            return self.submit()
        if k == "backspace":
            self.text = self.text[:-1]
        elif k == "ctrl-c":
            self.text = ""
        elif len(k) == 1 and k.isprintable():
            self.text += k
        self.draw()
        return True


PASTED = "pasted:"
PASTE_START, PASTE_END = ESC + "[200~", ESC + "[201~"


class Keys:
    """Bytes from the terminal as keys, keeping a bracketed paste that spans reads whole."""

    def __init__(self):
        self.paste = None  # the paste so far, while one is open

    def __call__(self, data):
        text = data.decode("utf-8", "replace")
        out = []
        while text:
            if self.paste is not None:
                end = text.find(PASTE_END)
                if end < 0:
                    self.paste += text
                    return out
                body, self.paste = self.paste + text[:end], None
                out.append(PASTED + body.replace("\r\n", "\n").replace("\r", "\n"))
                text = text[end + len(PASTE_END):]
                continue
            start = text.find(PASTE_START)
            if start < 0:
                out += keys(text)
                return out
            out += keys(text[:start])
            self.paste, text = "", text[start + len(PASTE_START):]
        return out


def keys(text):
    """Terminal input as keys: printable characters, Enter, Esc, a few controls."""
    out, i = [], 0
    while i < len(text):
        c = text[i]
        if c == ESC:
            if i + 1 < len(text) and text[i + 1] in "[O":
                j = i + 2
                while j < len(text) and not ("@" <= text[j] <= "~"):
                    j += 1
                i = j + 1  # a sequence (arrows and the like): ignored
                continue
            out.append("esc")
        elif c == "\x03":
            out.append("ctrl-c")
        elif c == "\x04":
            out.append("ctrl-d")
        elif c in ("\x7f", "\x08"):
            out.append("backspace")
        elif c in ("\r", "\n"):
            out.append(c)
        elif c.isprintable():
            out.append(c)
        i += 1
    return out


def main(kind):
    agent = Agent(kind, sys.argv[1:])
    fd = sys.stdin.fileno()
    saved = None
    if os.isatty(fd):
        import termios
        import tty
        saved = termios.tcgetattr(fd)
        tty.setraw(fd, termios.TCSANOW)  # no echo, no line buffering, Ctrl-C as a byte

    def on_winch(signum, frame):
        agent.resized = True

    signal.signal(signal.SIGWINCH, on_winch)
    reader = Keys()
    signal.signal(signal.SIGINT, lambda s, f: None)
    try:
        agent.write(ESC + "[?2004h")
        agent.start()
        running = True
        while running:
            timeout = 0.1 if agent.state == "working" else 0.5
            try:
                ready, _, _ = select.select([fd], [], [], timeout)
            except InterruptedError:
                ready = []
            if agent.resized:
                agent.resized = False
                agent.redraw_all()
            if ready:
                data = os.read(fd, 4096)
                if not data:
                    break
                for k in reader(data):
                    if not agent.key(k):
                        running = False
                        break
            agent.tick()
    finally:
        if saved is not None:
            import termios
            termios.tcsetattr(fd, termios.TCSANOW, saved)
        agent.write(ESC + "[?2004l" + (ESC + "[?1049l" if agent.skin.alt_screen else "") + "\n")
    return 0
