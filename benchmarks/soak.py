#!/usr/bin/python3
"""A long mixed soak of `verdict serve` on 127.0.0.1 that proves nothing is lost, duplicated,
wrong or leaked.

It starts its own server (or uses one given with --url and --pid), runs every case of its mix
once (the warm-up: every compile, every language), takes the server's resources as the
baseline, then sends --requests requests from --clients concurrent clients, a mix drawn
deterministically from --seed:

- every language the server has, with programs of known verdict (tests/sandbox/languages:
  echo is correct, hello is a wrong answer, ce, re, tle, mle; and an output flood, OLE): the
  whole set for c, cpp, python, go and rust, a correct and a wrong program (and a compile
  error) for the others, a passing and a failing test file for the test runners; a language
  that needs a GPU the server lacks is answered SandboxError, one not installed 422. Through
  /run_code, /v1/judge (several tests) and /v1/judge/batch (several items; every item index
  must come back exactly once). Each request's stdin is a fresh nonce the program must echo,
  so an answer given to the wrong request (or a second answer read by the next request on a
  kept-alive connection) is a wrong answer;
- hostile programs, only ever run inside the server's sandbox (fork bombs, a memory hog,
  kill(-1), reading /etc/shadow, writing outside the work dir, connecting to the server,
  filling the work dir, sleeping), each with its expected verdict and output;
- malformed and oversized requests, each with its documented status and the field it names;
- slow clients (the body sent in pieces, the answer read in small pieces), clients that hang
  up half way through a body, and clients that hang up after the first line of a batch stream;
- /submit on every dataset the server imported (--datasets; reference solutions read from
  the dataset files, expected to pass, and wrong completions, expected to fail), the dataset
  queries, /run_jupyter, the dashboard's GET routes and /metrics.

Checks, each a count in the report (exit 1 when any is not zero):
- unanswered: an exception, a timeout, a malformed answer, a second answer on a connection, a
  batch line missing or repeated;
- wrong: an answer other than the expected one (one held back by load as docs/api.md says,
  /run_code's TLE on the wall clock at run_timeout + 8 s or /v1/judge's SE "starved by load",
  is counted apart and shown, not wrong);
- store: the results store holds exactly the submissions the answers named (none lost, none
  twice; only the items of batch streams the client cut may add rows, up to their count);
- resources: after the load and a bounded settle, the server's open descriptors, threads,
  cgroups under verdict-<pid>, mounts (/proc/PID/mountinfo lines), cells and other children,
  and the compile cache's and TMPDIR's temporary files are back to the baseline exactly, and
  its resident memory within --rss-slack-mb of it (glibc keeps freed memory in its arenas:
  the baseline is taken after the warm-up, whose concurrency and compiles have already grown
  them; the table shows baseline, peak and end).

It asserts nothing about time. It stops by itself at --deadline (seconds, whole run) and
reports what was not done. Only loopback is ever contacted; every loop is bounded.

Right and wrong programs run with run_timeout 20 (/run_code's wall limit) unless --tight:
then half of the c, cpp and python ones get veRL's 1 s. On a host loaded far past its cores
(load average 50-70 on 2 cores, measured here) about 4 in 10,000 such trivial runs end TLE
on the wall clock after 1-5 s with 1-3 ms of CPU, some having printed their output: time
the program spends blocked (not runnable, so not forgiven as waiting for a CPU) in the
kernel while others hold the machine. --tight shows it; the default keeps the check exact.

usage: soak.py [VERDICT_BIN] [--requests N] [--clients C] [--seed S] [--deadline S]
               [--json FILE] [--url URL --pid PID] [--datasets DIR|none] [--cells N] ...
The binary: the argument, else $VERDICT_BIN, else build/release/verdict. Needs root (cells
need namespaces and cgroups); exits 77 without it.
"""
import argparse
import heapq
import json
import os
import random
import re
import resource
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time

import requests

import soak_mix
from soak_mix import MAX_BODY, ROOT, STARVED, Outcome, build_mix


def data_dir():
    for d in (os.environ.get("VERDICT_TEST_DATA"), os.path.join(ROOT, "..", "shared", "datasets"),
              "/work/shared/datasets"):
        if d and os.path.isdir(d):
            return os.path.abspath(d)
    return None


# ---- the server's resources ---------------------------------------------------------------


def children(pid):
    """(cells, other children) of pid."""
    cells = other = 0
    for d in os.listdir("/proc"):
        if not d.isdigit():
            continue
        try:
            with open(f"/proc/{d}/stat") as f:
                st = f.read()
            if int(st[st.rindex(")") + 2:].split()[1]) != pid:
                continue
            with open(f"/proc/{d}/cmdline", "rb") as f:
                cmd = f.read()
        except (OSError, ValueError):
            continue
        if b"__cell" in cmd:
            cells += 1
        else:
            other += 1
    return cells, other


def tree_cpu(pid):
    """CPU seconds of pid, its children (the cells) and whatever they have reaped (the jobs)."""
    tick = os.sysconf("SC_CLK_TCK")

    def cpu(p):
        with open(f"/proc/{p}/stat") as f:
            st = f.read()
        v = st[st.rindex(")") + 2:].split()
        return sum(int(x) for x in v[11:15]) / tick

    total = cpu(pid)
    for d in os.listdir("/proc"):
        if d.isdigit():
            try:
                with open(f"/proc/{d}/stat") as f:
                    st = f.read()
                if int(st[st.rindex(")") + 2:].split()[1]) == pid:
                    total += cpu(int(d))
            except (OSError, ValueError):
                pass
    return total


def self_cpu():
    r = resource.getrusage(resource.RUSAGE_SELF)
    return r.ru_utime + r.ru_stime


def cgroup_roots(pid):
    """The verdict-<pid> directories of the server in every cgroup hierarchy it is in (read
    only: the soak never creates, moves or removes a cgroup)."""
    mounts = []
    with open("/proc/self/mountinfo") as f:
        for line in f:
            pre, _, post = line.partition(" - ")
            parts, fs = pre.split(), post.split()
            if fs and fs[0] in ("cgroup", "cgroup2"):
                opts = set(fs[2].split(",")) if len(fs) > 2 else set()
                mounts.append((fs[0], parts[3], parts[4], opts))
    roots = set()
    with open(f"/proc/{pid}/cgroup") as f:
        for line in f:
            _, ctrls, path = line.rstrip("\n").split(":", 2)
            if os.path.basename(path).startswith("verdict-server-"):
                path = os.path.dirname(path)
            for fstype, root, point, opts in mounts:
                if (ctrls == "" and fstype == "cgroup2") or \
                        (ctrls and fstype == "cgroup" and set(ctrls.split(",")) <= opts):
                    if root != "/" and not (path == root or path.startswith(root + "/")):
                        continue
                    rest = path[len(root):] if root != "/" else path
                    d = os.path.join(point + rest, f"verdict-{pid}")
                    if os.path.isdir(d):
                        roots.add(os.path.realpath(d))
    return sorted(roots)


def count_dirs(roots):
    """The directories roots hold, themselves included."""
    return sum(1 + sum(len(dirs) for _, dirs, _ in os.walk(r)) for r in roots)


def temp_files(cache, tmpdir):
    """The cache's builders and evictions in progress ("<key>.tmp.<pid>", "<key>.del.*") and
    every file and directory under the server's TMPDIR: their paths."""
    out = []
    if cache and os.path.isdir(cache):
        out += [os.path.join(cache, n) for n in os.listdir(cache) if ".tmp." in n or ".del." in n]
    if tmpdir and os.path.isdir(tmpdir):
        for d, dirs, files in os.walk(tmpdir):
            out += [os.path.join(d, n) for n in dirs + files]
    return out


RES_EXACT = ("fds", "threads", "cgroups", "mounts", "cells", "children", "temp files")


def mounts(ctx):
    """The lines of the server's /proc/PID/mountinfo; when the server shares the soak's mount
    namespace (the host's, where anyone may mount), only those that could be verdict's: a
    source or mount point naming verdict or under the server's directories."""
    with open(f"/proc/{ctx.pid}/mountinfo") as f:
        lines = f.read().splitlines()
    if os.stat(f"/proc/{ctx.pid}/ns/mnt").st_ino != os.stat("/proc/self/ns/mnt").st_ino:
        return lines
    mine = [d for d in (ctx.cache, ctx.tmpdir) if d]
    return [l for l in lines if "verdict" in l or any(d in l for d in mine)]


def resources(ctx):
    pid = ctx.pid
    with open(f"/proc/{pid}/status") as f:
        st = {l.split(":")[0]: l.split(":")[1].split() for l in f}
    mounts_n = len(mounts(ctx))
    with open(f"/proc/{pid}/mountinfo") as f:
        mountinfo = sum(1 for _ in f)
    cells, other = children(pid)
    return {"rss_kib": int(st["VmRSS"][0]), "fds": len(os.listdir(f"/proc/{pid}/fd")),
            "threads": int(st["Threads"][0]), "cgroups": count_dirs(cgroup_roots(pid)),
            "mounts": mounts_n, "mountinfo": mountinfo, "cells": cells, "children": other,
            "temp files": len(temp_files(ctx.cache, ctx.tmpdir))}


def settled(ctx, base, slack_kib):
    r = resources(ctx)
    back = all(r[k] == base[k] for k in RES_EXACT) and r["rss_kib"] <= base["rss_kib"] + slack_kib
    return r, back


def settle(ctx, base, seconds, slack_kib):
    """Polls (bounded) until every resource is back at base; the last sample and whether."""
    end = time.monotonic() + seconds
    while True:
        r, ok = settled(ctx, base, slack_kib)
        if ok or time.monotonic() > end:
            return r, ok
        time.sleep(0.5)


def quiet(ctx, seconds):
    """A baseline: polls (bounded) until the cells are back to the warm ones and two samples
    a second apart agree on every exact resource."""
    end = time.monotonic() + seconds
    prev = None
    while True:
        r = resources(ctx)
        h = requests.get(ctx.url + "/healthz", timeout=30).json()
        calm = h["queue"]["queued"] == 0 and h["queue"]["running"] == 0 and \
            h.get("store", {}).get("queued", 0) == 0
        if calm and prev and all(r[k] == prev[k] for k in RES_EXACT) and \
                r["cells"] <= ctx.cells:
            return r
        if time.monotonic() > end:
            return r
        prev = r
        time.sleep(1)


class Sampler(threading.Thread):
    """Samples the server's resources every second until stopped: the peaks."""

    def __init__(self, ctx):
        super().__init__(daemon=True)
        self.ctx, self.peak, self.stop = ctx, {}, threading.Event()

    def run(self):
        while not self.stop.is_set():
            try:
                for k, v in resources(self.ctx).items():
                    self.peak[k] = max(self.peak.get(k, v), v)
            except OSError:
                pass
            self.stop.wait(1.0)


# ---- running -----------------------------------------------------------------------------


class Context:
    def __init__(self):
        self.url = self.port = self.pid = self.cache = self.tmpdir = None
        self.cells = 0
        self.languages, self.datasets, self.dataset_ids = [], [], {}
        self.committed_id = None  # a submission known to be in the store
        self.tight = False  # --tight
        self.max_body = None  # the server's --max-body, bytes, where known

    def some_submission(self):
        return self.committed_id


class Tally:
    """Every outcome, counted: by (kind, case, verdict), failures (the first 40 shown), the
    latencies and the submission ids the answers named."""

    def __init__(self):
        self.lock = threading.Lock()
        self.rows, self.lat, self.ids = {}, [], []
        self.unanswered = self.wrong = self.unnamed = self.missing_ids = 0
        self.starved = 0  # answers held back by load, as documented (soak_mix.STARVED)
        self.failures = []
        self.done = 0
        self.slowest = []  # (seconds, kind, case): the 20 slowest answers
        self.seconds = {}  # (kind, case) -> seconds its answers took, summed

    def add(self, o, latency):
        with self.lock:
            self.done += 1
            key = (o.kind, o.case, o.got)
            self.rows[key] = self.rows.get(key, 0) + 1
            self.lat.append(latency)
            self.seconds[(o.kind, o.case)] = self.seconds.get((o.kind, o.case), 0) + latency
            if len(self.slowest) < 20 or latency > self.slowest[0][0]:
                heapq.heappush(self.slowest, (latency, o.kind, o.case))
                if len(self.slowest) > 20:
                    heapq.heappop(self.slowest)
            self.ids += o.ids
            self.unnamed += o.unnamed
            self.missing_ids += max(0, o.recorded - len(o.ids))
            self.starved += o.got == STARVED
            bad = not o.answered or o.got not in o.expect + (STARVED,)
            if not o.answered:
                self.unanswered += 1
            elif bad:
                self.wrong += 1
            if bad and len(self.failures) < 40:
                self.failures.append(f"{o.kind} {o.case}: got {o.got}, expected "
                                     f"{'/'.join(o.expect)}: {o.detail}")
                print("soak: FAILED: " + self.failures[-1], flush=True)


def run_one(ctx, case, rng, session, tally):
    t = time.monotonic()
    try:
        o = case.run(ctx, rng, session)
    except Exception as e:  # noqa: BLE001 -- any failure of any kind is an unanswered request
        o = Outcome(case.kind, case.name, ("answered",))
        o.answered = False
        o.fail(type(e).__name__, str(e))
    tally.add(o, time.monotonic() - t)


def run_phase(ctx, plan, clients, deadline, tally):
    """Runs plan [(case, seed)] from `clients` threads, each with its own keep-alive session
    and client label; stops taking new requests at deadline. Returns the number not run."""
    nxt = [0]
    lock = threading.Lock()

    def worker(w):
        s = requests.Session()
        s.headers["X-Verdict-Client"] = f"soak-{w}"
        try:
            while True:
                with lock:
                    i = nxt[0]
                    if i >= len(plan) or time.monotonic() > deadline:
                        return
                    nxt[0] += 1
                case, seed = plan[i]
                run_one(ctx, case, random.Random(seed), s, tally)
        finally:
            s.close()

    ts = [threading.Thread(target=worker, args=(w,), daemon=True) for w in range(clients)]
    for t in ts:
        t.start()
    for t in ts:  # each request is bounded by REQ_TIMEOUT (a raw one by its own deadline)
        t.join()
    return max(0, len(plan) - nxt[0])


def plan_main(cases, n, seed):
    rng = random.Random(seed)
    weights = [c.weight for c in cases]
    picks = rng.choices(range(len(cases)), weights=weights, k=n)
    return [(cases[k], seed * 1000003 + i) for i, k in enumerate(picks)]


def start_server(args, work):
    ctx = Context()
    ctx.cache = os.path.join(work, "cache")
    ctx.tmpdir = os.path.join(work, "tmp")
    os.mkdir(ctx.tmpdir)
    ctx.cells = args.cells
    cmd = [args.verdict, "serve", "--listen", "127.0.0.1:0", "--cells", str(args.cells),
           "--max-cells", str(args.max_cells), "--cell-idle", "2", "--languages", args.languages,
           "--cache", ctx.cache, "--db", os.path.join(work, "verdict.db"), "--max-body",
           str(MAX_BODY), "--retain-rows", "-1"]
    data = None if args.datasets == "none" else (args.datasets or data_dir())
    if data:
        cmd += ["--datasets", data]
    log = open(os.path.join(work, "server.log"), "w+")
    env = {**os.environ, "TMPDIR": ctx.tmpdir, "SQLITE_TMPDIR": ctx.tmpdir}
    proc = subprocess.Popen(cmd, stdin=subprocess.DEVNULL, stdout=log, stderr=log, env=env)
    end = time.monotonic() + 600  # dataset imports first
    m = None
    while time.monotonic() < end and proc.poll() is None:
        log.seek(0)
        m = re.search(r"serving on http://[\d.]+:(\d+)", log.read())
        if m:
            break
        time.sleep(0.2)
    if not m:
        proc.kill()
        proc.wait(timeout=60)
        log.seek(0)
        raise SystemExit(f"server did not start: {log.read()[-2000:]}")
    ctx.port = int(m.group(1))
    ctx.url = f"http://127.0.0.1:{ctx.port}"
    ctx.pid = proc.pid
    return ctx, proc, data


def discover(ctx):
    ctx.cells = requests.get(ctx.url + "/healthz", timeout=60).json()["cells"]
    ctx.languages = requests.get(ctx.url + "/v1/languages", timeout=60).json()
    ctx.datasets = requests.get(ctx.url + "/list_datasets", timeout=60).json()
    for ds in ctx.datasets:
        ctx.dataset_ids[ds] = requests.post(ctx.url + "/list_ids", json={"dataset": ds,
                                                                         "config": {}},
                                            timeout=120).json()


def committed(ctx, ids):
    """The newest of ids once the store has it (bounded wait), else None."""
    if not ids:
        return None
    end = time.monotonic() + 60
    while time.monotonic() < end:
        if requests.get(f"{ctx.url}/v1/submissions/{max(ids)}", timeout=30).status_code == 200:
            return max(ids)
        time.sleep(0.2)
    return None


def store_rows(ctx, since, bound):
    """Every submission id in the store above since (paged, at most bound pages), and the
    routes of them."""
    ids, routes, before = [], {}, None
    for _ in range(bound):
        q = {"limit": 500, **({"before": before} if before else {})}
        r = requests.get(ctx.url + "/v1/submissions", params=q, timeout=120)
        r.raise_for_status()
        j = r.json()
        for row in j["submissions"]:
            if row["id"] > since:
                ids.append(row["id"])
                routes[row["id"]] = row["route"]
        before = j["next_before"]
        if not before or (j["submissions"] and j["submissions"][-1]["id"] <= since):
            break
    return ids, routes


def check_store(ctx, tally, since):
    """Counts for the store: ids named twice, named but not stored, stored but not named
    beyond what cut streams allow, answers that should have named one and did not."""
    h = requests.get(ctx.url + "/healthz", timeout=30).json()["store"]
    if not h.get("enabled"):
        return {"enabled": False}
    end = time.monotonic() + 120
    while h.get("queued", 0) and time.monotonic() < end:
        time.sleep(0.5)
        h = requests.get(ctx.url + "/healthz", timeout=30).json()["store"]
    named = tally.ids
    stored, routes = store_rows(ctx, since, len(named) // 500 + 50 + tally.unnamed // 500)
    sset, nset = set(stored), set(named)
    extra = sset - nset
    out = {"enabled": True, "named": len(named), "stored": len(stored),
           "named twice": len(named) - len(nset), "stored twice": len(stored) - len(sset),
           "lost": len(nset - sset), "unnamed allowed": tally.unnamed,
           "unnamed stored": len(extra),
           "unexpected extra": max(0, len(extra) - tally.unnamed) +
           sum(1 for i in extra if routes[i] != "/v1/judge/batch"),
           "answers without id": tally.missing_ids, "dropped": h.get("dropped", 0),
           "errors": h.get("errors", 0)}
    return out


STORE_FAILS = ("named twice", "stored twice", "lost", "unexpected extra", "answers without id",
               "dropped", "errors")


def quantile(xs, q):
    if not xs:
        return None
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(q * len(xs)))]


def report(res):
    print("\n== answers by kind and verdict (warm-up and main phase)")
    print(f"{'kind':<14} {'case':<44} {'verdict':<16} {'count':>8}")
    for (kind, case, got), n in sorted(res["rows_raw"].items(),
                                       key=lambda kv: tuple(map(str, kv[0]))):
        print(f"{kind:<14} {case[:44]:<44} {str(got)[:16]:<16} {n:>8}")
    m = res["main"]
    print(f"\n== main phase: {m['done']} of {m['requested']} requests from {res['clients']} "
          f"clients in {m['seconds']:.1f} s: {m['rps']:.1f} req/s; latency p50 "
          f"{m['p50_ms']} ms, p99 {m['p99_ms']} ms; not done (deadline): {m['not_done']}")
    print(f"   CPU: server and cells {m['server_cpu_s']} s, this client {m['client_cpu_s']} s")
    w = res["warmup"]
    print(f"   warm-up: {w['done']} requests (every case once) in {w['seconds']:.1f} s; CPU: "
          f"server and cells {w['server_cpu_s']} s, this client {w['client_cpu_s']} s")
    print("   slowest: " + ", ".join(f"{k} {c} {t} s" for t, k, c in res["slowest"][:10]))
    print("\n== resources      baseline       peak        end")
    for k in ("rss_kib",) + RES_EXACT + ("mountinfo",):
        b, p, e = res["baseline"].get(k), res["peak"].get(k), res["end"].get(k)
        print(f"   {k:<12} {b!s:>10} {p!s:>10} {e!s:>10}")
    print("   (mounts: the server's own, checked; mountinfo: every line, the host's when the "
          "server shares its namespace, not checked)")
    print(f"   back to baseline: {res['settled']} (RSS slack {res['rss_slack_kib']} KiB, "
          f"end - baseline {res['end'].get('rss_kib', 0) - res['baseline'].get('rss_kib', 0)} KiB)")
    print("\n== store")
    for k, v in res["store"].items():
        print(f"   {k:<18} {v}")
    print("\n== checks")
    for k, v in res["checks"].items():
        print(f"   {k:<22} {v}")
    print(f"   (not checked: {res['starved']} answers held back by load as docs/api.md says, "
          "TLE at run_timeout + 8 s or SE \"starved by load\")")
    print(f"   (resent, as veRL's client does: {res['resent']} answers 503 or 504, never run)")
    if res["failures"]:
        print("\n== first failures")
        for f in res["failures"]:
            print("   " + f)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("verdict", nargs="?", default=os.environ.get(
        "VERDICT_BIN", os.path.join(ROOT, "build", "release", "verdict")))
    ap.add_argument("--requests", type=int, default=100000)
    ap.add_argument("--clients", type=int, default=16)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--deadline", type=float, default=4 * 3600, help="seconds, whole run")
    ap.add_argument("--json")
    ap.add_argument("--url")
    ap.add_argument("--pid", type=int)
    ap.add_argument("--max-body", type=int, help="with --url: the server's --max-body, bytes "
                    "(else the oversized request is left out of the mix)")
    ap.add_argument("--datasets", help="DIR, or none (default: the shared benchmark data)")
    ap.add_argument("--languages", default=os.environ.get("VERDICT_LANGUAGES",
                                                          os.path.join(ROOT, "languages")))
    ap.add_argument("--cells", type=int, default=4)
    ap.add_argument("--max-cells", type=int, default=24)
    ap.add_argument("--rss-slack-mb", type=int, default=48)
    ap.add_argument("--tight", action="store_true",
                    help="half the right and wrong c, cpp and python runs with run_timeout 1, "
                    "not 20 (on a host loaded far past its cores, a few then end TLE on the "
                    "wall clock: see the module's docstring)")
    ap.add_argument("--settle", type=float, default=120, help="seconds to wait for the baseline")
    args = ap.parse_args()
    if os.geteuid() != 0:
        print("soak: the sandbox needs root: skipped")
        return 77
    t0 = time.monotonic()
    deadline = t0 + args.deadline
    work = tempfile.mkdtemp(prefix="verdict-soak-", dir="/var/tmp")
    proc = None
    try:
        if args.url:
            ctx = Context()
            ctx.url, ctx.pid = args.url.rstrip("/"), args.pid
            ctx.port = int(ctx.url.rsplit(":", 1)[1])
            data = None if args.datasets == "none" else (args.datasets or data_dir())
        else:
            ctx, proc, data = start_server(args, work)
        ctx.tight = args.tight
        ctx.max_body = args.max_body if args.url else MAX_BODY
        discover(ctx)
        cases = build_mix(ctx, data)
        since = max([0] + [r["id"] for r in requests.get(
            ctx.url + "/v1/submissions?limit=1", timeout=30).json().get("submissions", [])]) \
            if requests.get(ctx.url + "/healthz", timeout=30).json()["store"].get("enabled") else 0
        print(f"soak: server {ctx.url} pid {ctx.pid}; {len(cases)} cases, "
              f"{len(ctx.datasets)} datasets; warm-up", flush=True)
        tally = Tally()
        cpu0 = (tree_cpu(ctx.pid), self_cpu())
        t = time.monotonic()
        # every case once, the rarest (the costliest: compiles, JVMs) first
        warm_plan = sorted(((c, args.seed * 7919 + i) for i, c in enumerate(cases)),
                           key=lambda p: p[0].weight)
        run_phase(ctx, warm_plan, args.clients, deadline, tally)
        cpu1 = (tree_cpu(ctx.pid), self_cpu())
        warm = {"done": tally.done, "seconds": time.monotonic() - t,
                "server_cpu_s": round(cpu1[0] - cpu0[0], 1),
                "client_cpu_s": round(cpu1[1] - cpu0[1], 1)}
        print(f"soak: warm-up done: {tally.done} requests in {warm['seconds']:.0f} s; "
              f"{tally.unanswered} unanswered, {tally.wrong} wrong", flush=True)
        base = quiet(ctx, min(args.settle, max(10, deadline - time.monotonic())))
        ctx.committed_id = committed(ctx, tally.ids)
        sampler = Sampler(ctx)
        sampler.start()
        t = time.monotonic()
        before = tally.done
        lat_before = len(tally.lat)
        plan = plan_main(cases, args.requests, args.seed)
        progress = threading.Event()

        def say():
            while not progress.wait(30):
                d = tally.done - before
                print(f"soak: {d}/{args.requests} in {time.monotonic() - t:.0f} s "
                      f"({tally.unanswered} unanswered, {tally.wrong} wrong)", flush=True)
        threading.Thread(target=say, daemon=True).start()
        not_done = run_phase(ctx, plan, args.clients, deadline, tally)
        progress.set()
        secs = time.monotonic() - t
        cpu2 = (tree_cpu(ctx.pid), self_cpu())
        sampler.stop.set()
        sampler.join()
        lat = tally.lat[lat_before:]
        main_res = {"requested": args.requests, "done": tally.done - before, "seconds": secs,
                    "rps": (tally.done - before) / secs if secs else 0.0,
                    "p50_ms": round(1000 * quantile(lat, 0.5)) if lat else None,
                    "p99_ms": round(1000 * quantile(lat, 0.99)) if lat else None,
                    "not_done": not_done, "server_cpu_s": round(cpu2[0] - cpu1[0], 1),
                    "client_cpu_s": round(cpu2[1] - cpu1[1], 1)}
        slack = args.rss_slack_mb * 1024
        end, ok = settle(ctx, base, max(10, min(args.settle, deadline - time.monotonic() + 60)),
                         slack)
        peak = {k: max(v, base[k], end[k]) for k, v in sampler.peak.items()} or end
        store = check_store(ctx, tally, since)
        checks = {"unanswered": tally.unanswered, "wrong": tally.wrong,
                  "store mismatches": sum(store.get(k, 0) for k in STORE_FAILS),
                  "resources not back": sum(1 for k in RES_EXACT if end[k] != base[k]) +
                  (end["rss_kib"] > base["rss_kib"] + slack)}
        if proc:
            proc.send_signal(signal.SIGTERM)
            try:
                code = proc.wait(timeout=120)
            except subprocess.TimeoutExpired:
                proc.kill()
                code = proc.wait(timeout=60)
            time.sleep(0.2)
            checks["server exit not 0"] = int(code != 0)
            proc = None
        res = {"clients": args.clients, "seed": args.seed, "warmup": warm, "main": main_res,
               "starved": tally.starved,
               "resent": len(soak_mix.RESENT),
               "rows_raw": tally.rows, "baseline": base, "peak": peak, "end": end,
               "settled": ok, "rss_slack_kib": slack, "store": store, "checks": checks,
               "failures": tally.failures,
               "slowest": [(round(t, 2), k, c) for t, k, c in sorted(tally.slowest, reverse=True)],
               "most time": [(round(t, 1), k, c) for (k, c), t in sorted(
                   tally.seconds.items(), key=lambda kv: -kv[1])[:20]]}
        report(res)
        if args.json:
            out = dict(res)
            out["rows"] = [{"kind": k, "case": c, "verdict": v, "count": n}
                           for (k, c, v), n in sorted(tally.rows.items(),
                                                      key=lambda kv: tuple(map(str, kv[0])))]
            del out["rows_raw"]
            with open(args.json, "w") as f:
                json.dump(out, f, indent=1)
        failed = any(checks.values())
        print(f"\nsoak: {'FAILED' if failed else 'ok'} in {time.monotonic() - t0:.0f} s")
        return 1 if failed else 0
    finally:
        if proc:
            proc.kill()
            proc.wait(timeout=60)
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
