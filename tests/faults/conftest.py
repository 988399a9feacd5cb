"""Fault injection against the real server: the API tests' Server (a `verdict serve` on
127.0.0.1 with a temp --db and --cache, tests/api/conftest.py), and what a server leaves on
the host (its cells and their jobs, its cgroup trees, mounts), read from /proc. Every wait is
bounded; no time is asserted."""
import importlib.util
import os
import threading

import pytest
import requests

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

# Loaded under a name of its own: this directory has a conftest too.
_spec = importlib.util.spec_from_file_location(
    "verdict_api_conftest", os.path.join(ROOT, "tests", "api", "conftest.py"))
api = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(api)
Server = api.Server
VERDICT_CMD = api.VERDICT_CMD
cell_pids = api.cell_pids
alive = api.alive
wait_for = api.wait_for
server_cgroups = api.server_cgroups
pytest_sessionfinish = api.exit_77_when_all_skipped  # a hook: every test skipped -> 77

# verdict whose cells fail to create job cgroups on demand (faulty_verdict.c).
FAULTY = os.environ.get("VERDICT_FAULTY_BIN", "build/dev/tests/faults/faulty_verdict")
FAULTY_CMD = [*filter(None, [os.environ.get("VERDICT_LAUNCHER")]), FAULTY]


def need_root():
    if os.geteuid() != 0:
        pytest.skip("the sandbox needs root")


def proc_status(pid):
    """(ppid, uid, CPU seconds) of a process, or None once it is gone."""
    try:
        with open(f"/proc/{pid}/status") as f:
            fields = dict(l.split(":", 1) for l in f.read().splitlines() if ":" in l)
        with open(f"/proc/{pid}/stat") as f:
            stat = f.read().rsplit(")", 1)[1].split()
    except (OSError, ValueError):
        return None
    cpu = (int(stat[11]) + int(stat[12])) / os.sysconf("SC_CLK_TCK")
    return int(fields["PPid"].split()[0]), int(fields["Uid"].split()[0]), cpu


def running(pids):
    """Those of pids that are still running (neither gone nor a zombie not yet reaped)."""
    def state(pid):
        try:
            with open(f"/proc/{pid}/stat") as f:
                return f.read().rsplit(")", 1)[1].split()[0]
        except (OSError, IndexError):
            return "gone"
    return {p for p in pids if state(p) not in ("Z", "X", "gone")}


def jobs(cells):
    """The programs the cells are running now: {job pid: (its cell, CPU seconds)}. A job's
    first process is a child of its cell (pid 1 of the cell's namespace) and runs as the
    cell's unprivileged uid; the cell's other child, its warm Python interpreter, is root."""
    found = {}
    for d in os.listdir("/proc"):
        st = proc_status(d) if d.isdigit() else None
        if st and st[0] in cells and st[1] != 0:
            found[int(d)] = (st[0], st[2])
    return found


def health(s):
    return requests.get(s.url + "/healthz", timeout=30).json()


def metric(s, name):
    for line in requests.get(s.url + "/metrics", timeout=30).text.splitlines():
        if line.startswith(name + " "):
            return float(line.split()[1])
    raise AssertionError(f"no metric {name}")


def mount_namespaces(pids):
    """The mount namespaces of pids (a cell's holds its root, overlays and tmpfs mounts)."""
    found = set()
    for pid in pids:
        try:
            found.add(os.readlink(f"/proc/{pid}/ns/mnt"))
        except OSError:
            pass
    return found


def namespace_holders(namespaces):
    """Processes still in one of these mount namespaces: while none is, the namespace and
    every mount in it are gone."""
    held = set()
    for d in os.listdir("/proc"):
        try:
            if d.isdigit() and os.readlink(f"/proc/{d}/ns/mnt") in namespaces:
                held.add(int(d))
        except OSError:
            pass
    return held


def describe(pids):
    """Each pid's name, state and parent, for a failure's message."""
    out = []
    for pid in sorted(pids):
        try:
            with open(f"/proc/{pid}/status") as f:
                fields = dict(l.split(":", 1) for l in f if ":" in l)
            out.append(f"{pid} {fields['Name'].strip()} {fields['State'].strip()} "
                       f"ppid {fields['PPid'].strip()}")
        except (OSError, KeyError):
            out.append(f"{pid} (gone)")
    return "; ".join(out)


def mounts_naming(*paths):
    """Mounts in this test's namespace whose source or mount point is under one of paths."""
    with open("/proc/self/mounts") as f:
        return [l for l in f.read().splitlines()
                if any(p and p in " ".join(l.split()[:2]) for p in paths)]


class Log:
    """The server's stderr, read on as it runs (the pipe never fills): its lines so far."""

    def __init__(self, proc):
        self.lines = []
        self.thread = threading.Thread(target=self._read, args=(proc.stderr,), daemon=True)
        self.thread.start()

    def _read(self, pipe):
        for line in iter(pipe.readline, b""):
            self.lines.append(line.decode(errors="replace"))

    def text(self):
        return "".join(self.lines)
