#!/usr/bin/env python3
"""The diff family's figures (issue 26, "Measure"), one run, through the real socket.

A generated repository of 20,000 files (200 folders of 100) with 200 modified, 50 untracked
and 10 staged. Git's first status on the fresh repository (cold) is timed once, then
warmed. Side by side: the first diff.list (cold: it waits for one status pass; the
+/- counts follow), a diff.refresh right after it (the counts pass, then one more scan), and N
diff.refresh calls (each waits for a full new scan, i.e. a cold list's work) against N runs
of `git status --porcelain=v2`; the warm diff.list p50 (N calls); the time until a saved file
shows in diff.list (polled every 2 ms; the server's file watch drives it); diff.get with
include_patch on a 5,000-line change (p50); one re-anchoring pass after a 1,000-line rewrite
of a file with 100 notes, and whether every note ended in the expected state.

Usage: bench/diff_review.py [--runs N] [--out FILE]   (the distribution must be built)
"""
import argparse, json, os, shutil, statistics, subprocess, sys, tempfile, time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from uhp import call, ok  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
ARTU = os.path.join(ROOT, "artu")
GIT_ENV = dict(os.environ, GIT_CONFIG_NOSYSTEM="1", GIT_AUTHOR_NAME="b", GIT_AUTHOR_EMAIL="b@x",
               GIT_COMMITTER_NAME="b", GIT_COMMITTER_EMAIL="b@x")


def git(repo, *args):
    return subprocess.run(["git", "-c", "commit.gpgsign=false", *args], cwd=repo, env=GIT_ENV, check=True,
                          capture_output=True, text=True).stdout


def ms(t0):
    return (time.perf_counter() - t0) * 1000


def p50(xs):
    return round(statistics.median(xs), 3)


def generate(repo):
    os.makedirs(repo)
    git(repo, "init", "-q", "-b", "main")
    for d in range(200):
        folder = os.path.join(repo, f"pkg{d:03d}")
        os.makedirs(folder)
        for f in range(100):
            with open(os.path.join(folder, f"f{f:03d}.txt"), "w") as o:
                o.write("".join(f"line {i} of {d}/{f}\n" for i in range(20)))
    with open(os.path.join(repo, "big.txt"), "w") as o:
        o.write("".join(f"original line {i}\n" for i in range(5000)))
    git(repo, "add", ".")
    git(repo, "commit", "-q", "-m", "generated")
    for k in range(200):  # modified
        path = os.path.join(repo, f"pkg{k:03d}", "f000.txt")
        with open(path, "a") as o:
            o.write("changed\n")
    for k in range(50):  # untracked
        with open(os.path.join(repo, f"pkg{k:03d}", "new.txt"), "w") as o:
            o.write("new\n")
    for k in range(10):  # staged
        path = os.path.join(repo, f"pkg{k:03d}", "f001.txt")
        with open(path, "a") as o:
            o.write("staged\n")
        git(repo, "add", path)
    with open(os.path.join(repo, "big.txt"), "w") as o:  # a 5,000-line change
        o.write("".join(f"rewritten line {i}\n" for i in range(5000)))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=20)
    ap.add_argument("--out")
    a = ap.parse_args()
    work = tempfile.mkdtemp(prefix="artu-diff-bench-")
    home = os.path.join(work, "home")
    os.makedirs(home)
    repo = os.path.join(work, "repo")
    env = dict(os.environ, ARTUDITU_HOME=home, ARTU_NO_BUILD="1", HOME=home)
    sock = os.path.join(home, "artuditu.sock")
    server = None
    out = {"runs": a.runs, "files": 20000, "modified": 200, "untracked": 50, "staged": 10}
    try:
        generate(repo)
        t0 = time.perf_counter()
        git(repo, "status", "--porcelain=v2")
        out["git_first_status_ms"] = round(ms(t0), 3)
        for _ in range(3):  # git's caches warm, as for the server below
            git(repo, "status", "--porcelain=v2")
        server = subprocess.Popen([ARTU, "server", "--foreground"], env=env, stdout=subprocess.DEVNULL,
                                  stderr=subprocess.DEVNULL)
        deadline = time.time() + 60
        while True:
            try:
                if "result" in call(sock, "ping"):
                    break
            except OSError:
                pass
            if time.time() > deadline:
                raise SystemExit("the server did not answer ping")
            time.sleep(0.05)
        ok(sock, "workspace.open", {"cwd": repo})

        t0 = time.perf_counter()
        first = ok(sock, "diff.list", {})
        out["cold_first_list_ms"] = round(ms(t0), 3)
        out["listed"] = len(first["files"])
        out["first_list_counted"] = sum(1 for f in first["files"] if f["additions"] is not None)
        t0 = time.perf_counter()
        ok(sock, "diff.refresh", {})  # waits for the first scan's counts pass, then one more scan
        out["counts_then_refresh_ms"] = round(ms(t0), 3)
        refresh, status = [], []
        for i in range(a.runs):  # interleaved, same number of runs
            t0 = time.perf_counter()
            git(repo, "status", "--porcelain=v2")
            status.append(ms(t0))
            t0 = time.perf_counter()
            ok(sock, "diff.refresh", {})
            refresh.append(ms(t0))
        out["git_status_porcelain_v2_ms"] = {"p50": p50(status), "min": round(min(status), 3)}
        out["scan_diff_refresh_ms"] = {"p50": p50(refresh), "min": round(min(refresh), 3)}
        out["scan_over_git_p50"] = round(p50(refresh) / p50(status), 3)

        warm = []
        for _ in range(max(a.runs, 50)):
            t0 = time.perf_counter()
            ok(sock, "diff.list", {})
            warm.append(ms(t0))
        out["warm_list_ms"] = {"p50": p50(warm), "n": len(warm)}

        seen = []
        for k in range(a.runs):
            name = f"pkg{150 + k % 50:03d}/saved{k}.txt"
            time.sleep(0.3)
            t0 = time.perf_counter()
            with open(os.path.join(repo, name), "w") as o:
                o.write("saved by an agent\n")
            while True:
                files = ok(sock, "diff.list", {})["files"]
                if any(f["path"] == name for f in files):
                    seen.append(ms(t0))
                    break
                if ms(t0) > 10_000:
                    seen.append(float("inf"))
                    break
                time.sleep(0.002)
        out["saved_file_listed_ms"] = {"p50": p50(seen), "max": round(max(seen), 3), "n": len(seen)}

        gets = []
        for _ in range(a.runs):
            t0 = time.perf_counter()
            g = ok(sock, "diff.get", {"path": "big.txt", "include_patch": True})
            gets.append(ms(t0))
        out["get_5000_line_change_ms"] = {"p50": p50(gets), "rows": sum(len(h["lines"]) for h in g["hunks"])}

        # re-anchoring: an untracked 3,000-line file, a note every 30 lines (100), then 5 lines
        # inserted at the top and lines 1001-2000 rewritten
        text = [f"anchor text {i}" for i in range(1, 3001)]
        with open(os.path.join(repo, "notes.txt"), "w") as o:
            o.write("\n".join(text) + "\n")
        ok(sock, "diff.refresh", {})
        lines = list(range(15, 3001, 30))
        ok(sock, "diff.note.apply", {"notes": [{"file": "notes.txt", "new_line": n, "body": f"note at {n}"}
                                               for n in lines]})
        rewritten = [f"rewritten {i}" if 1001 <= i <= 2000 else text[i - 1] for i in range(1, 3001)]
        with open(os.path.join(repo, "notes.txt"), "w") as o:
            o.write("\n".join(["inserted"] * 5 + rewritten) + "\n")
        t0 = time.perf_counter()
        ok(sock, "diff.refresh", {})
        out["reanchor_refresh_ms"] = round(ms(t0), 3)
        t0 = time.perf_counter()
        ok(sock, "diff.refresh", {})
        out["refresh_without_change_ms"] = round(ms(t0), 3)
        notes = ok(sock, "diff.note.list", {"file": "notes.txt"})["notes"]
        wrong = []
        for n in notes:
            at = int(n["body"].split()[-1])
            if 1001 <= at <= 2000:
                want = ("outdated" if at - 3 <= 1000 or at + 3 >= 2001 else "orphaned", None)
            else:
                want = ("open", at + 5)
            if n["state"] != want[0] or (want[1] and n["line"] != want[1]):
                wrong.append({"note": at, "state": n["state"], "line": n["line"], "want": want})
        out["reanchor_notes"] = len(notes)
        out["reanchor_wrong"] = wrong
    finally:
        if server:
            try:
                call(sock, "server.stop")
            except OSError:
                pass
            try:
                server.wait(20)
            except subprocess.TimeoutExpired:
                server.kill()
        shutil.rmtree(work, ignore_errors=True)
    text = json.dumps(out, indent=2)
    print(text)
    if a.out:
        with open(a.out, "w") as f:
            f.write(text + "\n")


if __name__ == "__main__":
    main()
