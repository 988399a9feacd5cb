"""The compile cache's disk full.

The server runs in a private mount namespace (unshare) with --cache on a 1 MiB tmpfs mounted
there only; the test fills that tmpfs through /proc/<server>/root. A compile whose outcome
the cache cannot write is not the program's fault and not SE: the program runs from memory
(its artifacts placed in the work dir), its verdicts are a cached build's, the failure is
counted (/healthz compile_cache.write_errors, verdict_compile_cache_write_errors_total) and
logged. Until the fix in server/judge/program.c every compiled program was SandboxError
("write the compile cache: No space left on device") while the disk stayed full.

The results store's full disk (judging goes on, the loss shows in /healthz and /metrics) is
tests/api/test_store.py's test_disk_full_keeps_judging."""
import os
import shutil
import tempfile

import pytest

from conftest import VERDICT_CMD, Log, Server, health, metric, mounts_naming, need_root, wait_for

C_ECHO = '#include <stdio.h>\nint main(void){{int a;scanf("%d",&a);printf("%d\\n",a*{k});}}'
C_BROKEN = "int main(void) { return 0 }"
C_EXIT3 = "int main(void) { return 3; }"


def fill(path):
    """Writes path until the file system is full; returns the bytes written."""
    n = 0
    with open(path, "wb", buffering=0) as f:  # unbuffered: nothing left to fail at close
        try:
            while True:
                n += f.write(b"\0" * 4096)
        except OSError:
            pass
    return n


@pytest.fixture
def cache_on_tiny_tmpfs():
    need_root()
    if not shutil.which("unshare"):
        pytest.skip("no unshare (util-linux)")
    mnt = tempfile.mkdtemp(prefix="verdict-faults-cache-", dir="/var/tmp")
    wrap = ["unshare", "--mount", "--propagation", "private", "sh", "-c",
            'mount -t tmpfs -o size=1m tmpfs "$0" && exec "$@"', mnt, *VERDICT_CMD]
    s = Server(cells=2, cmd=wrap, extra=("--cache", mnt + "/artifacts"))
    try:
        yield s, Log(s.proc), f"/proc/{s.proc.pid}/root{mnt}"
    finally:
        code, left = s.stop()
        assert not mounts_naming(mnt), "the tmpfs outlived its namespace"
        os.rmdir(mnt)
        assert code == 0 and not left


def test_cache_disk_full_compiles_run_uncached(cache_on_tiny_tmpfs):
    s, log, there = cache_on_tiny_tmpfs
    assert not mounts_naming(there.split("/root", 1)[1]), "the tmpfs is visible outside"
    assert fill(there + "/filler") > 0

    for k in (2, 3):  # twice each: nothing is kept, each request compiles and runs right
        for _ in range(2):
            r = s.run_code(code=C_ECHO.format(k=k), language="c", stdin="21")
            assert r["status"] == "Success", r
            assert r["compile_result"]["cached"] is False, r
            assert r["run_result"]["stdout"] == f"{21 * k}\n", r
    r = s.run_code(code=C_BROKEN, language="c")
    assert r["status"] == "Failed" and r["run_result"] is None, r
    assert r["compile_result"]["verdict"] == "CE" and "error" in r["compile_result"]["stderr"], r
    r = s.run_code(code=C_EXIT3, language="c")
    assert r["status"] == "Failed" and r["run_result"]["return_code"] == 3, r
    j = s.post("/v1/judge", {"code": C_ECHO.format(k=2), "language": "c",
                             "tests": [{"stdin": "1", "expected": "2"},
                                       {"stdin": "2", "expected": "5"}]}).json()
    assert [t["verdict"] for t in j["tests"]] == ["OK", "WA"] and j["reward"] == 0.5, j

    failures = health(s)["compile_cache"]["write_errors"]
    assert failures >= 7, health(s)
    assert metric(s, "verdict_compile_cache_write_errors_total") == failures
    assert metric(s, "verdict_sandbox_errors_total") == 0
    wait_for("the cache's failure in the log", lambda: "compile cache: write" in log.text(), 10)
    assert not [n for n in os.listdir(there + "/artifacts") if ".tmp." in n]  # builds given up

    os.unlink(there + "/filler")  # room again: the next compile is kept, and then served
    r = s.run_code(code=C_ECHO.format(k=5), language="c", stdin="3")
    assert r["compile_result"]["cached"] is False and r["run_result"]["stdout"] == "15\n", r
    r = s.run_code(code=C_ECHO.format(k=5), language="c", stdin="4")
    assert r["compile_result"]["cached"] is True and r["run_result"]["stdout"] == "20\n", r
    assert health(s)["compile_cache"]["write_errors"] == failures
