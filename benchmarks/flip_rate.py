#!/usr/bin/python3
"""Flip rate of verdicts under load: does a program well inside its CPU limit get the same
verdict every time while the machine is oversubscribed?

A C loop (iterations read from stdin, so it compiles once) is calibrated on the idle server,
then sized to 10, 25, 45, 60 and 75% of a 1 s CPU limit. Each level is judged REPS times
through /v1/judge of a real `verdict serve` on 127.0.0.1, by LOAD concurrent clients: every
request is a CPU-bound judged program, so LOAD jobs are always in flight (8 on 2 cores is 4x
oversubscription), and each measured run is loaded by the others; once the measured runs
are handed out, the clients that are free keep judging unmeasured filler runs until the last
measured one is back. It prints per level the verdict counts, the flips (runs not OK; every
level should pass), which limit fired, and the CPU and wall time spread. It asserts nothing
(a benchmark). Every loop is bounded in count and time; it talks to 127.0.0.1 only.

usage: flip_rate.py VERDICT_BIN [--languages DIR] [--reps 100] [--load 8] [--limit-ms 1000]
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

LEVELS = [0.10, 0.25, 0.45, 0.60, 0.75]
DEADLINE_S = 1200  # the whole run, whatever REPS says
LOOP = r"""
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
"""


def post(url, body, timeout=120):
    req = urllib.request.Request(url + "/v1/judge", data=json.dumps(body).encode(),
                                 headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(req, timeout=timeout) as r:
        return json.loads(r.read())


def judge(url, iterations, limit_ms):
    body = {"language": "c", "code": LOOP,
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
        [binary, "serve", "--listen", "127.0.0.1:0", "--cells", str(cells),
         "--languages", languages, "--cache", tmp + "/artifacts", "--db", tmp + "/verdict.db"],
        stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    for _ in range(100):
        line = proc.stderr.readline().decode()
        m = re.search(r"serving on (http://127\.0\.0\.1:\d+)", line)
        if m:
            threading.Thread(target=proc.stderr.read, daemon=True).start()  # keep it drained
            return proc, m.group(1), tmp
        if not line:
            break
    proc.kill()
    sys.exit("server did not start")


def calibrate(url, limit_ms):
    """Iterations per ms of CPU, from the median of five idle runs of a fixed count."""
    n = 200_000_000
    cpu = [judge(url, n, 10 * limit_ms).get("time_ms", 0) for _ in range(5)]
    ms = statistics.median(cpu)
    if ms <= 0:
        sys.exit(f"calibration failed: {cpu}")
    return n / ms, ms


def limit_of(t):
    """Which limit a TLE names: the `limit` field where the server has it, else the reason."""
    if t.get("verdict") != "TLE":
        return None
    if "limit" in t:
        return t["limit"]
    reason = t.get("reason", "")
    return "wall" if reason.startswith("wall") else "cpu" if reason.startswith("CPU") else "?"


def run(url, args, per_ms):
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
                judge(url, filler, args.limit_ms)  # load only, until the last measured run
                continue
            t = judge(url, item[1], args.limit_ms)
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


def table(results, args, per_ms):
    print(f"{'level':>6} {'cpu_target':>10} {'runs':>5} {'verdicts':<24} {'flips':>5} "
          f"{'TLE limit':<16} {'cpu min/med/max ms':<20} {'wall med/max ms':<16}")
    total = 0
    for lv in LEVELS:
        rs = results.get(lv, [])
        counts = collections.Counter(t.get("verdict", "?") for t in rs)
        limits = collections.Counter(limit_of(t) for t in rs if t.get("verdict") == "TLE")
        cpu = sorted(t["time_ms"] for t in rs if "time_ms" in t)
        wall = sorted(t["wall_ms"] for t in rs if "wall_ms" in t)
        flips = len(rs) - counts.get("OK", 0)
        total += flips
        vs = " ".join(f"{k}:{v}" for k, v in sorted(counts.items()))
        ls = " ".join(f"{k}:{v}" for k, v in sorted(limits.items())) or "-"
        c = f"{cpu[0]}/{int(statistics.median(cpu))}/{cpu[-1]}" if cpu else "-"
        w = f"{int(statistics.median(wall))}/{wall[-1]}" if wall else "-"
        print(f"{int(lv * 100):>5}% {int(lv * args.limit_ms):>8}ms {len(rs):>5} {vs:<24} "
              f"{flips:>5} {ls:<16} {c:<20} {w:<16}")
    print(f"flips in all: {total} of {sum(len(v) for v in results.values())}")


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("binary")
    p.add_argument("--languages", default="languages")
    p.add_argument("--reps", type=int, default=100, help="runs per level")
    p.add_argument("--load", type=int, default=8, help="judged jobs kept in flight")
    p.add_argument("--limit-ms", type=int, default=1000, help="the CPU limit")
    args = p.parse_args()
    if os.geteuid() != 0:
        sys.exit("the sandbox needs root")
    proc, url, tmp = start(args.binary, args.languages, args.load)
    try:
        per_ms, base_ms = calibrate(url, args.limit_ms)
        print(f"{args.binary}: {os.cpu_count()} CPUs, {args.load} jobs in flight, CPU limit "
              f"{args.limit_ms} ms, {args.reps} runs per level; calibration: 200M iterations "
              f"= {base_ms} ms idle ({per_ms:.0f} per ms)")
        results, elapsed = run(url, args, per_ms)
        table(results, args, per_ms)
        print(f"elapsed {elapsed:.0f} s")
    finally:
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(timeout=60)
        except subprocess.TimeoutExpired:
            proc.kill()
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
