"""Medians and ranges per side of ab.py's rounds.jsonl: python3 summary.py rounds.jsonl"""
import json, statistics, sys

rows = [json.loads(l) for l in open(sys.argv[1])]
for key in ["total_ms", "p50_ms", "p90_ms", "server_cpu_ms", "app_loop_cpu_ms"]:
    out = []
    for side in ["before", "after", "tmux"]:
        v = [r[key] for r in rows if r["side"] == side and r.get(key) is not None]
        if v:
            out.append(f"{side} {statistics.median(v):.1f} ({min(v):.1f}–{max(v):.1f})")
    print(f"{key:16} " + "   ".join(out))
print("rounds", max(r["round"] for r in rows) + 1, "load", min(r["load"] for r in rows), "–", max(r["load"] for r in rows))
