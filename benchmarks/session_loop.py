#!/usr/bin/python3
"""A 10-turn agent loop through a session (/v1/sessions) against the same 10 turns as
stateless /run_code calls that replay the history, measured side by side in one run.

Turn 1 imports decimal, statistics and json, defines a helper and builds a 200,000-entry dict
(about 30 ms of CPU); each later turn adds a small step on that state and prints a result.

  session way:   POST /v1/sessions, 10 x POST /v1/sessions/{id}/exec (turn k), DELETE
  stateless way: 10 x POST /run_code of turns 1..k concatenated, the earlier turns' output
                 discarded (what an agent without sessions sends each turn)

Every turn's output is checked to be the same both ways (a run that differs is an error, not
a figure). A agents run the loop at once, R rounds, the two ways interleaved round by round
after one warm-up loop each; prints the median wall time of one loop each way, their ratio,
and the CPU time both ways (the exec answers' cpu_ms and the session's own total from its
DELETE; the /run_code answers' run_result.cpu_time). It asserts nothing about time.

usage: session_loop.py [--quick] [--agents A] [--rounds R] [--json FILE]
                       [--verdict BIN] [--languages DIR]
  --quick  1 agent, 1 round (what run_all.py --quick, and so ctest's bench_quick, runs)
The server binary and templates: --verdict / VERDICT_BIN (build/release/verdict), --languages
/ VERDICT_LANGUAGES (languages). Root; loopback only; bounded (every request has a timeout).
"""
import argparse
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

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)

TURNS = [
    # 1: imports, a helper, a moderately expensive state
    "import decimal, statistics, json\n"
    "def fib_mod(n, m):\n"
    "    a, b = 0, 1\n"
    "    for _ in range(n):\n"
    "        a, b = b, (a + b) % m\n"
    "    return a\n"
    "table = {i: (i * i + 7 * i) % 1000003 for i in range(200000)}\n"
    "print(len(table), sum(table.values()) % 100003)\n",
    # 2..10: a small step each, on what earlier turns left
    "evens = [k for k in range(0, 200000, 7) if table[k] % 2 == 0]\n"
    "print(len(evens), evens[:5])\n",
    "def score(xs):\n"
    "    return statistics.fmean(table[k] for k in xs)\n"
    "print(round(score(evens[:2000]), 4))\n",
    "decimal.getcontext().prec = 40\n"
    "ratio = decimal.Decimal(len(evens)) / decimal.Decimal(7)\n"
    "print(ratio)\n",
    "blob = json.dumps({str(k): table[k] for k in range(0, 2000, 3)}, sort_keys=True)\n"
    "print(len(blob), blob[:40])\n",
    "back = json.loads(blob)\n"
    "print(sum(back.values()), len(back))\n",
    "import collections\n"
    "hist = collections.Counter(v % 10 for v in back.values())\n"
    "print(sorted(hist.items()))\n",
    "print(fib_mod(2000, 1000007), fib_mod(len(evens), 97))\n",
    "table[-1] = int(ratio * 1000)\n"
    "print(len(table), table[-1])\n",
    "print(statistics.median(table[k] for k in range(0, 200000, 997)), score([-1, 0, 1]))\n",
]

# The replayed program: turns 1..k-1 with their output discarded, then turn k.
MUTE = "import io as _io, sys as _sys\n_out, _sys.stdout = _sys.stdout, _io.StringIO()\n"
UNMUTE = "_sys.stdout = _out\n"


def replay(k):
    """The /run_code program of turn k (1-based)."""
    if k == 1:
        return TURNS[0]
    return MUTE + "".join(TURNS[:k - 1]) + UNMUTE + TURNS[k - 1]


class Server:
    """`verdict serve` on 127.0.0.1 (a free port the server picks), a private cache and store."""

    def __init__(self, verdict, languages, work, cells):
        self.err = open(os.path.join(work, "serve.log"), "w+b")
        self.proc = subprocess.Popen(
            [verdict, "serve", "--listen", "127.0.0.1:0", "--cells", str(cells),
             "--languages", languages, "--cache", os.path.join(work, "artifacts"),
             "--db", os.path.join(work, "v.db"), "--store", "off"],
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=self.err)
        end = time.monotonic() + 120
        self.port = None
        while time.monotonic() < end and self.proc.poll() is None:
            self.err.seek(0)
            m = re.search(rb"serving on http://127\.0\.0\.1:(\d+)", self.err.read())
            if m:
                self.port = int(m.group(1))
                break
            time.sleep(0.05)
        if not self.port:
            self.stop()
            self.err.seek(0)
            raise SystemExit("verdict serve did not start: " +
                             self.err.read()[-500:].decode(errors="replace"))

    def stop(self):
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=120)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(timeout=60)
        self.err.close()


class Client:
    """One agent's keep-alive connection."""

    def __init__(self, port):
        self.port = port
        self.c = None

    def call(self, method, path, body=None, want=200):
        data = None if body is None else json.dumps(body).encode()
        for attempt in (0, 1):
            if self.c is None:
                self.c = http.client.HTTPConnection("127.0.0.1", self.port, timeout=120)
            try:
                self.c.request(method, path, data, {"Content-Type": "application/json"}
                               if data is not None else {})
                r = self.c.getresponse()
                raw = r.read()
                break
            except (http.client.HTTPException, OSError):
                self.c.close()
                self.c = None
                if attempt:
                    raise
        try:
            doc = json.loads(raw)
        except ValueError:
            doc = raw.decode(errors="replace")
        if r.status != want:
            raise RuntimeError(f"{method} {path}: {r.status} (wanted {want}): {str(doc)[:400]}")
        return doc

    def close(self):
        if self.c is not None:
            self.c.close()


def session_loop(cl):
    """One loop the session way: (wall s, [stdout per turn], exec CPU ms, session CPU ms)."""
    t = time.monotonic()
    s = cl.call("POST", "/v1/sessions", {"language": "python"}, want=201)
    outs, cpu = [], 0
    try:
        for k, code in enumerate(TURNS, 1):
            a = cl.call("POST", f"/v1/sessions/{s['id']}/exec", {"code": code})
            if a.get("verdict") != "OK" or a.get("state") not in ("new", "kept"):
                raise RuntimeError(f"session turn {k}: {json.dumps(a)[:600]}")
            outs.append(a["stdout"])
            cpu += a.get("cpu_ms") or 0
    finally:
        closed = cl.call("DELETE", f"/v1/sessions/{s['id']}")
    return time.monotonic() - t, outs, cpu, closed.get("cpu_ms") or 0


def stateless_loop(cl):
    """One loop the stateless way: (wall s, [stdout per turn], CPU ms)."""
    t = time.monotonic()
    outs, cpu = [], 0.0
    for k in range(1, len(TURNS) + 1):
        a = cl.call("POST", "/run_code", {"language": "python", "code": replay(k),
                                          "run_timeout": 30})
        rr = a.get("run_result") or {}
        if a.get("status") != "Success":
            raise RuntimeError(f"/run_code turn {k}: {json.dumps(a)[:600]}")
        outs.append(rr.get("stdout"))
        cpu += (rr.get("cpu_time") or 0) * 1000
    return time.monotonic() - t, outs, cpu


def check(way, outs, want):
    for k, (got, exp) in enumerate(zip(outs, want), 1):
        if got != exp:
            raise SystemExit(f"turn {k} differs: {way} printed {got!r}, the session {exp!r}")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--agents", type=int)
    ap.add_argument("--rounds", type=int)
    ap.add_argument("--json")
    ap.add_argument("--verdict", default=os.environ.get(
        "VERDICT_BIN", os.path.join(ROOT, "build", "release", "verdict")))
    ap.add_argument("--languages", default=os.environ.get(
        "VERDICT_LANGUAGES", os.path.join(ROOT, "languages")))
    a = ap.parse_args()
    agents = a.agents or (1 if a.quick else 4)
    rounds = a.rounds or (1 if a.quick else 5)
    if os.geteuid() != 0:
        print("session_loop: skipped: cells need root", file=sys.stderr)
        return 77
    work = tempfile.mkdtemp(prefix="verdict-bench-session-", dir="/var/tmp")
    # A cell per session and one per /run_code in flight, all warm before the measure.
    s = Server(a.verdict, a.languages, work, max(2, agents))
    clients = [Client(s.port) for _ in range(agents)]
    wall = {"session": [], "stateless": []}
    cpu = {"session": 0.0, "session_total": 0.0, "stateless": 0.0}
    seen = []  # (way, [stdout per turn]) of every loop, the warm-up's too
    lock = threading.Lock()

    def one(way, cl, keep):
        if way == "session":
            took, outs, c, total = session_loop(cl)
        else:
            took, outs, c = stateless_loop(cl)
            total = 0
        with lock:
            seen.append((way, outs))
            if keep:
                wall[way].append(took)
                cpu[way] += c
                cpu["session_total"] += total

    try:
        with concurrent.futures.ThreadPoolExecutor(agents) as ex:
            for r in range(rounds + 1):  # round 0: the warm-up, not counted
                ways = ("session", "stateless") if r % 2 == 0 else ("stateless", "session")
                for way in ways:
                    list(ex.map(one, [way] * agents, clients, [r > 0] * agents))
        want = next(outs for way, outs in seen if way == "session")
        if len(want) != len(TURNS) or not all(want):
            raise SystemExit(f"a turn printed nothing through the session: {want}")
        for way, outs in seen:
            check(way, outs, want)
    finally:
        for cl in clients:
            cl.close()
        s.stop()
        shutil.rmtree(work, ignore_errors=True)
    loops = agents * rounds
    med = {w: statistics.median(v) for w, v in wall.items()}
    result = {
        "turns": len(TURNS), "agents": agents, "rounds": rounds, "loops_per_way": loops,
        "median_loop_s": {w: round(v, 4) for w, v in med.items()},
        "loop_s": {w: [round(x, 4) for x in v] for w, v in wall.items()},
        "speedup": round(med["stateless"] / med["session"], 3),
        "cpu_ms": {"session_exec": round(cpu["session"]),
                   "session_total": round(cpu["session_total"]),
                   "stateless": round(cpu["stateless"])},
        "cpu_ms_per_loop": {k: round(cpu[v] / loops, 1) for k, v in (
            ("session_exec", "session"), ("session_total", "session_total"),
            ("stateless", "stateless"))},
        "outputs_equal": True,
    }
    print(f"{len(TURNS)}-turn Python agent loop, {agents} agent{'s' * (agents != 1)} at once, "
          f"{rounds} round{'s' * (rounds != 1)} ({loops} loop{'s' * (loops != 1)} each way, after "
          "one warm-up each); every turn's output the same both ways")
    print(f"  stateless, history replayed through /run_code: median {med['stateless']:.3f} s "
          f"a loop, CPU {cpu['stateless'] / loops:.0f} ms a loop")
    print(f"  session (open, 10 exec, delete):               median {med['session']:.3f} s "
          f"a loop, CPU {cpu['session'] / loops:.0f} ms a loop in the calls, "
          f"{cpu['session_total'] / loops:.0f} ms the session's own total")
    print(f"  stateless / session: {result['speedup']:.2f}x")
    print(json.dumps(result))
    if a.json:
        with open(a.json, "w") as f:
            json.dump(result, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
