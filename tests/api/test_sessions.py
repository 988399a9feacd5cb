"""Sessions (/v1/sessions) against a real server: state kept across calls (Python's names,
imports, functions, files; a compiled language's files), each call's display, output and
stdin, errors and timeouts that keep the state and those that lose it, the session's limits
(memory, a call's memory, CPU, idle, lifetime), DELETE, the open-session bound, one call at a
time, a server restart, ids and bodies refused, isolation between sessions and hostile code
inside one (fork bomb, kill(-1), writes outside, secrets, network) contained, nothing of a
closed session left running, and the metrics."""
import base64
import contextlib
import re
import shutil
import tempfile
import threading
import time
import uuid

import pytest
import requests

from conftest import (Server, alive, cell_pids, cgroup_procs, host_pids_with, needs_root,
                      wait_for)
from test_metrics import scrape

ID = re.compile(r"[0-9a-f]{40}")
DEFAULTS = {"memory_mb": 512, "cpu_ms": 600000, "pids": 64, "call_memory_mb": 512,
            "call_time_ms": 10000, "call_wall_ms": 30000, "idle_ms": 300000,
            "lifetime_ms": 3600000}
STATUS = {"OK": "Success", "SE": "SandboxError"}


def b64(s):
    return base64.b64encode(s.encode()).decode()


@pytest.fixture(scope="module")
def srv():
    needs_root()
    s = Server(cells=2)
    yield s
    code, left = s.stop()
    assert code == 0, "server did not stop cleanly"
    assert not left, f"cells outlived the server: {left}"


def open_session(s, **body):
    r = s.post("/v1/sessions", body)
    assert r.status_code == 201, r.text
    d = r.json()
    assert ID.fullmatch(d["id"]), d
    return d


@contextlib.contextmanager
def session(s, **body):
    """An open session's id, deleted after the block (whatever the block did to it)."""
    sid = open_session(s, **body)["id"]
    try:
        yield sid
    finally:
        requests.delete(f"{s.url}/v1/sessions/{sid}", timeout=60)


def get(s, sid):
    return requests.get(f"{s.url}/v1/sessions/{sid}", timeout=30)


def info(s, sid):
    r = get(s, sid)
    assert r.status_code == 200, r.text
    return r.json()


def exec_(s, sid, body, timeout=120):
    return s.post(f"/v1/sessions/{sid}/exec", body, timeout=timeout)


def call(s, sid, code=None, **body):
    """One exec answered 200; its answer, checked for what every answer holds."""
    if code is not None:
        body["code"] = code
    r = exec_(s, sid, body)
    assert r.status_code == 200, r.text
    d = r.json()
    assert d["id"] == sid, d
    assert d["verdict"] != "SE", d
    assert d["status"] == STATUS.get(d["verdict"], "Failed"), d
    assert d["state"] in ("new", "kept", "lost", "restarted"), d
    return d


def closed(s, sid, reason):
    """GET, exec and DELETE of a session the server closed: 410 with the reason."""
    for r in (get(s, sid), exec_(s, sid, {"code": "1"}),
              requests.delete(f"{s.url}/v1/sessions/{sid}", timeout=30)):
        assert r.status_code == 410, r.text
        assert r.json()["reason"] == reason and r.json()["detail"], r.text


def gone(s, sid):
    """GET answers 410 (the reason); None while the session is open."""
    r = get(s, sid)
    assert r.status_code in (200, 410), r.text
    return r.json()["reason"] if r.status_code == 410 else None


def cmdline(pid):
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as f:
            return f.read().replace(b"\0", b" ").decode(errors="replace")
    except OSError:
        return "(gone)"


# Python code that prints the pids (in its own view) whose command line holds a marker.
FIND = ("import os\n"
        "def find(marker):\n"
        "    out = []\n"
        "    for d in os.listdir('/proc'):\n"
        "        if d.isdigit():\n"
        "            try:\n"
        "                if marker.encode() in open(f'/proc/{d}/cmdline', 'rb').read():\n"
        "                    out.append(int(d))\n"
        "            except OSError:\n"
        "                pass\n"
        "    return sorted(out)\n")


def sleeper(marker):
    """Python code that starts a background process (30 s) whose argv holds marker."""
    return ("import subprocess, sys\n"
            f"bg = subprocess.Popen([sys.executable, '-c', 'import time; time.sleep(30)', {marker!r}])\n"
            "print(bg.pid)\n")


# ---- opening, state across calls --------------------------------------------------------

def test_open_defaults_and_get(srv):
    before = time.time()
    d = open_session(srv)
    sid = d["id"]
    try:
        assert d["language"] == "python" and d["state"] == "open", d
        assert d["limits"] == DEFAULTS, d
        assert d["calls"] == 0 and d["events"] == {"tle": 0, "mle": 0, "lost": 0}, d
        assert before - 5 <= d["created_at"] <= time.time() + 5, d
        assert abs(d["expires_at"] - d["created_at"] - 3600) < 2, d
        g = info(srv, sid)
        assert g["id"] == sid and g["language"] == "python" and g["calls"] == 0, g
        assert g["limits"] == DEFAULTS, g
        limits = {"memory_mb": 128, "cpu_ms": 60000, "pids": 32, "call_memory_mb": 64,
                  "call_time_ms": 5000, "call_wall_ms": 8000, "idle_ms": 60000,
                  "lifetime_ms": 120000}
        other = open_session(srv, language="python", limits=limits)
        try:
            assert other["limits"] == limits and other["id"] != sid, other
            assert other["id"][:8] == sid[:8], (other["id"], sid)  # one server run
            part = open_session(srv, limits={"memory_mb": 256})
            requests.delete(f"{srv.url}/v1/sessions/{part['id']}", timeout=60)
            assert part["limits"] == {**DEFAULTS, "memory_mb": 256,
                                      "call_memory_mb": min(256, DEFAULTS["call_memory_mb"])}, part
        finally:
            requests.delete(f"{srv.url}/v1/sessions/{other['id']}", timeout=60)
    finally:
        requests.delete(f"{srv.url}/v1/sessions/{sid}", timeout=60)


def test_python_state_across_calls(srv):
    with session(srv) as sid:
        d = call(srv, sid, "x = 41\nimport json\ndef twice(v):\n    return 2 * v\n"
                           "with open('note.txt', 'w') as f:\n    f.write('from call 1')")
        assert d["verdict"] == "OK" and d["state"] == "new" and d["call"] == 1, d
        assert d["display"] == [] and d["error"] is None and d["limit"] is None, d
        assert d["compile"] is None, d
        d = call(srv, sid, "x + 1")
        assert d["verdict"] == "OK" and d["state"] == "kept" and d["call"] == 2, d
        assert d["display"] == [{"text/plain": "42"}], d
        d = call(srv, sid, "print(json.dumps({'a': twice(x)}))")
        assert d["stdout"] == '{"a": 82}\n' and d["state"] == "kept", d
        d = call(srv, sid, "print(open('note.txt').read())")
        assert d["stdout"] == "from call 1\n", d
        s = d["session"]
        assert s["id"] == sid and s["calls"] == 4 and s["interpreter"]["alive"], s
        assert s["interpreter"]["starts"] == 1, s  # one interpreter for all four
        g = info(srv, sid)
        assert g["calls"] == 4 and g["last"]["verdict"] == "OK", g
        assert g["last_call_at"] >= g["created_at"] and g["idle_s"] >= 0, g
        assert g["cpu_ms"] >= 0 and g["memory_kib"] > 0, g


def test_output_stdin_and_cells(srv):
    with session(srv) as sid:
        d = call(srv, sid, "import sys\nprint('out')\nprint('err', file=sys.stderr)\n'shown'")
        assert d["stdout"] == "out\n" and d["stderr"] == "err\n", d
        assert d["display"] == [{"text/plain": "'shown'"}], d
        d = call(srv, sid, "name = input()\nprint('hello', name)", stdin="world\nrest\n")
        assert d["stdout"] == "hello world\n", d
        d = call(srv, sid, "print(repr(sys.stdin.read()))", stdin="a\nb\n")
        assert d["stdout"] == "'a\\nb\\n'\n", d  # this call's stdin, not the last one's rest
        d = call(srv, sid, "print(repr(sys.stdin.read()))")
        assert d["stdout"] == "''\n", d
        d = call(srv, sid, cells=["a = 1\nprint('one')", "a += 1\na", "1 / 0", "a = 100"])
        assert d["verdict"] == "RE" and d["error"]["ename"] == "ZeroDivisionError", d
        c = d["cells"]
        assert len(c) == 4 and [x["executed"] for x in c] == [True, True, True, False], c
        assert c[0]["stdout"] == "one\n" and c[1]["display"] == [{"text/plain": "2"}], c
        assert c[2]["error"][0]["ename"] == "ZeroDivisionError", c
        assert d["stdout"] == "one\n" and d["display"] == [{"text/plain": "2"}], d
        d = call(srv, sid, "a")
        assert d["display"] == [{"text/plain": "2"}] and d["state"] == "kept", d
        d = call(srv, sid, "print('x' * (2 << 20))")
        assert d["verdict"] == "OLE" and d["output_truncated"], {**d, "stdout": d["stdout"][:80]}
        d = call(srv, sid, "21 * 2")
        assert d["verdict"] == "OK" and d["display"] == [{"text/plain": "42"}], d
        assert d["state"] in ("kept", "restarted"), d


def test_files_in_and_out(srv):
    with session(srv) as sid:
        d = call(srv, sid, "pass", files={"data/in.txt": b64("hello file"),
                                          "helper.py": b64("def half(v):\n    return v // 2\n")})
        assert d["verdict"] == "OK", d
        d = call(srv, sid, "import helper\nprint(open('data/in.txt').read(), helper.half(84))")
        assert d["stdout"] == "hello file 42\n", d  # given in one call, there in a later one
        d = call(srv, sid, "import os\nos.makedirs('out', exist_ok=True)\n"
                           "open('out/result.txt', 'w').write('written')",
                 fetch_files=["out/result.txt", "missing.txt"])
        assert d["files"]["out/result.txt"] == b64("written"), d
        assert not d["files"].get("missing.txt"), d
        d = call(srv, sid, "print(open('data/in.txt').read())", files={"data/in.txt": b64("second")},
                 fetch_files=["out/result.txt"])
        assert d["stdout"] == "second\n", d  # replaced
        assert d["files"] == {"out/result.txt": b64("written")}, d  # what an earlier call wrote


def test_c_files_across_calls(srv):
    write = ('#include <stdio.h>\nint main(void) {\n    FILE *f = fopen("shared.txt", "w");\n'
             '    if (!f) return 2;\n    fprintf(f, "from C %d\\n", 6 * 7);\n    fclose(f);\n'
             '    puts("wrote");\n    return 0;\n}\n')
    read = ('#include <stdio.h>\nint main(void) {\n    char line[64];\n'
            '    FILE *f = fopen("shared.txt", "r");\n    if (!f) { puts("no file"); return 2; }\n'
            '    if (fgets(line, sizeof line, f)) fputs(line, stdout);\n'
            '    int n; if (scanf("%d", &n) == 1) printf("stdin %d\\n", n);\n    return 0;\n}\n')
    with session(srv, language="c") as sid:
        d = call(srv, sid, write)
        assert d["verdict"] == "OK" and d["stdout"] == "wrote\n" and d["state"] == "new", d
        assert d["compile"]["verdict"] == "OK", d
        d = call(srv, sid, read, stdin="5\n", fetch_files=["shared.txt"])
        assert d["verdict"] == "OK" and d["stdout"] == "from C 42\nstdin 5\n", d
        assert d["files"] == {"shared.txt": b64("from C 42\n")}, d
        d = call(srv, sid, "int main(void) { return 3; }")
        assert d["verdict"] == "RE" and d["exit_code"] == 3, d
        d = call(srv, sid, "int main(void) { return x; }")
        assert d["verdict"] == "CE" and d["compile"]["verdict"] == "CE", d
        assert "undeclared" in d["compile"]["stdout"] + d["compile"]["stderr"], d
        d = call(srv, sid, read)
        assert d["verdict"] == "OK" and d["stdout"] == "from C 42\n", d  # still there
        assert info(srv, sid)["language"] == "c"


def test_other_interpreted_language_keeps_files_not_processes(srv):
    with session(srv, language="bash") as sid:
        d = call(srv, sid, "echo hi > f.txt\nX=1\necho done")
        assert d["verdict"] == "OK" and d["stdout"] == "done\n", d
        d = call(srv, sid, 'cat f.txt\necho "X=${X:-unset}"')
        assert d["verdict"] == "OK" and d["stdout"] == "hi\nX=unset\n", d  # a fresh process


# ---- errors, timeouts, lost state ------------------------------------------------------

def test_error_keeps_the_session(srv):
    with session(srv) as sid:
        call(srv, sid, "x = 5")
        d = call(srv, sid, "def g():\n    return 1 / 0\ng()")
        assert d["verdict"] == "RE" and d["status"] == "Failed" and d["state"] == "kept", d
        e = d["error"]
        assert e["ename"] == "ZeroDivisionError" and e["evalue"] == "division by zero", e
        assert any("1 / 0" in line for line in e["traceback"]), e
        assert e["traceback"][-1] == "ZeroDivisionError: division by zero", e
        d = call(srv, sid, "x")
        assert d["verdict"] == "OK" and d["display"] == [{"text/plain": "5"}], d
        assert d["state"] == "kept", d
        assert info(srv, sid)["last"]["verdict"] == "OK"


def test_call_timeout_keeps_the_state(srv):
    with session(srv) as sid:
        call(srv, sid, "y = 7")
        t = time.monotonic()
        d = call(srv, sid, "while True: pass", timeout_ms=1000)
        assert time.monotonic() - t < 30, d
        assert d["verdict"] == "TLE" and d["limit"] == "wall" and d["state"] == "kept", d
        assert d["error"]["ename"] == "CellTimeoutError", d
        d = call(srv, sid, "y * 6")
        assert d["display"] == [{"text/plain": "42"}] and d["state"] == "kept", d
        g = info(srv, sid)
        assert g["events"]["tle"] == 1 and g["events"]["lost"] == 0, g
        assert g["interpreter"]["starts"] == 1, g


def test_timeout_ignored_loses_the_state_not_the_files(srv):
    stubborn = ("while True:\n    try:\n        while True:\n            pass\n"
                "    except BaseException:\n        pass")
    with session(srv) as sid:
        call(srv, sid, "z = 3\nopen('keep.txt', 'w').write('kept file')")
        t = time.monotonic()
        d = call(srv, sid, stubborn, timeout_ms=1000)
        assert time.monotonic() - t < 30, d
        assert d["verdict"] == "TLE" and d["state"] == "lost", d
        d = call(srv, sid, "z")
        assert d["state"] == "restarted", d
        assert d["verdict"] == "RE" and d["error"]["ename"] == "NameError", d
        d = call(srv, sid, "open('keep.txt').read()")
        assert d["display"] == [{"text/plain": "'kept file'"}] and d["state"] == "kept", d
        g = info(srv, sid)
        assert g["interpreter"]["starts"] == 2 and g["interpreter"]["alive"], g
        assert g["events"]["lost"] >= 1 and g["events"]["tle"] >= 1, g


def test_exit_loses_the_state(srv):
    with session(srv) as sid:
        call(srv, sid, "w = 1")
        d = call(srv, sid, "import os\nos._exit(0)")
        assert d["state"] == "lost" and d["verdict"] != "OK", d
        d = call(srv, sid, "'w' in globals()")
        assert d["state"] == "restarted" and d["display"] == [{"text/plain": "False"}], d


# ---- limits ------------------------------------------------------------------------------

def test_session_memory_limit(srv):
    with session(srv, limits={"memory_mb": 64, "call_memory_mb": 64}) as sid:
        call(srv, sid, "small = 1")
        d = call(srv, sid, "big = b'\\1' * (200 << 20)\nprint(len(big))")
        assert d["verdict"] == "MLE" and d["state"] == "lost", {**d, "stdout": d["stdout"][:80]}
        g = info(srv, sid)
        assert g["events"]["mle"] >= 1 and g["interpreter"]["starts"] >= 1, g
        d = call(srv, sid, "print('again')")
        assert d["verdict"] == "OK" and d["stdout"] == "again\n" and d["state"] == "restarted", d
        assert info(srv, sid)["interpreter"]["starts"] == 2


def test_call_memory_limit(srv):
    with session(srv, limits={"memory_mb": 256, "call_memory_mb": 32}) as sid:
        d = call(srv, sid, "small = b'\\1' * (8 << 20)\nlen(small)")
        assert d["verdict"] == "OK", d
        d = call(srv, sid, "big = b'\\1' * (100 << 20)\nprint(len(big))")
        assert d["verdict"] == "MLE", {**d, "stdout": d["stdout"][:80]}
        d = call(srv, sid, "print('after')")
        assert d["verdict"] == "OK" and d["stdout"] == "after\n", d
        assert d["state"] in ("kept", "restarted"), d


def test_session_cpu_limit(srv):
    with session(srv, limits={"cpu_ms": 1500}) as sid:
        limits = []
        for _ in range(10):  # each call spins until its timeout or the session's CPU is spent
            d = call(srv, sid, "while True: pass", timeout_ms=5000)
            assert d["verdict"] == "TLE", d
            limits.append(d["limit"])
            if d["limit"] == "session_cpu":
                break
        assert limits[-1] == "session_cpu", limits
        assert set(limits[:-1]) <= {"wall"}, limits
        t = time.monotonic()
        d = call(srv, sid, "print('no more')", timeout_ms=20000)
        assert d["verdict"] == "TLE" and d["limit"] == "session_cpu", d
        assert time.monotonic() - t < 10, d  # at once, not after its timeout
        g = info(srv, sid)
        assert g["cpu_ms"] >= 1000 and g["events"]["tle"] >= 2, g


def test_idle_expiry(srv):
    sid = open_session(srv, limits={"idle_ms": 1000})["id"]
    call(srv, sid, "v = 1")
    reason = wait_for("the idle session to close", lambda: gone(srv, sid), timeout=15, step=0.2)
    assert reason == "idle"
    closed(srv, sid, "idle")


def test_lifetime(srv):
    d = open_session(srv, limits={"lifetime_ms": 2000})
    sid = d["id"]
    assert abs(d["expires_at"] - d["created_at"] - 2) < 1, d
    assert call(srv, sid, "print(1)")["verdict"] == "OK"
    reason = wait_for("the session's lifetime to end", lambda: gone(srv, sid), timeout=15, step=0.2)
    assert reason == "lifetime"
    closed(srv, sid, "lifetime")


def test_delete(srv):
    sid = open_session(srv)["id"]
    call(srv, sid, "q = 1")
    r = requests.delete(f"{srv.url}/v1/sessions/{sid}", timeout=60)
    assert r.status_code == 200, r.text
    d = r.json()
    assert d["id"] == sid and d["state"] == "closed" and d["calls"] == 1, d
    closed(srv, sid, "deleted")


def test_one_call_at_a_time(srv):
    with session(srv) as sid:
        call(srv, sid, "import time")
        slow = {}
        t = threading.Thread(target=lambda: slow.update(r=exec_(srv, sid, {
            "code": "time.sleep(3)\nprint('slept')", "timeout_ms": 60000})))
        t.start()
        try:
            wait_for("the session to be busy", lambda: info(srv, sid)["state"] == "busy",
                     timeout=20, step=0.05)
            r = exec_(srv, sid, {"code": "print('meanwhile')"})
            assert r.status_code == 409 and r.json() == {"detail": "session busy"}, r.text
        finally:
            t.join(120)
        assert slow["r"].status_code == 200 and slow["r"].json()["stdout"] == "slept\n", slow["r"].text
        d = call(srv, sid, "print('after')")
        assert d["stdout"] == "after\n" and d["state"] == "kept", d
        assert info(srv, sid)["state"] == "open"


# ---- ids and bodies refused --------------------------------------------------------------

def test_unknown_and_malformed_ids(srv):
    with session(srv) as sid:
        last = format((int(sid[-4:], 16) + 1) % 0x10000, "04x")
        for other in (sid[:-4] + last, sid[:8] + "0" * 32, uuid.uuid4().hex + "0" * 8):
            for r in (get(srv, other), exec_(srv, other, {"code": "1"}),
                      requests.delete(f"{srv.url}/v1/sessions/{other}", timeout=30)):
                assert r.status_code in (404, 410), (other, r.status_code, r.text)
                if r.status_code == 404:
                    assert r.json() == {"detail": "no such session"}, r.text
        # 40 characters: 32 random (128 bits) after the run's 8; 32 were 96 bits
        for bad in ("xyz", sid[:-1], sid + "0", sid.upper(), sid[:-1] + "g", sid[:32]):
            for r in (get(srv, bad), exec_(srv, bad, {"code": "1"}),
                      requests.delete(f"{srv.url}/v1/sessions/{bad}", timeout=30)):
                assert r.status_code == 422, (bad, r.text)
                assert r.json()["detail"][0]["loc"] == ["path", "id"], (bad, r.text)
        assert call(srv, sid, "1")["verdict"] == "OK"  # none of that touched the real one


def test_bad_bodies(srv):
    def refused(path, body, field):
        r = srv.post(path, body)
        assert r.status_code == 422, (body, r.text)
        loc = r.json()["detail"][0]["loc"]
        assert loc[0] == "body" and field in loc, (body, loc)
    for body, field in (({"language": "cobol"}, "language"), ({"language": "cuda"}, "language"),
                        ({"limits": {"memory_mb": 0}}, "memory_mb"),
                        ({"limits": {"memory_mb": 8193}}, "memory_mb"),
                        ({"limits": {"call_memory_mb": 600}}, "call_memory_mb"),
                        ({"limits": {"memory_mb": 64, "call_memory_mb": 65}}, "call_memory_mb"),
                        ({"limits": {"cpu_ms": 1.5}}, "cpu_ms"), ({"limits": {"pids": 257}}, "pids"),
                        ({"limits": {"idle_ms": 999}}, "idle_ms"),
                        ({"limits": {"lifetime_ms": 86400001}}, "lifetime_ms"),
                        # the default ceilings: 1 h idle, 6 h lifetime (a day was accepted)
                        ({"limits": {"idle_ms": 3600001}}, "idle_ms"),
                        ({"limits": {"lifetime_ms": 21600001}}, "lifetime_ms"),
                        ({"limits": {"call_wall_ms": 0}}, "call_wall_ms"),
                        ({"limits": "big"}, "limits")):
        refused("/v1/sessions", body, field)
    r = srv.post("/v1/sessions", ["not", "an", "object"])
    assert r.status_code == 422 and r.json()["detail"][0]["loc"] == ["body"], r.text
    r = requests.post(srv.url + "/v1/sessions", timeout=60)  # no body: the defaults
    assert r.status_code == 201 and r.json()["language"] == "python", r.text
    assert requests.delete(f"{srv.url}/v1/sessions/{r.json()['id']}", timeout=30).ok
    with session(srv) as sid, session(srv, language="c") as csid:
        path = f"/v1/sessions/{sid}/exec"
        for body, field in (({}, "code"), ({"code": 5}, "code"),
                            ({"code": "1", "timeout_ms": 0}, "timeout_ms"),
                            ({"code": "1", "timeout_ms": 600001}, "timeout_ms"),
                            ({"cells": []}, "cells"), ({"code": "1", "stdin": 5}, "stdin"),
                            ({"code": "1", "files": {"/etc/x": "YQ=="}}, "files"),
                            ({"code": "1", "files": {"a": "!!!"}}, "files"),
                            ({"code": "1", "fetch_files": [f"f{i}" for i in range(65)]}, "fetch_files")):
            refused(path, body, field)
        refused(f"/v1/sessions/{csid}/exec", {"cells": ["int main(void) { return 0; }"]}, "cells")
        r = requests.post(srv.url + path, data="{not json",
                          headers={"Content-Type": "application/json"}, timeout=30)
        assert r.status_code == 422 and r.json()["detail"][0]["type"] == "json_invalid", r.text
        d = call(srv, sid, "1 + 1")  # a refused body is no call
        assert d["state"] == "new" and d["call"] == 1 and d["display"] == [{"text/plain": "2"}], d


# ---- isolation and hostile code ----------------------------------------------------------

def test_sessions_are_isolated(srv):
    marker = "verdict-iso-" + uuid.uuid4().hex
    with session(srv) as a, session(srv) as b:
        d = call(srv, a, "import os\nopen('a_only.txt', 'w').write('a')\n"
                         "open('/tmp/a_only.txt', 'w').write('a')\n"
                         "open('/dev/shm/a_only.txt', 'w').write('a')\n"
                         "os.environ['A_SECRET'] = 'a'\nsecret_a = 1\n" + sleeper(marker) + FIND +
                 # a process's argv shows a moment after the exec that Popen waited for
                 f"import time\nfor _ in range(200):\n    if find({marker!r}):\n        break\n"
                 f"    time.sleep(0.05)\nprint(find({marker!r}))")
        assert d["verdict"] == "OK", d
        assert d["stdout"].splitlines()[1] != "[]", d  # A sees its own background process
        wait_for("A's background process", lambda: len(host_pids_with(marker)) == 1,
                 timeout=10, step=0.05)
        b_pid = call(srv, b, "import os\nb_var = 'b'\nos.getpid()")["display"][0]["text/plain"]
        d = call(srv, b, FIND + "import os\n"
                 "print([os.path.exists(p) for p in ('a_only.txt', '/tmp/a_only.txt', "
                 "'/dev/shm/a_only.txt')])\n"
                 f"print(find({marker!r}), os.environ.get('A_SECRET'), 'secret_a' in globals())")
        assert d["stdout"] == "[False, False, False]\n[] None False\n", d
        # A may not signal B's interpreter: its pid is none of A's, or (one number in two pid
        # namespaces) A's own process of that number, never B's.
        d = call(srv, a, "import os, signal\n"
                 f"if os.path.exists('/proc/{b_pid}'):\n"
                 f"    print('own', open('/proc/{b_pid}/cmdline', 'rb').read()[:40])\n"
                 "else:\n    try:\n"
                 f"        os.kill({b_pid}, signal.SIGKILL)\n        print('ESCAPED: killed')\n"
                 "    except OSError as e:\n        print('refused', type(e).__name__)")
        assert d["stdout"].startswith(("own", "refused")), d
        d = call(srv, b, "b_var")
        assert d["display"] == [{"text/plain": "'b'"}] and d["state"] == "kept", d
        assert len(host_pids_with(marker)) == 1  # A's background process outlives A's calls


def test_hostile_code_is_contained():
    """Fork bomb, kill(-1, SIGKILL), writes outside the work dir, host secrets, the network,
    from inside sessions of a server of their own: each contained, the server and the other
    session go on, and nothing of the sessions runs after they are deleted."""
    needs_root()
    s = Server(cells=2)
    try:
        marker = "verdict-left-" + uuid.uuid4().hex
        with session(s) as other:
            call(s, other, "kept = 'other'")
            with session(s, limits={"pids": 16, "cpu_ms": 20000}) as a:
                probes = (
                    "import errno, os, socket\n"
                    "def attempt(what, f):\n"
                    "    try:\n        f()\n        print('ESCAPED:', what)\n"
                    "    except OSError as e:\n        print('contained:', what, type(e).__name__)\n"
                    "attempt('write /usr', lambda: open('/usr/verdict-probe', 'w'))\n"
                    "attempt('write /', lambda: open('/verdict-probe', 'w'))\n"
                    "attempt('mkdir /usr/lib', lambda: os.mkdir('/usr/lib/verdict-probe'))\n"
                    "attempt('read /etc/shadow', lambda: print(open('/etc/shadow').read()[:40]))\n"
                    "def connect():\n"
                    "    c = socket.socket(socket.AF_INET, socket.SOCK_STREAM)\n"
                    "    c.setblocking(False)\n"
                    "    r = c.connect_ex(('1.1.1.1', 53))\n"
                    "    if r not in (0, errno.EINPROGRESS):\n"
                    "        raise OSError(r, os.strerror(r))\n"
                    "attempt('connect 1.1.1.1', connect)\n")
                d = call(s, a, probes)
                assert "ESCAPED" not in d["stdout"] and d["stdout"].count("contained:") == 5, d
                # kill(-1, SIGKILL): only the session's own processes
                d = call(s, a, "import os, signal\nx_a = 1\nos.kill(-1, signal.SIGKILL)\nprint('sent')")
                assert d["state"] in ("kept", "lost"), d
                d = call(s, a, "print('again')")
                assert d["verdict"] == "OK" and d["stdout"] == "again\n", d
                assert d["state"] in ("kept", "restarted"), d
                d = call(s, other, "kept")
                assert d["display"] == [{"text/plain": "'other'"}] and d["state"] == "kept", d
                assert alive(s.cells) == s.cells, "kill(-1) reached a cell"
                d = call(s, a, sleeper(marker))
                assert d["verdict"] == "OK", d
                # (its argv shows a moment after the exec that Popen waited for)
                wait_for("the background process", lambda: len(host_pids_with(marker)) == 1,
                         timeout=10, step=0.05)
                bg = host_pids_with(marker).pop()
                assert bg in cgroup_procs(s.proc.pid), "the session's process is in none of its cgroups"
                # A fork bomb, slowed (its processes retry every 50 ms): bounded by pids.
                bomb = ("import os, time\nwhile True:\n    try:\n        os.fork()\n"
                        "    except OSError:\n        time.sleep(0.05)")
                t = time.monotonic()
                d = call(s, a, bomb, timeout_ms=3000)
                assert d["verdict"] in ("TLE", "RE"), d
                assert time.monotonic() - t < 60, d
                d = call(s, other, "kept")
                assert d["display"] == [{"text/plain": "'other'"}] and d["state"] == "kept", d
                assert s.run_code(code="print(6 * 7)", language="python")["run_result"]["stdout"] == "42\n"
                d = call(s, a, "print('after the bomb')")
                assert d["verdict"] == "OK" and d["stdout"] == "after the bomb\n", d
                r = requests.delete(f"{s.url}/v1/sessions/{a}", timeout=60)
                assert r.status_code == 200 and r.json()["state"] == "closed", r.text
            wait_for("a deleted session's processes to end", lambda: not host_pids_with(marker),
                     timeout=10, step=0.1)
            d = call(s, other, "kept")
            assert d["display"] == [{"text/plain": "'other'"}], d
        # Every session closed: nothing left in the server's cgroups.
        def empty():
            left = cgroup_procs(s.proc.pid)
            return not left or None
        try:
            wait_for("the server's cgroups to empty", empty, timeout=15, step=0.2)
        except AssertionError:
            left = cgroup_procs(s.proc.pid)
            raise AssertionError({p: (d, cmdline(p)) for p, d in left.items()})
        listing = s.get_json("/v1/sessions")
        assert listing["open"] == 0 and listing["totals"]["closed"]["deleted"] >= 2, listing
    finally:
        code, left = s.stop()
    assert code == 0 and not left


# ---- the server: bound on open sessions, restart, listing, metrics -----------------------

def test_max_sessions():
    needs_root()
    s = Server(cells=1, extra=("--max-sessions", "2", "--client-sessions", "2"))
    try:
        a, b = open_session(s)["id"], open_session(s)["id"]
        r = s.post("/v1/sessions", {})
        assert r.status_code == 503 and r.headers.get("Retry-After") == "1", \
            (r.status_code, r.headers, r.text)
        assert r.json()["detail"], r.text
        listing = s.get_json("/v1/sessions")
        assert listing["open"] == 2 and listing["max"] == 2, listing
        assert listing["totals"]["refused"] >= 1 and listing["totals"]["opened"] == 2, listing
        shown = sorted(x["id"].rstrip("…") for x in listing["sessions"])
        assert shown == sorted([a[:12], b[:12]]), listing
        assert a not in str(listing) and b not in str(listing), listing  # capabilities not shown
        assert s.run_code(code="print(1)", language="python")["run_result"]["stdout"] == "1\n"
        r = requests.delete(f"{s.url}/v1/sessions/{a}", timeout=60)
        assert r.status_code == 200, r.text
        c = open_session(s)["id"]
        assert call(s, c, "print('third')")["stdout"] == "third\n"
        for sid in (b, c):
            requests.delete(f"{s.url}/v1/sessions/{sid}", timeout=60)
    finally:
        code, left = s.stop()
    assert code == 0 and not left


def test_sessions_off():
    needs_root()
    s = Server(cells=1, extra=("--max-sessions", "0"))
    try:
        r = s.post("/v1/sessions", {})
        assert r.status_code == 503 and "--max-sessions" in r.json()["detail"], r.text
    finally:
        code, left = s.stop()
    assert code == 0 and not left


def test_server_restart_forgets_sessions():
    needs_root()
    d = tempfile.mkdtemp(prefix="verdict-sessions-", dir="/var/tmp")
    db = d + "/verdict.db"
    secret = "swordfish-" + uuid.uuid4().hex
    try:
        s = Server(cells=1, extra=("--db", db))
        try:
            old = open_session(s)["id"]
            d2 = call(s, old, f"secret = {secret!r}\nopen('secret.txt', 'w').write(secret)")
            assert d2["verdict"] == "OK", d2
        finally:
            code, left = s.stop()  # SIGTERM with the session open
        assert code == 0 and not left, (code, left)
        s = Server(cells=1, extra=("--db", db))
        try:
            for r in (get(s, old), exec_(s, old, {"code": "print(secret)"})):
                assert r.status_code in (404, 410), r.text
                if r.status_code == 410:
                    assert r.json()["reason"] == "restarted", r.text
            new = open_session(s)["id"]
            assert new != old and new[:8] != old[:8], (new, old)
            d2 = call(s, new, "secret")
            assert d2["verdict"] == "RE" and d2["error"]["ename"] == "NameError", d2
            d2 = call(s, new, "import os\nos.path.exists('secret.txt')")
            assert d2["display"] == [{"text/plain": "False"}], d2
            requests.delete(f"{s.url}/v1/sessions/{new}", timeout=60)
        finally:
            code, left = s.stop()
        assert code == 0 and not left, (code, left)
    finally:
        shutil.rmtree(d, ignore_errors=True)


def test_metrics(srv):
    with session(srv) as sid:
        for i in range(3):
            call(srv, sid, f"print({i})")
        call(srv, sid, "1 / 0")
        m = scrape(srv)
        shown = {k: v for k, v in m.items() if "session" in k}
        assert m["verdict_sessions_open"] >= 1 and m["verdict_sessions_max"] == 32, shown
        assert m["verdict_sessions_opened_total"] >= 1, shown
        assert m['verdict_session_calls_total{verdict="OK"}'] >= 3, shown
        assert m['verdict_session_calls_total{verdict="RE"}'] >= 1, shown
    m = scrape(srv)
    assert m['verdict_sessions_closed_total{reason="deleted"}'] >= 1, m


def test_no_session_left_open(srv):
    """Every test above closed what it opened (deleted, or the reaper's)."""
    listing = wait_for("sessions to close", lambda: (lambda l: l if l["open"] == 0 else None)(
        srv.get_json("/v1/sessions")), timeout=15, step=0.2)
    t = listing["totals"]
    assert sum(t["closed"].values()) == t["opened"], listing
    assert len(cell_pids(srv.proc.pid)) >= 2
