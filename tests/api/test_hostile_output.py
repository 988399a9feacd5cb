"""What the sandbox writes, the server parses within a budget (docs/design.md, "What one request
can make the server hold"): every route that reads sandbox-written data, driven by hostile
programs at their caps, 16 requests at once, and the server's memory (VmRSS, and the growth of
its peak VmHWM) stays within the documented bound; each answer is valid JSON and valid UTF-8
and names the cap it passed. Also: strings the cells forge with invalid UTF-8 come back as
U+FFFD, never as raw bytes."""
import concurrent.futures
import json
import os

import pytest
import requests

from conftest import Server

# The documented bound (docs/design.md, "What one request can make the server hold"): one
# request reading sandbox output per cell at once (the job cells, and one call per session),
# a job at most JOB_MIB (/run_jupyter's, the largest), a Python session call SESSION_MIB; the
# server's own idle size is measured before.
JOB_MIB = 400
SESSION_MIB = 320
JOB_CELLS = 4
SESSIONS = 4

# /run_jupyter: a cell writes the results file's 16 MiB as one record of 8 M small values (a
# cJSON node each, ~1 GiB of tree unbudgeted), fills the driver's own stderr (a pipe it keeps
# open) with 16 MiB of control characters, and ends the kernel before it writes again.
JUPYTER_BOMB = """import os, stat
n = (16 << 20) - 64
with open('.verdict_jupyter/results.jsonl', 'a') as f:
    f.write('{"cell": 0, "display": [' + '1,' * ((n - 32) // 2) + '1]}\\n')
for fd in range(3, 64):
    try:
        if stat.S_ISFIFO(os.fstat(fd).st_mode):
            v = memoryview(b'\\x01' * (16 << 20))
            while v:
                v = v[os.write(fd, v):]
    except OSError:
        pass
os._exit(0)
"""

# A Python session's reply frame on fd 4, forged by the cell: 20 MiB of 10 M small values.
SESSION_BOMB = """import os, time
body = b'{"cells": [{"display": [' + b'1,' * (((20 << 20) - 64) // 2) + b'1]}], "done": true}'
v = memoryview(b'%d\\n' % len(body) + body)
while v:
    v = v[os.write(4, v):]
time.sleep(600)
"""

# /run_code: four files of 15 MiB asked back (the work dir holds 64 MiB), stdout and stderr at
# their 16 MiB caps of control characters (each renders as \\u0001, six bytes).
RUN_CODE_BOMB = """import os, sys
chunk = os.urandom(1 << 20)
for i in range(4):
    with open('f%d' % i, 'wb') as f:
        for _ in range(15):
            f.write(chunk)
sys.stdout.buffer.write(b'\\x01' * (16 << 20))
sys.stdout.flush()
sys.stderr.buffer.write(b'\\x01' * (16 << 20))
"""

# /v1/judge and /v1/judge/batch: outputs at their caps.
JUDGE_BOMB = """import sys
sys.stdout.buffer.write(b'\\x01' * (16 << 20))
sys.stdout.flush()
sys.stderr.buffer.write(b'\\xff' * (16 << 20))
"""


def status(pid):
    with open(f"/proc/{pid}/status") as f:
        return {k: int(v.split()[0]) // 1024 for k, v in (l.split(":", 1) for l in f)
                if k in ("VmRSS", "VmHWM")}


def strict_json(r):
    """The answer as JSON, refusing invalid UTF-8 (a strict client's reading)."""
    return json.loads(r.content.decode("utf-8", errors="strict"))


@pytest.fixture(scope="module")
def hostile():
    if os.geteuid() != 0:
        pytest.skip("the sandbox needs root")
    s = Server(cells=JOB_CELLS + SESSIONS)
    yield s
    code, left = s.stop()
    assert code == 0, "server did not stop cleanly"
    assert not left, f"cells outlived the server: {left}"


def jupyter(s):
    r = s.post("/run_jupyter", {"cells": [JUPYTER_BOMB, "print(1)"], "total_timeout": 60},
               timeout=300)
    assert r.status_code == 200, r.text[:300]
    d = strict_json(r)
    assert d["status"] == "Failed", d["message"]
    assert "output limit exceeded" in d["message"] and "values" in d["message"], d["message"]
    assert d["driver"]["output_truncated"], d["driver"]["verdict"]  # its stderr, 16 MiB of \x01
    return "jupyter"


def session_call(s, sid):
    r = s.post(f"/v1/sessions/{sid}/exec", {"code": SESSION_BOMB}, timeout=300)
    assert r.status_code == 200, r.text[:300]
    d = strict_json(r)
    assert d["verdict"] == "OLE", (d["verdict"], d["message"])
    assert "values" in d["message"], d["message"]
    return "session"


def run_code(s):
    r = s.post("/run_code", {"code": RUN_CODE_BOMB, "memory_limit_MB": 256, "run_timeout": 60,
                             "fetch_files": ["f0", "f1", "f2", "f3"]}, timeout=300)
    assert r.status_code == 200, r.text[:300]
    d = strict_json(r)
    assert d["run_result"]["verdict"] == "OK", d["run_result"]
    assert len(d["files"]) == 1, list(d["files"])  # 16 MiB in all: the first file
    assert d["run_result"]["output_truncated"]
    return "run_code"


def judge(s):
    r = s.post("/v1/judge", {"language": "python", "code": JUDGE_BOMB,
                             "tests": [{"stdin": "", "expected": ""}]}, timeout=300)
    assert r.status_code == 200, r.text[:300]
    assert strict_json(r)["tests"][0]["verdict"] in ("WA", "OLE")
    return "judge"


def batch(s):
    item = {"language": "python", "code": JUDGE_BOMB, "tests": [{"stdin": "", "expected": ""}]}
    r = s.post("/v1/judge/batch", {"items": [dict(item, id=0), dict(item, id=1, code=JUDGE_BOMB
                                                                     + "\n")]}, timeout=300)
    assert r.status_code == 200, r.text[:300]
    lines = [json.loads(l.decode("utf-8", errors="strict")) for l in r.content.splitlines() if l]
    assert sorted(l["id"] for l in lines) == [0, 1]
    return "batch"


def test_hostile_outputs_at_their_caps_stay_within_the_bound(hostile):
    s = hostile
    pid = s.proc.pid
    sids = []
    for _ in range(SESSIONS):
        r = s.post("/v1/sessions", {"language": "python"})
        assert r.status_code == 201, r.text
        sids.append(r.json()["id"])
    try:
        # warm: each route once, honestly, so the idle figure includes what serving costs
        assert s.run_code(code="print(1)")["status"] == "Success"
        assert s.post("/v1/sessions/%s/exec" % sids[0], {"code": "1"}).status_code == 200
        with open(f"/proc/{pid}/clear_refs", "w") as f:
            f.write("5")  # VmHWM := VmRSS
        idle = status(pid)
        calls = [lambda: jupyter(s)] * 4 + [lambda sid=sid: session_call(s, sid) for sid in sids]
        calls += [lambda: run_code(s)] * 4 + [lambda: judge(s)] * 2 + [lambda: batch(s)] * 2
        assert len(calls) == 16
        with concurrent.futures.ThreadPoolExecutor(len(calls)) as pool:
            futures = [pool.submit(c) for c in calls]
            concurrent.futures.wait(futures, timeout=600)
        after = status(pid)
    finally:
        for sid in sids:
            requests.delete(f"{s.url}/v1/sessions/{sid}", timeout=60)
    grew = after["VmHWM"] - idle["VmRSS"]
    held = after["VmRSS"] - idle["VmRSS"]
    bound = JOB_CELLS * JOB_MIB + SESSIONS * SESSION_MIB
    print(f"idle {idle['VmRSS']} MiB; peak grew {grew} MiB, held after {held} MiB; "
          f"bound {bound} MiB")
    assert grew <= bound, f"the server's peak grew {grew} MiB (bound {bound} MiB)"
    assert held <= bound, f"the server holds {held} MiB more after (bound {bound} MiB)"
    assert sorted(f.result() for f in futures) == sorted(  # each answer as it should be
        ["jupyter"] * 4 + ["session"] * SESSIONS + ["run_code"] * 4 + ["judge", "batch"] * 2)


def test_forged_invalid_utf8_comes_back_as_replacement_characters(hostile):
    s = hostile
    forge = """import os
with open('.verdict_jupyter/results.jsonl', 'ab') as f:
    f.write(b'{"cell": 0, "stdout": "a\\xff\\xfeb", "stderr": "\\\\ud800", '
            b'"display": [{"text/pl\\xc3ain": "\\xe2\\x82"}], "error": []}\\n')
os._exit(0)
"""
    r = s.post("/run_jupyter", {"cells": [forge]}, timeout=120)
    assert r.status_code == 200, r.text[:300]
    cell = strict_json(r)["cells"][0]
    assert cell["stdout"] == "a\ufffd\ufffdb" and cell["stderr"] == "\ufffd", cell
    assert cell["display"] == [{"text/pl\ufffdain": "\ufffd\ufffd"}], cell
    r = s.post("/v1/sessions", {"language": "python"})
    assert r.status_code == 201, r.text
    sid = r.json()["id"]
    try:
        reply = """import os, time
body = b'{"cells": [{"stdout": "\\xff", "error": [{"ename": "E\\xff", "evalue": "\\xc3", '
body += b'"traceback": []}], "executed": true}], "done": true}'
os.write(4, b'%d\\n' % len(body) + body)
time.sleep(600)
"""
        r = s.post(f"/v1/sessions/{sid}/exec", {"code": reply}, timeout=120)
        assert r.status_code == 200, r.text[:300]
        d = strict_json(r)
        assert d["verdict"] == "RE" and d["message"] == "E\ufffd: \ufffd", d["message"]
        assert d["stdout"] == "\ufffd" and d["error"]["ename"] == "E\ufffd", d
        r = requests.get(f"{s.url}/v1/sessions/{sid}", timeout=30)
        assert strict_json(r)["last"]["message"] == "E\ufffd: \ufffd"
    finally:
        requests.delete(f"{s.url}/v1/sessions/{sid}", timeout=60)
