"""bench/run: the whole benchmark suite, Artuditu side by side with tmux. See bench/README.md."""
import argparse, datetime, json, os, platform, shutil, signal, statistics, subprocess, sys, time, traceback

import scenarios
from parts import BENCH_JAR, ROOT, Artuditu, java_bench, remove, scratch

# Debian packages the suite drives; installed when missing and run as root, else named.
NEEDS = {"tmux": "tmux", "script": "bsdutils", "fc-list": "fontconfig"}
FONT_DIR = "/usr/share/fonts/truetype/dejavu"


def log(msg):
    print(f"== {msg}", file=sys.stderr, flush=True)


def ensure_packages():
    missing = sorted({pkg for cmd, pkg in NEEDS.items() if shutil.which(cmd) is None})
    if not os.path.isdir(FONT_DIR):
        missing.append("fonts-dejavu-core")  # the charts' text (a headless JDK draws with fontconfig's fonts)
    if not missing:
        return
    if os.geteuid() != 0:
        sys.exit(f"bench/run: needs {' '.join(missing)} (apt-get install {' '.join(missing)})")
    log(f"installing {' '.join(missing)}")
    env = dict(os.environ, DEBIAN_FRONTEND="noninteractive")
    subprocess.run(["apt-get", "update", "-q"], check=True, env=env, stdout=sys.stderr)
    subprocess.run(["apt-get", "install", "-y", "-q"] + missing, check=True, env=env, stdout=sys.stderr)


def build():
    pl = "distribution,bench,modules-sdk/io.artuditu.example.echo,modules-sdk/io.artuditu.example.counter"
    log(f"building (mvn package -pl {pl} -am)")
    base = ["mvn", "-B", "-q", "-DskipTests", "package", "-pl", pl, "-am"]
    if subprocess.run(base[:3] + ["-o"] + base[3:], cwd=ROOT, stdout=sys.stderr).returncode != 0:
        subprocess.run(base, cwd=ROOT, check=True, stdout=sys.stderr)


def out(cmd):
    try:
        return subprocess.run(cmd, capture_output=True, text=True, timeout=30).stdout.strip()
    except (OSError, subprocess.TimeoutExpired):
        return ""


def machine():
    cpu = ""
    with open("/proc/cpuinfo") as f:
        for line in f:
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    with open("/proc/meminfo") as f:
        mem = int(f.readline().split()[1])
    java = subprocess.run(["java", "-version"], capture_output=True, text=True).stderr.splitlines()
    return {"cpus": os.cpu_count(), "cpu": cpu, "mem_kib": mem, "kernel": " ".join(platform.uname()[2:4]),
            "java": java[1] if len(java) > 1 else "", "tmux": out(["tmux", "-V"]),
            "python": platform.python_version()}


class Context:
    """What a scenario gets: the run's Artuditu server, a scratch folder, the harness log."""

    def __init__(self, tmp, log_file):
        self.tmp, self.log, self.artu = tmp, log_file, None
        self._payloads = {}

    def work(self, name):
        d = os.path.join(self.tmp, name)
        os.makedirs(d, exist_ok=True)
        return d

    def payload(self, mib):
        if mib not in self._payloads:
            path = os.path.join(self.tmp, f"payload-{mib}.txt")
            java_bench("TerminalBench", "payload", path, mib, log=self.log)
            self._payloads[mib] = path
        return self._payloads[mib]


def values(runs, side, key):
    return [r[side][key] for r in runs if r.get(side) and isinstance(r[side].get(key), (int, float))]


def stats(vals):
    if not vals:
        return None
    return {"runs": vals, "median": statistics.median(vals), "min": min(vals), "max": max(vals)}


def target_text(t, unit):
    if t is None:
        return None
    if t[0] == "max":
        return f"≤ {t[1]:g} {unit}"
    if t[0] == "min":
        return f"≥ {t[1]:g} {unit}"
    if t[0] == "le_tmux":
        return "≤ tmux"
    return f"≥ {t[1]:g} × tmux"


def judge(fig, a, t):
    if fig.target is None or a is None:
        return None
    kind = fig.target[0]
    if kind == "max":
        return a["median"] <= fig.target[1]
    if kind == "min":
        return a["median"] >= fig.target[1]
    if t is None:
        return None
    if kind == "le_tmux":
        return a["median"] <= t["median"] if fig.better == "lower" else a["median"] >= t["median"]
    return a["median"] >= fig.target[1] * t["median"]


def figures(sc, runs):
    rows = []
    for f in sc.figures:
        a = stats(values(runs, "artuditu", f.key))
        t = stats(values(runs, "tmux", f.key)) if f.tmux else None
        text = target_text(f.target, f.unit)
        if f.target and f.target[0] == "le_tmux" and f.better == "higher":
            text = "≥ tmux"  # no worse than tmux, where more is better
        rows.append({"id": f.id, "scenario": sc.id, "title": f.title.format(**sc.size), "unit": f.unit,
                     "better": f.better, "artuditu": a, "tmux": t,
                     "ratio": round(a["median"] / t["median"], 3) if a and t and t["median"] else None,
                     "target": {"text": text, "kind": f.target[0],
                                "value": f.target[1] if len(f.target) > 1 else None} if f.target else None,
                     "met": judge(f, a, t)})
    return rows


def jmh(quick, dest, log_file):
    """The in-process benchmarks (bench/target/benchmarks.jar); one row per benchmark and params."""
    rff = os.path.join(dest, "jmh.json")
    argv = ["java", "-jar", BENCH_JAR, "-rf", "json", "-rff", rff, "-foe", "true"]
    if quick:
        argv += ["-wi", "0", "-i", "1", "-r", "200ms", "-f", "1", "-p", "historyBytes=200000"]
    argv += ["DispatchBenchmark", "VtBenchmark", "EventFanoutBenchmark", "FrameEncoderBenchmark", "DetectorBenchmark"]
    log("JMH: " + " ".join(argv[3:]))
    r = subprocess.run(argv, stdout=log_file, stderr=subprocess.STDOUT, timeout=3600)
    if r.returncode != 0 or not os.path.exists(rff):
        raise RuntimeError(f"JMH failed ({r.returncode}); see the harness log")
    with open(rff) as f:
        rows = json.load(f)
    os.remove(rff)
    return [{"benchmark": r["benchmark"], "params": r.get("params", {}), "mode": r["mode"],
             "score": r["primaryMetric"]["score"], "error": r["primaryMetric"]["scoreError"],
             "unit": r["primaryMetric"]["scoreUnit"]} for r in rows]


def write_json(path, data):
    tmp = path + ".tmp"
    with open(tmp, "w") as f:
        json.dump(data, f, indent=1, ensure_ascii=False)
        f.write("\n")
    os.replace(tmp, path)


def report(suite_json, md, png_dir):
    argv = ["java", "-Djava.awt.headless=true", "-cp", BENCH_JAR, "io.artuditu.bench.report.Report",
            suite_json, md, png_dir, "--findings", os.path.join(ROOT, "bench", "findings.md"),
            "--link-root", os.path.dirname(md)]
    subprocess.run(argv, check=True, stdout=sys.stderr)


def main():
    # SIGTERM (a CI timeout, kill) ends the run the way ^C does: every finally block stops
    # what it started, and a child harness still running is killed by subprocess.run.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    ap = argparse.ArgumentParser(prog="bench/run", description="Artuditu's benchmark suite, side by side with tmux.")
    ap.add_argument("--quick", action="store_true", help="a smoke pass of every scenario (a minute or two)")
    ap.add_argument("--runs", type=int, default=None, help="interleaved runs (default 3; quick 1)")
    ap.add_argument("--only", default=None, help="comma-separated scenario ids (" +
                    ",".join(s.id for s in scenarios.ALL) + ",jmh)")
    ap.add_argument("--no-build", action="store_true", help="measure what is built already")
    ap.add_argument("--out", default=None, help="results folder (default bench/results/STAMP-suite; quick: "
                                                "bench/target/quick/STAMP)")
    ap.add_argument("--docs", default=None, help="the page to regenerate (default docs/performance.md; quick: "
                                                 "in the results folder)")
    a = ap.parse_args()
    runs = a.runs or (1 if a.quick else 3)
    only = set(a.only.split(",")) if a.only else None
    ensure_packages()
    if not a.no_build:
        build()
    stamp = datetime.datetime.now(datetime.timezone.utc).strftime("%Y%m%d-%H%M%S")
    dest = a.out or os.path.join(ROOT, "bench", "target", "quick", stamp) if a.quick else \
        a.out or os.path.join(ROOT, "bench", "results", stamp + "-suite")
    os.makedirs(dest, exist_ok=True)
    md = a.docs or (os.path.join(dest, "performance.md") if a.quick else os.path.join(ROOT, "docs", "performance.md"))
    png_dir = os.path.join(os.path.dirname(md), "performance")
    log_file = open(os.path.join(dest, "harness.log"), "w")
    chosen = [cls(a.quick) for cls in scenarios.ALL if only is None or cls.id in only]
    for sc in chosen:
        sc.method = sc.method.format(**sc.size)
    commit = out(["git", "-C", ROOT, "rev-parse", "HEAD"])
    dirty = bool(out(["git", "-C", ROOT, "status", "--porcelain", "--untracked-files=no"]))
    data = {"format": 1, "mode": "quick" if a.quick else "full", "command": " ".join(["bench/run"] + sys.argv[1:]),
            "started": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
            "git": {"commit": commit, "dirty": dirty}, "machine": machine(),
            "load": {"start": list(os.getloadavg())}, "runs": runs, "scenarios": [], "figures": [], "jmh": []}
    results = {sc.id: [] for sc in chosen}
    errors = {}
    tmp = scratch()
    ctx = Context(tmp, log_file)
    try:
        for run in range(1, runs + 1):
            order = ["artuditu", "tmux"] if run % 2 else ["tmux", "artuditu"]
            log(f"run {run} of {runs}, {order[0]} first")
            ctx.artu = Artuditu(tmp, f"run{run}")
            try:
                for sc in chosen:
                    if sc.id in errors:
                        continue
                    log(f"run {run}: {sc.id}")
                    load = os.getloadavg()[0]
                    t0 = time.monotonic()
                    try:
                        r = sc.run(ctx, order)
                    except Exception as e:  # noqa: BLE001 - one scenario's failure is reported, the rest go on
                        errors[sc.id] = f"{type(e).__name__}: {e}"
                        log_file.write(traceback.format_exc())
                        log(f"run {run}: {sc.id} FAILED: {errors[sc.id]}")
                        continue
                    r.update(run=run, order=order, load=load, seconds=round(time.monotonic() - t0, 1))
                    results[sc.id].append(r)
            finally:
                ctx.artu.stop()
        if only is None or "jmh" in only:
            try:
                data["jmh"] = jmh(a.quick, dest, log_file)
            except Exception as e:  # noqa: BLE001
                errors["jmh"] = str(e)
                log(f"JMH FAILED: {e}")
    finally:
        remove(tmp)
        log_file.close()
    for sc in chosen:
        data["scenarios"].append({"id": sc.id, "title": sc.title, "method": sc.method, "sizes": sc.size,
                                  "runs": results[sc.id], "error": errors.get(sc.id)})
        data["figures"] += figures(sc, results[sc.id])
    if "jmh" in errors:
        data["jmh_error"] = errors["jmh"]
    data["load"]["end"] = list(os.getloadavg())
    data["finished"] = datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds")
    suite_json = os.path.join(dest, "suite.json")
    write_json(suite_json, data)
    log(f"results: {os.path.relpath(suite_json, ROOT)}")
    report(suite_json, md, png_dir)
    log(f"report: {os.path.relpath(md, ROOT)}")
    met = [f for f in data["figures"] if f["met"] is not None]
    for f in data["figures"]:
        a_, t_ = (f"{x['median']:.4g}" if x else "–" for x in (f["artuditu"], f["tmux"]))
        print(f"{f['id']:<24} artuditu {a_:>8} tmux {t_:>8} {f['unit']:<6} "
              f"target {f['target']['text'] if f['target'] else '–':<14} "
              f"met {'–' if f['met'] is None else ('yes' if f['met'] else 'no')}")
    print(f"{sum(1 for f in met if f['met'])} of {len(met)} targets met; "
          f"{len(errors)} scenario(s) failed{': ' + ', '.join(errors) if errors else ''}")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
