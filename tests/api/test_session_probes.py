"""The sandbox's hostile probes (tests/sandbox/probes, expectations in probe_table.h), run inside
sessions (/v1/sessions) of a real server on loopback: each must stay contained there as it does
as a job (tests/sandbox/test_sandbox.c), and the cell a session gives back must be wiped
exactly as after a job.

For each entry of probe_table.h: a session of the probe's language (.c: "c", .py: "python",
.sh: "bash") with the probe's limits (mem_mb -> memory_mb and call_memory_mb, pids -> pids,
time_ms -> call_time_ms, wall_ms -> call_wall_ms; else the C driver's defaults: 128 MiB, 32
pids, 1 s / 3 s where TLE is expected, 10 s / 20 s otherwise; a probe that must not time out
gets twice its wall time), one call that asks the cell's uid, then the probe's call: no
"ESCAPED" in its output, its verdict among the expected ones, its `stdout_has`, its fetch
refused or not. The session is deleted; then the server is healthy, no cell was replaced,
nothing of the session runs (neither in the server's cgroups nor as the cell's uid on the
host), nothing reached the host's loopback listener, and probes/canary.c, in a new session on
the same cell (the server is small: 2 warm cells, 4 at most, 2 sessions; each session is opened
with no cell busy, so the pool gives the canary the probe's cell, which its uid shows), finds
/w, /tmp, /dev/shm, the process table and SysV IPC clean.

How the table maps onto sessions (no probe is skipped):
- `.args` (C probes only; sessions have no argv): the probe's main is renamed and a main(void)
  calls it with ("./main", args...); "@PORT" is the port of this test's TCP listener (and UDP
  socket) on the host's 127.0.0.1.
- `#include "probe.h"` is replaced by the header's text (a session compiles main.c alone).
- `.stdin_mb`: the call's `stdin`; `.fetch`: its `fetch_files`. A fetch that must fail is tried
  again by a second call that also writes that path with `files` (in a session the link or FIFO
  the probe left is still there): it answers (the server refuses the write: CE, "cannot write
  out.txt"), never through the link, and the host file the link names is unchanged.
- `.output_kb` (stderr_flood's 64 KiB) has no session counterpart: a call's output cap is the
  server's 16 MiB, so the flood is OLE at that cap instead.
- py_zygote_reach checks what a process forked from the cell's warm interpreter may hold. A
  session's interpreter holds its own request/answer pipes and output files by design (fds
  3-7, close-on-exec), so the probe runs as a process the session's interpreter starts
  (subprocess, close_fds=False: all the interpreter could pass on is passed on).
- EDITS: two C probes assume the C driver's bare pool rather than a server. file_limits
  expects RLIMIT_FSIZE at 16 MiB: the server's is 64 MiB, as is /w, so its bound becomes 64 MiB
  and ENOSPC counts as EFBIG. read_root_home expects /var empty: on a server /var holds the
  mount points of the languages' toolchain binds and of the compile cache, so /var is left out
  of its list and test_var_shows_only_binds checks it instead.
- canary.c lists /w: a session's call compiles main.c into main there, so the canary removes
  its own main.c first and allows main; it also prints its uid (the cell it ran in).

Also: two sessions at once, one holding a Python variable, a file and a background process
while the other runs kill_all, ptrace_sibling and proc_scan, then the other way round (a C call
holding a child and files while the Python session runs kill(-1) and scans for processes):
each session's state outlives the other's attacks."""
import base64
import contextlib
import hashlib
import json
import os
import re
import socket
import threading
import time
import uuid

import pytest
import requests

from conftest import (LANGUAGES, VERDICT, Server, cgroup_procs, host_pids_with,
                      wait_for)

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
PROBES = os.path.join(ROOT, "tests", "sandbox", "probes")
TABLE = os.path.join(ROOT, "tests", "sandbox", "probe_table.h")
FIELDS = {"name", "file", "expect", "stdout_has", "args", "time_ms", "wall_ms", "mem_mb", "pids",
          "output_kb", "stdin_mb", "fetch", "fetch_must_fail"}
LANG = {".c": "c", ".py": "python", ".sh": "bash"}
VERDICTS = {"OK", "RE", "TLE", "MLE", "OLE", "CE", "SE"}


# ---- the table ---------------------------------------------------------------------------

_FIELD = re.compile(r'\s*\.(\w+)\s*=\s*("(?:[^"\\]|\\.)*"|\{[^{}]*\}|-?\d+)\s*,?')
_STRING = re.compile(r'"((?:[^"\\]|\\.)*)"')


def parse_table(text):
    """probe_table.h's entries as dicts (fields as written: strings, ints, lists of strings)."""
    text = re.sub(r"/\*.*?\*/", "", text, flags=re.S)
    cases, pos = [], 0
    while (start := text.find("{.", pos)) >= 0:
        pos, case = start + 1, {}
        while m := _FIELD.match(text, pos):
            raw = m.group(2)
            if raw.startswith('"'):
                case[m.group(1)] = json.loads(raw)
            elif raw.startswith("{"):
                case[m.group(1)] = [json.loads(f'"{s}"') for s in _STRING.findall(raw)]
            else:
                case[m.group(1)] = int(raw)
            pos = m.end()
        assert text[pos:].lstrip().startswith("}"), \
            f"probe_table.h: cannot read the entry at {text[start:start + 120]!r}"
        cases.append(case)
    return cases


with open(TABLE) as _f:
    CASES = parse_table(_f.read())


def read(name):
    with open(os.path.join(PROBES, name)) as f:
        return f.read()


# Where a probe assumes the C driver's bare pool rather than a server (see the docstring).
EDITS = {
    # RLIMIT_FSIZE: the C driver's jobs have 16 MiB, the server's jobs and sessions 64 MiB
    # (runners/job.c), which is also the size of /w: the write stops at EFBIG or ENOSPC.
    "file_limits": [("16 * MiB", "64 * MiB"), ("(16 MiB)", "(64 MiB)"),
                    ("errno != EFBIG)", "(errno != EFBIG && errno != ENOSPC))")],
    # /var holds the server's binds (languages' toolchains, the compile cache): what shows
    # there is test_var_shows_only_binds's.
    "read_root_home": [('"/home", "/work", "/var", "/run"', '"/home", "/work", "/run"')],
}


def c_source(case):
    """The probe's C source as one main.c: probe.h inlined, EDITS made; with args, a main(void)
    that calls the probe's main with them."""
    src = read(case["file"])
    for old, new in EDITS.get(case["name"], ()):
        assert src.count(old) == 1, f"{case['file']} changed: {old!r} is not there once"
        src = src.replace(old, new)
    if '#include "probe.h"' in src:
        src = src.replace('#include "probe.h"', read("probe.h"), 1)
    args = case.get("args")
    if not args:
        return src
    argv = ", ".join(json.dumps(a) for a in ["./main", *args])
    return (f"#define main probe_main\n{src}\n#undef main\n"
            f"int main(void)\n{{\n    static char *argv[] = {{{argv}, 0}};\n"
            f"    return probe_main({len(args) + 1}, argv);\n}}\n")


def canary_source():
    src = read("canary.c")
    for old, new in (('expect_empty("/w", "canary");',
                      'unlink("/w/main.c");\n    expect_empty("/w", "main");'),
                     ("int main(void)\n{\n",
                      'int main(void)\n{\n    printf("uid %u\\n", (unsigned)getuid());\n')):
        assert src.count(old) == 1, f"canary.c changed: {old!r} is not there once"
        src = src.replace(old, new)
    return src


UID_CODE = {"c": '#include <stdio.h>\n#include <unistd.h>\n'
                 'int main(void)\n{\n    printf("%u\\n", (unsigned)getuid());\n    return 0;\n}\n',
            "python": "import os\nprint(os.getuid())", "bash": "id -u"}


def limits(case):
    """The session's limits: the probe's, else the C driver's defaults. A probe that must not
    time out gets twice its wall time (tcp_hold waits on its sockets for about 7 s of its 15 on
    an idle machine): its verdict is about memory, not time."""
    may_tle = "TLE" in case["expect"].split("|")
    mem = case.get("mem_mb") or 128
    wall = case.get("wall_ms") or (3000 if may_tle else 20000)
    return {"memory_mb": mem, "call_memory_mb": mem, "pids": case.get("pids") or 32,
            "call_time_ms": case.get("time_ms") or (1000 if may_tle else 10000),
            "call_wall_ms": wall if may_tle else 2 * wall}


def b64(data):
    return base64.b64encode(data if isinstance(data, bytes) else data.encode()).decode()


# ---- the server and the host's listeners -------------------------------------------------

class Host:
    """A TCP listener and a UDP socket on the host's 127.0.0.1 (one port): a probe's "@PORT".
    Nothing from a session may reach either."""

    def __init__(self):
        self.tcp = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self.tcp.bind(("127.0.0.1", 0))
        self.tcp.listen(8)
        self.tcp.setblocking(False)
        self.port = self.tcp.getsockname()[1]
        self.udp = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        self.udp.bind(("127.0.0.1", self.port))
        self.udp.setblocking(False)

    def reached(self):
        """What reached the host since the last look (None: nothing)."""
        try:
            conn, peer = self.tcp.accept()
            conn.close()
            return f"a TCP connection from {peer}"
        except BlockingIOError:
            pass
        try:
            data, peer = self.udp.recvfrom(64)
            return f"a UDP datagram {data!r} from {peer}"
        except BlockingIOError:
            return None

    def close(self):
        self.tcp.close()
        self.udp.close()


@pytest.fixture(scope="module")
def srv():
    if os.geteuid() != 0:
        pytest.skip("the sandbox needs root")
    s = Server(cells=2, extra=("--max-cells", "4", "--max-sessions", "2", "--client-sessions", "2"))
    s.host = Host()
    s.exe = os.path.realpath(VERDICT)
    yield s
    s.host.close()
    code, left = s.stop()
    assert code == 0, "server did not stop cleanly"
    assert not left, f"cells outlived the server: {left}"


def health(s):
    r = requests.get(s.url + "/healthz", timeout=30)
    assert r.status_code == 200, (r.status_code, r.text)
    return r.json()


def idle(s):
    """Waits for every cell to be free (a deleted session's cell comes back a moment after
    the DELETE's answer) and returns /healthz."""
    return wait_for("every cell free", lambda: (lambda h: h if h["cells_busy"] == 0 and
                                                 h["sessions"]["open"] == 0 else None)(health(s)),
                    timeout=30, step=0.02)


def open_session(s, language, lim=None):
    r = s.post("/v1/sessions", {"language": language, **({"limits": lim} if lim else {})})
    assert r.status_code == 201, (r.status_code, r.text)
    return r.json()["id"]


def delete(s, sid):
    r = requests.delete(f"{s.url}/v1/sessions/{sid}", timeout=120)
    assert r.status_code == 200 and r.json()["state"] == "closed", (r.status_code, r.text)


@contextlib.contextmanager
def session(s, language, lim=None):
    sid = open_session(s, language, lim)
    try:
        yield sid
    finally:
        requests.delete(f"{s.url}/v1/sessions/{sid}", timeout=120)


def call(s, sid, timeout=120, **body):
    r = s.post(f"/v1/sessions/{sid}/exec", body, timeout=timeout)
    assert r.status_code == 200, (r.status_code, r.text)
    d = r.json()
    d.pop("session", None)
    assert d["verdict"] in VERDICTS and d["verdict"] != "SE", d
    return d


def shown(d, *what):
    """A failure message: what, then the answer (a string: pytest would cut a dict), its long
    outputs cut."""
    return " ".join(map(str, what)) + ": " + json.dumps(
        {k: (v[:2000] + "..." if isinstance(v, str) and len(v) > 2000 else v)
         for k, v in d.items() if k != "cells"})


def host_processes_of(uid, exe):
    """Processes of the host owned by uid (a cell's job uid) other than the cells' own
    (the verdict binary: a cell's spare for its next job)."""
    found = {}
    for d in os.listdir("/proc"):
        if d.isdigit():
            try:
                if os.stat(f"/proc/{d}").st_uid != uid:
                    continue
                if os.path.realpath(f"/proc/{d}/exe") == exe:
                    continue
                with open(f"/proc/{d}/cmdline", "rb") as f:
                    found[int(d)] = f.read().replace(b"\0", b" ").decode(errors="replace")
            except OSError:
                pass
    return found


def sha(path):
    with open(path, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()


# ---- the table, then each probe ----------------------------------------------------------

def test_table_read():
    """probe_table.h read whole: every entry named, of a known language, with fields this test
    maps (a new field must be mapped here before it is trusted)."""
    assert len(CASES) >= 60, [c.get("name") for c in CASES]
    for c in CASES:
        assert set(c) <= FIELDS, (c, set(c) - FIELDS)
        assert c.get("name") and c.get("file") and c.get("expect"), c
        assert os.path.splitext(c["file"])[1] in LANG, c
        assert os.path.exists(os.path.join(PROBES, c["file"])), c
        assert set(c["expect"].split("|")) <= VERDICTS, c
        assert not c.get("args") or c["file"].endswith(".c"), c  # only C probes take args


def run_probe(s, case, sid, language):
    if language == "c":
        body = {"code": c_source(case)}
    elif case["name"] == "py_zygote_reach":
        body = {"files": {case["file"]: b64(read(case["file"]))},
                "code": "import subprocess, sys\n"
                        f"r = subprocess.run([sys.executable, '-I', {case['file']!r}], "
                        "close_fds=False, capture_output=True, text=True)\n"
                        "print(r.stdout, end='')\nprint(r.stderr, end='', file=sys.stderr)\n"
                        "print('exit', r.returncode)"}
    else:
        body = {"code": read(case["file"])}
    if case.get("stdin_mb"):
        body["stdin"] = "x" * (case["stdin_mb"] << 20)
    if case.get("fetch"):
        body["fetch_files"] = [case["fetch"]]
    if case.get("args"):
        port = str(s.host.port)
        body["code"] = body["code"].replace('"@PORT"', json.dumps(port))
    return call(s, sid, timeout=180, **body)


@pytest.mark.parametrize("case", CASES, ids=[c["name"] for c in CASES])
def test_probe_in_session(srv, case):
    s = srv
    language = LANG[os.path.splitext(case["file"])[1]]
    replaced = idle(s)["cells_replaced"]
    sid = open_session(s, language, limits(case))
    try:
        d = call(s, sid, code=UID_CODE[language])
        assert d["verdict"] == "OK" and d["stdout"].strip().isdigit(), shown(d)
        uid = int(d["stdout"])
        t = time.monotonic()
        d = run_probe(s, case, sid, language)
        took = time.monotonic() - t
        out = d["stdout"] + d["stderr"] + json.dumps(d.get("compile"))
        assert "ESCAPED" not in out, shown(d, "ESCAPED inside a session", case["name"])
        if language == "c":
            assert d["compile"] and d["compile"]["verdict"] == "OK", shown(d)
        assert d["verdict"] in case["expect"].split("|"), \
            shown(d, f"want {case['expect']}", case["name"])
        if case.get("stdout_has"):
            assert case["stdout_has"] in d["stdout"], shown(d, case["stdout_has"])
        if case["name"] == "py_zygote_reach":
            assert d["stdout"].endswith("exit 0\n"), shown(d)
        assert took < 120, shown(d, took)
        if case.get("fetch"):
            fetched = (d.get("files") or {}).get(case["fetch"])
            if case.get("fetch_must_fail"):
                assert fetched is None, shown(d, "a link or FIFO fetched")
                target = case.get("args", [""])[0]
                host = os.path.normpath(os.path.join("/w", target)) if target else None
                before = sha(host) if host and os.path.isfile(host) else None
                # The link or FIFO is still in the work dir: writing and fetching its path
                # again neither follows nor stalls.
                r = s.post(f"/v1/sessions/{sid}/exec",
                           {"code": UID_CODE[language],
                            "files": {case["fetch"]: b64("written by the test\n")},
                            "fetch_files": [case["fetch"]]}, timeout=60)
                assert r.status_code == 200, (r.status_code, r.text)
                again = r.json()
                assert again["verdict"] != "SE", shown(again, "the code's own link: no SE")
                got = (again.get("files") or {}).get(case["fetch"])
                assert got is None or base64.b64decode(got) == b"written by the test\n", \
                    shown(again)
                if before is not None:
                    assert sha(host) == before, f"{host} changed on the host"
            else:
                assert fetched is not None, shown(d, "a regular file not fetched")
    finally:
        delete(s, sid)
    h = idle(s)
    assert h["cells_replaced"] == replaced, ("a cell died under the session", h)
    wait_for("the server's cgroups to empty", lambda: not cgroup_procs(s.proc.pid),
             timeout=10, step=0.05)
    left = host_processes_of(uid, s.exe)
    assert not left, ("processes of the session's uid on the host", left)
    assert s.host.reached() is None, "a session reached the host's loopback"
    # The canary, in a new session on the same cell.
    with session(s, "c") as canary:
        c = call(s, canary, code=canary_source())
    assert c["verdict"] == "OK" and "clean" in c["stdout"], shown(c, "canary after", case["name"])
    assert f"uid {uid}\n" in c["stdout"], shown(c, "the canary ran in another cell", uid)


# ---- two sessions against each other ------------------------------------------------------

HOLDER = ('#include <signal.h>\n#include <stdio.h>\n#include <string.h>\n#include <sys/wait.h>\n'
          '#include <unistd.h>\n'
          'int main(void)\n{\n'
          '    pid_t kid = fork();\n'
          '    if (kid == 0) {\n        execl("/bin/sleep", "MARKER", "30", (char *)0);\n'
          '        _exit(1);\n    }\n'
          '    FILE *f = fopen("/tmp/k_tmp.txt", "w");\n'
          '    fputs("k-tmp", f);\n    fclose(f);\n'
          '    sleep(4);\n'
          '    int alive = waitpid(kid, NULL, WNOHANG) == 0 && kill(kid, 0) == 0;\n'
          '    char a[32] = "", b[32] = "";\n'
          '    FILE *g = fopen("k.txt", "r"), *h = fopen("/tmp/k_tmp.txt", "r");\n'
          '    if (g && fgets(a, sizeof(a), g)) fclose(g);\n'
          '    if (h && fgets(b, sizeof(b), h)) fclose(h);\n'
          '    int ok = alive && !strcmp(a, "k-state") && !strcmp(b, "k-tmp");\n'
          '    printf("%s: child %s, k.txt %s, /tmp %s\\n", ok ? "intact" : "harmed",\n'
          '           alive ? "alive" : "dead", a, b);\n'
          '    kill(kid, SIGKILL);\n    return 0;\n}\n')

SCAN = ("import os, signal\n"
        "os.kill(-1, signal.SIGKILL)\n"  # Linux spares the caller: this interpreter lives
        "bg.wait()\n"  # its own background process, killed by its own kill(-1)
        "me = os.getpid()\n"
        "listed = sorted(int(p) for p in os.listdir('/proc') if p.isdigit())\n"
        "found = []\n"
        # every pid this namespace has handed out so far (a cell's pids grow across its jobs)
        "top = min(me + 65536, int(open('/proc/sys/kernel/pid_max').read()))\n"
        "for pid in range(2, top):\n"
        "    if pid != me:\n"
        "        try:\n            os.kill(pid, 0)\n            found.append(pid)\n"
        "        except PermissionError:\n            found.append(pid)\n"
        "        except ProcessLookupError:\n            pass\n"
        "print('listed', listed, 'self', me, 'signalable', found)\n")


def test_two_sessions_attack_each_other(srv):
    """V (Python) holds a variable, a file and a background process while K (C) runs kill_all,
    ptrace_sibling and proc_scan; then a call of K holds a child and files while V runs
    kill(-1) and signals every pid: each finds only its own, and the other's state lives."""
    s = srv
    idle(s)
    marker = "verdict-holder-" + uuid.uuid4().hex
    with session(s, "python") as v, session(s, "c") as k:
        d = call(s, v, code="import subprocess\nheld = 'v-state'\n"
                            "open('v.txt', 'w').write('v-file')\n"
                            f"bg = subprocess.Popen([{marker!r}, '60'], executable='/bin/sleep')")
        assert d["verdict"] == "OK", shown(d)
        wait_for("V's background process", lambda: len(host_pids_with(marker)) == 1, timeout=10)
        d = call(s, k, code="int main(void) { return 0; }\n", files={"k.txt": b64("k-state")})
        assert d["verdict"] == "OK", shown(d)
        # K attacks while V holds its state between calls.
        for name in ("kill_all", "ptrace_sibling", "proc_scan"):
            case = next(c for c in CASES if c["name"] == name)
            d = call(s, k, code=c_source(case))
            assert "ESCAPED" not in d["stdout"] + d["stderr"], shown(d, name)
            assert d["verdict"] == "OK" and "contained:" in d["stdout"], shown(d, name)
        d = call(s, v, code="print(held, open('v.txt').read(), bg.poll())")
        assert d["state"] == "kept" and d["stdout"] == "v-state v-file None\n", shown(d)
        assert len(host_pids_with(marker)) == 1, "V's background process is gone"
        # V attacks (kill(-1), a scan of every pid) while a call of K holds a child and files.
        kmark = "verdict-kchild-" + uuid.uuid4().hex
        held = {}
        th = threading.Thread(target=lambda: held.update(
            call(s, k, code=HOLDER.replace("MARKER", kmark), timeout_ms=20000)))
        th.start()
        try:
            wait_for("K's child", lambda: host_pids_with(kmark), timeout=15)
            d = call(s, v, code=SCAN)
        finally:
            th.join(timeout=60)
        assert not th.is_alive(), "K's call did not end"
        m = re.fullmatch(r"listed \[(.*)\] self (\d+) signalable \[(.*)\]\n", d["stdout"])
        assert d["verdict"] == "OK" and m, shown(d)
        listed = {int(p) for p in m.group(1).split(", ")}
        assert listed <= {1, int(m.group(2))} and m.group(3) == "", \
            shown(d, "V sees processes not its own")
        assert held.get("verdict") == "OK" and held["stdout"].startswith("intact:"), shown(held)
        d = call(s, v, code="print(held, open('v.txt').read())")
        assert d["state"] == "kept" and d["stdout"] == "v-state v-file\n", shown(d)
        d = call(s, k, code="int main(void) { return 0; }\n", fetch_files=["k.txt"])
        assert base64.b64decode(d["files"]["k.txt"]) == b"k-state", shown(d)
    wait_for("the sessions' processes to end",
             lambda: not host_pids_with(marker) and not host_pids_with(kmark), timeout=10)


VAR = ("import json, os\n"
       "mounts = {}\n"
       "for line in open('/proc/self/mountinfo'):\n"
       "    f = line.split()\n"
       "    mounts[f[4]] = f[5].split(',')\n"
       "shown = []\n"
       "for d, subdirs, files in os.walk('/var'):\n"
       "    shown += [os.path.join(d, x) for x in files]\n"
       "    shown += [os.path.join(d, x) for x in subdirs]\n"
       "    subdirs[:] = [x for x in subdirs if os.path.join(d, x) not in mounts]\n"
       "def listable(p):\n"
       "    try:\n        return os.listdir(p)\n    except OSError as e:\n        return str(e)\n"
       "print(json.dumps({'shown': shown, 'listable': listable(CACHE),\n"
       "                  'mounts': {m: o for m, o in mounts.items() if m.startswith('/var/')}}))")


def test_var_shows_only_binds(srv):
    """/var in a session (read_root_home's check, mapped): only the mount points of the
    server's binds (the languages' toolchain dirs, the compile cache) and the directories
    above them, each read-only; the compile cache cannot be listed."""
    idle(srv)
    cache = os.path.join(srv.cache, "artifacts")  # conftest's --cache
    binds = {cache}
    for name in os.listdir(LANGUAGES):
        if name.endswith(".json"):
            with open(os.path.join(LANGUAGES, name)) as f:
                binds.update(json.load(f).get("binds", []))
    with session(srv, "python") as sid:
        d = call(srv, sid, code=VAR.replace("CACHE", repr(cache)))
    assert d["verdict"] == "OK", shown(d)
    seen = json.loads(d["stdout"])
    for m, opts in seen["mounts"].items():
        assert m in binds and "ro" in opts, f"a mount under /var, no bind: {m} {opts}: {seen}"
    above = set()
    for m in seen["mounts"]:
        while m != "/":
            m = os.path.dirname(m)
            above.add(m)
    for p in seen["shown"]:
        assert p in seen["mounts"] or p in above, f"/var shows more than the binds: {p}: {seen}"
    assert isinstance(seen["listable"], str) and "Permission denied" in seen["listable"], seen


def test_server_intact(srv):
    """After every probe: the server answers, no cell was replaced, no session is open."""
    h = idle(srv)
    assert h["status"] == "ok" and h["cells_replaced"] == 0, h
    assert h["sessions"]["closed"]["lost"] == 0, h
    assert srv.run_code(code="print(6 * 7)", language="python")["run_result"]["stdout"] == "42\n"
