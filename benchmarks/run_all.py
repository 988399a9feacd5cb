#!/usr/bin/python3
"""Every benchmark of issue 15 in one command: one table (measure, the baseline measured in the
same run, verdict's figure, their ratio, the target, met?), JSON with --json, and with --plot
docs/performance.svg (throughput against concurrency). It asserts nothing about time: a row
that could not be measured says why, and the exit status is 1 only when a driver failed to run.

usage: run_all.py [--quick] [--json FILE] [--plot [FILE]] [--only NAME,NAME] [--skip NAME,...]
  sections: spawn python http corpus verl batch memory store session flip
  --quick   every section at a tiny size (ctest runs this so that the drivers do not rot)
The build tree: VERDICT_BUILD (build/release); templates: VERDICT_LANGUAGES (languages);
datasets: VERDICT_TEST_DATA (../shared/datasets). Root (cells need namespaces and cgroups).
Servers listen on 127.0.0.1 only; every section is bounded in requests and time.
"""
import argparse
import concurrent.futures
import gzip
import http.client
import json
import os
import platform
import re
import resource
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
BUILD = os.path.abspath(os.environ.get("VERDICT_BUILD", os.path.join(ROOT, "build", "release")))
VERDICT = os.environ.get("VERDICT_BIN", os.path.join(BUILD, "verdict"))
LANGUAGES = os.path.abspath(os.environ.get("VERDICT_LANGUAGES", os.path.join(ROOT, "languages")))
NPROC = os.cpu_count() or 1
PY = "/usr/bin/python3"
SECTIONS = ["spawn", "python", "http", "corpus", "verl", "batch", "memory", "store", "session",
            "flip"]

C_ECHO = "#include <stdio.h>\nint main(void){int a,b;if(scanf(\"%d %d\",&a,&b)!=2)return 1;" \
         "printf(\"%d\\n\",a+b);return 0;}\n"
CPP_ECHO = "#include <iostream>\nint main(){long a,b;std::cin>>a>>b;std::cout<<a+b<<std::endl;}\n"
PY_ECHO = "a, b = map(int, input().split())\nprint(a + b)\n"


def data_dir():
    for d in (os.environ.get("VERDICT_TEST_DATA"), os.path.join(ROOT, "..", "shared", "datasets"),
              "/work/shared/datasets"):
        if d and os.path.isdir(d):
            return d
    return None


# ---- rows -------------------------------------------------------------------------------

ROWS = []
PLOT = {}  # series name -> [(concurrency, req/s)]


def row(section, measure, baseline_label, baseline, verdict, unit, ratio=None, target=None,
        met=None, note=""):
    """One line of the table. ratio: verdict's figure over the baseline's (computed when both
    are numbers and not given); target: text; met: True, False or None (no target)."""
    if ratio is None and isinstance(baseline, (int, float)) and isinstance(verdict, (int, float)) \
            and baseline:
        ratio = verdict / baseline
    r = dict(section=section, measure=measure, baseline_label=baseline_label, baseline=baseline,
             verdict=verdict, unit=unit, ratio=None if ratio is None else round(ratio, 3),
             target=target, met=met, note=note)
    ROWS.append(r)
    print(f"  {measure}: baseline {fmt(baseline)} verdict {fmt(verdict)} {unit}"
          + (f" ratio {ratio:.2f}x" if ratio is not None else "")
          + (f" target {target}: {'met' if met else 'NOT met'}" if target and met is not None
             else "") + (f" ({note})" if note else ""), flush=True)


def fmt(v):
    if v is None:
        return "-"
    if isinstance(v, float):
        return f"{v:.3g}" if abs(v) < 100 else f"{v:.0f}"
    return str(v)


def at_most(ratio, bound):
    return None if ratio is None else ratio <= bound


def at_least(ratio, bound):
    return None if ratio is None else ratio >= bound


# ---- a server ---------------------------------------------------------------------------

class Server:
    """`verdict serve` on a free loopback port with a private cache and store."""

    def __init__(self, work, extra=()):
        os.makedirs(work, exist_ok=True)
        self.err = open(os.path.join(work, "serve.log"), "w+b")
        self.proc = subprocess.Popen(
            [VERDICT, "serve", "--listen", "127.0.0.1:0", "--languages", LANGUAGES,
             "--cache", os.path.join(work, "artifacts"), "--db", os.path.join(work, "v.db"),
             *extra], stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=self.err)
        end = time.monotonic() + 120
        self.url = None
        while time.monotonic() < end and self.proc.poll() is None:
            self.err.seek(0)
            m = re.search(rb"serving on http://127\.0\.0\.1:(\d+)", self.err.read())
            if m:
                self.port = int(m.group(1))
                self.url = f"http://127.0.0.1:{self.port}"
                break
            time.sleep(0.05)
        if not self.url:
            self.stop()
            self.err.seek(0)
            raise RuntimeError("verdict serve did not start: " + self.err.read()[-500:].decode(
                errors="replace"))

    def health(self):
        return get_json(self.port, "/healthz")

    def rss_kib(self, field="VmRSS"):
        with open(f"/proc/{self.proc.pid}/status") as f:
            return next(int(ln.split()[1]) for ln in f if ln.startswith(field + ":"))

    def stop(self):
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=120)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(timeout=60)
        self.err.close()


def get_json(port, path):
    c = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    c.request("GET", path)
    r = c.getresponse()
    d = json.loads(r.read())
    c.close()
    return d


_local = threading.local()


def post(port, path, body, timeout=600):
    """POST on this thread's keep-alive connection: (status, decoded JSON or text, seconds)."""
    data = body if isinstance(body, bytes) else json.dumps(body).encode()
    for attempt in (0, 1):
        c = getattr(_local, "conn", None)
        if c is None or getattr(_local, "port", None) != port:
            c = _local.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
            _local.port = port
        t = time.monotonic()
        try:
            c.request("POST", path, data, {"Content-Type": "application/json"})
            r = c.getresponse()
            raw = r.read()
            took = time.monotonic() - t
        except (http.client.HTTPException, OSError):
            c.close()
            _local.conn = None
            if attempt:
                raise
            continue
        try:
            out = json.loads(raw)
        except ValueError:
            out = raw.decode(errors="replace")
        return r.status, out, took


def fire(port, path, bodies, clients):
    """Every body POSTed, `clients` in flight: ([(status, answer, seconds)], wall seconds)."""
    t = time.monotonic()
    with concurrent.futures.ThreadPoolExecutor(clients) as ex:
        out = list(ex.map(lambda b: post(port, path, b), bodies))
    return out, time.monotonic() - t


def p99(xs):
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(0.99 * len(xs)))] if xs else None


def run_ok(answer):
    return isinstance(answer, dict) and answer.get("status") == "Success"


# ---- sections ---------------------------------------------------------------------------

def sec_spawn(a, work):
    runs = 40 if a.quick else 2000
    exe = os.path.join(BUILD, "benchmarks", "bench_spawn")
    noop = os.path.join(BUILD, "benchmarks", "noop_static")
    p = subprocess.run([exe, VERDICT, noop, str(runs)], capture_output=True, text=True,
                       timeout=600)
    if p.returncode:
        raise RuntimeError("bench_spawn: " + p.stderr[-300:])
    for ln in p.stdout.splitlines():
        m = re.match(r"(.+?)\s+runs\s+(\d+)\s+plain\s+([\d.]+) us/run\s+warm cell\s+([\d.]+)", ln)
        if m:
            base, ours = float(m.group(3)), float(m.group(4))
            row("spawn", f"{m.group(1).strip()} through a warm cell ({m.group(2)} runs)",
                "posix_spawn+wait", base, ours, "us/run", target="<= 1.2x",
                met=at_most(ours / base, 1.2))


def spawn_rate(n, *argv):
    """argv spawned NPROC at a time, n in all (benchmarks/spawn_rate.c): runs/s."""
    p = subprocess.run([os.path.join(BUILD, "benchmarks", "spawn_rate"), str(n), "0", *argv],
                       capture_output=True, text=True, timeout=600)
    if p.returncode:
        raise RuntimeError("spawn_rate: " + p.stderr[-300:])
    return float(p.stdout.split()[-1])


def python_warm_option():
    """The serve option that switches a warm Python interpreter, if this build has one."""
    h = subprocess.run([VERDICT, "serve", "--help"], capture_output=True, text=True).stdout
    m = re.search(r"--([a-z-]*warm[a-z-]*)\b", h)
    return m.group(1) if m else None


def sec_python(a, work):
    n = 32 if a.quick else 600
    base_n = 32 if a.quick else 600
    body = dict(code="pass", language="python", run_timeout=10)
    opt = python_warm_option()
    modes = [("", [])] if not opt else [(" (warm)", [f"--{opt}", "on"]),
                                         (" (cold)", [f"--{opt}", "off"])]
    for label, extra in modes:
        s = Server(os.path.join(work, "python" + label.strip(" ()")), extra)
        try:
            fire(s.port, "/run_code", [body] * 32, 16)  # cells started, caches warm
            base = spawn_rate(base_n, PY, "-c", "pass")
            out, took = fire(s.port, "/run_code", [body] * n, 16)
            ok = sum(run_ok(o[1]) for o in out)
            ours = n / took
            rr = [o[1]["run_result"] for o in out if run_ok(o[1])]
            wall = statistics.mean(r["execution_time"] for r in rr) * 1e3 if rr else 0
            cpu = statistics.mean(r.get("cpu_time") or 0 for r in rr) * 1e3 if rr else 0
            row("python", f"trivial Python /run_code, 16 concurrent{label}",
                f"bare python3 -c pass, {NPROC} at once", round(base, 1), round(ours, 1),
                "runs/s", target=">= 5x", met=at_least(ours / base, 5.0) if ok == n else None,
                note=("NOT VALID, answers failed: " if ok < n else "") + f"{ok}/{n} Success; p99 {p99([o[2] for o in out]) * 1e3:.0f} ms; the "
                     f"program's own mean wall {wall:.0f} ms, CPU {cpu:.0f} ms; bare "
                     f"python3 -c pass {NPROC / base * 1e3:.0f} ms each")
        finally:
            s.stop()


def sec_http(a, work):
    """benchmarks/http_path.py (its C load generator, benchmarks/loadgen.c): ping and cached C
    /run_code at each concurrency against posix_spawn of the same binary, and one program
    judged against 10 tests three ways."""
    args = ["--quick"] if a.quick else ["--seconds", "3", "--conc", "1,16,64,256",
                                        "--tests", "10", "--programs", "8"]
    p = subprocess.run([PY, os.path.join(HERE, "http_path.py"), "--verdict", VERDICT,
                        "--languages", LANGUAGES, *args], capture_output=True, text=True,
                       timeout=900)
    if p.returncode:
        raise RuntimeError("http_path.py: " + (p.stderr or p.stdout)[-300:])
    d = json.loads(p.stdout)
    spawns = d.get("posix_spawn", [])
    best = max(spawns, key=lambda x: x.get("rps", 0)) if spawns else {}
    floor = best.get("rps")
    concs = [r["conns"] for r in d["run_code_c"]]
    PLOT["posix_spawn of the binary (best of " + ", ".join(
        str(x["conns"]) for x in spawns) + " at once)"] = [(c, floor) for c in concs]
    for name, key in (("/v1/ping", "ping"), ("cached C /run_code", "run_code_c")):
        series = []
        for r in d[key]:
            c = r["conns"]
            series.append((c, r.get("rps", 0)))
            is_c = key == "run_code_c"
            ratio = r.get("rps", 0) / floor if is_c and floor else None
            note = f"p99 {r.get('p99_ms')} ms"
            if r.get("errors"):
                note += f", {r['errors']} errors"
            if is_c and r.get("server_cpu_ms_per_request") is not None:
                note += (f"; CPU ms/request: server {r['server_cpu_ms_per_request']}, cells "
                         f"with their jobs {r.get('cells_cpu_ms_per_request')}, whole machine "
                         f"{r.get('machine_cpu_ms_per_request')} (a plain spawn "
                         f"{best.get('cpu_ms_per_spawn')})")
            row("http", f"{name} at concurrency {c}",
                f"posix_spawn, {best.get('conns')} at once" if is_c else "-",
                round(floor, 1) if is_c and floor else None, round(r.get("rps", 0), 1),
                "req/s", ratio=ratio, target=">= 0.8x" if is_c and c == 64 else None,
                met=at_least(ratio, 0.8) if is_c and c == 64 else None, note=note)
        PLOT[name] = series
    j = d.get("judge", {})
    one = j.get("one_request_per_test", {}).get("cases_per_s")
    for k, label in (("one_judge_of_T_tests", f"one /v1/judge of {d.get('judge_tests')} tests"),
                     ("batch_of_P_programs", f"/v1/judge/batch of {d.get('judge_programs')} "
                                             "programs")):
        r = j.get(k, {})
        if r.get("cases_per_s") is not None:
            row("batch", f"C: {label} ({r.get('conns')} in flight)",
                "a /v1/judge per test, 64 in flight", one, r["cases_per_s"], "cases/s",
                target="> 1x", met=at_least(r["cases_per_s"] / one, 1.0) if one else None,
                note=f"server+cells CPU {r.get('server_cpu_ms_per_case')} ms/case")


def corpus_programs(name, path, work):
    """(dataset name for verdict, [program files]) of the dataset's reference solutions, written
    the way each benchmark's own harness runs them."""
    progs = []
    opener = gzip.open if path.endswith(".gz") else open
    for i, line in enumerate(opener(path, "rt")):
        r = json.loads(line)
        if name == "humaneval":
            text = r["prompt"] + r["canonical_solution"] + "\n" + r["test"] + "\n" + \
                f"check({r['entry_point']})\n"
        else:
            text = r["code"] + "\n" + r.get("test_setup_code", "") + "\n" + \
                "\n".join(r["test_list"]) + "\n"
        p = os.path.join(work, f"{name}_{i}.py")
        with open(p, "w") as f:
            f.write(text)
        progs.append(p)
    return progs


def sec_corpus(a, work):
    d = data_dir()
    if not d:
        row("corpus", "HumanEval / MBPP", "-", None, None, "s", note="no datasets directory")
        return
    env = {**os.environ, "VERDICT_DB": os.path.join(work, "v.db")}
    rounds = 1 if a.quick else a.rounds
    for name, rel in (("humaneval", "HumanEval.jsonl.gz"), ("mbpp", "mbpp/mbpp.jsonl")):
        if name not in a.datasets.split(","):
            continue
        src = os.path.join(d, rel)
        if not os.path.exists(src):
            row("corpus", name, "-", None, None, "s", note=f"{src} missing")
            continue
        if a.quick:  # the first 8 problems, imported as the dataset (not kept anywhere)
            opener = gzip.open if src.endswith(".gz") else open
            with opener(src, "rt") as f:
                head = [next(f) for _ in range(8)]
            src = os.path.join(work, name + "-head.jsonl")
            with open(src, "w") as f:
                f.writelines(head)
        subprocess.run([VERDICT, "datasets", "import", name, src], env=env, check=True,
                       capture_output=True)
        progs = corpus_programs(name, src, work)

        def one(path):
            try:
                return subprocess.run([PY, path], capture_output=True, timeout=10,
                                      cwd=work).returncode == 0
            except subprocess.TimeoutExpired:
                return False

        def ours(mode_env):
            t = time.monotonic()
            p = subprocess.run([VERDICT, "bench", "--reference", name, "-k", "1", "-j",
                                str(NPROC), "--summary", "json", "--no-record", "--languages",
                                LANGUAGES, "--cache", os.path.join(work, "cache")],
                               env={**env, **mode_env}, capture_output=True, text=True,
                               timeout=900)
            took = time.monotonic() - t
            try:  # a run with sandbox errors exits 1 but still reports its summary
                return took, json.loads(p.stdout)
            except ValueError:
                raise RuntimeError(f"verdict bench {name}: {p.stderr[-300:]}") from None

        modes = [("", {})]
        if python_warm_option():
            modes = [(" (warm)", {"VERDICT_PYTHON_WARM": "on"}),
                     (" (cold)", {"VERDICT_PYTHON_WARM": "off"})]
        if name == "humaneval":
            ours(modes[0][1])  # warm-up: the binary, templates and interpreter in the page cache
        base, mine, passed, summ = [], {m: [] for m, _ in modes}, 0, {}
        for _ in range(rounds):
            t = time.monotonic()
            with concurrent.futures.ThreadPoolExecutor(NPROC) as ex:
                passed = sum(ex.map(one, progs))
            base.append(time.monotonic() - t)
            for label, menv in modes:
                t, summ[label] = ours(menv)
                mine[label].append(t)
        b = statistics.median(base)
        for label, _ in modes:
            o = statistics.median(mine[label])
            v = {k: n for k, n in (summ[label].get("verdicts") or {}).items() if n}
            row("corpus", f"{name} ({len(progs)}) canonical, {NPROC} at once{label}",
                "fresh python3 per problem", round(b, 2), round(o, 2), "s", target="<= 0.5x",
                met=at_most(o / b, 0.5) if not v.get("SE") else None,
                note=("NOT VALID, sandbox errors: " if v.get("SE") else "") +
                f"median of {rounds}, whole command (judging alone "
                f"{summ[label].get('seconds')} s); plain passed {passed}, verdict {v}")


def sec_verl(a, work):
    uniq = 2 if a.quick else 16
    cases = 10
    s = Server(os.path.join(work, "verl"))
    try:
        for lang, code in (("cpp", CPP_ECHO), ("python", PY_ECHO)):
            h0 = s.health()["compile_cache"]
            bodies = []
            for u in range(uniq):
                src = code + ("// " if lang == "cpp" else "# ") + f"program {u} {time.time()}\n"
                for k in range(cases):
                    bodies.append(dict(code=src, language=lang, stdin=f"{k} {u}",
                                       compile_timeout=60, run_timeout=10))
            out, took = fire(s.port, "/run_code", bodies, 64)
            h1 = s.health()["compile_cache"]
            ok = sum(1 for (st, ans, _), b in zip(out, bodies)
                     if run_ok(ans) and ans["run_result"]["stdout"].strip() ==
                     str(sum(map(int, b["stdin"].split()))))
            misses = h1["misses"] - h0["misses"]
            row("verl", f"veRL pattern {lang}: {uniq} programs x {cases} cases, 64 in flight",
                "-", None, round(len(bodies) / took, 1), "cases/s",
                note=("NOT VALID, answers failed: " if ok < len(bodies) else "") +
                (f"p99 {p99([o[2] for o in out]) * 1e3:.0f} ms; {ok}/{len(bodies)} right; "
                 f"compiles per unique program {misses / uniq:.2f}" if lang == "cpp" else
                 f"p99 {p99([o[2] for o in out]) * 1e3:.0f} ms; {ok}/{len(bodies)} right "
                 "(no compile)"))
    finally:
        s.stop()


def sec_batch(a, work):
    progs = 4 if a.quick else 32
    cases = 10
    s = Server(os.path.join(work, "batch"))
    try:
        stamp = time.time()
        srcs = [PY_ECHO + f"# program {i} {stamp}\n" for i in range(progs)]
        tests = [dict(stdin=f"{k} 1", expected=str(k + 1)) for k in range(cases)]
        fire(s.port, "/run_code", [dict(code="pass", language="python")] * 32, 32)  # warm
        runs = [dict(code=c, language="python", stdin=t["stdin"]) for c in srcs for t in tests]
        out, t_runs = fire(s.port, "/run_code", runs, 64)
        ok_runs = sum(run_ok(o[1]) for o in out)
        judges = [dict(code=c + "\n", language="python", tests=tests) for c in srcs]
        out, t_judge = fire(s.port, "/v1/judge", judges, 16)
        ok_judge = sum(o[1].get("passed", 0) for o in out if isinstance(o[1], dict))
        items = [dict(id=i, **dict(code=c + "\n\n", language="python", tests=tests))
                 for i, c in enumerate(srcs)]
        t = time.monotonic()
        st, ans, _ = post(s.port, "/v1/judge/batch", dict(items=items))
        t_batch = time.monotonic() - t
        lines = [json.loads(x) for x in ans.splitlines() if x.strip()] if isinstance(ans, str) \
            else []
        ok_batch = sum(x.get("result", {}).get("passed", 0) for x in lines)
        n = progs * cases
        base = n / t_runs
        bad = "" if ok_runs == ok_judge == ok_batch == n else "NOT VALID, answers failed: "
        row("batch", f"{progs} programs x {cases} tests: /run_code per case, 64 in flight",
            "-", None, round(base, 1), "cases/s", note=f"{bad}{ok_runs}/{n} Success")
        row("batch", f"/v1/judge, one per program with {cases} tests, 16 in flight",
            "/run_code per case", round(base, 1), round(n / t_judge, 1), "cases/s",
            target="> 1x", met=None if bad else at_least(n / t_judge / base, 1.0),
            note=f"{bad}{ok_judge}/{n} passed")
        row("batch", f"/v1/judge/batch, one request of {progs} items", "/run_code per case",
            round(base, 1), round(n / t_batch, 1), "cases/s", target="> 1x",
            met=None if bad else at_least(n / t_batch / base, 1.0),
            note=f"{bad}{ok_batch}/{n} passed")
    finally:
        s.stop()


def sec_memory(a, work):
    inflight = 40 if a.quick else 1000
    s = Server(os.path.join(work, "memory"), ["--queue", str(inflight * 2),
                                              "--client-share", str(inflight * 2)])
    try:
        time.sleep(1)
        idle = s.rss_kib()
        body = json.dumps(dict(code="sleep 1", language="bash", compile_timeout=300,
                               run_timeout=30)).encode()
        req = (f"POST /run_code HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json"
               f"\r\nContent-Length: {len(body)}\r\nConnection: close\r\n\r\n").encode() + body
        socks = []
        for _ in range(inflight):
            c = socket.create_connection(("127.0.0.1", s.port))
            c.sendall(req)
            socks.append(c)
        time.sleep(0.5)
        h = s.health()
        held = s.rss_kib()
        waiting = h["queue"]["queued"] + h["queue"]["running"]
        answered = 0
        end = time.monotonic() + 600
        for c in socks:
            c.settimeout(max(1, end - time.monotonic()))
            data = b""
            try:
                while True:
                    chunk = c.recv(65536)
                    if not chunk:
                        break
                    data += chunk
            except OSError:
                pass
            answered += data.startswith(b"HTTP/1.1 200") and b'"Success"' in data
            c.close()
        peak = s.rss_kib("VmHWM")
        time.sleep(1)
        after = s.rss_kib()
        row("memory", "server RSS idle", "-", None, round(idle / 1024, 1), "MB",
            target="<= 30 MB", met=idle / 1024 <= 30)
        row("memory", f"server RSS with {inflight} requests in flight (peak)", "-", None,
            round(peak / 1024, 1), "MB", target="<= 150 MB", met=peak / 1024 <= 150,
            note=f"{waiting} queued or running at {held / 1024:.1f} MB; {answered}/{inflight} "
                 "Success (bash `sleep 1`)")
        row("memory", "server RSS after", "-", None, round(after / 1024, 1), "MB")
    finally:
        s.stop()


def sec_store(a, work):
    n, c, r = (8, 4, 1) if a.quick else (a.store_requests, 16, 2)
    out = os.path.join(work, "store.json")
    env = {**os.environ, "VERDICT_BIN": VERDICT, "VERDICT_LANGUAGES": LANGUAGES}
    p = subprocess.run([PY, os.path.join(HERE, "store_overhead.py"), "--requests", str(n),
                        "--clients", str(c), "--rounds", str(r), "--json", out], env=env,
                       capture_output=True, text=True, timeout=900)
    if not os.path.exists(out):
        raise RuntimeError("store_overhead.py: " + (p.stderr or p.stdout)[-300:])
    d = json.load(open(out))
    row("store", f"load_mixed requests, store on vs off ({d['requests_per_side']} per side, "
        f"{c} clients)", "store off", d["rps_store_off"], d["rps_store_on"], "req/s",
        target=">= 0.95x", met=at_least(d["ratio_on_off"], 0.95),
        note=f"{d['store_written']} written, {d['store_dropped']} dropped")


def sec_session(a, work):
    """benchmarks/session_loop.py: a 10-turn agent loop through a session against the same
    turns as /run_code calls that replay the history (4 agents at once, 5 rounds)."""
    out = os.path.join(work, "session.json")
    args = ["--quick"] if a.quick else ["--agents", "4", "--rounds", "5"]
    p = subprocess.run([PY, os.path.join(HERE, "session_loop.py"), "--verdict", VERDICT,
                        "--languages", LANGUAGES, "--json", out, *args],
                       capture_output=True, text=True, timeout=900)
    if p.returncode or not os.path.exists(out):
        raise RuntimeError("session_loop.py: " + (p.stderr or p.stdout)[-300:])
    d = json.load(open(out))
    med, c = d["median_loop_s"], d["cpu_ms_per_loop"]
    n = d["agents"]
    row("session", f"{d['turns']}-turn agent loop, session vs replayed /run_code "
        f"({n} agent{'s' * (n != 1)} at once)", "replayed /run_code", med["stateless"],
        med["session"], "s/loop", target="<= 0.5x (2x faster)",
        met=at_most(med["session"] / med["stateless"], 0.5),
        note=f"median of {d['loops_per_way']} loops, every turn's output equal both ways; "
             f"{d['speedup']:.2f}x faster; CPU ms a loop: replayed {c['stateless']}, session "
             f"calls {c['session_exec']} ({c['session_total']} the session's own total)")


def sec_flip(a, work):
    """benchmarks/flip_rate.py: C and Python at 50-95% of a 1 s limit, 8 asked for at once,
    alone and beside two CPU hogs; the row counts TLE and SE up to 90% (target: none)."""
    out = os.path.join(work, "flip.json")
    args = (["--reps", "2", "--conditions", "alone", "--langs", "c"] if a.quick
            else ["--reps", "100"])
    p = subprocess.run([PY, os.path.join(HERE, "flip_rate.py"), VERDICT, "--languages",
                        LANGUAGES, "--json", out, *args], capture_output=True, text=True,
                       timeout=600 if a.quick else 7200)
    if p.returncode or not os.path.exists(out):
        raise RuntimeError("flip_rate.py: " + (p.stderr or p.stdout)[-300:])
    for key, v in json.load(open(out)).items():
        s = v["summary"]
        row("flip", f"C and Python at 50-90% of a 1 s limit, 8 asked for at once, {key} "
            f"({v['cells']} cells)", "runs", s["runs"], s["tle"] + s["se"], "TLE+SE",
            ratio=None, target="0", met=s["tle"] + s["se"] == 0,
            note=f"TLE {s['tle']}, SE {s['se']}")


# ---- output -----------------------------------------------------------------------------

def machine():
    def read(p):
        try:
            return open(p).read()
        except OSError:
            return ""
    cpu = re.search(r"model name\s*:\s*(.*)", read("/proc/cpuinfo"))
    mem = re.search(r"MemTotal:\s*(\d+)", read("/proc/meminfo"))
    if os.path.exists("/sys/fs/cgroup/cgroup.controllers"):
        cg = "v2"
    elif os.path.exists("/sys/fs/cgroup/unified/cgroup.controllers"):
        cg = "v1 (hybrid: v1 controllers, v2 mounted at /sys/fs/cgroup/unified)"
    else:
        cg = "v1"
    return dict(cpu=cpu.group(1) if cpu else platform.processor(), cores=NPROC,
                memory_gib=round(int(mem.group(1)) / 2**20, 1) if mem else None,
                kernel=platform.release(), cgroup=cg,
                load=os.getloadavg(), python=platform.python_version(),
                at=time.strftime("%Y-%m-%d %H:%M:%S %Z"))


def table():
    head = ["measure", "baseline (same run)", "verdict", "ratio", "target", "met?"]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for r in ROWS:
        base = "-" if r["baseline"] is None else f"{r['baseline_label']}: {fmt(r['baseline'])}"
        ours = "-" if r["verdict"] is None else f"{fmt(r['verdict'])} {r['unit']}"
        ratio = "-" if r["ratio"] is None else f"{r['ratio']:.2f}x"
        met = "-" if r["met"] is None else ("yes" if r["met"] else "**no**")
        m = r["measure"] + (f" ({r['note']})" if r["note"] else "")
        lines.append(f"| {m} | {base} | {ours} | {ratio} | {r['target'] or '-'} | {met} |")
    return "\n".join(lines)


def svg(path):
    """Throughput against concurrency, both axes log-scaled, drawn by hand (no plotting
    library): ping, cached C /run_code and the spawn floor differ by two orders of magnitude."""
    import math
    pts_all = [(c, v) for s in PLOT.values() for c, v in s if c > 0 and v and v > 0]
    if not pts_all:
        return
    W, H, L, R, T, B = 840, 420, 70, 370, 30, 50
    xs = sorted({c for c, _ in pts_all})
    x0, x1 = math.log2(xs[0]), math.log2(xs[-1])
    x1 = x1 if x1 > x0 else x0 + 1
    y0 = math.floor(math.log10(min(v for _, v in pts_all)))
    y1 = math.ceil(math.log10(max(v for _, v in pts_all)))
    y1 = y1 if y1 > y0 else y0 + 1

    def X(c):
        return L + (math.log2(c) - x0) / (x1 - x0) * (W - L - R)

    def Y(v):
        return H - B - (math.log10(v) - y0) / (y1 - y0) * (H - T - B)

    colors = ["#555555", "#1f77b4", "#d62728", "#2ca02c", "#9467bd"]
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{W}" height="{H}" '
           f'font-family="sans-serif" font-size="12">',
           f'<rect width="{W}" height="{H}" fill="white"/>',
           f'<text x="{L}" y="18" font-size="14">verdict: requests/s against concurrency '
           f'({NPROC} cores, log scales)</text>',
           f'<line x1="{L}" y1="{H - B}" x2="{W - R}" y2="{H - B}" stroke="black"/>',
           f'<line x1="{L}" y1="{T}" x2="{L}" y2="{H - B}" stroke="black"/>',
           f'<text x="{(L + W - R) / 2}" y="{H - 12}" text-anchor="middle">concurrent '
           'connections</text>',
           f'<text x="16" y="{(T + H - B) / 2}" transform="rotate(-90 16 {(T + H - B) / 2})" '
           'text-anchor="middle">requests/s</text>']
    for c in xs:
        out.append(f'<text x="{X(c):.1f}" y="{H - B + 16}" text-anchor="middle">{c}</text>')
    for e in range(y0, y1 + 1):
        v = 10 ** e
        out.append(f'<line x1="{L - 4}" y1="{Y(v):.1f}" x2="{W - R}" y2="{Y(v):.1f}" '
                   f'stroke="#ddd"/><text x="{L - 6}" y="{Y(v) + 4:.1f}" '
                   f'text-anchor="end">{v:g}</text>')
    for i, (name, pts) in enumerate(PLOT.items()):
        pts = [(c, v) for c, v in pts if c > 0 and v and v > 0]
        col = colors[i % len(colors)]
        dash = ' stroke-dasharray="6 4"' if "spawn" in name else ""
        d = " ".join(f"{X(c):.1f},{Y(v):.1f}" for c, v in pts)
        out.append(f'<polyline points="{d}" fill="none" stroke="{col}" stroke-width="2"{dash}/>')
        if not dash:
            out += [f'<circle cx="{X(c):.1f}" cy="{Y(v):.1f}" r="3" fill="{col}"/>'
                    for c, v in pts]
        ly = T + 20 + i * 20
        out.append(f'<line x1="{W - R + 12}" y1="{ly}" x2="{W - R + 36}" y2="{ly}" '
                   f'stroke="{col}" stroke-width="2"{dash}/><text x="{W - R + 42}" '
                   f'y="{ly + 4}">{name}</text>')
    out.append("</svg>")
    with open(path, "w") as f:
        f.write("\n".join(out) + "\n")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--json")
    ap.add_argument("--markdown", help="write the machine line and the table (Markdown)")
    ap.add_argument("--plot", nargs="?", const=os.path.join(ROOT, "docs", "performance.svg"))
    ap.add_argument("--only", default="")
    ap.add_argument("--skip", default="")
    ap.add_argument("--rounds", type=int, default=2, help="HumanEval and MBPP rounds")
    ap.add_argument("--store-requests", type=int, default=300)
    ap.add_argument("--datasets", default="humaneval,mbpp", help="the corpus section's")
    a = ap.parse_args()
    only = [x for x in a.only.split(",") if x] or SECTIONS
    skip = [x for x in a.skip.split(",") if x]
    for x in only + skip:
        if x not in SECTIONS:
            ap.error(f"unknown section {x!r} (one of {', '.join(SECTIONS)})")
    if os.geteuid() != 0:
        print("run_all: skipped: cells need root", file=sys.stderr)
        return 77
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)  # 1,000 sockets in flight
    resource.setrlimit(resource.RLIMIT_NOFILE, (max(soft, min(hard, 65536)), hard))
    m = machine()
    print(f"machine: {m['cpu']}, {m['cores']} cores, {m['memory_gib']} GiB, kernel "
          f"{m['kernel']}, cgroup {m['cgroup']}, load {m['load'][0]:.2f}", flush=True)
    work = tempfile.mkdtemp(prefix="verdict-run-all-", dir="/var/tmp")
    failed = []
    t_all = time.monotonic()
    timing = {}
    try:
        for name in SECTIONS:
            if name not in only or name in skip:
                continue
            print(f"[{name}]", flush=True)
            t = time.monotonic()
            try:
                os.makedirs(os.path.join(work, name), exist_ok=True)
                globals()["sec_" + name](a, os.path.join(work, name))
            except Exception as e:  # a driver that failed: said, and the exit status is 1
                failed.append(name)
                row(name, f"{name}: did not run", "-", None, None, "", note=str(e)[:300])
            timing[name] = round(time.monotonic() - t, 1)
            print(f"  ({timing[name]} s)", flush=True)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    m["load_after"] = os.getloadavg()
    print()
    print(table())
    print(f"\n{time.monotonic() - t_all:.0f} s in all; sections {timing}")
    if a.json:
        with open(a.json, "w") as f:
            json.dump(dict(machine=m, quick=a.quick, rows=ROWS, plot=PLOT, seconds=timing,
                           failed=failed), f, indent=1)
    if a.markdown:
        with open(a.markdown, "w") as f:
            f.write(f"{m['at']}: {m['cpu']}, {m['cores']} cores, {m['memory_gib']} GiB, kernel "
                    f"{m['kernel']}, cgroup {m['cgroup']}, load average "
                    f"{m['load'][0]:.2f} before, {m['load_after'][0]:.2f} after; "
                    f"sections (s): {timing}\n\n{table()}\n")
    if a.plot:
        svg(a.plot)
        print(f"plot: {a.plot}")
    if failed:
        print("did not run: " + ", ".join(failed), file=sys.stderr)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
