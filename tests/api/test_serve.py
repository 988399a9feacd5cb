"""`verdict serve` itself, against real servers: options from a --config file, VERDICT_*
variables and the command line (in that order of precedence, lowest first), the header limit,
and a cell that dies while the server runs."""
import os
import signal
import subprocess
import time

import pytest
import requests

from conftest import VERDICT_CMD, Server


@pytest.fixture
def config(tmp_path):
    def write(text):
        path = tmp_path / "verdict.conf"
        path.write_text(text)
        return str(path)
    return write


def body_of(size):
    """A /run_code body of about size bytes."""
    return {"code": "print(1)", "language": "python", "stdin": "x" * size}


def test_config_env_and_flags(config):
    if os.geteuid() != 0:
        pytest.skip("the sandbox needs root")
    path = config("# limits\nmax-body = 1K\nmax-header = 8K\nqueue = 16\n")
    s = Server(cells=1, extra=["--config", path])
    try:
        assert s.post("/run_code", body_of(2000)).status_code == 413
        assert s.run_code(**body_of(500))["run_result"]["stdout"] == "1\n"
        # Headers past --max-header: 431, and the server carries on.
        r = requests.get(s.url + "/v1/ping", headers={"X-Big": "y" * 16384}, timeout=10)
        assert r.status_code == 431
        r = requests.get(s.url + "/v1/ping", headers={"X-Fits": "y" * 4096}, timeout=10)
        assert r.status_code == 200
    finally:
        assert s.stop()[0] == 0
    # The environment wins over the file; the command line over both.
    s = Server(cells=1, extra=["--config", path], env={"VERDICT_MAX_BODY": "4K"})
    try:
        assert s.post("/run_code", body_of(2000)).status_code == 200
        assert s.post("/run_code", body_of(5000)).status_code == 413
    finally:
        assert s.stop()[0] == 0
    s = Server(cells=1, extra=["--max-body", "16K"],
               env={"VERDICT_MAX_BODY": "4K", "VERDICT_CONFIG": path})
    try:
        assert s.post("/run_code", body_of(5000)).status_code == 200
    finally:
        assert s.stop()[0] == 0


@pytest.mark.parametrize("text,says", [("cells = many\n", "verdict.conf:1: --cells"),
                                       ("colour = red\n", "unknown option 'colour'"),
                                       ("max-header = 1K\n", "--max-header must be 4K..1M")])
def test_bad_config_is_refused(config, text, says):
    p = subprocess.run([*VERDICT_CMD, "serve", "--config", config(text), "--listen", "127.0.0.1:0"],
                       stdin=subprocess.DEVNULL, capture_output=True, timeout=60)
    assert p.returncode != 0 and says in p.stderr.decode(), p.stderr


def test_dead_cell_is_replaced():
    if os.geteuid() != 0:
        pytest.skip("the sandbox needs root")
    s = Server(cells=1)
    try:
        (cell,) = s.cells
        os.kill(cell, signal.SIGKILL)  # our own cell process, not a probe
        for _ in range(3):
            r = s.run_code(code="print(6 * 7)", language="python")
            assert r["status"] == "Success" and r["run_result"]["stdout"] == "42\n", r
        health = requests.get(s.url + "/healthz", timeout=10).json()
        assert health["cells_replaced"] >= 1
        deadline = time.monotonic() + 10
        while os.path.exists(f"/proc/{cell}") and time.monotonic() < deadline:
            time.sleep(0.1)  # reaped by the server
    finally:
        code, left = s.stop()
    assert code == 0 and not left
