#!/usr/bin/python3
"""Trivial Python through /run_code, 16 requests in flight, with the cells' warm interpreter
(`--python-warm on`, runners/zygote.h) and without (`off`), against the baseline of bare
`/usr/bin/python3 -c pass` spawned 4 at a time, all in one run, interleaved, ROUNDS times for
SECONDS each; prints requests (or spawns) per second, medians and the ratios. It asserts
nothing (a benchmark).

usage: python_warm.py VERDICT_BIN [SECONDS=5] [ROUNDS=3] [LANGUAGES=languages]   (root)
"""
import concurrent.futures
import http.client
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time

VERDICT = sys.argv[1]
SECONDS = float(sys.argv[2]) if len(sys.argv) > 2 else 5.0
ROUNDS = int(sys.argv[3]) if len(sys.argv) > 3 else 3
HERE = os.path.dirname(os.path.abspath(__file__))
LANGUAGES = sys.argv[4] if len(sys.argv) > 4 else os.path.join(HERE, "..", "languages")
CONCURRENCY, SPAWNERS = 16, 4
BODY = json.dumps({"code": "pass", "language": "python"})


def serve(mode, work):
    proc = subprocess.Popen(
        [VERDICT, "serve", "--listen", "127.0.0.1:0", "--cells", str(CONCURRENCY),
         "--max-cells", str(CONCURRENCY), "--python-warm", mode, "--languages", LANGUAGES,
         "--cache", f"{work}/{mode}-cache", "--db", f"{work}/{mode}.db", "--store", "off"],
        stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    for _ in range(100):
        line = proc.stderr.readline().decode()
        m = re.search(r"serving on http://[\d.]+:(\d+)", line)
        if m or not line:
            break
    if not m:
        proc.kill()
        raise SystemExit(f"verdict serve --python-warm {mode} did not start")
    threading.Thread(target=proc.stderr.read, daemon=True).start()  # never blocks the server
    return proc, int(m.group(1))


def load(port, seconds):
    """Requests per second of CONCURRENCY clients, each on its own keep-alive connection."""
    stop = time.monotonic() + seconds
    counts, bad = [0] * CONCURRENCY, []

    def client(i):
        c = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
        while time.monotonic() < stop:
            c.request("POST", "/run_code", BODY, {"Content-Type": "application/json"})
            r = json.loads(c.getresponse().read())
            if r["status"] != "Success":
                bad.append(r)
            counts[i] += 1
        c.close()

    t = time.monotonic()
    with concurrent.futures.ThreadPoolExecutor(CONCURRENCY) as pool:
        list(pool.map(client, range(CONCURRENCY)))
    if bad:
        raise SystemExit(f"a trivial program failed: {bad[0]}")
    return sum(counts) / (time.monotonic() - t)


def bare(seconds):
    """`python3 -c pass` spawned SPAWNERS at a time: spawns per second."""
    stop = time.monotonic() + seconds
    counts = [0] * SPAWNERS

    def spawner(i):
        while time.monotonic() < stop:
            subprocess.run(["/usr/bin/python3", "-c", "pass"], check=True)
            counts[i] += 1

    t = time.monotonic()
    with concurrent.futures.ThreadPoolExecutor(SPAWNERS) as pool:
        list(pool.map(spawner, range(SPAWNERS)))
    return sum(counts) / (time.monotonic() - t)


def main():
    work = tempfile.mkdtemp(prefix="verdict-bench-warm-", dir="/var/tmp")
    servers = {m: serve(m, work) for m in ("on", "off")}
    try:
        for mode, (_, port) in servers.items():  # every cell warmed (its zygote started)
            load(port, min(SECONDS, 2.0))
        rates = {"bare": [], "on": [], "off": []}
        for _ in range(ROUNDS):
            rates["bare"].append(bare(SECONDS))
            for mode, (_, port) in servers.items():
                rates[mode].append(load(port, SECONDS))
        med = {k: statistics.median(v) for k, v in rates.items()}
        print(f"trivial Python, {CONCURRENCY} in flight through /run_code; baseline: bare "
              f"python3 -c pass, {SPAWNERS} at a time; {ROUNDS} x {SECONDS:g} s, interleaved")
        for k, label in (("bare", "bare python3 spawns"), ("off", "/run_code cold"),
                         ("on", "/run_code warm")):
            print(f"  {label:20} {med[k]:8.1f} /s  ({med[k] / med['bare']:.2f}x bare)  "
                  f"rounds: {', '.join(f'{r:.1f}' for r in rates[k])}")
        print(f"  warm / cold          {med['on'] / med['off']:.2f}x")
        print(json.dumps({"median_per_s": med, "rounds": rates}))
    finally:
        for proc, _ in servers.values():
            proc.terminate()
            proc.wait(timeout=60)
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
