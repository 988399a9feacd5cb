#!/usr/bin/python3
"""The results store's cost: load_mixed.py's request mix against two servers started side by
side, one keeping every submission (--store, the default) and one with --store off, in
alternating rounds (on/off, then off/on: drift on a shared machine falls on both sides).
It prints each side's throughput, their ratio (the target is >= 0.95), and what the store
kept: rows written and dropped, and the database's size after each round (with
--retain-rows, the size stops growing once the cap is reached). It asserts nothing.

usage: store_overhead.py [--requests N] [--clients C] [--rounds R] [--retain-rows K]
                         [--json FILE]
The server binary and templates: VERDICT_BIN (build/release/verdict), VERDICT_LANGUAGES.
Loopback only; bounded: N requests per side, 15 minutes at most.
"""
import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

import requests

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import load_mixed  # noqa: E402

VERDICT = os.environ.get("VERDICT_BIN", "build/release/verdict")
LANGUAGES = os.environ.get("VERDICT_LANGUAGES", "languages")


class Server:
    def __init__(self, work, name, extra):
        os.makedirs(work, exist_ok=True)
        self.work = work
        self.db = os.path.join(work, "verdict.db")
        self.proc = subprocess.Popen(
            [VERDICT, "serve", "--listen", "127.0.0.1:0", "--languages", LANGUAGES,
             "--cache", os.path.join(work, "artifacts"), "--db", self.db, *extra],
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        for _ in range(100):
            line = self.proc.stderr.readline().decode()
            m = re.search(r"serving on (http://127\.0\.0\.1:\d+)", line)
            if m or not line:
                break
        if not m:
            self.proc.kill()
            raise SystemExit(f"the {name} server did not start")
        self.url, self.name = m.group(1), name

    def health(self):
        return requests.get(self.url + "/healthz", timeout=30).json()

    def settle(self, timeout=60):
        """Waits (bounded) until the store's writer has nothing queued; its store stats."""
        end = time.monotonic() + timeout
        while True:
            st = self.health().get("store", {})
            if not st.get("enabled") or not st.get("queued") or time.monotonic() > end:
                return st
            time.sleep(0.2)

    def db_bytes(self):
        return sum(os.path.getsize(self.db + s) for s in ("", "-wal", "-shm")
                   if os.path.exists(self.db + s))

    def stop(self):
        self.proc.terminate()
        try:
            self.proc.wait(timeout=120)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait(timeout=60)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--requests", type=int, default=10000, help="per side")
    ap.add_argument("--clients", type=int, default=32)
    ap.add_argument("--rounds", type=int, default=10)
    ap.add_argument("--retain-rows", type=int, default=0)
    ap.add_argument("--json")
    a = ap.parse_args()
    work = tempfile.mkdtemp(prefix="verdict-store-bench-", dir="/var/tmp")
    deadline = time.monotonic() + load_mixed.DEADLINE_S
    keep = ["--retain-rows", str(a.retain_rows)] if a.retain_rows else []
    on = Server(os.path.join(work, "on"), "store on", keep)
    off = Server(os.path.join(work, "off"), "store off", ["--store", "off"])
    chunk = max(1, a.requests // a.rounds)
    took = {"store on": 0.0, "store off": 0.0}
    answers = {"store on": {}, "store off": {}}
    sizes = []
    try:
        for r in range(a.rounds):
            order = (on, off) if r % 2 == 0 else (off, on)
            for s in order:
                counts, seconds = load_mixed.run(s.url, r * chunk, chunk, a.clients, deadline)
                took[s.name] += seconds
                for k, v in counts.items():
                    answers[s.name][k] = answers[s.name].get(k, 0) + v
            on.settle()
            sizes.append(on.db_bytes())
            print(f"round {r + 1}/{a.rounds}: store on {took['store on']:.1f} s, "
                  f"off {took['store off']:.1f} s, database {sizes[-1] / 1e6:.2f} MB",
                  flush=True)
        st = on.settle()
    finally:
        on.stop()
        off.stop()
    n = chunk * a.rounds
    rate = {k: n / v for k, v in took.items()}
    result = {"requests_per_side": n, "clients": a.clients, "rounds": a.rounds,
              "rps_store_on": round(rate["store on"], 1),
              "rps_store_off": round(rate["store off"], 1),
              "ratio_on_off": round(rate["store on"] / rate["store off"], 3),
              "store_written": st.get("written"), "store_dropped": st.get("dropped"),
              "store_errors": st.get("errors"), "db_bytes_by_round": sizes,
              "bytes_per_row": round(sizes[-1] / max(1, min(st.get("written") or 1,
                                                           a.retain_rows or 1 << 62)), 1),
              "retain_rows": a.retain_rows or None,
              "answers": {k: {str(s): c for s, c in v.items()} for k, v in answers.items()}}
    print(f"\n{n} requests per side from {a.clients} clients, {a.rounds} alternating rounds")
    print(f"{'':12}{'req/s':>10}")
    print(f"{'store on':12}{rate['store on']:>10.1f}")
    print(f"{'store off':12}{rate['store off']:>10.1f}")
    print(f"ratio on/off: {result['ratio_on_off']:.3f} (target >= 0.95)")
    print(f"store: {st.get('written')} written, {st.get('dropped')} dropped, "
          f"{st.get('errors')} errors; database {sizes[-1] / 1e6:.2f} MB "
          f"({result['bytes_per_row']} bytes per kept row)")
    print("answers:", json.dumps(result["answers"]))
    if a.json:
        with open(a.json, "w") as f:
            json.dump(result, f, indent=1)
    shutil.rmtree(work, ignore_errors=True)
    unanswered = sum(v for side in answers.values() for k, v in side.items()
                     if not isinstance(k, int))
    return 1 if unanswered else 0


if __name__ == "__main__":
    sys.exit(main())
