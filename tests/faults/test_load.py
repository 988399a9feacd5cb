"""The server under load: its queue exhausted, SIGTERM, and SIGKILL then a restart.

Every request the server accepted is answered with its real verdict (or, killed, cut: never
a wrong answer); a refusal is 503 with Retry-After and a JSON body; nothing is left behind
(cells, their jobs, verdict's cgroup trees, mounts). Every wait is bounded, no time asserted.
Behind a balancer the same faults are tests/deploy/test_replicas.py's."""
import concurrent.futures
import json
import os
import shutil
import signal
import tempfile

import requests

from conftest import (Server, alive, cell_pids, describe, health, jobs, mount_namespaces,
                      mounts_naming, namespace_holders, need_root, server_cgroups, wait_for)


def sleeper(i, seconds):
    """Distinct programs (identical batch items would be judged once)."""
    return f"import time\ntime.sleep({seconds})\nprint({i})"


def judge(url, i, seconds, timeout=120):
    return requests.post(url + "/v1/judge", timeout=timeout, json={
        "code": sleeper(i, seconds), "language": "python",
        "tests": [{"stdin": "", "expected": str(i)}]})


def run_code(url, i, seconds, timeout=120):
    return requests.post(url + "/run_code", timeout=timeout, json={
        "code": sleeper(i, seconds), "language": "python", "run_timeout": 30})


def batch(url, ids, seconds, timeout=120, lines=None):
    """A streamed batch: its NDJSON lines, by id; each also appended to `lines` (a list) as
    it arrives."""
    items = [{"id": i, "code": sleeper(i, seconds), "language": "python",
              "tests": [{"stdin": "", "expected": str(i)}]} for i in ids]
    lines = [] if lines is None else lines
    with requests.post(url + "/v1/judge/batch", json={"items": items}, timeout=timeout,
                       stream=True) as r:
        assert r.status_code == 200, r.text
        for line in r.iter_lines():
            if line:
                lines.append(json.loads(line))
    return {l["id"]: l for l in lines}


def judged_right(r):
    assert r.status_code == 200, r.text
    body = r.json()
    assert body["status"] == "OK" and body["reward"] == 1, body
    return True


def busy(r):
    """A refusal as the API promises it: 503, Retry-After, a JSON body saying why."""
    assert r.status_code == 503, r.text
    assert r.headers["Retry-After"] == "1" and r.headers["Content-Type"].startswith(
        "application/json"), r.headers
    assert "busy" in r.json()["detail"], r.text
    return True


def in_flight(s):
    q = health(s)["queue"]
    return q["queued"] + q["running"]


def test_queue_exhausted_answers_503_and_every_accepted_request():
    need_root()
    s = Server(cells=1, extra=("--queue", "4"))
    try:
        n = 16  # 1 s each on one cell: at most 1 running and 4 waiting at any moment
        with concurrent.futures.ThreadPoolExecutor(n) as ex:
            answers = list(ex.map(lambda i: judge(s.url, i, 1), range(n)))
        refused = [r for r in answers if r.status_code != 200]
        assert all(busy(r) for r in refused)
        assert all(judged_right(r) for r in answers if r.status_code == 200)
        assert refused and len(refused) < n, [r.status_code for r in answers]
        # A batch larger than the queue: an item that did not fit is a `busy` line, the others
        # are judged; every item has its line.
        lines = batch(s.url, range(100, 110), 0.2)
        assert sorted(lines) == list(range(100, 110))
        done = [l for l in lines.values() if "result" in l]
        assert all(l["error"]["type"] == "busy" for l in lines.values() if "result" not in l)
        assert done and all(l["result"]["reward"] == 1 for l in done), lines
        wait_for("the queue to drain", lambda: in_flight(s) == 0, timeout=60)
        print(f"queue 4: {len(refused)} of {n} requests refused, {10 - len(done)} of 10 items busy")
    finally:
        code, left = s.stop()
    assert code == 0 and not left


def test_sigterm_under_load_answers_everything_accepted_then_exits_clean():
    need_root()
    s = Server(cells=3)
    pid = s.proc.pid
    try:
        with concurrent.futures.ThreadPoolExecutor(16) as ex:
            runs = [ex.submit(run_code, s.url, i, 3) for i in range(6)]
            judged = [ex.submit(judge, s.url, 10 + i, 3) for i in range(2)]
            lines = []
            streamed = ex.submit(batch, s.url, range(20, 24), 3, lines=lines)

            def accepted():  # answered already, or held by the server (counted in that order)
                answered = sum(f.done() for f in runs + judged) + len(lines)
                return answered + in_flight(s) >= 12
            wait_for("all 12 jobs accepted", accepted, timeout=60)
            # accepted is not yet running: a job held in the queue or a cell still starting its
            # program shows no process, so the snapshot is taken when one runs (a loaded host
            # widens that moment: ASan's build beside another suite)
            seen = {}

            def running():
                seen["cells"] = cell_pids(pid)
                seen["programs"] = set(jobs(seen["cells"]))
                return seen["programs"]
            wait_for("a program running in a cell", running, timeout=60)
            cells, programs = seen["cells"], seen["programs"]
            cgroups = server_cgroups(pid)
            namespaces = mount_namespaces(cells) - mount_namespaces([os.getpid()])
            assert cgroups and programs and namespaces, (cgroups, programs, namespaces)
            s.proc.send_signal(signal.SIGTERM)

            def refused():  # a new connection: refused at once (the listening socket is shut)
                try:
                    requests.get(s.url + "/healthz", timeout=10)
                    return False
                except requests.ConnectionError:
                    return True
            wait_for("new connections to be refused", refused, timeout=30)
            for i, f in enumerate(runs):
                r = f.result()
                assert r.status_code == 200, r.text
                assert r.json()["run_result"]["stdout"] == f"{i}\n", r.text
            assert all(judged_right(f.result()) for f in judged)
            got = streamed.result()
            assert sorted(got) == list(range(20, 24))
            assert all(l["result"]["reward"] == 1 for l in got.values()), got
        assert s.proc.wait(timeout=120) == 0
        cells |= cell_pids(pid)
        wait_for("its cells and their programs to end", lambda: not alive(cells | programs), 30)
        assert not [d for d in cgroups if os.path.isdir(d)], "cgroups outlived the server"
        assert not namespace_holders(namespaces), "the cells' mounts outlived them"
        assert not mounts_naming(s.cache)
    finally:
        if s.proc.poll() is None:
            s.stop()
        shutil.rmtree(s.cache, ignore_errors=True)


def test_kill_9_under_load_then_a_restart_on_the_same_db_and_cache():
    need_root()
    d = tempfile.mkdtemp(prefix="verdict-faults-kill-", dir="/var/tmp")
    shared = ("--db", d + "/verdict.db", "--cache", d + "/artifacts")
    c_prog = '#include <stdio.h>\nint main(void){puts("kept");}'
    s = Server(cells=2, extra=shared)
    try:
        assert s.run_code(code=c_prog, language="c")["run_result"]["stdout"] == "kept\n"
        pid = s.proc.pid
        with concurrent.futures.ThreadPoolExecutor(12) as ex:
            pending = [ex.submit(run_code, s.url, i, 5) for i in range(4)]
            pending += [ex.submit(judge, s.url, 10 + i, 5) for i in range(2)]
            pending += [ex.submit(lambda i=i: requests.post(s.url + "/run_code", timeout=120, json={
                "code": f'#include <stdio.h>\nint main(void){{printf("%d\\n", {i});}}',
                "language": "c"})) for i in range(4)]  # compiles, cut mid-way or not
            pending.append(ex.submit(batch, s.url, range(20, 24), 5))
            wait_for("jobs to run", lambda: len(jobs(cell_pids(pid))) >= 2, timeout=60)
            cgroups = server_cgroups(pid)
            cells = cell_pids(pid)
            programs = set(jobs(cells))
            namespaces = mount_namespaces(cells) - mount_namespaces([os.getpid()])
            assert cgroups and programs and namespaces, (cgroups, programs, namespaces)
            left = s.kill()  # SIGKILL: nothing stopped in order
            assert not left, f"cells outlived the killed server: {left}"
            for f in pending:  # each ends, never hangs: cut, or answered right before the kill
                try:
                    r = f.result()
                except (requests.RequestException, ValueError):
                    continue
                if isinstance(r, dict):  # a whole batch
                    assert all(l["result"]["reward"] == 1 for l in r.values()), r
                else:
                    assert r.status_code == 200, r.text
                    assert r.json()["status"] in ("Success", "OK"), r.text
        wait_for("the killed server's programs to end", lambda: not alive(programs), 30)
        try:  # a process's exit under load (a cell's mounts torn down with it) may take a while
            wait_for("the killed cells' mounts to go", lambda: not namespace_holders(namespaces),
                     90)
        except AssertionError as e:
            raise AssertionError(f"{e}: held by {describe(namespace_holders(namespaces))}")
        stale = [g for g in cgroups if os.path.isdir(g)]
        print(f"cgroups left by the killed server until the next start: {len(stale)}")

        s = Server(cells=2, extra=shared)  # the same store and cache
        assert not [g for g in cgroups if os.path.isdir(g)], "the new server did not sweep them"
        assert not [n for n in os.listdir(d + "/artifacts") if f".tmp.{pid}" in n]
        r = s.run_code(code=c_prog, language="c")
        assert r["compile_result"]["cached"] is True and r["run_result"]["stdout"] == "kept\n"
        assert judged_right(judge(s.url, 99, 0))
        assert health(s)["status"] == "ok" and not mounts_naming(d)
    finally:
        code, left = s.stop()
        shutil.rmtree(d, ignore_errors=True)
    assert code == 0 and not left
