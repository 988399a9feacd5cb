"""Python forked from the cell's warm interpreter (runners/zygote.h) against python3 started
by execve: a table of small programs whose observable results (verdict, exit status, stdout,
stderr) must be identical both ways. One server each way, one cell each, so that every
program of the warm server runs in the cell whose zygote is ready (checked per program)."""
import os
import signal
import time

import pytest

from conftest import Server, cell_pids

WARM_MARK = ("import sys as _s; _s.stderr.write('WARM' if 'statistics' in _s.modules else 'COLD');"
             " _s.stderr.flush()\n")
# Programs that never run a line (the mark cannot say how they started): run right after one
# that started warm, in the same cell, whose zygote serves every job.
UNMARKED = {"syntax_error", "indent_error"}

# SandboxFusion's anti-hack header (sandbox/utils/antihack.py, PY_HEADER), which its mbxp
# datasets put before a program as f'{PY_HEADER}\n\n{code}'.
SANDBOXFUSION_GUARD = """
# --- anti-hack code begin
import os
import sys
exit = None
os._exit = None
sys.exit = None
# --- anti-hack code end
"""

# A program that rebinds every builtin and every callable of os and sys (to None, or to a
# function that raises), keeping its own references to what it still needs.
REBIND_ALL = """
import builtins, os, sys
_write, _callable, _vars, _list, _setattr = sys.stdout.write, callable, vars, list, setattr
_ValueError = ValueError
def _boom(*args, **kwargs):
    raise RuntimeError("rebound by the program")
_n = 0
for _m in (builtins, os, sys):
    for _k in _list(_vars(_m)):
        if _callable(_vars(_m)[_k]):
            _setattr(_m, _k, %s)
            _n += 1
_write("rebound %%s\\n" %% ("hundreds" if _n > 300 else "few"))
"""

# (name, code, extra request fields). Nothing here may print a pid, a time or an address.
PROGRAMS = [
    ("sandboxfusion_guard", SANDBOXFUSION_GUARD + "\n\nprint('hello')", {}),
    ("sandboxfusion_guard_raise", SANDBOXFUSION_GUARD + "\n\nraise ValueError('v')", {}),
    ("sandboxfusion_guard_exit", SANDBOXFUSION_GUARD + "\n\nraise SystemExit(4)", {}),
    ("rebind_all_none", REBIND_ALL % "None", {}),
    ("rebind_all_raising", REBIND_ALL % "_boom", {}),
    ("excepthook_none", "import sys\nsys.excepthook = None\nraise ValueError('x')", {}),
    ("excepthook_deleted", "import sys\ndel sys.excepthook\nraise ValueError('x')", {}),
    ("excepthook_raises",
     "import sys\ndef hook(*a):\n    raise KeyError('in hook')\nsys.excepthook = hook\n"
     "raise ValueError('x')", {}),
    ("excepthook_exits",
     "import sys\ndef hook(*a):\n    raise SystemExit(6)\nsys.excepthook = hook\n"
     "raise ValueError('x')", {}),
    ("hello", "print('hello')", {}),
    ("no_newline", "import sys; sys.stdout.write('partial')", {}),
    ("exit3", "import sys; sys.exit(3)", {}),
    ("exit256", "import sys; sys.exit(256)", {}),
    ("exit_neg", "import sys; sys.exit(-1)", {}),
    ("exit_msg", "import sys; sys.exit('bye now')", {}),
    ("exit_none", "import sys; sys.exit(None)", {}),
    ("exit_true", "import sys; sys.exit(True)", {}),
    ("exit_obj", "raise SystemExit([1, 2])", {}),
    ("exit_builtin", "exit(5)", {}),
    ("os_exit", "import os; print('x', flush=True); os._exit(7)", {}),
    ("os_exit_unflushed", "import os; print('lost'); os._exit(0)", {}),
    ("value_error", "def f():\n    raise ValueError('boom')\nf()", {}),
    ("chained", "try:\n    1/0\nexcept Exception as e:\n    raise KeyError('k') from e", {}),
    ("syntax_error", "x = (\n", {}),
    ("indent_error", "if True:\nprint(1)", {}),
    ("keyboard_interrupt", "print('a', flush=True)\nraise KeyboardInterrupt", {}),
    ("sigkill", "import os, signal; os.kill(os.getpid(), signal.SIGKILL)", {}),
    ("raise_signal", "import signal; signal.raise_signal(signal.SIGTERM)", {}),
    ("abort", "import os; os.abort()", {}),
    ("segv", "import ctypes; ctypes.string_at(0)", {}),
    ("atexit", "import atexit\natexit.register(print, 'at exit')\nprint('main')", {}),
    ("atexit_exit", "import atexit, sys\natexit.register(print, 'bye')\nsys.exit(2)", {}),
    ("atexit_raise", "import atexit\natexit.register(print, 'after')\nraise RuntimeError('r')",
     {}),
    ("del_at_exit",
     "class A:\n    def __del__(self):\n        print('del')\na = A()\nprint('end')", {}),
    ("thread_after_main",
     "import threading, time\n"
     "def w():\n    time.sleep(0.05)\n    print('thread done')\n"
     "threading.Thread(target=w).start()\nprint('main done')", {}),
    ("names",
     "import sys\nprint(__name__, __file__, __package__, __spec__, __cached__, __doc__)\n"
     "print(sys.argv, sys.orig_argv, sys.executable, sys.path)\n"
     "print(list(globals()), type(__loader__).__name__, __loader__.name, __loader__.path)\n"
     "print(type(__builtins__).__name__, sys.flags)\n"
     "if __name__ == '__main__':\n    print('as main')", {}),
    ("environment",
     "import os\nprint(sorted(os.environ.items()))\n"
     "print(sorted(open('/proc/self/environ', 'rb').read().split(b'\\0')))", {}),
    ("process",
     "import os, resource, signal\n"
     "print(os.getcwd(), os.getuid() == os.geteuid(), os.getgroups(), os.getppid())\n"
     "print(os.getsid(0) == os.getpid(), os.getpgrp() == os.getpid(), oct(os.umask(0)))\n"
     "print(sorted(os.listdir('/proc/self/fd')), open('/proc/self/cmdline', 'rb').read())\n"
     "st = dict(l.split(':', 1) for l in open('/proc/self/status'))\n"
     "for k in ('Cap', 'NoNewPrivs', 'Seccomp', 'Sig', 'Shd', 'Threads', 'Name', 'Umask'):\n"
     "    print(sorted((a, b.strip()) for a, b in st.items() if a.startswith(k)))\n"
     "print([resource.getrlimit(r) for r in range(16)])\n"
     "print([signal.getsignal(s) for s in (signal.SIGINT, signal.SIGPIPE, signal.SIGTERM)])\n"
     "print(signal.pthread_sigmask(signal.SIG_BLOCK, []))\n"
     "print(os.readlink('/proc/self/exe'), os.access('/proc/self/fd/0', os.R_OK))", {}),
    ("streams",
     "import sys\nfor s in (sys.stdin, sys.stdout, sys.stderr):\n"
     "    print(s.isatty(), s.encoding, s.errors, s.line_buffering, s.buffer.raw.mode)\n"
     "print(sys.stdin.read())", {"stdin": "line one\nline two\n"}),
    ("input", "print(int(input()) * 2)", {"stdin": "21"}),
    ("stderr_mix", "import sys\nprint('out')\nprint('err', file=sys.stderr)\nprint('out2')", {}),
    ("big_output", "print('x' * 100000)\nprint('y' * 100000)", {}),
    ("fork", "import os\npid = os.fork()\nif pid == 0:\n    print('child')\n    os._exit(3)\n"
     "_, st = os.waitpid(pid, 0)\nprint('parent', os.waitstatus_to_exitcode(st))", {}),
    ("subprocess", "import subprocess\nprint(subprocess.run(['/bin/echo', 'hi'], "
     "capture_output=True, text=True).stdout)", {}),
    ("mle", "x = bytearray(200 << 20)\nx[::4096] = b'x' * len(x[::4096])\nprint('no')",
     {"memory_limit_MB": 64}),
    ("under_limit", "x = bytearray(20 << 20)\nx[::4096] = b'x' * len(x[::4096])\nprint('ok')",
     {"memory_limit_MB": 64}),
    ("cpu_tle", "while True:\n    pass", {"run_timeout": 0.5}),
    ("recursion", "import sys\ndef f(n):\n    return f(n + 1)\ntry:\n    f(0)\n"
     "except RecursionError:\n    print('recursion')", {}),
    ("import_random", "import random, hashlib, json\nprint(json.dumps({'a': 1}))", {}),
    ("write_file", "open('out.txt', 'w').write('data')\nprint(open('out.txt').read())", {}),
]


def result(server, code, extra, mark=True):
    r = server.run_code(code=(WARM_MARK if mark else "\n") + code, language="python", **extra)
    rr = r["run_result"]
    err = rr["stderr"]
    mode, err = (err[:4], err[4:]) if mark else ("", err)
    return mode, {k: rr.get(k) for k in ("verdict", "return_code", "stdout", "status", "reason")
                  } | {"stderr": err, "mle": rr.get("memory_limit_exceeded")}


@pytest.fixture(scope="module")
def servers():
    cold = Server(cells=1, extra=("--max-cells", "1", "--python-warm", "off"))
    warm = Server(cells=1, extra=("--max-cells", "1", "--python-warm", "on"))
    yield cold, warm
    cold.stop()
    warm.stop()


def warm_result(server, code, extra, mark=True):
    """The result from a warm start (the zygote starts after the first Python job and is
    ready a moment later; a slow machine may need a few tries)."""
    if not mark:
        warm_result(server, "pass", {})
        return result(server, code, extra, mark=False)[1]
    for _ in range(100):
        mode, res = result(server, code, extra)
        if mode == "WARM":
            return res
        time.sleep(0.1)
    pytest.fail("the warm server never started a program warm")


@pytest.mark.parametrize("name,code,extra", PROGRAMS, ids=[p[0] for p in PROGRAMS])
def test_same_both_ways(servers, name, code, extra):
    cold, warm = servers
    mark = name not in UNMARKED
    mode, c = result(cold, code, extra, mark)
    assert mode == ("COLD" if mark else "")
    w = warm_result(warm, code, extra, mark)
    assert w == c


def test_random_differs_between_jobs(servers):
    _, warm = servers
    code = "import random, os\nprint(random.random(), os.urandom(8).hex())"
    a = warm_result(warm, code, {})["stdout"]
    b = warm_result(warm, code, {})["stdout"]
    assert a != b


def test_memory_peak_means_the_same(servers):
    """A program holding 40 MiB reports about 40 MiB more than one holding nothing, and the
    warm peak is within a few MiB of the cold one (the interpreter's baseline is added)."""
    cold, warm = servers
    hold = "x = bytearray(40 << 20)\nx[::4096] = b'x' * len(x[::4096])\n"
    peaks = {}
    for name, s in (("cold", cold), ("warm", warm)):
        for what, code in (("idle", "pass"), ("hold", hold)):
            if name == "warm":
                warm_result(s, code, {})
            r = s.run_code(code=WARM_MARK + code, language="python")["run_result"]
            peaks[name, what] = r["memory_kib"]
    for name in ("cold", "warm"):
        grew = peaks[name, "hold"] - peaks[name, "idle"]
        assert 38 * 1024 <= grew <= 48 * 1024, peaks
    assert abs(peaks["warm", "idle"] - peaks["cold", "idle"]) <= 4 * 1024, peaks


def children(parents):
    """Host pids of the processes whose parent is one of `parents`, with their cmdline."""
    found = {}
    for d in os.listdir("/proc"):
        if d.isdigit():
            try:
                with open(f"/proc/{d}/status") as f:
                    ppid = int(next(l for l in f if l.startswith("PPid:")).split()[1])
                if ppid in parents:
                    with open(f"/proc/{d}/cmdline", "rb") as f:
                        found[int(d)] = f.read()
            except (OSError, StopIteration):
                pass
    return found


def test_zygote_killed_from_outside(servers):
    """A zygote that dies between jobs (here SIGKILLed from the host) costs nothing but a
    cold start: the next job runs, and a new zygote serves the ones after it."""
    _, warm = servers
    warm_result(warm, "pass", {})
    cells = cell_pids(warm.proc.pid)
    zygotes = [p for p, cmd in children(cells).items()
               if cmd.startswith(b"/usr/bin/python3\0-I\0-c\0")]
    assert len(zygotes) == 1, zygotes
    os.kill(zygotes[0], signal.SIGKILL)
    mode, res = result(warm, "print('after')", {})
    assert res["verdict"] == "OK" and res["stdout"] == "after\n", res
    assert warm_result(warm, "print('again')", {})["stdout"] == "again\n"
    assert set(children(cells)) != {zygotes[0]}


def test_sandboxfusion_guard_is_success_warm(servers):
    """SandboxFusion's guard, then a print: Success with the warm interpreter, as with a cold
    one (the zygote's end of a job calls its own os._exit, not the program's None)."""
    _, warm = servers
    for _ in range(100):
        r = warm.run_code(code=WARM_MARK + SANDBOXFUSION_GUARD + "\n\nprint('hello')",
                          language="python")
        if r["run_result"]["stderr"].startswith("WARM"):
            break
        time.sleep(0.1)
    else:
        pytest.fail("the warm server never started a program warm")
    assert r["status"] == "Success", r
    assert r["run_result"]["return_code"] == 0 and r["run_result"]["stdout"] == "hello\n", r
    assert r["run_result"]["stderr"] == "WARM", r


@pytest.mark.parametrize("with_", ["None", "_boom"])
def test_rebinding_everything_then_raising(servers, with_):
    """After every builtin and os/sys callable is rebound (sys.excepthook too), an uncaught
    exception is reported as Python reports a broken hook, warm as cold: status 1, and the
    original exception after the hook's failure."""
    cold, warm = servers
    prog = REBIND_ALL % with_ + "raise _ValueError('after all')\n"
    mode, c = result(cold, prog, {})
    w = warm_result(warm, prog, {})
    assert c["return_code"] == 1 and w["return_code"] == 1, (c, w)
    assert w["stdout"] == c["stdout"] == "rebound hundreds\n"
    for r in (c, w):
        assert "Error in sys.excepthook:" in r["stderr"], r
        assert "Original exception was:" in r["stderr"] and "after all" in r["stderr"], r
