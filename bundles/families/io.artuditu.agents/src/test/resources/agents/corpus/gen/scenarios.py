"""Scenarios every agent plays, each a case of checkpoints labelled with the true state.

The true state follows from what the scenario makes the agent do, with these meanings:
  idle     at its prompt, and no turn has ended since the user last typed (a fresh start,
           a resumed session, after an interrupt, while the user types)
  working  a turn is under way (thinking, streaming, running a tool)
  blocked  it waits for the user's answer in its own UI (a permission, a choice)
  done     a turn ended (an answer, an error, a question asked in prose) and the user has
           not typed since; however long it is left so
Checkpoints are placed where the evidence has arrived (the frame drawn, the hook sent);
`expect@hooks` marks one only hooks can know yet (a hook that came before the frame).
"""

import content as C
from common import new_case


def _case(ui_cls, agent, name, kind, cols, rows, rng, processes, description, **ui_args):
    case = new_case(agent, name, kind, cols, rows, processes, description)
    return case, ui_cls(case, rng, **ui_args)


def turn(ui, case, rng, hook_order=False):
    """Start, type, work through a tool call, answer; left a minute; start another turn."""
    ui.startup()
    case.expect("idle")
    ui.type_text(rng.choice(C.PROMPTS))
    case.expect("idle")
    ui.submit(hook_first=hook_order)
    case.expect("working")
    ui.tick(2)
    case.expect("working")
    cmd, out = rng.choice(C.COMMANDS)
    ui.tool("Bash", cmd, out)
    case.expect("working")
    if ui.type_ahead(rng.choice(C.TYPE_AHEAD)):
        case.expect("working")
    ui.tick(3)
    ui.tick(1)
    case.expect("working")
    ui.finish(rng.choice(C.ANSWERS), hook_first=hook_order)
    case.expect("done")
    case.advance(60_000)
    ui.tick_idle()
    case.expect("done")
    ui.type_text("thanks, now run the whole suite")
    case.expect("idle")
    ui.submit()
    case.expect("working")
    ui.tick(4)
    case.expect("working")
    ui.finish("All 212 tests pass.")
    case.expect("done")


def approval(ui, case, rng, kind="bash", wait_ms=20_000):
    """A turn that stops for a permission; the user allows it; the turn ends."""
    ui.startup()
    case.expect("idle")
    ui.type_text(rng.choice(C.PROMPTS))
    ui.submit()
    case.expect("working")
    ui.tick(2)
    case.expect("working")
    if kind == "bash":
        ui.approval("bash", rng.choice(C.DANGEROUS))
    elif kind == "edit":
        ui.approval("edit", C.DIFF, rng.choice(C.FILES))
    elif kind == "edit-long":
        ui.approval("edit", C.LONG_DIFF, rng.choice(C.FILES))
    else:
        ui.approval("create", None, "notes/plan.md")
    case.expect("blocked")
    case.advance(wait_ms)
    ui.tick_idle()
    case.expect("blocked")
    ui.answer("1")
    case.expect("working")
    ui.tick(2)
    case.expect("working")
    ui.finish(rng.choice(C.ANSWERS))
    case.expect("done")
    case.advance(600_000)
    ui.tick_idle()
    case.expect("done")


def two_approvals(ui, case, rng):
    """Two permissions in one turn, the second answered after a long wait."""
    ui.startup()
    case.expect("idle")
    ui.type_text(rng.choice(C.PROMPTS))
    ui.submit()
    case.expect("working")
    ui.approval("bash", C.DANGEROUS[0])
    case.expect("blocked")
    ui.answer("1")
    case.expect("working")
    ui.tick(3)
    case.expect("working")
    ui.approval("edit", C.DIFF, C.FILES[0])
    case.expect("blocked")
    case.advance(1_800_000)
    ui.tick_idle()
    case.expect("blocked")
    ui.answer("1")
    case.expect("working")
    ui.finish(rng.choice(C.ANSWERS))
    case.expect("done")


def question(ui, case, rng):
    """The turn ends with a question in prose: done (the agent waits, the turn is over)."""
    ui.startup()
    ui.type_text(rng.choice(C.PROMPTS))
    case.expect("idle")
    ui.submit()
    case.expect("working")
    ui.tick(3)
    case.expect("working")
    ui.finish(rng.choice(C.QUESTIONS))
    case.expect("done")
    case.advance(120_000)
    ui.tick_idle()
    case.expect("done")
    ui.type_text("the unit tests only")
    case.expect("idle")
    ui.submit()
    case.expect("working")
    ui.finish(rng.choice(C.ANSWERS))
    case.expect("done")


def select(ui, case, rng):
    """A question with choices in the agent's UI: blocked until answered."""
    ui.startup()
    ui.type_text(rng.choice(C.PROMPTS))
    ui.submit()
    case.expect("working")
    ui.tick(2)
    ui.select()
    case.expect("blocked")
    case.advance(45_000)
    ui.tick_idle()
    case.expect("blocked")
    ui.answer("enter")
    case.expect("working")
    ui.tick(2)
    case.expect("working")
    ui.finish(rng.choice(C.ANSWERS))
    case.expect("done")


def error(ui, case, rng, text):
    """The turn fails: the error is shown and the agent is back at its prompt (done)."""
    ui.startup()
    ui.type_text(rng.choice(C.PROMPTS))
    ui.submit()
    case.expect("working")
    ui.tick(5)
    case.expect("working")
    ui.error(text)
    case.expect("done")
    case.advance(30_000)
    ui.tick_idle()
    case.expect("done")
    ui.type_text("try again")
    case.expect("idle")


def interrupted(ui, case, rng):
    """The user interrupts a turn (Esc, Ctrl-C): idle, the user is there and acted."""
    ui.startup()
    ui.type_text(rng.choice(C.PROMPTS))
    ui.submit()
    case.expect("working")
    ui.tick(3)
    cmd, out = rng.choice(C.COMMANDS)
    ui.tool("Bash", cmd, out)
    case.expect("working")
    ui.tick(2)
    ui.interrupt()
    case.expect("idle")
    case.advance(300_000)
    ui.tick_idle()
    case.expect("idle")
    ui.type_text("do it without touching the tests")
    case.expect("idle")
    ui.submit()
    case.expect("working")
    ui.finish(rng.choice(C.ANSWERS))
    case.expect("done")


def adversarial_output(ui, case, rng):
    """The agent shows text that holds the rules' phrases: a file it cats, its own answer."""
    ui.startup()
    ui.type_text("cat docs/agents.txt and summarise it")
    ui.submit()
    case.expect("working")
    trigger = rng.sample(C.TRIGGER_TEXT, 6)
    ui.tool("Bash", "cat docs/agents.txt", trigger)
    case.expect("working")
    ui.tick(2)
    case.expect("working")
    ui.say("The file lists the status lines agents draw: " + "; ".join(trigger[:3]))
    case.expect("working")
    ui.finish("In short: " + " / ".join(rng.sample(C.TRIGGER_TEXT, 4)))
    case.expect("done")
    case.advance(3_600_000)
    ui.tick_idle()
    case.expect("done")


def adversarial_prompt(ui, case, rng):
    """The user's own prompt names the phrases, while typed and once sent."""
    ui.startup()
    text = rng.choice(C.ADVERSARIAL_PROMPTS)
    ui.type_text(text)
    case.expect("idle")
    ui.submit()
    case.expect("working")
    ui.tick(2)
    case.expect("working")
    ui.finish(rng.choice(C.ANSWERS))
    case.expect("done")
    ui.type_text(rng.choice(C.ADVERSARIAL_PROMPTS))
    case.expect("idle")


def resize(ui, case, rng, narrow, wide):
    """Panes resized while the agent works and while it asks; checked before and after it redraws."""
    ui.startup()
    ui.type_text(rng.choice(C.PROMPTS))
    ui.submit()
    case.expect("working")
    ui.tick(2)
    ui.resize(narrow[0], narrow[1], redraw=False)
    case.expect("working")
    ui.redraw()
    case.expect("working")
    ui.tick(1)
    case.expect("working")
    ui.approval("bash", rng.choice(C.DANGEROUS))
    case.expect("blocked")
    ui.resize(wide[0], wide[1], redraw=False)
    case.expect("blocked")
    ui.redraw()
    case.expect("blocked")
    ui.answer("1")
    case.expect("working")
    ui.finish(rng.choice(C.ANSWERS))
    case.expect("done")
    ui.resize(narrow[0], narrow[1])
    case.expect("done")
    case.advance(3_600_000)
    ui.tick_idle()
    case.expect("done")


def long_idle(ui, case, rng, idle_hook=True):
    """Finished and left for an hour (and for a day): still done. Hooks may remind meanwhile."""
    ui.startup()
    ui.type_text(rng.choice(C.PROMPTS))
    ui.submit()
    case.expect("working")
    ui.tick(6)
    case.expect("working")
    ui.finish(rng.choice(C.ANSWERS))
    case.expect("done")
    case.advance(60_000)
    if idle_hook and ui.hooks.get("idle_later"):
        case.hook(ui.hooks["idle_later"])
    case.expect("done")
    case.advance(3_600_000)
    ui.tick_idle()
    case.expect("done")
    case.advance(86_400_000)
    case.expect("done")


def resumed(ui, case, rng):
    """A resumed session shows its old transcript and waits: idle."""
    ui.startup(resume_items=ui.old_transcript(rng))
    case.expect("idle")
    case.advance(90_000)
    ui.tick_idle()
    case.expect("idle")
    ui.type_text("continue where we left off")
    case.expect("idle")
    ui.submit()
    case.expect("working")
    ui.tick(3)
    case.expect("working")
    ui.finish(rng.choice(C.ANSWERS))
    case.expect("done")


def fresh(ui, case, rng):
    """Started and never used, for five minutes, then for a day: idle all along."""
    ui.startup()
    case.expect("idle")
    case.advance(300_000)
    ui.tick_idle()
    case.expect("idle")
    case.advance(86_400_000)
    case.expect("idle")


def hook_first(ui, case, rng):
    """Hooks that arrive before the frame they announce: only hooks can know yet."""
    ui.startup()
    ui.type_text(rng.choice(C.PROMPTS))
    case.expect("idle")
    early = (lambda: case.expect("working", "hooks")) if ui.hooks.get("submit") else None
    ui.submit(hook_first=True, between=early)
    case.expect("working")
    ui.tick(2)
    case.expect("working")
    late = (lambda: case.expect("done", "hooks")) if ui.hooks.get("finish") else None
    ui.finish(rng.choice(C.ANSWERS), hook_first=True, between=late)
    case.expect("done")


def standard(family, ui_cls, rng, sizes, styles, processes, errors, extra=()):
    """The scenario set for one agent: every scenario at a few sizes and styles."""
    cases = []
    plan = [
        ("turn", "turn", lambda ui, c, r: turn(ui, c, r)),
        ("turn-hooks-first", "turn", lambda ui, c, r: turn(ui, c, r, hook_order=True)),
        ("approval-bash", "approval", lambda ui, c, r: approval(ui, c, r, "bash")),
        ("approval-edit", "approval", lambda ui, c, r: approval(ui, c, r, "edit")),
        ("approval-create", "approval", lambda ui, c, r: approval(ui, c, r, "create", 5_000)),
        ("approval-long-diff", "approval", lambda ui, c, r: approval(ui, c, r, "edit-long")),
        ("two-approvals", "approval", two_approvals),
        ("question", "question", question),
        ("error", "error", lambda ui, c, r: error(ui, c, r, r.choice(errors))),
        ("interrupted", "interrupted", interrupted),
        ("adversarial-output", "adversarial", adversarial_output),
        ("adversarial-prompt", "adversarial", adversarial_prompt),
        ("long-idle", "long-idle", long_idle),
        ("resumed", "startup", resumed),
        ("fresh", "startup", fresh),
        ("hook-first", "hooks", hook_first),
    ] + list(extra)
    for i, (name, kind, fn) in enumerate(plan):
        for j, (cols, rows) in enumerate(sizes):
            style = styles[(i + j) % len(styles)]
            narrow = "narrow" if cols <= 50 else None
            case_name = f"{name}-{cols}x{rows}-{style}"
            case, ui = _case(ui_cls, family, case_name, narrow or kind, cols, rows, rng, processes(rng),
                             f"{family}: {name} at {cols}x{rows} ({style})", style=style)
            case.kind = kind if not narrow else kind + "+narrow"
            case.with_preamble = (i + j) % 2 == 0
            fn(ui, case, rng)
            cases.append(case)
    for k, (narrow, wide) in enumerate([((40, 30), (110, 32)), ((50, 24), (100, 30))]):
        style = styles[k % len(styles)]
        case, ui = _case(ui_cls, family, f"resize-{narrow[0]}-{wide[0]}-{style}", "resize", wide[0], wide[1], rng,
                         processes(rng), f"{family}: resized to {narrow} and back to {wide} ({style})", style=style)
        resize(ui, case, rng, narrow, wide)
        cases.append(case)
    return cases
