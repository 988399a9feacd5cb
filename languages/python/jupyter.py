# verdict's notebook driver: cells run in order in one Python process with one globals dict, as
# Jupyter's kernel runs them: a cell's last expression statement is displayed (text/plain is its
# repr, with _repr_png_, _repr_html_ ... where the object has them), print goes to the cell's
# stdout, an exception ends the cell with {ename, evalue, traceback} and, with stop_on_error,
# the run. Embedded in the server at build time; two modes.
#
# POST /run_jupyter (docs/api.md): run as the python template's program (main.py) in a sandbox
# cell. stdin: {"cells": [str], "cell_timeout": seconds (0: none), "stop_on_error": bool}.
# Results travel on a channel of the driver's own, never on the program's stdout: the file
# .verdict_jupyter/results.jsonl in the work dir, one JSON line {"start": i} before cell i
# and {"cell": i, ...} after it, {"done": true} at the end, each written and flushed at once,
# so when the sandbox stops the run (total_timeout, memory_limit_MB) the server still reads
# every finished cell and knows which one was running. The cell's own code can write there
# too: /run_jupyter grades nothing, so a cell that forges its results only fools itself.
# Standard output and error (file descriptors 1 and 2, so subprocesses' output too) are the
# files .verdict_jupyter/stdout and stderr, emptied before each cell and read back after it;
# the server reads the running cell's output from them when the run is stopped mid-cell.
#
# The session kernel (POST /v1/sessions/{id}/exec for Python, runners/session.h): started as
# `python3 -I -c <this file> --session` in the session's work dir, fd 0 /dev/null, fds 1 and 2
# the cell's pipes (the kernel's own faults only), fd 3 the requests, fd 4 the replies. Both
# ways a frame is its byte length in ASCII decimal, "\n", then that many bytes of UTF-8 JSON.
# A request {"cells": [str], "stdin": str, "timeout": seconds for the whole call (0: none),
# "stop_on_error": bool (default true)} is answered {"cells": [{"stdout", "stderr", "display",
# "error", "executed", "output_truncated"} for each cell], "done": true}, or {"error": "bad
# request: ..."} (the kernel lives on). The end of fd 3 ends the kernel (status 0). Every
# call's cells share one globals dict (the __main__ module's) and one event loop, are named
# "<cell N>" counting over the session (their source kept for tracebacks), and read the call's
# stdin as fd 0. Output as /run_jupyter's, through .verdict_session/stdout and stderr. The
# call's timeout is one deadline: each cell's timer is the time left, past it the cell gets
# CellTimeoutError (so does a cell reached with no time left, without running) and the later
# cells are not run; the sandbox kills the kernel a second later if it has not answered.

import ast
import base64
import builtins
import inspect
import io
import json
import linecache
import os
import signal
import _signal
import sys
import time
import traceback
import types

# The driver's own code sees the builtins as they are now, whatever a cell rebinds later; what it
# calls while a cell runs (the streams' writes, the timer) is bound here; between cells the
# modules it works with are as they were at its start (_Worlds).
__builtins__ = dict(vars(builtins))
_write, _setitimer = os.write, signal.setitimer

DIR = ".verdict_jupyter"
SESSION_DIR = ".verdict_session"
STREAM_MAX = 1 << 20  # bytes of a cell's stdout, and of its stderr, kept
DISPLAY_MAX = 4 << 20  # bytes of a cell's display data kept
TOTAL_MAX = 12 << 20  # bytes of results in all, per run or call (the server takes at most 16 MiB)
# The server parses the results within a budget of values (each costs it a node of memory,
# whatever its size: JSON_SANDBOX_NODES, 131072) and of nesting (JSON_SANDBOX_DEPTH, 128):
NODES_MAX = 65536  # JSON values of a run's or call's records; a record past it is emptied
DISPLAY_VALUES_MAX = 32768  # JSON values of a cell's display data; the rest dropped
DEPTH_MAX = 100  # nesting of a display value; a deeper one is dropped
_OWN = globals()  # the driver's frames (its exec, its timer) run in these globals, the cells' not
_PID = os.getpid()


class CellTimeoutError(BaseException):
    """Raised in a cell that runs past its timer: not an Exception, so `except Exception` in the
    cell does not swallow it (and it is raised again every 0.1 s until the cell ends)."""


class _Out:
    """A cell's sys.stdout or sys.stderr: text to the descriptor, the first STREAM_MAX bytes."""

    def __init__(self, fd, name):
        self._fd, self.name, self.n, self.dropped = fd, name, 0, False
        self.encoding, self.errors = "utf-8", "backslashreplace"
        self.buffer = _Bytes(self)

    def _put(self, b):
        room = STREAM_MAX - self.n
        if len(b) > room:
            self.dropped = True
        if room <= 0:
            return
        b = b[:room]
        self.n += len(b)
        view = memoryview(b)
        while view:
            view = view[_write(self._fd, view):]

    def write(self, s):
        if not isinstance(s, str):
            raise TypeError("write() argument must be str, not %s" % type(s).__name__)
        self._put(s.encode("utf-8", "backslashreplace"))
        return len(s)

    def writelines(self, lines):
        for s in lines:
            self.write(s)

    def flush(self):
        pass

    def fileno(self):
        return self._fd

    def reconfigure(self, **kwargs):
        pass

    def seekable(self):
        return False

    def isatty(self):
        return False

    def writable(self):
        return True

    def readable(self):
        return False

    @property
    def closed(self):
        return False


class _Bytes:
    def __init__(self, out):
        self._out = out

    def write(self, b):
        b = bytes(b)
        self._out._put(b)
        return len(b)

    def flush(self):
        pass


def _bundle(v):
    """Jupyter's mime bundle of a value: text/plain, and what its _repr_*_ methods give."""
    d = {}
    for meth, mime in (
        ("_repr_png_", "image/png"),
        ("_repr_jpeg_", "image/jpeg"),
        ("_repr_svg_", "image/svg+xml"),
        ("_repr_html_", "text/html"),
        ("_repr_markdown_", "text/markdown"),
        ("_repr_latex_", "text/latex"),
        ("_repr_json_", "application/json"),
    ):
        try:
            f = getattr(v, meth, None)
            r = f() if callable(f) else None
            if isinstance(r, tuple):  # (data, metadata)
                r = r[0]
            if r is None:
                continue
            if isinstance(r, (bytes, bytearray)):
                r = base64.b64encode(bytes(r)).decode("ascii")
            elif mime == "application/json":
                json.dumps(r, allow_nan=False)  # NaN is not JSON: the server refuses it
            elif not isinstance(r, str):
                continue
            d[mime] = r
        except Exception:
            pass
    try:
        d["text/plain"] = repr(v)
    except Exception as e:
        d["text/plain"] = "<repr failed: %s: %s>" % (type(e).__name__, e)
    return d


def _values(v, depth=0):
    """The JSON values v holds (itself included), or None past DEPTH_MAX levels."""
    if isinstance(v, dict):
        items = v.values()
    elif isinstance(v, (list, tuple)):
        items = v
    else:
        return 1
    if depth >= DEPTH_MAX:
        return None
    n = 1
    for x in items:
        k = _values(x, depth + 1)
        if k is None:
            return None
        n += k
    return n


def _within(rec, used):
    """rec, emptied (its error clipped) when its values would take the run's past NODES_MAX;
    and the values it then holds."""
    n = _values(rec)
    if n is None or used + n > NODES_MAX:
        rec.update(stdout="", stderr="", display=[], output_truncated=True,
                   error=[_clip(e) for e in rec["error"][:1]])
        n = _values(rec)
    return rec, n


class _Cell:
    def __init__(self):
        self.display, self.display_bytes, self.display_dropped = [], 0, False
        self.display_values = 0

    def show(self, bundle):
        with _DriverWorld():
            n = len(json.dumps(bundle, allow_nan=False))
        k = _values(bundle)
        if self.display_bytes + n > DISPLAY_MAX or k is None or \
                self.display_values + k > DISPLAY_VALUES_MAX:
            self.display_dropped = True
            return
        self.display_bytes += n
        self.display_values += k
        self.display.append(bundle)


_current = [None]


def display(*objs, **kwargs):
    """IPython.display.display's core: each object's mime bundle becomes a display entry."""
    raw = kwargs.get("raw", False)
    for o in objs:
        if _current[0] is not None:
            _current[0].show(dict(o) if raw and isinstance(o, dict) else _bundle(o))


def _figures(cell):
    """Open matplotlib figures at a cell's end become image/png displays (and are closed)."""
    plt = sys.modules.get("matplotlib.pyplot")
    if plt is None:
        return
    try:
        for num in plt.get_fignums():
            fig = plt.figure(num)
            buf = io.BytesIO()
            fig.savefig(buf, format="png", bbox_inches="tight")
            cell.show({"image/png": base64.b64encode(buf.getvalue()).decode("ascii"),
                       "text/plain": repr(fig)})
        plt.close("all")
    except Exception:
        pass


def _error(e):
    # the driver's own frames (its exec, its timer) are not the cell's: the traceback is
    # rebuilt without them (whatever the driver's file name: main.py, or <string> with -c)
    kept, tb = [], e.__traceback__
    while tb is not None:
        if tb.tb_frame.f_globals is not _OWN:
            kept.append(tb)
        tb = tb.tb_next
    tb = None
    for t in reversed(kept):
        tb = types.TracebackType(tb, t.tb_frame, t.tb_lasti, t.tb_lineno)
    frames = traceback.extract_tb(tb)
    lines = traceback.format_exception_only(type(e), e)
    if frames and not isinstance(e, SyntaxError):
        lines = ["Traceback (most recent call last):"] + traceback.format_list(frames) + lines
    try:
        evalue = str(e)
    except Exception:
        evalue = "<str failed>"
    return {"ename": type(e).__name__, "evalue": evalue,
            "traceback": [s.rstrip("\n") for s in lines]}


def _timeout_error(why):
    return {"ename": "CellTimeoutError", "evalue": why, "traceback": ["CellTimeoutError: " + why]}


_loop = [None]


_AST, _TOP_AWAIT, _CO_COROUTINE = ast.PyCF_ONLY_AST, ast.PyCF_ALLOW_TOP_LEVEL_AWAIT, inspect.CO_COROUTINE
_Expr, _Expression = ast.Expr, ast.Expression


def _eval(tree, name, mode, g):
    """Runs a compiled cell part; top-level await runs on an event loop, as IPython's does."""
    code = compile(tree, name, mode, flags=_TOP_AWAIT)
    v = eval(code, g)
    if code.co_flags & _CO_COROUTINE:
        import asyncio
        if _loop[0] is None:  # one loop for every cell, as the kernel's
            _loop[0] = asyncio.new_event_loop()
        v = _loop[0].run_until_complete(v)
    return v


def _run(src, name, g):
    tree = compile(src, name, "exec", _AST | _TOP_AWAIT, dont_inherit=True)
    last = None
    if tree.body and type(tree.body[-1]) is _Expr:
        last = _Expression(tree.body.pop().value)
    _eval(tree, name, "exec", g)
    if last is not None:
        v = _eval(last, name, "eval", g)
        if v is not None:
            builtins._ = g["_"] = v
            display(v)


def _read(f):
    size = os.fstat(f.fileno()).st_size
    data = os.pread(f.fileno(), STREAM_MAX, 0)
    return data.decode("utf-8", "replace"), size > STREAM_MAX


def _flush():
    """Flushes what a cell put in place of sys.stdout and sys.stderr (a buffered wrapper)."""
    for s in (sys.stdout, sys.stderr):
        try:
            s.flush()
        except Exception:
            pass


_timer = {"on": False, "fired": False, "why": ""}
_ITIMER_REAL = signal.ITIMER_REAL
_GONE = object()


class _Worlds:
    """The cells' world and the driver's: between cells, the driver works (JSON, tracebacks,
    files, signals) with every builtin, and every function of the modules it uses, as they
    were at its start; a cell's own rebinding of them (SandboxFusion's guard sets `exit`,
    `os._exit` and `sys.exit` to None) is put aside, and back before the next cell runs."""

    MODULES = (builtins, os, os.path, sys, signal, io, json, json.encoder, json.decoder,
               traceback, linecache, base64, types, time)

    def __init__(self):
        self.mine = []
        for m in self.MODULES:
            d = vars(m)
            self.mine.append((d, {k: v for k, v in d.items()
                                  if (m is builtins and k != "_") or callable(v)}))
        self.cells = None  # the cells' values that differ from the driver's, while it works

    def driver(self):
        if self.cells is None:
            self.cells = [{k: d.get(k, _GONE) for k, v in mine.items() if d.get(k, _GONE) is not v}
                          for d, mine in self.mine]
            for (d, mine), theirs in zip(self.mine, self.cells):
                for k in theirs:
                    d[k] = mine[k]

    def cell(self):
        if self.cells is not None:
            for (d, _), theirs in zip(self.mine, self.cells):
                for k, v in theirs.items():
                    if v is _GONE:
                        d.pop(k, None)
                    else:
                        d[k] = v
            self.cells = None


_worlds = [None]
_sigmask = _signal.pthread_sigmask  # signal's own is Python, and calls builtins
_SIG_BLOCK, _SIG_SETMASK, _SIGALRM = int(signal.SIG_BLOCK), int(signal.SIG_SETMASK), int(signal.SIGALRM)


class _DriverWorld:
    """The driver's world for a moment inside a cell (a display's JSON), the cell's timer held
    off until the cell's world is back."""

    def __enter__(self):
        self.mask = _sigmask(_SIG_BLOCK, (_SIGALRM,))
        w = _worlds[0]
        self.was_cell = w is not None and w.cells is None
        if self.was_cell:
            w.driver()

    def __exit__(self, *exc):
        if self.was_cell:
            _worlds[0].cell()
        _sigmask(_SIG_SETMASK, self.mask)
        return False


def _alarm(signum, frame):
    if not _timer["on"]:  # the cell has ended: the driver is not interrupted
        return
    _timer["fired"] = True
    _setitimer(_ITIMER_REAL, 0.1)  # again, until the cell gives up
    raise CellTimeoutError(_timer["why"])


def _setup(d, files):
    """The cells' output: files (stdout, stderr, in directory d) become fds 1 and 2. Returns a
    copy of the old fd 2 (not inherited) and the cells' globals, the new __main__'s."""
    os.environ.setdefault("MPLBACKEND", "Agg")
    os.environ.setdefault("MPLCONFIGDIR", os.path.join(d, "mpl"))
    real_err = os.dup(2)
    os.dup2(files[0].fileno(), 1)
    os.dup2(files[1].fileno(), 2)
    if hasattr(signal, "SIGXFSZ"):
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # past file_mb: a write error, not death
    builtins.display = display
    _worlds[0] = _Worlds()
    main_module = types.ModuleType("__main__")  # the cells' module: pickle finds their classes
    sys.modules["__main__"] = main_module
    g = main_module.__dict__
    g.update(__builtins__=builtins, display=display)
    return real_err, g


def _cell(src, name, g, files, streams, seconds, why, started=None):
    """Runs one cell, with a timer of `seconds` (0: none) whose error says `why`. Returns its
    record (stdout, stderr, display, error, output_truncated) and its error (or None)."""
    linecache.cache[name] = (len(src), None, src.splitlines(True), name)
    for f in files:
        f.truncate(0)
    cell = _Cell()
    _current[0] = cell
    for s in streams:  # the same objects every cell: a logging handler keeps working
        s.n, s.dropped = 0, False
    sys.stdout = sys.__stdout__ = streams[0]
    sys.stderr = sys.__stderr__ = streams[1]
    if started is not None:
        started()
    error = None
    _timer.update(fired=False, why=why)
    signal.signal(signal.SIGALRM, _alarm)  # again: an earlier cell may have replaced it,
    signal.pthread_sigmask(signal.SIG_UNBLOCK, [signal.SIGALRM])  # or blocked it
    worlds = _worlds[0]
    try:
        worlds.cell()
        _timer["on"] = True
        if seconds > 0:
            _setitimer(_ITIMER_REAL, seconds)
        try:
            try:
                _run(src, name, g)
            finally:
                _flush()
        finally:
            _timer["on"] = False
            _setitimer(_ITIMER_REAL, 0)
            worlds.driver()
    except BaseException as e:  # SystemExit and KeyboardInterrupt too, as a kernel does
        _timer["on"] = False
        _setitimer(_ITIMER_REAL, 0)
        worlds.driver()
        error = _error(e)
        if _timer["fired"]:
            error["ename"] = "CellTimeoutError"
            error["evalue"] = why
    if os.getpid() != _PID:  # a process the cell forked came back here: it ends, unheard
        os._exit(0)
    _figures(cell)
    _current[0] = None
    stdout, t1 = _read(files[0])
    stderr, t2 = _read(files[1])
    rec = {"stdout": stdout, "stderr": stderr, "display": cell.display,
           "error": [error] if error else [],
           "output_truncated": t1 or t2 or cell.display_dropped or
           streams[0].dropped or streams[1].dropped}
    return rec, error


def main():
    req = json.loads(sys.stdin.buffer.read().decode("utf-8"))
    null = os.open(os.devnull, os.O_RDONLY)
    os.dup2(null, 0)  # cells have no stdin, as in a notebook
    os.close(null)
    os.makedirs(DIR, exist_ok=True)
    results = open(os.path.join(DIR, "results.jsonl"), "w", encoding="utf-8")
    files = (open(os.path.join(DIR, "stdout"), "a+b"), open(os.path.join(DIR, "stderr"), "a+b"))
    real_err, g = _setup(os.path.abspath(DIR), files)
    sys.path.insert(0, os.getcwd())  # a notebook imports the work dir's modules
    written = [0]
    values = 0

    def emit(rec):
        line = json.dumps(rec) + "\n"
        written[0] += len(line)
        results.write(line)
        results.flush()

    streams = (_Out(1, "<stdout>"), _Out(2, "<stderr>"))
    timeout = float(req.get("cell_timeout") or 0)
    why = "the cell ran past cell_timeout (%g s)" % timeout
    for i, src in enumerate(req["cells"]):
        rec, error = _cell(src, "<cell %d>" % i, g, files, streams, timeout, why,
                           lambda: emit({"start": i}))
        rec = dict({"cell": i}, **rec)
        if written[0] + len(json.dumps(rec)) > TOTAL_MAX:
            rec.update(stdout="", stderr="", display=[], output_truncated=True)
        rec, n = _within(rec, values)
        values += n
        emit(rec)
        if error and req.get("stop_on_error", True):
            break
    emit({"done": True})
    results.close()
    os.close(real_err)
    # The kernel is done: threads the cells left running do not hold the exit (as daemon
    # threads do not), while the cells' open files are still flushed as the interpreter ends.
    threading = sys.modules.get("threading")
    if threading is not None and hasattr(threading, "_shutdown"):
        threading._shutdown = lambda: None


# ---- the session kernel ----------------------------------------------------------------------

REQ_FD, REPLY_FD = 3, 4
_NOT_RUN = {"stdout": "", "stderr": "", "display": [], "error": [], "executed": False,
            "output_truncated": False}


class _BadFrame(Exception):
    pass


def _again(op, *args):
    """op(*args), retried when a signal handler a cell installed raised while it waited (between
    calls the kernel only waits; a Jupyter kernel outlives an interrupt there too)."""
    while True:
        try:
            return op(*args)
        except OSError:
            raise
        except BaseException:
            continue


def _recv(fd):
    """One frame's bytes from fd, or None at the end of fd (before or within a frame)."""
    head = b""
    while True:
        c = _again(os.read, fd, 1)
        if not c:
            return None
        if c == b"\n":
            break
        if not c.isdigit() or len(head) >= 20:
            raise _BadFrame("bad frame header %r" % (head + c))
        head += c
    if not head:
        raise _BadFrame("empty frame header")
    buf = bytearray(int(head))
    view, got = memoryview(buf), 0
    while got < len(buf):
        n = _again(os.readv, fd, [view[got:got + (1 << 20)]])
        if n == 0:
            return None
        got += n
    return bytes(buf)


def _send(fd, obj):
    """obj as one frame on fd (lone surrogates, which JSON parsers refuse, become '?')."""
    body = json.dumps(obj, ensure_ascii=False).encode("utf-8", "replace")
    view = memoryview(b"%d\n" % len(body) + body)
    while view:
        try:
            n = _again(os.write, fd, view)
        except BrokenPipeError:  # no one reads the answers: the session is gone
            os._exit(0)
        view = view[n:]


def _request(data):
    """The call a frame asks for: (cells, stdin, timeout, stop_on_error); ValueError if bad."""
    try:
        req = json.loads(data.decode("utf-8"))
    except (ValueError, RecursionError) as e:  # UnicodeDecodeError is a ValueError
        raise ValueError("not JSON (%s)" % e)
    if not isinstance(req, dict):
        raise ValueError("not a JSON object")
    cells = req.get("cells")
    if not isinstance(cells, list) or not all(isinstance(c, str) for c in cells):
        raise ValueError("cells: a list of strings is required")
    stdin = req.get("stdin")
    if stdin is None:
        stdin = ""
    if not isinstance(stdin, str):
        raise ValueError("stdin: a string or null")
    timeout = req.get("timeout")
    if timeout is None:
        timeout = 0
    if isinstance(timeout, bool) or not isinstance(timeout, (int, float)) or \
            not 0 <= timeout <= 1e6:
        raise ValueError("timeout: seconds, 0 (none) to 1e6")
    stop = req.get("stop_on_error")
    if stop is None:
        stop = True
    if not isinstance(stop, bool):
        raise ValueError("stop_on_error: a boolean")
    return cells, stdin, float(timeout), stop


def _remove(path):
    """Removes what is at path (a file, link or directory a cell left there), if anything."""
    if os.path.isdir(path) and not os.path.islink(path):
        import shutil
        shutil.rmtree(path)
    elif os.path.lexists(path):
        os.unlink(path)


def _stdin(text, d):
    """The call's stdin becomes fd 0 (for the cells and their subprocesses) and sys.stdin."""
    data = text.encode("utf-8", "replace")
    try:
        fd = os.memfd_create("stdin")
    except (AttributeError, OSError):  # no memfd: an unlinked file in the session's directory
        path = os.path.join(d, "stdin")
        os.makedirs(d, exist_ok=True)  # a cell may have removed it
        _remove(path)
        fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_EXCL | os.O_CLOEXEC, 0o644)
        os.unlink(path)
    try:
        view = memoryview(data)
        while view:
            view = view[os.write(fd, view):]
        os.lseek(fd, 0, os.SEEK_SET)
        os.dup2(fd, 0)
    finally:
        os.close(fd)
    raw = io.FileIO(0, "rb", closefd=False)
    sys.stdin = sys.__stdin__ = io.TextIOWrapper(io.BufferedReader(raw), encoding="utf-8",
                                                 errors="surrogateescape", newline="\n")


def _clip(error):
    """A smaller copy of an error whose text passes the results' budget."""
    tb = error["traceback"]
    if len(tb) > 21:
        tb = tb[:1] + ["..."] + tb[-19:]
    return dict(error, evalue=error["evalue"][:1000], traceback=[s[:1000] for s in tb])


def _call(cells, stop_on_error, timeout, g, files, streams, count):
    """Runs one call's cells; returns their records. count: the session's cell counter."""
    deadline = time.monotonic() + timeout if timeout > 0 else None
    why = "the call ran past its timeout (%g s)" % timeout
    out, used, stopped, values = [], 0, False, 0
    for src in cells:
        if stopped:
            out.append(dict(_NOT_RUN))
            continue
        left = 0
        if deadline is not None:
            left = deadline - time.monotonic()
        if deadline is not None and left <= 0:  # no time left: it times out where it starts
            error = _timeout_error(why)
            rec = dict(_NOT_RUN, error=[error])
            timed_out = True
        else:
            rec, error = _cell(src, "<cell %d>" % count[0], g, files, streams, left, why)
            count[0] += 1
            timed_out = _timer["fired"]
            if timed_out and error is None:  # the cell swallowed the timeout: still its error
                error = _timeout_error(why)
                rec["error"] = [error]
        rec["executed"] = True
        n = len(json.dumps(rec))
        if used + n > TOTAL_MAX:
            rec.update(stdout="", stderr="", display=[], output_truncated=True)
            if error is not None:
                rec["error"] = [_clip(error)]
            n = len(json.dumps(rec))
        used += n
        rec, n = _within(rec, values)
        values += n
        out.append(rec)
        if timed_out or (error is not None and stop_on_error):
            stopped = True
    return out


def _serve(d, files, streams, g):
    count = [0]
    while True:
        try:
            data = _recv(REQ_FD)
        except _BadFrame as e:  # the stream is out of step: nothing after it can be read
            _send(REPLY_FD, {"error": "bad request: %s" % e})
            os._exit(2)
        if data is None:
            os._exit(0)
        try:
            cells, stdin, timeout, stop_on_error = _request(data)
        except ValueError as e:
            _send(REPLY_FD, {"error": "bad request: %s" % e})
            continue
        try:
            _stdin(stdin, d)
        except OSError as e:  # e.g. past the session's file size limit
            _send(REPLY_FD, {"error": "stdin: %s" % e})
            continue
        out = _call(cells, stop_on_error, timeout, g, files, streams, count)
        _send(REPLY_FD, {"cells": out, "done": True})


def session():
    for fd in (REQ_FD, REPLY_FD):
        os.set_inheritable(fd, False)  # the cells' subprocesses do not hold the channel
    wd = os.getcwd()
    d = os.path.join(wd, SESSION_DIR)  # absolute: the cells may chdir
    if not os.path.isdir(d):
        _remove(d)
        os.makedirs(d)
    files = []
    for name in ("stdout", "stderr"):  # new files, whatever an earlier kernel's cells left
        path = os.path.join(d, name)
        _remove(path)
        fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_EXCL | os.O_APPEND | os.O_CLOEXEC, 0o644)
        files.append(os.fdopen(fd, "a+b"))
    real_err, g = _setup(d, files)
    sys.path.insert(0, wd)  # the work dir's modules import
    del sys.argv[1:]  # the cells' argv is python -c's: ['-c']
    streams = (_Out(1, "<stdout>"), _Out(2, "<stderr>"))
    try:
        _serve(d, files, streams, g)
    except BaseException:  # the kernel's own fault: to the cell's stderr pipe, and the end
        msg = memoryview(("verdict session kernel: " + traceback.format_exc()).encode(
            "utf-8", "replace"))
        try:
            while msg:
                msg = msg[os.write(real_err, msg):]
        finally:
            os._exit(1)


if sys.argv[1:] == ["--session"]:
    session()
else:
    main()
