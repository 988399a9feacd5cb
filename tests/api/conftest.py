"""A real `verdict serve` on 127.0.0.1 (a free port), shared by the API tests of a module."""
import importlib.util
import os
import re
import shutil
import signal
import subprocess
import tempfile
import time

import pytest
import requests

VERDICT = os.environ.get("VERDICT_BIN", "build/dev/verdict")
# The command that starts verdict: $VERDICT_LAUNCHER, when set, goes first (on the cgroup v2
# guest, tests/vm/own-cgroup.sh gives each verdict a cgroup of its own).
VERDICT_CMD = [*filter(None, [os.environ.get("VERDICT_LAUNCHER")]), VERDICT]
LANGUAGES = os.environ.get("VERDICT_LANGUAGES", "languages")
EXAMPLES = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))),
                        "examples")


def load_example(relpath):
    """A module of examples/ (a trainer integration), loaded from its file."""
    path = os.path.join(EXAMPLES, relpath)
    spec = importlib.util.spec_from_file_location(os.path.basename(path)[:-3], path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def wait_for(what, cond, timeout=60, step=0.05):
    """Polls cond() (bounded) until it returns something true, and returns that; fails
    naming what."""
    deadline = time.monotonic() + timeout
    while True:
        v = cond()
        if v:
            return v
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        time.sleep(step)


def needs_root():
    """Skips the test where the sandbox cannot run: it needs root."""
    if os.geteuid() != 0:
        pytest.skip("the sandbox needs root")


def exit_77_when_all_skipped(session, exitstatus):
    """A pytest_sessionfinish for suites whose ctest entry skips on 77: every test skipped
    (no root, a missing tool) ends the run with 77 rather than a pass."""
    reporter = session.config.pluginmanager.get_plugin("terminalreporter")
    stats = reporter.stats if reporter else {}
    if exitstatus == 0 and stats.get("skipped") and not stats.get("passed"):
        session.exitstatus = 77


def server_cgroups(pid):
    """The cgroup trees verdict makes for server `pid`: "verdict-<pid>" beneath the server's
    own cgroup in each v1 hierarchy (or v2's, and its "verdict-server-<pid>" leaf), those
    that exist now (runners/cgroup.c)."""
    dirs = []
    try:
        with open(f"/proc/{pid}/cgroup") as f:
            lines = f.read().splitlines()
    except OSError:
        return dirs
    for line in lines:
        _, ctrls, path = line.split(":", 2)
        if os.path.basename(path) == f"verdict-server-{pid}":  # v2: it moved into this leaf
            path = os.path.dirname(path)
        for ctrl in ctrls.split(","):
            base = os.path.join("/sys/fs/cgroup", ctrl.replace("name=", "") or "unified")
            for name in (f"verdict-{pid}", f"verdict-server-{pid}"):
                d = os.path.normpath(f"{base}/{path}/{name}")
                if os.path.isdir(d) and d not in dirs:
                    dirs.append(d)
    return dirs


def cgroup_procs(pid):
    """The processes in server `pid`'s cgroup trees: {pid: its cgroup directory}."""
    procs = {}
    for top in server_cgroups(pid):
        for d, _, _ in os.walk(top):
            try:
                with open(d + "/cgroup.procs") as f:
                    procs.update({int(p): d for p in f.read().split()})
            except OSError:
                pass
    return procs


def host_pids_with(marker):
    """Processes of this host (but the caller) whose command line holds marker."""
    found = set()
    for d in os.listdir("/proc"):
        if d.isdigit() and int(d) != os.getpid():
            try:
                with open(f"/proc/{d}/cmdline", "rb") as f:
                    if marker.encode() in f.read():
                        found.add(int(d))
            except OSError:
                pass
    return found


def cell_pids(parent):
    """Cells of the server `parent` (its children running `verdict __cell`)."""
    pids = set()
    for d in os.listdir("/proc"):
        if d.isdigit():
            try:
                with open(f"/proc/{d}/cmdline", "rb") as f:
                    cmd = f.read()
                with open(f"/proc/{d}/status") as f:
                    ppid = int(next(l for l in f if l.startswith("PPid:")).split()[1])
                if b"__cell" in cmd and ppid == parent:
                    pids.add(int(d))
            except (OSError, StopIteration):
                pass
    return pids


def alive(pids):
    return {p for p in pids if os.path.exists(f"/proc/{p}")}


class Server:
    def __init__(self, cells=4, extra=(), env=None, listen="127.0.0.1:0", cmd=None):
        """cells=None: serve's default (a warm cell per usable CPU). listen: the address served on (one
        beyond loopback, e.g. 0.0.0.0:0, is still reached at 127.0.0.1). cmd: what runs
        verdict instead of VERDICT_CMD (a wrapper that execs it, or another build of it)."""
        self.cache = tempfile.mkdtemp(prefix="verdict-api-cache-", dir="/var/tmp")
        self.proc = subprocess.Popen(
            [*(cmd or VERDICT_CMD), "serve", "--listen", listen,
             *(["--cells", str(cells)] if cells else []),
             "--languages", LANGUAGES, "--cache", self.cache + "/artifacts",
             "--db", self.cache + "/verdict.db", *extra],
            stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
            env={**os.environ, **(env or {})})
        said = ""
        for _ in range(100):  # dataset imports report first, then the address
            line = self.proc.stderr.readline().decode()
            said += line
            m = re.search(r"serving on http://[\d.]+:(\d+)", line)
            if m or not line:
                break
        if not m:  # nothing of a server that did not start outlives the test
            self.proc.kill()
            self.proc.wait(timeout=60)
            shutil.rmtree(self.cache, ignore_errors=True)
        assert m, f"server did not start: {said}"
        self.url = f"http://127.0.0.1:{m.group(1)}"
        self.cells = cell_pids(self.proc.pid)
        assert len(self.cells) >= (cells or 1), f"expected {cells} cells, found {self.cells}"

    def post(self, path, body, **kw):
        return requests.post(self.url + path, json=body, timeout=kw.pop("timeout", 60), **kw)

    def get_json(self, path):
        r = requests.get(self.url + path, timeout=30)
        assert r.status_code == 200, r.text
        return r.json()

    def get_text(self, path):
        r = requests.get(self.url + path, timeout=30)
        assert r.status_code == 200, r.text
        return r.text

    def run_code(self, **body):
        r = self.post("/run_code", body)
        assert r.status_code == 200, r.text
        return r.json()

    def kill(self):
        """SIGKILL, as a crash: nothing is flushed or stopped in order (the cells die with
        the server). Returns the cells that outlived it."""
        self.cells |= cell_pids(self.proc.pid)
        self.proc.kill()
        self.proc.wait(timeout=60)
        shutil.rmtree(self.cache, ignore_errors=True)
        for _ in range(50):  # cells end when their parent dies (PDEATHSIG)
            if not alive(self.cells):
                break
            time.sleep(0.1)
        return alive(self.cells)

    def stop(self):
        self.cells |= cell_pids(self.proc.pid)  # those started on demand too
        self.proc.send_signal(signal.SIGTERM)
        code = self.proc.wait(timeout=60)
        shutil.rmtree(self.cache, ignore_errors=True)
        time.sleep(0.2)  # a killed process may linger a moment as a zombie of init
        return code, alive(self.cells)


@pytest.fixture(scope="module")
def server():
    if os.geteuid() != 0:
        pytest.skip("the sandbox needs root")
    s = Server()
    yield s
    code, left = s.stop()
    assert code == 0, "server did not stop cleanly"
    assert not left, f"cells outlived the server: {left}"
