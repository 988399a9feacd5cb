"""Two real verdict replicas behind Debian's nginx with docker/nginx's config: a mixed load is
answered exactly and spread over both; a replica stopped with SIGTERM mid-run or killed with
SIGKILL mid-run loses no request that docker/nginx/README.md ("Retries") says survives, and
the ones it says may fail fail only as it says. Every wait is bounded; no time is asserted."""
import concurrent.futures
import json
import logging
import os
import signal
import time

import pytest
import requests

import conftest

C_ADD = '#include <stdio.h>\nint main(void){int a,b;scanf("%d %d",&a,&b);printf("%d\\n",a+b);}'
C_BROKEN = "int main(void) { return 0 }"
PY_ADD = "a, b = map(int, input().split())\nprint(a + b)"
PY_OFF_BY_ONE = "a, b = map(int, input().split())\nprint(a + b + 1)"
PY_SPIN = "while True:\n    pass"
TESTS = [{"stdin": "1 2", "expected": "3"}, {"stdin": "20 22", "expected": "42"}]
JUDGED = ("/run_code", "/v1/judge", "/v1/judge/batch")


def start_replicas(n, ports=None):
    """n replicas (2 cells each) started side by side; ports: fixed ports (a replacement)."""
    with concurrent.futures.ThreadPoolExecutor(n) as ex:
        futures = [ex.submit(conftest.api.Server, cells=2,
                             listen=f"127.0.0.1:{ports[i] if ports else 0}") for i in range(n)]
        started, failed = [], None
        for f in futures:
            try:
                started.append(f.result())
            except Exception as e:  # noqa: BLE001 (the others are stopped, then it is raised)
                failed = e
    if failed:
        for s in started:
            s.stop()
        raise failed
    return started


def address(server):
    return server.url.split("//", 1)[1]


class Cluster:
    def __init__(self):
        self.replicas = start_replicas(2)
        self.cgroups = {s.proc.pid: conftest.server_cgroups(s.proc.pid) for s in self.replicas}
        try:
            self.lb = conftest.Balancer([address(s) for s in self.replicas])
        except BaseException:
            self.stop()
            raise

    def add(self, server):
        self.replicas.append(server)
        self.cgroups[server.proc.pid] = conftest.server_cgroups(server.proc.pid)

    def stop(self):
        """Everything the test started ends; returns what outlived it (cells, cgroups)."""
        if getattr(self, "lb", None):
            self.lb.stop()
        left = []
        for s in self.replicas:
            if s.proc.poll() is None:
                code, cells = s.stop()
                left += [f"replica {s.url} exited {code}"] if code else []
                left += [f"cells {cells}"] if cells else []
            else:
                s.kill()  # reaped already; removes its temp dir
        for s in self.replicas:
            dirs = [d for d in self.cgroups[s.proc.pid] if os.path.isdir(d)]
            if s.proc.returncode == 0:
                left += dirs  # a server stopped in order removes its own
            else:
                remove_cgroups(dirs)  # killed, and none started after it to sweep them
        return left


def remove_cgroups(dirs):
    """The cgroup trees of a killed replica (its own "verdict-<pid>" directories only, and
    their empty children), deepest first; the kernel refuses any that still holds a task."""
    for top in dirs:
        for d, _, _ in os.walk(top, topdown=False):
            try:
                os.rmdir(d)
            except OSError:
                pass


@pytest.fixture
def cluster():
    conftest.need_root_and_nginx()
    c = Cluster()
    yield c
    left = c.stop()
    assert not left, f"outlived the test: {left}"


# ---- requests and their exact answers ---------------------------------------------------------

def run_code(url, code, language, stdin="", run_timeout=10, client=None):
    """POST /run_code; returns (HTTP status, body as JSON or text)."""
    r = requests.post(url + "/run_code", timeout=120,
                      headers={"X-Verdict-Client": client} if client else {},
                      json={"code": code, "language": language, "stdin": stdin,
                            "run_timeout": run_timeout})
    return r.status_code, (r.json() if r.status_code == 200 else r.text)


def judge(url, body, client=None):
    r = requests.post(url + "/v1/judge", json=body, timeout=120,
                      headers={"X-Verdict-Client": client} if client else {})
    return r.status_code, (r.json() if r.status_code == 200 else r.text)


def verdicts(result):
    """What /v1/judge answers of a program, in short: (status, reward, each test's verdict)."""
    return result["status"], result["reward"], [t["verdict"] for t in result["tests"]]


def batch_items(tag, sleeps=()):
    """Items of every outcome (expected answer beside each); sleeps: extra Python items that
    sleep that long, then pass."""
    items = [
        ({"language": "c", "code": C_ADD, "tests": TESTS}, ("OK", 1, ["OK", "OK"])),
        ({"language": "python", "code": PY_ADD, "tests": TESTS}, ("OK", 1, ["OK", "OK"])),
        ({"language": "python", "code": PY_OFF_BY_ONE, "tests": TESTS}, ("OK", 0, ["WA", "WA"])),
        ({"language": "python", "code": PY_SPIN, "tests": TESTS[:1], "limits": {"time_ms": 300}},
         ("OK", 0, ["TLE"])),
        ({"language": "c", "code": C_BROKEN, "tests": TESTS}, ("CE", 0, [])),
    ]
    for k, s in enumerate(sleeps):  # each its own job (identical items are judged once)
        code = f"import time  # sleeper {k}\ntime.sleep({s})\n" + PY_ADD
        items.append(({"language": "python", "code": code, "tests": TESTS[:1]}, ("OK", 1, ["OK"])))
    return {f"{tag}{i}": (dict(item, id=f"{tag}{i}"), want) for i, (item, want) in enumerate(items)}


def read_batch(url, items, seen=None):
    """One POST /v1/judge/batch, read as it streams: (status, lines by id, the error that cut the
    stream or None). seen: a list the ids are appended to as their lines come."""
    lines, cut = {}, None
    try:
        r = requests.post(url + "/v1/judge/batch", json={"items": items}, stream=True,
                          timeout=120)
        if r.status_code != 200:
            return r.status_code, lines, None
        for raw in r.iter_lines():
            if raw:
                line = json.loads(raw)
                lines[line["id"]] = line
                if seen is not None:
                    seen.append(line["id"])
    except requests.RequestException as e:  # a cut stream: ChunkedEncodingError
        cut = e
    return 200, lines, cut


def judge_batch(url, items, seen=None, tries=3):
    """A batch as a client should send it through the balancer: the items answered "busy" (the
    replica could not queue them: full, or stopping) and those with no line (the stream was
    cut with its replica) are sent again, up to `tries` requests in all. Returns (lines by id,
    one (status, ids answered, busy ids, cut) per request). seen: read_batch's, for the first
    request."""
    final, attempts, todo = {}, [], list(items)
    for _ in range(tries):
        status, lines, cut = read_batch(url, todo, seen if not attempts else None)
        busy = sorted(i for i, l in lines.items() if l.get("error", {}).get("type") == "busy")
        attempts.append((status, sorted(lines), busy, cut))
        final.update({i: l for i, l in lines.items() if i not in busy})
        todo = [it for it in items if it["id"] not in final]
        if not todo:
            break
        time.sleep(1)  # verdict's Retry-After
    return final, attempts


def check_batch(lines, expected):
    assert sorted(lines) == sorted(expected), f"answered {sorted(lines)}"
    for i, (_, want) in expected.items():
        assert "result" in lines[i], lines[i]
        assert verdicts(lines[i]["result"]) == want, (i, lines[i])


def sleeper(i, seconds):
    """/run_code that sleeps, then prints i: (its arguments, the stdout expected)."""
    return (f"import time\ntime.sleep({seconds})\nprint({i})", "python"), f"{i}\n"


def check_run_code(answer, stdout):
    status, body = answer
    assert status == 200, body
    assert body["status"] == "Success" and body["run_result"]["stdout"] == stdout, body


def in_flight(server):
    """Requests a replica is judging or has queued (a batch: one per item), from its /healthz."""
    q = server.get_json("/healthz")["queue"]
    return q["running"] + q["queued"]


def send_until_one_reaches(ex, url, victim, batch, seen, seconds):
    """Sends /run_code requests sleeping `seconds` one by one until one is on `victim` beside the
    batch it streams (its requests in flight past the batch's unanswered items; the lines are
    counted first, so an item ending between the two reads counts against, never for).
    Returns [(future, stdout expected)]."""
    sent = []
    for i in range(12):  # least_conn sends one at least every other request to each replica
        sent.append((ex.submit(run_code, url, *sleeper(i, seconds)[0]), sleeper(i, seconds)[1]))
        end = time.monotonic() + 2
        while time.monotonic() < end:
            unanswered = len(batch) - len(seen)
            if in_flight(victim) > unanswered:
                return sent
            time.sleep(0.05)
    raise AssertionError("no /run_code reached the replica streaming the batch")


def stopping(session, server):
    """Whether a replica's /healthz says it is draining (503, "stopping"), asked on a
    connection the session opened before: a stopping replica refuses new ones."""
    r = session.get(server.url + "/healthz", timeout=10)
    return r.status_code == 503 and r.json()["status"] == "stopping"


def wait_for(cond, what, seconds=60):
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if cond():
            return
        time.sleep(0.05)
    raise AssertionError(f"timed out waiting for {what}")


def resent(lb, victim):
    """Access log lines of requests nginx sent to two replicas: (request, upstream statuses),
    checked to be the victim's failure, then the other's answer."""
    out = []
    for line in lb.access_log():
        request, rest = line.split(" up=", 1)
        ups, statuses = rest.split(" ups=", 1)
        ups = ups.split(", ")
        statuses = statuses.rsplit(" t=", 1)[0].split(", ")
        if len(ups) > 1:
            out.append((request, statuses))
            assert ups[0] == address(victim) and ups[1] != ups[0], line
            assert statuses[0] in ("502", "503") and statuses[1] == "200", line
    return out


# ---- the tests -------------------------------------------------------------------------------

def test_mixed_load_spreads_over_replicas(cluster):
    """Every kind of answer through the balancer, exactly; both replicas serve; each request
    reached exactly one replica; the trainer's X-Verdict-Client reaches the replica, and a
    request without one is its client's address."""
    url = cluster.lb.url
    run_codes = [
        ((C_ADD, "c", "20 22"), ("Success", "Finished", "42\n")),
        (("print(int(input()) * 2)", "python", "21"), ("Success", "Finished", "42\n")),
        ((PY_SPIN, "python", "", 0.3), ("Failed", "TimeLimitExceeded", "")),
    ]
    judges = [({"language": "python", "code": PY_ADD, "tests": TESTS}, ("OK", 1, ["OK", "OK"])),
              ({"language": "python", "code": PY_OFF_BY_ONE, "tests": TESTS},
               ("OK", 0, ["WA", "WA"])),
              ({"language": "c", "code": C_BROKEN, "tests": TESTS}, ("CE", 0, []))]
    batch = batch_items("m")
    with concurrent.futures.ThreadPoolExecutor(8) as ex:
        rc = [(ex.submit(run_code, url, *args, client="deploy-test" if k else None), want)
              for k in range(2) for args, want in run_codes]
        jd = [(ex.submit(judge, url, body, "deploy-test"), want) for _ in range(2)
              for body, want in judges]
        bt = [ex.submit(judge_batch, url, [item for item, _ in batch.values()])
              for _ in range(2)]
        for f, (status, run_status, stdout) in rc:
            code, body = f.result()
            assert code == 200, body
            assert body["status"] == status and body["run_result"]["status"] == run_status, body
            assert body["run_result"]["stdout"] == stdout, body
        for f, want in jd:
            code, body = f.result()
            assert code == 200 and verdicts(body) == want, body
        for f in bt:
            lines, attempts = f.result()
            assert len(attempts) == 1 and attempts[0][3] is None, attempts  # whole, first time
            check_batch(lines, batch)
    sent = len(rc) + len(jd) + len(bt)
    counts = [conftest.requests_by_route(s) for s in cluster.replicas]
    served = [sum(c.get(r, 0) for r in JUDGED) for c in counts]
    assert all(served), f"a replica served nothing: {counts}"
    assert sum(served) == sent, f"{sent} sent, replicas answered {served}"

    def labels():  # the stores' writers commit within moments of the answers
        subs = [s.get_json("/v1/submissions?limit=100")["submissions"] for s in cluster.replicas]
        return {x["label"] for sub in subs for x in sub}

    wait_for(lambda: labels() == {"deploy-test", "127.0.0.1"}, "the submissions' clients", 10)
    assert not [l for l in cluster.lb.access_log() if " 200 " not in l], cluster.lb.access_log()


def test_replica_stopped_mid_run(cluster):
    """SIGTERM to the replica streaming a batch, with /run_code requests in flight on both and
    more sent while it drains: the stream ends whole and its /run_code requests are answered;
    what reached it after the signal is resent by nginx and answered by the other (refused
    on a new connection: its listening socket is shut at once; 503 on a kept one, a batch
    too, whole), and its /healthz says 503 "stopping" while it drains."""
    url = cluster.lb.url
    batch = batch_items("t", sleeps=(3, 3, 3))
    seen = []
    with concurrent.futures.ThreadPoolExecutor(16) as ex:
        fb = ex.submit(judge_batch, url, [item for item, _ in batch.values()], seen)
        wait_for(lambda: any(in_flight(s) for s in cluster.replicas), "the batch to run")
        victim, other = sorted(cluster.replicas, key=lambda s: -in_flight(s))
        before = send_until_one_reaches(ex, url, victim, batch, seen, 2)
        victim.cells |= conftest.api.cell_pids(victim.proc.pid)  # those started on demand
        kept = requests.Session()
        assert not stopping(kept, victim)
        victim.proc.send_signal(signal.SIGTERM)
        wait_for(lambda: stopping(kept, victim), "its /healthz to say stopping", 30)
        with pytest.raises(requests.ConnectionError):  # a new connection: refused at once
            requests.get(victim.url + "/healthz", timeout=10)
        # each stays on its replica a second: least_conn then sends some to the stopping one
        after = [(ex.submit(run_code, url, *sleeper(100 + i, 1)[0]), sleeper(100 + i, 1)[1])
                 for i in range(6)]
        late = batch_items("u")
        fl = ex.submit(judge_batch, url, [item for item, _ in late.values()])
        lines, attempts = fb.result()
        assert len(attempts) == 1 and attempts[0][3] is None, attempts  # whole, first time
        check_batch(lines, batch)
        for f, stdout in before + after:
            check_run_code(f.result(), stdout)
        lines, attempts = fl.result()
        check_batch(lines, late)
        assert all(cut is None for *_, cut in attempts), attempts
    assert victim.proc.wait(timeout=120) == 0
    wait_for(lambda: not conftest.api.alive(victim.cells), "its cells to end", 10)
    assert not [d for d in cluster.cgroups[victim.proc.pid] if os.path.isdir(d)]
    again = resent(cluster.lb, victim)
    print(f"resent by nginx: {again}; late batch: {attempts}")
    assert again, "no request reached the stopping replica: nothing was resent"
    assert all(r.split()[1] in JUDGED for r, _ in again), again


def test_replica_killed_mid_run(cluster):
    """SIGKILL to the replica streaming a batch, with /run_code requests in flight on it: those
    were sent and cut before any answer, so nginx resends them to the other (non_idempotent)
    and they are answered; the batch's answer had begun, so its stream ends cut after the
    lines sent and the client resends the items without a line; requests after the kill go
    to the other. A replacement on the same address removes the dead one's cgroups and gets
    requests again."""
    url = cluster.lb.url
    batch = batch_items("k", sleeps=(5, 5, 5))
    seen = []
    with concurrent.futures.ThreadPoolExecutor(16) as ex:
        fb = ex.submit(judge_batch, url, [item for item, _ in batch.values()], seen)
        wait_for(lambda: seen, "a line of the batch")
        victim, other = sorted(cluster.replicas, key=lambda s: -in_flight(s))
        before = send_until_one_reaches(ex, url, victim, batch, seen, 3)
        dirs = cluster.cgroups[victim.proc.pid]
        assert dirs, "the replica made no cgroups"
        left = victim.kill()
        assert not left, f"cells outlived their server: {left}"
        after = [(ex.submit(run_code, url, *sleeper(100 + i, 0)[0]), sleeper(100 + i, 0)[1])
                 for i in range(4)]
        lines, attempts = fb.result()
        check_batch(lines, batch)
        assert attempts[0][0] == 200 and attempts[0][3] is not None, attempts  # cut
        assert attempts[0][1] and len(attempts) == 2 and attempts[1][3] is None, attempts
        assert set(attempts[0][1]) | set(attempts[1][1]) == set(batch), attempts
        for f, stdout in before + after:
            check_run_code(f.result(), stdout)
    again = resent(cluster.lb, victim)
    print(f"resent by nginx: {again}; batch: {attempts}")
    assert any(r.startswith("POST /run_code") and s[0] == "502" for r, s in again), again
    # Its cells are gone (PDEATHSIG); its cgroups stay until a server starts beside them.
    stale = [d for d in dirs if os.path.isdir(d)]
    print(f"cgroups left by the killed replica: {stale}")
    port = int(victim.url.rsplit(":", 1)[1])
    back = start_replicas(1, [port])[0]
    cluster.add(back)
    assert not [d for d in dirs if os.path.isdir(d)], "a new server did not remove them"
    served = {}
    for i in range(60):  # nginx tries it again once its fail_timeout (5 s) has passed
        check_run_code(run_code(url, *sleeper(i, 0)[0]), f"{i}\n")
        served = conftest.requests_by_route(back)
        if served.get("/run_code"):
            break
        time.sleep(0.25)
    assert served.get("/run_code"), "the replacement got no request"


def test_no_replica_left_is_a_retryable_503():
    """Every replica refusing: the client hears what one busy verdict says (503 and
    Retry-After), not nginx's 502, so that its usual retry applies."""
    conftest.need_root_and_nginx()
    lb = conftest.Balancer([f"127.0.0.1:{conftest.free_port()}" for _ in range(2)], ready=503)
    try:
        for _ in range(2):  # refused by both, then both marked failed
            r = requests.post(lb.url + "/run_code", json={"code": "print(1)",
                                                          "language": "python"}, timeout=60)
            assert r.status_code == 503 and r.headers["Retry-After"] == "1", r.text
            assert "retry" in r.json()["detail"]
    finally:
        lb.stop()


def test_trl_reward_through_a_killed_replica(cluster, caplog):
    """The TRL reward function (examples/trl) through the balancer, its replica SIGKILLed while
    the batch streams: the items the cut stream left without a line are sent again (to the
    other replica) and every completion gets its right reward."""
    trl = conftest.load_example("trl/verdict_reward.py")
    reward = trl.make_verdict_reward(url=cluster.lb.url, timeout=120)
    n = 6
    completions = [f"```python\nimport time  # completion {i}\ntime.sleep(2)\n{PY_ADD}\n```"
                   if i % 3 else f"```python\n{PY_OFF_BY_ONE}  # completion {i}\n```"
                   for i in range(n)]
    with concurrent.futures.ThreadPoolExecutor(1) as ex:
        with caplog.at_level(logging.WARNING, logger="verdict_reward"):
            fut = ex.submit(reward, completions, tests=[TESTS] * n)
            wait_for(lambda: max(in_flight(s) for s in cluster.replicas) >= n // 2,
                     "the batch to be queued on a replica")
            victim = max(cluster.replicas, key=in_flight)
            assert not victim.kill(), "cells outlived their server"
            got = fut.result(timeout=300)
    assert got == [0.0 if i % 3 == 0 else 1.0 for i in range(n)], got
    said = [r.getMessage() for r in caplog.records]
    assert any("sending them again" in m for m in said), said
