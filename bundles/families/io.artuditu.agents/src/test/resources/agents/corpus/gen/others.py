"""Panes where no agent runs, showing what agents show: the state must be "none".

A shell that cats an agent's captured screen, a pager on an agent's log, a node or Python
program of another name printing the same phrases, an editor on a manifest, and a shell
left with an agent's last screen after the agent exited.
"""

import content as C
from common import ESC, RESET, cup, new_case, sgr, shell_prompt

CAPTURE = [
    "╭──────────────────────────────────────────────╮",
    "│ Bash command                                 │",
    "│                                              │",
    "│   rm -rf build                               │",
    "│                                              │",
    "│ Do you want to proceed?                      │",
    "│ ❯ 1. Yes                                     │",
    "│   2. No, and tell Claude what to do (esc)    │",
    "╰──────────────────────────────────────────────╯",
    "✻ Pondering… (12s · ↑ 1.2k tokens · esc to interrupt)",
    "",
    "╭──────────────────────────────────────────────╮",
    "│ >                                            │",
    "╰──────────────────────────────────────────────╯",
    "  ? for shortcuts",
    "• Working (5s • esc to interrupt)",
    "› Ask Codex to do anything",
    "  100% context left · ? for shortcuts",
    "⠏ Counting electrons... (esc to cancel, 4s)",
    "Run shell command? (Y)es/(N)o/(D)on't ask again [Yes]: ",
]


MANIFEST = """name = "claude"
fallback = "unknown"

[[rules]]
id = "spinner"
region = "last_rows"
rows = 14
pattern = '''^[·✢✳✶✻✽∗*] [^\\n]{0,120}esc\\s+to\\s+interrupt'''
status = "working"
# e.g. ✻ Pondering… (12s · ↑ 1.2k tokens · esc to interrupt)

[[rules]]
id = "permission-box"
region = "box"
rows = 40
# │ Do you want to proceed?
# │ ❯ 1. Yes
status = "blocked"

[[rules]]
id = "input-box"
# │ > Try "fix lint"
#   ? for shortcuts
status = "idle"
"""


def shell_cat(rng, cols, rows, shell):
    case = new_case("none", f"shell-cat-{cols}x{rows}-{shell}", "shell", cols, rows, [(0, shell, None)],
                    "a shell cats a captured agent screen", pane_agent="none")
    case.out(shell_prompt() + "cat captures/agent-screens.txt\n")
    case.out("\n".join(l[: cols] for l in CAPTURE) + "\n" + shell_prompt())
    case.expect("none")
    case.input()
    case.out("claude-notes.md\n")
    case.out(shell_prompt())
    case.expect("none")
    case.advance(3_600_000)
    case.expect("none")
    return case


def pager(rng, cols, rows):
    case = new_case("none", f"pager-{cols}x{rows}", "pager", cols, rows, [(0, "bash", None), (1, "less", None)],
                    "less shows an agent's session log in the alternate screen", pane_agent="none")
    case.out(shell_prompt() + "less ~/.claude/logs/session.log\n")
    case.launch()
    s = ESC + "[?1049h" + ESC + "[H" + ESC + "[2J"
    lines = (CAPTURE + C.TRIGGER_TEXT) * 3
    for i in range(rows - 1):
        s += cup(i + 1) + lines[i % len(lines)][: cols]
    s += cup(rows) + sgr(7) + "session.log" + RESET
    case.out(s)
    case.expect("none")
    case.input("space")
    s = ESC + "[H" + ESC + "[2J"
    for i in range(rows - 1):
        s += cup(i + 1) + lines[(i + 7) % len(lines)][: cols]
    s += cup(rows) + ":"
    case.out(s)
    case.expect("none")
    case.input("q")
    case.out(ESC + "[?1049l" + shell_prompt())
    case.expect("none")
    return case


def other_program(rng, name, script, cols, rows):
    case = new_case("none", f"program-{name}-{script}-{cols}x{rows}", "program", cols, rows,
                    [(0, "bash", None), (1, name, script)], f"{name} running {script} prints agent phrases",
                    pane_agent="none")
    case.out(shell_prompt() + f"{name} {script}\n")
    case.launch()
    for t in rng.sample(C.TRIGGER_TEXT, 8):
        case.out(t + "\n")
        case.advance(500)
    case.expect("none")
    case.out("\r" + "✻ Thinking… (3s · esc to interrupt)" + ESC + "[K")
    case.expect("none")
    return case


def editor(rng, cols, rows):
    case = new_case("none", f"vim-manifest-{cols}x{rows}", "program", cols, rows, [(0, "bash", None), (1, "vim", None)],
                    "vim edits the claude manifest", pane_agent="none")
    case.out(shell_prompt() + "vim claude.toml\n")
    case.launch()
    body = MANIFEST.splitlines()
    s = ESC + "[?1049h" + ESC + "[H" + ESC + "[2J"
    for i in range(rows - 1):
        s += cup(i + 1) + (body[i] if i < len(body) else "~")[: cols]
    s += cup(rows) + '"claude.toml" 98L, 3120B'
    case.out(s)
    case.expect("none")
    case.input()
    case.expect("none")
    return case


def after_exit(rng, cols, rows):
    case = new_case("none", f"after-exit-{cols}x{rows}", "shell", cols, rows, [(0, "bash", None)],
                    "the agent exited; its last screen is still there above the shell prompt", pane_agent="none")
    case.out(shell_prompt() + "claude\n")
    case.out("\n".join(l[: cols] for l in CAPTURE[9:15]) + "\n")
    case.out(shell_prompt())
    case.expect("none")
    case.advance(60_000)
    case.expect("none")
    return case


def cases(rng):
    out = []
    for cols, rows in [(120, 40), (80, 24), (40, 30)]:
        for shell in ("bash", "zsh"):
            out.append(shell_cat(rng, cols, rows, shell))
        out.append(pager(rng, cols, rows))
        out.append(editor(rng, cols, rows))
        out.append(after_exit(rng, cols, rows))
    for name, script in [("node", "server"), ("python3", "claude-notes"), ("node", "index"), ("python3", "codex_log"),
                         ("ruby", "gemini_stub"), ("bun", "dev"), ("python3.12", "aider_benchmark"), ("deno", "goose-cli-demo")]:
        out.append(other_program(rng, name, script, 100, 30))
    return out
