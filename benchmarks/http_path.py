#!/usr/bin/python3
"""The HTTP path, measured side by side: a `verdict serve` on 127.0.0.1 driven by
benchmarks/loadgen (keep-alive HTTP/1.1, N connections, one request in flight each), against
the machine's own rate of posix_spawn + wait of the very binary the server runs, in the same
run. Prints one JSON document. It asserts no time: exit 1 only when the server did not start
or a figure got no answer or a wrong one (what ctest's tiny run checks, so that it does not rot).

  /v1/ping                       at each concurrency
  /run_code of a cached C program at each concurrency, and the CPU time it cost per request
                                 (the server and its cells, their jobs included) next to the
                                 CPU time of one posix_spawn + wait
  judging one program against T tests, three ways, in cases/s:
    one /v1/judge request per test (64 in flight), one /v1/judge of T tests (8 in flight),
    /v1/judge/batch of P programs of T tests each (2 in flight)

usage: http_path.py [--verdict BIN] [--languages DIR] [--loadgen BIN] [--cells N]
                    [--seconds S] [--conc 1,16,64,256] [--tests T] [--programs P] [--quick]
--quick: 1 s per figure, concurrencies 1 and 16 (what ctest runs so that it does not rot).
"""
import argparse
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import urllib.request

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)

C_PROGRAM = "#include <stdio.h>\nint main(void){puts(\"hi\");return 0;}\n"
SUM_PROGRAM = ("#include <stdio.h>\nint main(void){long a,b;if(scanf(\"%ld %ld\",&a,&b)!=2)"
               "return 1;printf(\"%ld\\n\",a+b);return 0;}\n")


def clock_ticks():
    return os.sysconf("SC_CLK_TCK")


def cpu_s(pid):
    """utime+stime+cutime+cstime of a process, seconds (0 when it is gone)."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
        return sum(int(x) for x in fields[11:15]) / clock_ticks()
    except OSError:
        return 0.0


def machine_busy_s():
    """CPU seconds the whole machine has spent busy (not idle, not waiting on I/O)."""
    with open("/proc/stat") as f:
        v = [int(x) for x in f.readline().split()[1:]]
    return (sum(v[:8]) - v[3] - v[4]) / clock_ticks()


def loadgen_cpu_s():
    """CPU seconds of the reaped children of this process (the load generator's runs)."""
    import resource
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def children(pid):
    out = []
    for d in os.listdir("/proc"):
        if d.isdigit():
            try:
                with open(f"/proc/{d}/stat") as f:
                    if int(f.read().rsplit(")", 1)[1].split()[1]) == pid:
                        out.append(int(d))
            except (OSError, ValueError, IndexError):
                pass
    return out


class Server:
    def __init__(self, verdict, languages, cells):
        self.dir = tempfile.mkdtemp(prefix="verdict-http-path-", dir="/var/tmp")
        self.proc = subprocess.Popen(
            [verdict, "serve", "--listen", "127.0.0.1:0", "--cells", str(cells),
             "--languages", languages, "--cache", self.dir + "/artifacts",
             "--db", self.dir + "/verdict.db"],
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        said, m = "", None
        for _ in range(100):
            line = self.proc.stderr.readline().decode()
            said += line
            m = re.search(r"serving on http://[\d.]+:(\d+)", line)
            if m or not line:
                break
        if not m:
            self.stop()
            raise SystemExit(f"server did not start: {said}")
        self.port = int(m.group(1))

    def cpu(self):
        """CPU seconds of the server and every cell (a cell's reaped jobs count in its own)."""
        return sum(self.cpu_split())

    def cpu_split(self):
        """(the server process's CPU seconds, its cells' with their jobs')."""
        return cpu_s(self.proc.pid), sum(cpu_s(c) for c in children(self.proc.pid))

    def post(self, path, body):
        req = urllib.request.Request(f"http://127.0.0.1:{self.port}{path}",
                                     data=json.dumps(body).encode(), method="POST",
                                     headers={"Content-Type": "application/json"})
        with urllib.request.urlopen(req, timeout=120) as r:
            return r.read().decode()

    def stop(self):
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(timeout=60)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        shutil.rmtree(self.dir, ignore_errors=True)


def loadgen(binary, *args):
    out = subprocess.run([binary, *map(str, args)], capture_output=True, text=True, timeout=600)
    line = out.stdout.strip().splitlines()[-1] if out.stdout.strip() else ""
    try:
        return json.loads(line)
    except json.JSONDecodeError:  # the figure is broken: say which and why
        args = [str(a) for a in args]
        label = args[args.index("--label") + 1] if "--label" in args else " ".join(args[:2])
        return {"label": label, "errors": 1,
                "error": f"loadgen exited {out.returncode}: {out.stderr.strip()[-300:]}"}


def self_cpu():
    t = os.times()
    return t.children_user + t.children_system


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--verdict", default=os.environ.get("VERDICT_BIN",
                                                        f"{ROOT}/build/release/verdict"))
    ap.add_argument("--languages", default=os.environ.get("VERDICT_LANGUAGES",
                                                          f"{ROOT}/languages"))
    ap.add_argument("--loadgen", default=None)
    ap.add_argument("--cells", type=int, default=16)
    ap.add_argument("--seconds", type=float, default=5)
    ap.add_argument("--conc", default="1,16,64,256")
    ap.add_argument("--tests", type=int, default=50)
    ap.add_argument("--programs", type=int, default=8)
    ap.add_argument("--quick", action="store_true")
    a = ap.parse_args()
    if a.quick:
        a.seconds, a.conc, a.tests, a.programs = 1, "1,16", 10, 2
    lg = a.loadgen or os.path.join(os.path.dirname(a.verdict), "benchmarks", "loadgen")
    concs = [int(c) for c in a.conc.split(",")]
    secs = a.seconds
    srv = Server(a.verdict, a.languages, a.cells)
    tmp = tempfile.mkdtemp(prefix="verdict-http-path-bodies-")
    doc = {"machine": {"cpus": os.cpu_count(), "load_before": os.getloadavg()[0]},
           "seconds_per_figure": secs, "cells": a.cells}
    try:
        def body_file(name, body):
            path = os.path.join(tmp, name)
            with open(path, "w") as f:
                json.dump(body, f)
            return path

        run_c = body_file("run_c.json", {"language": "c", "code": C_PROGRAM})
        first = json.loads(srv.post("/run_code", {"language": "c", "code": C_PROGRAM}))
        doc["first_compile_cached"] = first["compile_result"]["cached"]
        binary = None
        for dirpath, _, files in os.walk(srv.dir + "/artifacts"):
            for f in files:
                p = os.path.join(dirpath, f)
                if not f.startswith(".") and os.access(p, os.X_OK):
                    binary = p
        http = [lg, "http", "--port", srv.port, "--seconds", secs]
        ping, run = [], []
        for c in concs:
            ping.append(loadgen(*http, "--conns", c, "--label", f"ping {c}"))
        for c in concs:
            # Unmeasured first: the pool grows to the load (a cell starts in ~20 ms of CPU),
            # and a figure should be the steady state, not the growth.
            loadgen(*http, "--conns", c, "--method", "POST", "--path", "/run_code",
                    "--body-file", run_c, "--seconds", min(secs, 2), "--label", "warm-up")
            before = srv.cpu_split() + (machine_busy_s(), loadgen_cpu_s())
            r = loadgen(*http, "--conns", c, "--method", "POST", "--path", "/run_code",
                        "--body-file", run_c, "--expect", '"status":"Success"',
                        "--label", f"run_code c {c}")
            n = r.get("requests", 0) + r.get("errors", 0)
            after = srv.cpu_split() + (machine_busy_s(), loadgen_cpu_s())
            if n:
                # Where the machine's CPU went per request: the server process, its cells with
                # the jobs they reaped, the load generator, and the whole machine (the rest is
                # the kernel's work outside those processes' accounts, and anything else).
                for k, key in enumerate(("server", "cells", "machine", "loadgen")):
                    r[f"{key}_cpu_ms_per_request"] = round((after[k] - before[k]) * 1e3 / n, 3)
            run.append(r)
        spawn = []
        for c in sorted({os.cpu_count() or 1, 64} & set(range(1, 65)) | {1}):
            before = self_cpu()
            s = loadgen(lg, "spawn", "--program", binary, "--conns", c, "--seconds", secs,
                        "--label", f"posix_spawn {c}")
            n = s.get("requests", 0) + s.get("errors", 0)
            s["cpu_ms_per_spawn"] = round((self_cpu() - before) * 1e3 / n, 3) if n else None
            spawn.append(s)
        best_spawn = max((s.get("rps", 0) for s in spawn), default=0)
        doc["ping"] = ping
        doc["run_code_c"] = run
        doc["posix_spawn"] = spawn
        doc["run_code_vs_spawn"] = {
            str(r["conns"]): round(r["rps"] / best_spawn, 3) for r in run
            if best_spawn and "rps" in r}

        # Judging one program against T tests, three ways.
        tests = [{"stdin": f"{i} {i + 1}", "expected": str(2 * i + 1)} for i in range(a.tests)]
        one = body_file("judge_one.json", {"language": "c", "code": SUM_PROGRAM,
                                           "tests": tests[:1]})
        many = body_file("judge_many.json", {"language": "c", "code": SUM_PROGRAM,
                                             "tests": tests})
        batch = body_file("judge_batch.json", {"items": [
            {"id": p, "language": "c", "code": SUM_PROGRAM, "tests": tests[p:] + tests[:p]}
            for p in range(a.programs)]})  # distinct items: a batch judges identical ones once
        srv.post("/v1/judge", {"language": "c", "code": SUM_PROGRAM, "tests": tests[:1]})
        judge = {}
        for name, path, conns, cases in (
                ("one_request_per_test", one, 64, 1),
                ("one_judge_of_T_tests", many, 8, a.tests),
                ("batch_of_P_programs", batch, 2, a.tests * a.programs)):
            before = srv.cpu()
            r = loadgen(*http, "--conns", conns, "--method", "POST",
                        "--path", "/v1/judge/batch" if name.startswith("batch") else "/v1/judge",
                        "--body-file", path, "--label", name, "--warmup", 0,
                        "--expect", '"status":"OK"')
            n = (r.get("requests", 0) + r.get("errors", 0)) * cases
            r["cases_per_request"] = cases
            r["cases_per_s"] = round(r.get("rps", 0) * cases, 1)
            r["server_cpu_ms_per_case"] = round((srv.cpu() - before) * 1e3 / n, 3) if n else None
            judge[name] = r
        doc["judge"] = judge
        doc["judge_tests"] = a.tests
        doc["judge_programs"] = a.programs
        doc["machine"]["load_after"] = os.getloadavg()[0]
    finally:
        srv.stop()
        shutil.rmtree(tmp, ignore_errors=True)
    json.dump(doc, sys.stdout, indent=1)
    print()
    figures = doc.get("ping", []) + doc.get("run_code_c", []) + doc.get("posix_spawn", []) + \
        list(doc.get("judge", {}).values())
    broken = [f.get("label") for f in figures if not f.get("requests") or f.get("errors")]
    if broken or len(figures) < 3:
        why = [f.get("error") for f in figures if f.get("error")]
        print(f"http_path: no answer, or a wrong one, in {broken} {why}", file=sys.stderr)
        sys.exit(1)


if __name__ == "__main__":
    main()
