#!/usr/bin/env python3
"""Writes the labelled agent-screen corpus under cases/ and the held-out cases under holdout/
(run from anywhere; deterministic).

    python3 generate.py

Each case is <agent>/<name>.case (header and steps) with <agent>/<name>.bin (the bytes its
`output N` steps consume in order). AccuracyTest replays them; docs/agents/accuracy.md says how.
"""

import os
import random
import shutil
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "gen"))

import aider  # noqa: E402
import claude  # noqa: E402
import codex  # noqa: E402
import gemini  # noqa: E402
import goose  # noqa: E402
import holdout  # noqa: E402
import opencode  # noqa: E402
import others  # noqa: E402


def write(folder, modules):
    out = os.path.join(HERE, folder)
    if os.path.isdir(out):
        shutil.rmtree(out)
    cases = []
    for module in modules:
        rng = random.Random("artuditu-" + module.__name__)
        cases += module.cases(rng)
    names = set()
    for case in cases:
        key = (case.agent, case.name)
        if key in names:
            raise SystemExit(f"duplicate case {key}")
        names.add(key)
        case.write(out)
    by_agent = {}
    for case in cases:
        n, k = by_agent.get(case.agent, (0, 0))
        by_agent[case.agent] = (n + 1, k + case.checkpoints)
    for agent, (n, k) in sorted(by_agent.items()):
        print(f"{folder + '/' + agent:14} {n:4} cases {k:5} checkpoints")
    print(f"{folder + ' total':14} {len(cases):4} cases {sum(c.checkpoints for c in cases):5} checkpoints")


def main():
    write("cases", (claude, codex, gemini, aider, opencode, goose, others))
    write("holdout", (holdout,))


if __name__ == "__main__":
    main()
