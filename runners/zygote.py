# The cell's warm Python interpreter (runners/zygote.h, runners/README.md "Warm Python").
#
# Started by the cell as root, as `/usr/bin/python3 -I -c <this>` with the jobs' environment,
# fd 3 a SOCK_SEQPACKET socket to the cell and fds 0, 1, 2 a pipe of its own. It imports the
# modules programs usually import, freezes the collector, says "R <baseline KiB>", and then
# forks one job process per request. A request is NUL-separated text (uid, gid, work dir,
# rlimits, argv, env) with the job's descriptors attached (SCM_RIGHTS): the step report pipe,
# the job cgroups' procs files, then one descriptor per target fd 0, 1, 2 (3, 4). The child is
# made with clone(CLONE_PARENT), so the cell is its parent and reaps it as it reaps a cold
# job. Before the program runs, the child does what the cell's cold child does before execve,
# in the same order, reporting a failed step the same way; then what python3 does to run a
# script: a fresh __main__, sys.argv, compile, run, and the same exit.
#
# Only this file's code runs in the zygote; the program's code runs only in the child, after
# it has dropped everything (cgroup, fds, rlimits, no_new_privs, capabilities, uid). After the
# program ran, this code calls only what it bound before (the program may rebind any builtin
# or os/sys function, as SandboxFusion's guard does with `os._exit = None`): its functions see
# a copy of the builtins taken here, and the module functions they call are bound below, as
# a cold interpreter's finalization calls C, not the program's os._exit. What a cold
# interpreter itself looks up at its end (sys.excepthook, sys.stdout and sys.stderr, the
# threading module's _shutdown) is looked up as it does, the program's if it set them.
import builtins as _builtins_module  # noqa: E402

__builtins__ = dict(vars(_builtins_module))


def _kib(field):
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith(field + ":"):
                return int(line.split()[1])
    return 0


# What a cold interpreter holds by now is what a warm job is charged for at the start: the
# cell adds it to the job's peak and takes it off its limit.
_BASELINE = _kib("RssAnon") + _kib("VmPTE")

import ctypes  # noqa: E402
import errno as _errno  # noqa: E402
import fcntl  # noqa: E402
import gc  # noqa: E402
import os  # noqa: E402
import platform  # noqa: E402
import resource  # noqa: E402
import signal  # noqa: E402
import socket  # noqa: E402
import struct  # noqa: E402
import sys  # noqa: E402
import types  # noqa: E402
import atexit  # noqa: E402
import _signal  # noqa: E402

# What the end of a job calls, bound before any program runs.
_exit, _getpid, _kill, _write = os._exit, os.getpid, os.kill, os.write
_collect, _run_exitfuncs, _set_signal = gc.collect, atexit._run_exitfuncs, _signal.signal
_display, _modules = sys.__excepthook__, sys.modules
_SIGINT, _SIG_DFL = int(signal.SIGINT), int(signal.SIG_DFL)
_MISSING = object()

_STEP_CGROUP, _STEP_FDS, _STEP_CHDIR, _STEP_RLIMIT, _STEP_NNP, _STEP_CAPS, _STEP_UID = range(1, 8)
_PR_SET_DUMPABLE, _PR_CAPBSET_DROP, _PR_SET_NO_NEW_PRIVS, _PR_SET_MM = 4, 24, 38, 35
_PR_SET_MM_MAP = 14
_CLONE_PARENT, _CLONE_CHILD_SETTID, _CLONE_CHILD_CLEARTID = 0x8000, 0x1000000, 0x200000
_SIGCHLD = 17

_PRELOAD = (
    "abc argparse array base64 bisect binascii calendar cmath collections collections.abc "
    "contextlib copy csv dataclasses datetime decimal enum fractions functools hashlib heapq "
    "io itertools json math numbers operator pprint queue random re statistics string "
    "struct textwrap time traceback typing unittest warnings numpy"
).split()
for _name in _PRELOAD:
    try:
        __import__(_name)
    except Exception:
        pass

_libc = ctypes.PyDLL(None, use_errno=True)  # the GIL stays held across clone
_libc.syscall.restype = ctypes.c_long
_libc.prctl.restype = ctypes.c_int
_libc.prctl.argtypes = [ctypes.c_int] + [ctypes.c_ulong] * 4
_libc.pthread_self.restype = ctypes.c_void_p
_api = ctypes.pythonapi
_SYS_CLONE = {"x86_64": 56, "aarch64": 220}.get(platform.machine())


def _tid_slot():
    """The address of glibc's cached tid in this thread's descriptor: clone must set it in the
    child (CLONE_CHILD_SETTID), as fork does, or raise() and abort() would signal the zygote's
    tid. Found by value; None (no warm path) unless exactly one word matches."""
    import threading

    tid, base = threading.get_native_id(), _libc.pthread_self()
    words = (ctypes.c_int * 512).from_address(base)
    hits = [i for i in range(512) if words[i] == tid]
    return base + 4 * hits[0] if len(hits) == 1 else None


_TID = _tid_slot()
try:  # capabilities past the last are EINVAL to drop (the cold child tries all 64)
    with open("/proc/sys/kernel/cap_last_cap") as _f:
        _CAPS = int(_f.read()) + 1
except (OSError, ValueError):
    _CAPS = 64


def _prctl(opt, a=0, b=0, c=0, d=0):
    if _libc.prctl(opt, a, b, c, d) < 0:
        e = ctypes.get_errno()
        raise OSError(e, os.strerror(e))


def _clone():
    flags = _CLONE_PARENT | _CLONE_CHILD_SETTID | _CLONE_CHILD_CLEARTID | _SIGCHLD
    _api.PyOS_BeforeFork()
    if platform.machine() == "x86_64":  # clone(flags, stack, ptid, ctid, tls)
        pid = _libc.syscall(_SYS_CLONE, flags, 0, 0, ctypes.c_void_p(_TID), 0)
    else:  # clone(flags, stack, ptid, tls, ctid)
        pid = _libc.syscall(_SYS_CLONE, flags, 0, 0, 0, ctypes.c_void_p(_TID))
    if pid == 0:
        _api.PyOS_AfterFork_Child()
    else:
        _api.PyOS_AfterFork_Parent()
    return pid


_argv_area = None  # the child's argv bytes, alive as long as /proc/self/cmdline shows them


def _set_cmdline(argv):
    """/proc/self/cmdline as execve(argv) would leave it: PR_SET_MM_MAP (the one form that needs
    no CAP_SYS_RESOURCE) with every other field as it is."""
    global _argv_area
    data = b"".join(a + b"\0" for a in argv)
    _argv_area = ctypes.create_string_buffer(data, len(data))
    start = ctypes.addressof(_argv_area)
    with open("/proc/self/stat", "rb") as f:
        st = f.read().rsplit(b")", 1)[1].split()

    def field(n):  # stat(5) numbers fields from 1; st starts at field 3
        return int(st[n - 3])

    _libc.sbrk.restype = ctypes.c_void_p
    brk = _libc.sbrk(ctypes.c_long(0))
    values = [field(26), field(27), field(45), field(46), field(47), brk, field(28), start,
              start + len(data), field(50), field(51)]
    mm = struct.pack("=11QQII", *values, 0, 0, 0xFFFFFFFF)
    buf = ctypes.create_string_buffer(mm, len(mm))
    try:
        _prctl(_PR_SET_MM, _PR_SET_MM_MAP, ctypes.addressof(buf), len(mm))
    except OSError:
        pass  # cosmetic: the program still runs


_report = -1  # the child's step report pipe, wherever it is now


def _fail(step, e):
    os.write(_report, struct.pack("ii", step, e))
    os._exit(127)


def _child(parts, fds):
    global _report
    _report = fds[0]

    def fail(step, e):
        _fail(step, e.errno or _errno.EIO)

    (uid, gid, wdir, nprocs, nrl), rest = parts[:5], parts[5:]
    nprocs, nrl = int(nprocs), int(nrl)
    rl = [tuple(int(x) for x in rest[i].split()) for i in range(nrl)]
    rest = rest[nrl:]
    argc = int(rest[0])
    argv = rest[1 : 1 + argc]
    nenv = int(rest[1 + argc])
    env = rest[2 + argc : 2 + argc + nenv]
    procs, targets = fds[1 : 1 + nprocs], fds[1 + nprocs :]
    os.setsid()
    try:
        for fd in procs:
            os.write(fd, b"0")
    except OSError as e:
        fail(_STEP_CGROUP, e)
    try:
        # Above every target first, so that no placement clobbers another.
        high = [fcntl.fcntl(fd, fcntl.F_DUPFD_CLOEXEC, 100) for fd in targets]
        keep = fcntl.fcntl(_report, fcntl.F_DUPFD_CLOEXEC, 100)
        for target, fd in enumerate(high):
            os.dup2(fd, target)
        _report = os.dup2(keep, len(targets), inheritable=False)
        os.closerange(len(targets) + 1, 1 << 20)
    except OSError as e:
        fail(_STEP_FDS, e)
    try:
        os.chdir(wdir)
    except OSError as e:
        fail(_STEP_CHDIR, e)
    try:
        for res, soft, hard in rl:
            resource.setrlimit(res, (soft, hard))
    except (OSError, ValueError) as e:
        fail(_STEP_RLIMIT, e if isinstance(e, OSError) else OSError(_errno.EINVAL, str(e)))
    try:
        _prctl(_PR_SET_NO_NEW_PRIVS, 1)
    except OSError as e:
        fail(_STEP_NNP, e)
    _set_cmdline(argv)
    try:
        for cap in range(_CAPS):
            try:
                _prctl(_PR_CAPBSET_DROP, cap)
            except OSError as e:
                if e.errno != _errno.EINVAL:
                    raise
    except OSError as e:
        fail(_STEP_CAPS, e)
    try:
        os.setgroups([])
        os.setresgid(int(gid), int(gid), int(gid))
        os.setresuid(int(uid), int(uid), int(uid))
        _prctl(_PR_SET_DUMPABLE, 1)  # as execve would leave it; the uid change cleared it
    except OSError as e:
        fail(_STEP_UID, e)
    os.environ.clear()
    for kv in env:
        k, _, v = kv.partition(b"=")
        os.environb[k] = v
    os.close(_report)
    return [a.decode("utf-8", "surrogateescape") for a in argv]


def _run(argv):
    """What python3 -I does with a script (Modules/main.c, pymain_run_file)."""
    import builtins
    import importlib.machinery

    sys.orig_argv = argv
    main = types.ModuleType("__main__")
    d = main.__dict__
    d["__loader__"] = importlib.machinery.BuiltinImporter
    d["__spec__"] = None
    d["__annotations__"] = {}
    d["__builtins__"] = builtins
    if argv[2] == "-c":  # python3 -I -c CODE [args] (a grader)
        sys.argv = ["-c"] + argv[4:]
        source, path = argv[3], "<string>"
    else:
        sys.argv = argv[2:]
        path = os.path.abspath(argv[2])
        try:
            with open(path, "rb") as f:
                source = f.read()
        except OSError as e:
            sys.stderr.write("%s: can't open file %r: [Errno %d] %s\n"
                             % (argv[0], path, e.errno, e.strerror))
            sys.stderr.flush()
            os._exit(2)
        d["__file__"] = path
        d["__cached__"] = None
        d["__loader__"] = importlib.machinery.SourceFileLoader("__main__", path)
    sys.modules["__main__"] = main
    failed = tb = None  # reported outside the except clauses: nothing is being handled then
    try:
        code = compile(source, path, "exec", dont_inherit=True)
    except (SyntaxError, ValueError) as e:
        failed = e
    if failed is not None:
        _finish(_uncaught(failed, None), d)
    status = 0
    try:
        exec(code, d)
    except SystemExit as e:
        status = _system_exit(e)
    except BaseException as e:
        failed, tb = e, e.__traceback__.tb_next
    if failed is not None:
        status = _uncaught(failed, tb)
        failed = tb = None
    _finish(status, d)


def _system_exit(e):
    """Python/pythonrun.c, _Py_HandleSystemExit."""
    code = e.code
    if code is None:
        return 0
    if isinstance(code, int):
        return code & 0xFF if -(1 << 63) <= code < (1 << 63) else 255
    try:
        sys.stderr.write(str(code))
        sys.stderr.write("\n")
    except Exception:
        pass
    return 1


def _stderr(text):
    """PySys_WriteStderr: to sys.stderr, else to fd 2."""
    try:
        sys.stderr.write(text)
    except BaseException:
        try:
            _write(2, text.encode("utf-8", "backslashreplace"))
        except OSError:
            pass


def _uncaught(e, tb):
    """PyErr_Print of an exception that ends the program: status 1, or SIGINT (None). The hook
    is sys.excepthook as the program left it; one that fails is reported as Python does."""
    e.__traceback__ = tb
    try:
        sys.last_type, sys.last_value, sys.last_traceback = type(e), e, tb
    except BaseException:
        pass
    hook = getattr(sys, "excepthook", _MISSING)
    if hook is _MISSING:
        _stderr("sys.excepthook is missing\n")
        _display(type(e), e, tb)
    else:
        try:
            hook(type(e), e, tb)
        except SystemExit as ex:  # handle_system_exit: the hook's exit is the process's
            return _system_exit(ex)
        except BaseException as e2:
            e2.__traceback__ = e2.__traceback__.tb_next  # from the hook's frames, as C calls it
            _stderr("Error in sys.excepthook:\n")
            _display(type(e2), e2, e2.__traceback__)
            _stderr("\nOriginal exception was:\n")
            _display(type(e), e, tb)
    return None if isinstance(e, KeyboardInterrupt) else 1


def _finish(status, main_dict):
    """What Py_FinalizeEx does that a program can see (threads joined, atexit, the standard
    streams flushed, __main__'s objects finalized), without tearing down the warm modules,
    which would touch (copy) every page of the zygote."""
    threading = _modules.get("threading")
    if threading is not None:
        try:
            threading._shutdown()
        except BaseException:
            pass
    _run_exitfuncs()

    def flush():
        ok = True
        for s in (getattr(sys, "stdout", None), getattr(sys, "stderr", None)):
            try:
                if s is not None and not s.closed:
                    s.flush()
            except Exception:
                ok = False
        return ok

    ok = flush()
    try:  # the __main__ the program left (a notebook's cells have their own), then its first
        _modules.get("__main__").__dict__.clear()
    except BaseException:
        pass
    main_dict.clear()
    _collect()
    ok = flush() and ok
    if not ok:
        _exit(120)
    if status is None:  # KeyboardInterrupt: a cold interpreter dies of SIGINT
        _set_signal(_SIGINT, _SIG_DFL)
        _kill(_getpid(), _SIGINT)
        status = 1
    _exit(status)


def _serve():
    sock = socket.socket(fileno=3)
    if _SYS_CLONE is None or _TID is None:
        sock.send(b"F no clone for this machine")
        return None
    gc.collect()
    gc.freeze()
    sock.send(b"R %d" % _BASELINE)
    while True:
        try:
            msg, fds, _, _ = socket.recv_fds(sock, 1 << 20, 16)
        except OSError:
            return None
        if not msg:
            return None
        try:
            pid = _clone()
        except Exception:
            pid = -1
        if pid == 0:
            sock.detach()  # fd 3 is closed or the job's now; never close it at exit
            try:
                return _child(msg.split(b"\0")[:-1], fds)
            except BaseException:  # a malformed request: the job is SE, never run
                _fail(_STEP_FDS, _errno.EPROTO)
        for fd in fds:
            os.close(fd)
        sock.send(b"P %d" % pid if pid > 0 else b"E %d" % ctypes.get_errno())


_job = _serve()
if _job is None:
    os._exit(0)
del _name
_run(_job)
