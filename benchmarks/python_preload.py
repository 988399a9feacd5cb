#!/usr/bin/python3
"""Whether the warm Python interpreter should import numpy before it forks: two verdict
binaries (A and B, built from the same tree but for runners/zygote.py's _PRELOAD) serve
/v1/judge side by side, and each judges, interleaved, ROUNDS x N programs of three kinds at
4 in flight: trivial (`print(1)`), numpy (`import numpy` and a small product), and pandas
(`import pandas`). Prints per kind and binary the judged programs per second, the median CPU
and peak memory each test reports, the ratios B/A, and the zygote's own resident memory (ps).
It asserts nothing (a benchmark); it talks to 127.0.0.1 only.

usage: python_preload.py VERDICT_A VERDICT_B [N=60] [ROUNDS=3] [LANGUAGES=languages]  (root)
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

BINS = {"A": sys.argv[1], "B": sys.argv[2]}
N = int(sys.argv[3]) if len(sys.argv) > 3 else 60
ROUNDS = int(sys.argv[4]) if len(sys.argv) > 4 else 3
HERE = os.path.dirname(os.path.abspath(__file__))
LANGUAGES = sys.argv[5] if len(sys.argv) > 5 else os.path.join(HERE, "..", "languages")
IN_FLIGHT = 4
KINDS = {
    "trivial": "print(1)\n",
    "numpy": "import numpy as np\nprint(int((np.arange(100) @ np.arange(100))))\n",
    "pandas": "import pandas as pd\nprint(len(pd.DataFrame({'a': [1, 2, 3]})))\n",
}
EXPECTED = {"trivial": "1", "numpy": "328350", "pandas": "3"}


def serve(name, work):
    proc = subprocess.Popen(
        [BINS[name], "serve", "--listen", "127.0.0.1:0", "--cells", str(IN_FLIGHT),
         "--languages", LANGUAGES, "--cache", f"{work}/{name}-cache", "--store", "off"],
        stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    m = None
    for _ in range(200):
        line = proc.stderr.readline().decode()
        m = re.search(r"serving on http://[\d.]+:(\d+)", line)
        if m or not line:
            break
    if not m:
        proc.kill()
        raise SystemExit(f"{BINS[name]} serve did not start")
    threading.Thread(target=proc.stderr.read, daemon=True).start()
    return proc, int(m.group(1))


def judge(port, kind):
    c = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
    body = json.dumps({"language": "python", "code": KINDS[kind],
                       "tests": [{"stdin": "", "expected": EXPECTED[kind]}],
                       "limits": {"time_ms": 5000, "memory_mb": 512}})
    c.request("POST", "/v1/judge", body, {"Content-Type": "application/json"})
    r = json.loads(c.getresponse().read())
    c.close()
    t = r["tests"][0]
    if t["verdict"] != "OK":
        raise SystemExit(f"{kind} failed: {json.dumps(r)[:600]}")
    return t["time_ms"], t["memory_kib"]


def batch(port, kind):
    """N judgments at IN_FLIGHT at a time: (per second, CPU ms list, memory KiB list)."""
    t = time.monotonic()
    with concurrent.futures.ThreadPoolExecutor(IN_FLIGHT) as pool:
        got = list(pool.map(lambda _: judge(port, kind), range(N)))
    return N / (time.monotonic() - t), [g[0] for g in got], [g[1] for g in got]


def zygote_rss_kib(proc):
    """The resident memory of the server's zygotes (python3 processes under it), summed."""
    out = subprocess.run(["ps", "-eo", "pid,ppid,rss,args"], capture_output=True, text=True).stdout
    kids, total = {proc.pid}, 0
    rows = [l.split(None, 3) for l in out.splitlines()[1:]]
    for _ in range(6):  # the process tree under the server, a few levels deep
        kids |= {int(r[0]) for r in rows if int(r[1]) in kids}
    for r in rows:
        if int(r[0]) in kids and "python3" in r[3] and " -c " in r[3]:
            total += int(r[2])
    return total


def main():
    work = tempfile.mkdtemp(prefix="verdict-bench-preload-", dir="/var/tmp")
    servers = {n: serve(n, work) for n in BINS}
    try:
        for name, (_, port) in servers.items():  # warm every cell's zygote
            for kind in KINDS:
                batch(port, kind)
        res = {(n, k): {"rate": [], "cpu": [], "mem": []} for n in BINS for k in KINDS}
        for _ in range(ROUNDS):
            for kind in KINDS:
                for name, (_, port) in servers.items():
                    rate, cpu, mem = batch(port, kind)
                    r = res[(name, kind)]
                    r["rate"].append(rate)
                    r["cpu"] += cpu
                    r["mem"] += mem
        print(f"/v1/judge of Python, {IN_FLIGHT} in flight, {ROUNDS} x {N} per kind, interleaved;"
              f" A = {BINS['A']}, B = {BINS['B']}")
        out = {}
        for kind in KINDS:
            row = {}
            for name in BINS:
                r = res[(name, kind)]
                row[name] = {"per_s": statistics.median(r["rate"]),
                             "cpu_ms": statistics.median(r["cpu"]),
                             "mem_kib": statistics.median(r["mem"])}
            a, b = row["A"], row["B"]
            print(f"  {kind:8} A {a['per_s']:6.1f}/s cpu {a['cpu_ms']:5.0f} ms mem "
                  f"{a['mem_kib'] / 1024:6.1f} MiB | B {b['per_s']:6.1f}/s cpu {b['cpu_ms']:5.0f}"
                  f" ms mem {b['mem_kib'] / 1024:6.1f} MiB | B/A rate {b['per_s'] / a['per_s']:.2f}x"
                  f" cpu {b['cpu_ms'] / max(a['cpu_ms'], 1):.2f}x")
            out[kind] = row
        rss = {n: zygote_rss_kib(p) for n, (p, _) in servers.items()}
        print(f"  zygotes' resident memory: A {rss['A'] / 1024:.1f} MiB, B {rss['B'] / 1024:.1f} "
              f"MiB ({IN_FLIGHT} cells each)")
        print(json.dumps({"kinds": out, "zygote_rss_kib": rss}))
    finally:
        for proc, _ in servers.values():
            proc.terminate()
            proc.wait(timeout=60)
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
