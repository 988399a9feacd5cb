#!/usr/bin/python3
"""Flip rate of verdicts under load: does a program within its CPU limit get the same
verdict every time while the machine is oversubscribed?

A loop (iterations read from stdin, so it compiles once), in C and in Python, is calibrated
on the idle server, then sized to 50, 70, 80, 90 and 95% of a 1 s CPU limit. Each level is
judged REPS times through /v1/judge of a real `verdict serve` on 127.0.0.1 (its own default
cells unless --cells), by LOAD concurrent clients: every request is a CPU-bound judged
program, so LOAD jobs are always asked for (8 on 2 cores is 4x oversubscription); once the
measured runs are handed out, the clients that are free keep judging unmeasured filler runs
until the last measured one is back. Two conditions: alone, and with HOGS CPU hogs (busy
loops outside verdict, in this script's own cgroup) running all along. With --baseline,
another build is measured the same way in the same run, each condition of it just before
this one's. It prints per binary, condition, language and level the verdict counts, the flips
(runs not OK), which limit a TLE named, the judge's reruns and the CPU and wall spread, and
one summary line: TLE and SE up to 90% of the limit. It asserts nothing (a benchmark). Every
loop is bounded in count and time; it talks to 127.0.0.1 only.

usage: flip_rate.py VERDICT_BIN [--baseline BIN] [--languages DIR] [--reps 100] [--load 8]
       [--limit-ms 1000] [--hogs 2] [--conditions alone,hogs] [--langs c,python] [--json F]
       (root: verdict runs cells)
"""
import argparse
import collections
import json
import os
import random
import re
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request

LEVELS = [0.50, 0.70, 0.80, 0.90, 0.95]
DEADLINE_S = 1500  # one binary, condition and language, whatever REPS says
PROGRAMS = {
    "c": (r"""
#include <stdio.h>
int main(void)
{
    long n = 0;
    if (scanf("%ld", &n) != 1)
        return 2;
    volatile unsigned long x = 1;
    for (long i = 0; i < n; i++)
        x = x * 6364136223846793005ul + 1442695040888963407ul;
    puts("ok");
    return 0;
}
""", 200_000_000),
    "python": ("""n = int(input())
x = 1
for i in range(n):
    x = (x * 1103515245 + 12345) & 0xFFFFFFFF
print("ok")
""", 3_000_000),
}
HOG = "while :; do :; done"


def post(url, body, timeout=120):
    req = urllib.request.Request(url + "/v1/judge", data=json.dumps(body).encode(),
                                 headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(req, timeout=timeout) as r:
        return json.loads(r.read())


def judge(url, lang, iterations, limit_ms):
    body = {"language": lang, "code": PROGRAMS[lang][0],
            "tests": [{"stdin": str(iterations), "expected": "ok"}],
            "limits": {"time_ms": limit_ms}}
    try:
        t = post(url, body)["tests"][0]
    except Exception as e:  # a failed exchange is counted, not fatal
        return {"verdict": "HTTP:" + type(e).__name__}
    return t


def start(binary, languages, cells):
    tmp = tempfile.mkdtemp(prefix="verdict-flip-", dir="/var/tmp")
    proc = subprocess.Popen(
        [binary, "serve", "--listen", "127.0.0.1:0", *(["--cells", str(cells)] if cells else []),
         "--languages", languages, "--cache", tmp + "/artifacts", "--db", tmp + "/verdict.db"],
        stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    for _ in range(100):
        line = proc.stderr.readline().decode()
        m = re.search(r"serving on (http://127\.0\.0\.1:\d+) with (\d+) cells", line)
        if m:
            threading.Thread(target=proc.stderr.read, daemon=True).start()  # keep it drained
            return proc, m.group(1), tmp, int(m.group(2))
        if not line:
            break
    proc.kill()
    sys.exit("server did not start")


def stop(proc, tmp):
    proc.send_signal(signal.SIGTERM)
    try:
        proc.wait(timeout=60)
    except subprocess.TimeoutExpired:
        proc.kill()
    shutil.rmtree(tmp, ignore_errors=True)


def calibrate(url, lang, limit_ms):
    """Iterations per ms of CPU, from the median of five idle runs of a fixed count."""
    n = PROGRAMS[lang][1]
    cpu = [judge(url, lang, n, 10 * limit_ms).get("time_ms", 0) for _ in range(5)]
    ms = statistics.median(cpu)
    if ms <= 0:
        sys.exit(f"calibration of {lang} failed: {cpu}")
    return n / ms, ms


def hogs_start(n):
    """n busy loops, in this script's cgroup (not verdict's), killed by hogs_stop."""
    return [subprocess.Popen(["/bin/sh", "-c", HOG], start_new_session=True) for _ in range(n)]


def hogs_stop(hogs):
    for h in hogs:
        try:
            os.killpg(h.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        h.wait(timeout=60)


def limit_of(t):
    """Which limit a TLE names: the `limit` field where the server has it, else the reason."""
    if t.get("verdict") != "TLE":
        return None
    if "limit" in t:
        return t["limit"]
    reason = t.get("reason", "")
    return "wall" if reason.startswith("wall") else "cpu" if reason.startswith("CPU") else "?"


def run(url, lang, args, per_ms):
    work = [(lv, int(lv * args.limit_ms * per_ms)) for lv in LEVELS for _ in range(args.reps)]
    random.Random(1).shuffle(work)
    results = collections.defaultdict(list)
    lock = threading.Lock()
    done = threading.Event()
    deadline = time.monotonic() + DEADLINE_S
    filler = int(0.5 * args.limit_ms * per_ms)

    def client():
        while time.monotonic() < deadline:
            with lock:
                item = work.pop() if work else None
            if item is None:
                if done.is_set():
                    return
                judge(url, lang, filler, args.limit_ms)  # load only, until the last measured
                continue
            t = judge(url, lang, item[1], args.limit_ms)
            with lock:
                results[item[0]].append(t)
                if sum(len(v) for v in results.values()) == len(LEVELS) * args.reps:
                    done.set()

    threads = [threading.Thread(target=client) for _ in range(args.load)]
    start_t = time.monotonic()
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=max(1.0, deadline - time.monotonic() + 150))
    return results, time.monotonic() - start_t


def table(results, args):
    """Prints the levels' rows; returns {level: {verdict: count}, "reruns": n}."""
    print(f"{'level':>6} {'cpu_target':>10} {'runs':>5} {'verdicts':<24} {'flips':>5} "
          f"{'TLE limit':<16} {'reruns':>6} {'cpu min/med/max ms':<20} {'wall med/max ms':<16}")
    out = {}
    for lv in LEVELS:
        rs = results.get(lv, [])
        counts = collections.Counter(t.get("verdict", "?") for t in rs)
        limits = collections.Counter(limit_of(t) for t in rs if t.get("verdict") == "TLE")
        reruns = sum(t.get("reruns", 0) for t in rs)
        cpu = sorted(t["time_ms"] for t in rs if "time_ms" in t)
        wall = sorted(t["wall_ms"] for t in rs if "wall_ms" in t)
        flips = len(rs) - counts.get("OK", 0)
        vs = " ".join(f"{k}:{v}" for k, v in sorted(counts.items()))
        ls = " ".join(f"{k}:{v}" for k, v in sorted(limits.items())) or "-"
        c = f"{cpu[0]}/{int(statistics.median(cpu))}/{cpu[-1]}" if cpu else "-"
        w = f"{int(statistics.median(wall))}/{wall[-1]}" if wall else "-"
        print(f"{int(lv * 100):>5}% {int(lv * args.limit_ms):>8}ms {len(rs):>5} {vs:<24} "
              f"{flips:>5} {ls:<16} {reruns:>6} {c:<20} {w:<16}")
        out[f"{int(lv * 100)}%"] = {"verdicts": dict(counts), "reruns": reruns,
                                    "cpu_ms_med": int(statistics.median(cpu)) if cpu else None}
    return out


def measure(binary, cond, args):
    """One binary under one condition, every language: {lang: table}."""
    proc, url, tmp, cells = start(binary, args.languages, args.cells)
    got = {}
    hogs = []
    try:
        per = {lang: calibrate(url, lang, args.limit_ms) for lang in args.langs}
        if cond == "hogs":
            hogs = hogs_start(args.hogs)
        for lang in args.langs:
            per_ms, base_ms = per[lang]
            print(f"\n{binary} ({cells} cells), {cond}"
                  f"{f' ({args.hogs} CPU hogs beside it)' if cond == 'hogs' else ''}: {lang}, "
                  f"{os.cpu_count()} CPUs, {args.load} jobs asked for at once, CPU limit "
                  f"{args.limit_ms} ms, {args.reps} runs per level; calibration "
                  f"{PROGRAMS[lang][1]} iterations = {base_ms} ms idle", flush=True)
            results, elapsed = run(url, lang, args, per_ms)
            got[lang] = table(results, args)
            print(f"elapsed {elapsed:.0f} s", flush=True)
    finally:
        hogs_stop(hogs)
        stop(proc, tmp)
    return got, cells


def summary(label, got):
    """TLE and SE up to 90% of the limit, over every language."""
    tle = se = n = 0
    for lang in got.values():
        for lv, row in lang.items():
            if int(lv.rstrip("%")) <= 90:
                v = row["verdicts"]
                tle += v.get("TLE", 0)
                se += v.get("SE", 0)
                n += sum(v.values())
    print(f"{label}: up to 90% of the limit, TLE {tle} and SE {se} of {n}")
    return {"tle": tle, "se": se, "runs": n}


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("binary")
    p.add_argument("--baseline", help="another build, measured the same way first")
    p.add_argument("--languages", default="languages")
    p.add_argument("--reps", type=int, default=100, help="runs per level")
    p.add_argument("--load", type=int, default=8, help="judged jobs kept asked for")
    p.add_argument("--limit-ms", type=int, default=1000, help="the CPU limit")
    p.add_argument("--cells", type=int, default=0, help="serve --cells (0: its default)")
    p.add_argument("--hogs", type=int, default=2, help="CPU hogs beside verdict")
    p.add_argument("--conditions", default="alone,hogs")
    p.add_argument("--langs", default="c,python")
    p.add_argument("--json", help="write the results here")
    args = p.parse_args()
    args.langs = [x for x in args.langs.split(",") if x in PROGRAMS]
    if os.geteuid() != 0:
        sys.exit("the sandbox needs root")
    out = {}
    for cond in [c for c in args.conditions.split(",") if c in ("alone", "hogs")]:
        for label, binary in (("baseline", args.baseline), ("verdict", args.binary)):
            if binary:
                got, cells = measure(binary, cond, args)
                out[f"{label} {cond}"] = {"binary": binary, "cells": cells, "languages": got}
    print()
    for key, v in out.items():
        v["summary"] = summary(f"{key} ({v['cells']} cells)", v["languages"])
    if args.json:
        with open(args.json, "w") as f:
            json.dump(out, f, indent=1)


if __name__ == "__main__":
    main()
