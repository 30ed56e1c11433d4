"""The held-out cases: scenarios and sizes the rules were not tuned on.

Written after the rules were frozen against cases/, and replayed once before any rule was
changed because of them (docs/agents/accuracy.md reports that first figure). New here:
the selection moved in a permission prompt, a refused permission, long turns with several
tools, answering a question the agent asked, resizes while done and while idle, and the
sizes 60x20, 132x43 and 30x20.
"""

import aider
import claude
import codex
import content as C
import gemini
import goose
import opencode
from common import new_case

PROMPTS = ["port the build script from make to just", "why is the cache hit rate so low in prod?",
           "add structured logging to the request handler", "split the god class in session.py"]
ANSWERS = ["The port is done: justfile has build, test and release recipes; make still works for now.",
           "Hit rate is low because the key includes the request id. I removed it; expect about 80%.",
           "Every handler now logs method, path, status and latency as JSON."]

FAMILIES = [
    ("claude", claude.ClaudeUI, claude.processes, ["v1", "v2"]),
    ("codex", codex.CodexUI, codex.processes, ["v2", "v1"]),
    ("gemini", gemini.GeminiUI, gemini.processes, ["numbered", "plain"]),
    ("aider", aider.AiderUI, aider.processes, ["plain", "architect"]),
    ("opencode", opencode.OpencodeUI, opencode.processes, ["v1", "v2"]),
    ("goose", goose.GooseUI, goose.processes, ["v1"]),
]


def navigate(ui, case, rng):
    """The user moves through a permission's choices before allowing it."""
    ui.startup()
    ui.type_text(rng.choice(PROMPTS))
    ui.submit()
    case.expect("working")
    ui.tick(2)
    ui.approval("bash", rng.choice(C.DANGEROUS))
    case.expect("blocked")
    ui.select_option(1)
    case.expect("blocked")
    ui.select_option(2)
    case.expect("blocked")
    ui.select_option(0)
    case.expect("blocked")
    ui.answer("1")
    case.expect("working")
    ui.finish(rng.choice(ANSWERS))
    case.expect("done")


def refused(ui, case, rng):
    """The user refuses a permission."""
    ui.startup()
    ui.type_text(rng.choice(PROMPTS))
    ui.submit()
    case.expect("working")
    ui.tick(1)
    ui.approval("edit", C.DIFF, rng.choice(C.FILES))
    case.expect("blocked")
    case.advance(8_000)
    ui.tick_idle()
    case.expect("blocked")
    after = ui.deny()
    case.expect(after)
    if after == "working":
        ui.tick(2)
        case.expect("working")
        ui.finish("I left the file as it was and described the change instead.")
        case.expect("done")
    else:
        case.advance(120_000)
        ui.tick_idle()
        case.expect("idle")


def long_turn(ui, case, rng):
    """A long turn: three tools, a five-minute build, then the answer."""
    ui.startup()
    ui.type_text(rng.choice(PROMPTS))
    ui.submit()
    case.expect("working")
    for cmd, out in rng.sample(C.COMMANDS, 3):
        ui.tool("Bash", cmd, out)
        case.expect("working")
    for _ in range(5):
        ui.tick(60)
        case.expect("working")
    ui.say("The build passes; now the tests.")
    case.expect("working")
    ui.tick(30)
    case.expect("working")
    ui.finish(rng.choice(ANSWERS))
    case.expect("done")
    case.advance(7_200_000)
    ui.tick_idle()
    case.expect("done")


def answered(ui, case, rng):
    """The agent asks; the user answers at the prompt; the next turn asks a permission."""
    ui.startup()
    ui.type_text(rng.choice(PROMPTS))
    ui.submit()
    case.expect("working")
    ui.finish(rng.choice(C.QUESTIONS))
    case.expect("done")
    case.advance(20_000)
    for word in ["keep", "keep the", "keep the old one"]:
        ui.type_text(word)
        case.expect("idle")
    ui.submit()
    case.expect("working")
    ui.approval("bash", rng.choice(C.DANGEROUS))
    case.expect("blocked")
    ui.answer("1")
    case.expect("working")
    ui.finish(rng.choice(ANSWERS))
    case.expect("done")


def resize_at_rest(ui, case, rng, other):
    """Resized while fresh and idle, and again once done."""
    first = (case.cols, case.rows)
    ui.startup()
    case.expect("idle")
    ui.resize(*other, redraw=False)
    case.expect("idle")
    ui.redraw()
    case.expect("idle")
    ui.type_text(rng.choice(PROMPTS))
    ui.submit()
    case.expect("working")
    ui.finish(rng.choice(ANSWERS))
    case.expect("done")
    ui.resize(*first, redraw=False)
    case.expect("done")
    ui.redraw()
    case.expect("done")
    case.advance(900_000)
    ui.tick_idle()
    case.expect("done")


def cases(rng):
    out = []
    plan = [("navigate", "approval", navigate), ("refused", "approval", refused), ("long-turn", "turn", long_turn),
            ("answered", "question", answered)]
    for family, ui_cls, procs, styles in FAMILIES:
        for i, (name, kind, fn) in enumerate(plan):
            for j, (cols, rows) in enumerate([(60, 20), (132, 43), (30, 20)]):
                style = styles[(i + j) % len(styles)]
                case = new_case(family, f"{name}-{cols}x{rows}-{style}", kind + ("+narrow" if cols <= 50 else ""),
                                cols, rows, procs(rng), f"holdout {family}: {name} at {cols}x{rows} ({style})")
                case.with_preamble = j == 1
                fn(ui_cls(case, rng, style=style), case, rng)
                out.append(case)
        for k, (size, other) in enumerate([((132, 43), (60, 20)), ((60, 20), (30, 20))]):
            style = styles[k % len(styles)]
            case = new_case(family, f"resize-rest-{size[0]}-{other[0]}-{style}", "resize", size[0], size[1], procs(rng),
                            f"holdout {family}: resized at rest {size} and {other} ({style})")
            resize_at_rest(ui_cls(case, rng, style=style), case, rng, other)
            out.append(case)
    return out
