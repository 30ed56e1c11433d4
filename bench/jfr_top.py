#!/usr/bin/env python3
"""bench/jfr_top.py: the top frames of a JFR recording's execution samples, as text.

    bench/jfr_top.py RECORDING.jfr [--threads PREFIX,...] [--top N]

Counts jdk.ExecutionSample events (Java code running) by thread, by leaf frame (self) and
by every frame on the stack (inclusive, once per sample); only threads whose name starts
with one of the prefixes (default uhp-) are counted, the others are summed by name.
"""
import argparse, collections, json, subprocess


def frame_name(f):
    m = f["method"]
    return m["type"]["name"] + "." + m["name"]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("recording")
    ap.add_argument("--threads", default="uhp-")
    ap.add_argument("--top", type=int, default=25)
    ap.add_argument("--event", default="jdk.ExecutionSample")
    a = ap.parse_args()
    prefixes = tuple(a.threads.split(","))
    raw = subprocess.run(["jfr", "print", "--json", "--stack-depth", "64", "--events", a.event, a.recording],
                         check=True, capture_output=True, text=True).stdout
    events = json.loads(raw)["recording"]["events"]
    by_thread, leaf, incl = collections.Counter(), collections.Counter(), collections.Counter()
    n = 0
    for e in events:
        v = e["values"]
        t = (v.get("sampledThread") or {}).get("javaName") or "?"
        # uhp-conn-17 -> uhp-conn-N
        base = t.rstrip("0123456789") + ("N" if t[-1:].isdigit() else "")
        by_thread[base] += 1
        if not t.startswith(prefixes):
            continue
        frames = [frame_name(f) for f in (v.get("stackTrace") or {}).get("frames", [])]
        if not frames:
            continue
        n += 1
        leaf[frames[0]] += 1
        for f in set(frames):
            incl[f] += 1
    print(f"{a.event} in {a.recording}: {len(events)} samples; by thread:")
    for t, c in by_thread.most_common(12):
        print(f"  {c:6d}  {t}")
    print(f"\nthreads {a.threads}*: {n} samples. top leaf frames (self):")
    for f, c in leaf.most_common(a.top):
        print(f"  {c:6d} {100.0 * c / max(n, 1):5.1f}%  {f}")
    print(f"\ntop frames anywhere on the stack (inclusive):")
    for f, c in incl.most_common(a.top * 2):
        print(f"  {c:6d} {100.0 * c / max(n, 1):5.1f}%  {f}")


if __name__ == "__main__":
    main()
