#!/usr/bin/env python3
"""bench/ab_rtt.py: the UHP round trip of two servers that run at the same time, before/after.

Both servers are up for the whole run; the client (one fresh AF_UNIX connection per `ping`, as
bench/rtt.py and the suite's `rtt` scenario) alternates between them in blocks, A first in
odd blocks and B first in even ones, so whatever else the machine does falls on both sides
alike. Prints p50/p90/p99 per side and B's p50 as a ratio of A's; writes every sample to
OUT/ab_rtt.json.

    bench/ab_rtt.py --a SOCK --b SOCK [--label-a before] [--label-b after]
                    [--blocks 40] [--per-block 250] [--warmup 500] --out DIR
"""
import argparse, json, os, platform

from rtt import once, pct  # the same client and percentile as bench/rtt.py


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--a", required=True)
    ap.add_argument("--b", required=True)
    ap.add_argument("--label-a", default="before")
    ap.add_argument("--label-b", default="after")
    ap.add_argument("--blocks", type=int, default=40)
    ap.add_argument("--per-block", type=int, default=250)
    ap.add_argument("--warmup", type=int, default=500)
    ap.add_argument("--out", required=True)
    args = ap.parse_args()
    sides = {args.label_a: args.a, args.label_b: args.b}
    for path in sides.values():
        for _ in range(args.warmup):
            once(path)
    samples = {label: [] for label in sides}
    for block in range(args.blocks):
        order = list(sides) if block % 2 == 0 else list(reversed(list(sides)))
        for label in order:
            samples[label].extend(once(sides[label]) for _ in range(args.per_block))
    report = {"what": "ping round trip, fresh connection per call, both servers up, alternating blocks",
              "blocks": args.blocks, "per_block": args.per_block, "warmup": args.warmup,
              "machine": {"cpus": os.cpu_count(), "platform": platform.platform()}, "sides": {}}
    for label, s in samples.items():
        o = sorted(s)
        report["sides"][label] = {"p50_us": pct(o, 50), "p90_us": pct(o, 90), "p99_us": pct(o, 99),
                                  "samples_us": s}
        print(f"{label:>8}: p50 {pct(o, 50):7.1f} µs  p90 {pct(o, 90):7.1f}  p99 {pct(o, 99):7.1f}  n={len(o)}")
    a, b = (report["sides"][l]["p50_us"] for l in sides)
    report["ratio_p50_b_over_a"] = b / a
    print(f"{args.label_b}/{args.label_a} p50: {b / a:.3f}")
    os.makedirs(args.out, exist_ok=True)
    with open(os.path.join(args.out, "ab_rtt.json"), "w") as f:
        json.dump(report, f)


if __name__ == "__main__":
    main()
