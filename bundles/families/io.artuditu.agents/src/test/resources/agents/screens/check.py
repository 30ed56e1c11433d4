#!/usr/bin/env python3
"""Checks every .screen file and SOURCES.md: headers valid, sources known, a side for each."""
import pathlib, re, sys
root = pathlib.Path(__file__).parent
AGENTS = {"claude", "codex", "gemini", "aider", "opencode", "goose", "none"}
STATES = {"working", "blocked", "done", "idle", "none"}
KINDS = {"real", "real-strings", "reconstructed"}
src = {}
for f in [root / "SOURCES.md", *sorted(root.glob("*/SOURCES.md"))]:
    if not f.exists():
        continue
    for m in re.finditer(r"^### `([a-z0-9][a-z0-9-]*)`.*?^side: (tune|holdout)\s*$", f.read_text(), re.M | re.S):
        src[m.group(1)] = m.group(2)
bad = 0
count = {}
for f in sorted(root.glob("*/*.screen")):
    text = f.read_text(encoding="utf-8")
    head, sep, body = text.partition("\n---\n")
    def err(msg):
        global bad
        bad += 1
        print(f"{f.relative_to(root)}: {msg}")
    if not sep:
        err("no --- line"); continue
    h = {}
    for line in head.splitlines():
        if line.startswith("# ") or not line.strip():
            continue
        k, _, v = line.partition(" ")
        h.setdefault(k, []).append(v)
    for k in ("agent", "state", "source", "kind"):
        if k not in h:
            err(f"no {k} line")
    if h.get("agent", ["?"])[0] not in AGENTS: err("bad agent")
    if h.get("agent", ["?"])[0] != f.parent.name: err("agent differs from folder")
    if h.get("state", ["?"])[0] not in STATES: err("bad state")
    if h.get("kind", ["?"])[0] not in KINDS: err("bad kind")
    if (h.get("agent", [""])[0] == "none") != (h.get("state", [""])[0] == "none"): err("none agent <=> none state")
    s = h.get("source", ["?"])[0]
    if s not in src: err(f"source {s} not in any SOURCES.md (### `id` ... side: tune|holdout)")
    for k in ("size", "resize"):
        if k in h and not re.fullmatch(r"\d{1,3} \d{1,3}", h[k][0]): err(f"bad {k}")
    unknown = set(h) - {"agent", "state", "source", "kind", "size", "screen", "resize", "process", "cursor"}
    if unknown: err(f"unknown headers {unknown}")
    cols = int(h.get("size", ["80 24"])[0].split()[0])
    if any(len(l) > cols * 2 for l in body.splitlines()): err(f"a line is much wider than {cols} columns")
    key = (h.get("agent", ["?"])[0], h.get("state", ["?"])[0], h.get("kind", ["?"])[0])
    count[key] = count.get(key, 0) + 1
for k in sorted(count):
    print(*k, count[k])
print("files:", sum(count.values()), "problems:", bad)
sys.exit(1 if bad else 0)
