"""Job cgroups that cannot be created.

A cell makes each job's cgroup ahead of the job: once when it starts, then after each
result when the last job's leaf cannot serve again (runners/supervisor.c). cgroup v1, which
this host has, offers no limit that makes that mkdir fail (v2's cgroup.max.descendants would
be one), so the server runs as faulty_verdict: verdict built with cgroup's fault-injection
seam (runners/cgroup_internal.h) set in its cells to fail with EAGAIN while a control file
exists. What must hold: the request is answered as our fault (SandboxError / SE), never as
the program's; the server keeps serving; once creation works again, so does judging."""
import os

import pytest

from conftest import (FAULTY, FAULTY_CMD, Server, alive, cell_pids, health, metric, need_root,
                      running, wait_for)

CONTROL = FAULTY + ".faults"
# 8 MiB left in the work dir stay charged to the job's cgroup, past what a leaf may carry
# into the next job (1 MiB, runners/supervisor.c): the cell must make a new one.
HEAVY = "with open('heavy', 'wb') as f:\n    f.write(b'x' * (8 << 20))\nprint('wrote')"


@pytest.fixture
def faulty():
    need_root()
    if not os.access(FAULTY, os.X_OK):
        pytest.fail(f"no faulty_verdict at {FAULTY}")
    os.makedirs(CONTROL, exist_ok=True)
    flag = os.path.join(CONTROL, "cgroup-mkdir")
    s = Server(cells=1, extra=("--max-cells", "1"), cmd=FAULTY_CMD)
    try:
        yield s, flag
    finally:
        if os.path.exists(flag):
            os.unlink(flag)
        os.rmdir(CONTROL)
        code, left = s.stop()
        assert code == 0 and not left


def test_cgroup_creation_failing_is_our_fault_and_passes(faulty):
    s, flag = faulty
    assert s.run_code(code="print(1)", language="python")["run_result"]["stdout"] == "1\n"
    (cell,) = cell_pids(s.proc.pid)

    open(flag, "w").close()  # from now on every job cgroup the cells make fails (EAGAIN)
    # This job runs in the cgroup its cell made before; after it, the cell cannot make the
    # next one, and exits (an unfit cell is replaced, runners/cell.c).
    r = s.run_code(code=HEAVY, language="python")
    assert r["status"] == "Success" and r["run_result"]["stdout"] == "wrote\n", r
    wait_for("the cell without a cgroup for its next job to exit", lambda: not running({cell}))

    # Its replacements cannot make their first job's cgroup either: SandboxError, twice.
    for _ in range(2):
        r = s.run_code(code="print(2)", language="python")
        assert r["status"] == "SandboxError", r
        assert r["run_result"] is None or r["run_result"]["status"] == "Error", r
        assert "create job cgroup" in r["message"] and "temporarily unavailable" in r["message"]
        j = s.post("/v1/judge", {"code": "print(3)", "language": "python",
                                 "tests": [{"stdin": "", "expected": "3"}]})
        assert j.status_code == 200, j.text
        body = j.json()
        assert body["status"] == "SE" and body["reward"] == 0, body
        assert "create job cgroup" in body["message"], body
    h = health(s)
    assert h["status"] == "ok" and h["cells_replaced"] >= 2, h
    assert metric(s, "verdict_sandbox_errors_total") >= 4

    os.unlink(flag)  # creation works again: the next job starts a cell, and passes
    r = s.run_code(code="print(4)", language="python")
    assert r["status"] == "Success" and r["run_result"]["stdout"] == "4\n", r
    wait_for("one cell again", lambda: len(alive(cell_pids(s.proc.pid))) == 1, timeout=30)
    for i in range(3):
        r = s.run_code(code=HEAVY + f"\nprint({i})", language="python")
        assert r["run_result"]["stdout"] == f"wrote\n{i}\n", r
