# verdict's notebook driver for POST /run_jupyter (docs/api.md): a kernel-like loop, run as the
# python template's program (main.py) in a sandbox cell, embedded in the server at build time.
#
# stdin: {"cells": [str], "cell_timeout": seconds (0: none), "stop_on_error": bool}. The cells
# run in order in this one process with one globals dict, as Jupyter's kernel runs them: a
# cell's last expression statement is displayed (text/plain is its repr, with _repr_png_,
# _repr_html_ ... where the object has them), print goes to the cell's stdout, an exception
# ends the cell with {ename, evalue, traceback} and, with stop_on_error, the run.
#
# Results travel on a channel of the driver's own, never on the program's stdout: the file
# .verdict_jupyter/results.jsonl in the work dir, one JSON line {"start": i} before cell i
# and {"cell": i, ...} after it, {"done": true} at the end, each written and flushed at once,
# so when the sandbox stops the run (total_timeout, memory_limit_MB) the server still reads
# every finished cell and knows which one was running. The cell's own code can write there
# too: /run_jupyter grades nothing, so a cell that forges its results only fools itself.
# Standard output and error (file descriptors 1 and 2, so subprocesses' output too) are the
# files .verdict_jupyter/stdout and stderr, emptied before each cell and read back after it;
# the server reads the running cell's output from them when the run is stopped mid-cell.

import ast
import base64
import builtins
import inspect
import io
import json
import linecache
import os
import signal
import sys
import traceback
import types

DIR = ".verdict_jupyter"
STREAM_MAX = 1 << 20  # bytes of a cell's stdout, and of its stderr, kept
DISPLAY_MAX = 4 << 20  # bytes of a cell's display data kept
TOTAL_MAX = 12 << 20  # bytes of results in all (the server fetches at most 16 MiB)
_DRIVER = __file__ if "__file__" in globals() else "main.py"


class CellTimeoutError(BaseException):
    """Raised in a cell that runs past cell_timeout: not an Exception, so `except Exception`
    in the cell does not swallow it (and it is raised again every 0.1 s until the cell ends)."""


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
            view = view[os.write(self._fd, view):]

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
                json.dumps(r)
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


class _Cell:
    def __init__(self):
        self.display, self.display_bytes, self.display_dropped = [], 0, False

    def show(self, bundle):
        n = len(json.dumps(bundle))
        if self.display_bytes + n > DISPLAY_MAX:
            self.display_dropped = True
            return
        self.display_bytes += n
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


def _error(e, name):
    # the driver's own frames (its exec, its timer) are not the cell's
    frames = [f for f in traceback.extract_tb(e.__traceback__) if f.filename != _DRIVER]
    lines = traceback.format_exception_only(type(e), e)
    if frames and not isinstance(e, SyntaxError):
        lines = ["Traceback (most recent call last):"] + traceback.format_list(frames) + lines
    try:
        evalue = str(e)
    except Exception:
        evalue = "<str failed>"
    return {"ename": type(e).__name__, "evalue": evalue,
            "traceback": [s.rstrip("\n") for s in lines]}


_loop = [None]


def _eval(tree, name, mode, g):
    """Runs a compiled cell part; top-level await runs on an event loop, as IPython's does."""
    code = compile(tree, name, mode, flags=ast.PyCF_ALLOW_TOP_LEVEL_AWAIT)
    v = eval(code, g)
    if code.co_flags & inspect.CO_COROUTINE:
        import asyncio
        if _loop[0] is None:  # one loop for every cell, as the kernel's
            _loop[0] = asyncio.new_event_loop()
        v = _loop[0].run_until_complete(v)
    return v


def _run(src, name, g):
    tree = ast.parse(src, filename=name, mode="exec")
    last = None
    if tree.body and isinstance(tree.body[-1], ast.Expr):
        last = ast.Expression(tree.body.pop().value)
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


def main():
    req = json.loads(sys.stdin.buffer.read().decode("utf-8"))
    null = os.open(os.devnull, os.O_RDONLY)
    os.dup2(null, 0)  # cells have no stdin, as in a notebook
    os.close(null)
    os.makedirs(DIR, exist_ok=True)
    os.environ.setdefault("MPLBACKEND", "Agg")
    os.environ.setdefault("MPLCONFIGDIR", os.path.abspath(os.path.join(DIR, "mpl")))
    results = open(os.path.join(DIR, "results.jsonl"), "w", encoding="utf-8")
    out = open(os.path.join(DIR, "stdout"), "a+b")
    err = open(os.path.join(DIR, "stderr"), "a+b")
    real_err = os.fdopen(os.dup(2), "w")  # the driver's own faults: the run's stderr
    os.dup2(out.fileno(), 1)
    os.dup2(err.fileno(), 2)
    if hasattr(signal, "SIGXFSZ"):
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # past file_mb: a write error, not death
    sys.path.insert(0, os.getcwd())  # a notebook imports the work dir's modules
    builtins.display = display
    written = [0]

    def emit(rec):
        line = json.dumps(rec) + "\n"
        written[0] += len(line)
        results.write(line)
        results.flush()

    pid = os.getpid()
    streams = (_Out(1, "<stdout>"), _Out(2, "<stderr>"))
    timeout = float(req.get("cell_timeout") or 0)
    state = {"deadline": False}

    def alarm(signum, frame):
        state["deadline"] = True
        signal.setitimer(signal.ITIMER_REAL, 0.1)  # again, until the cell gives up
        raise CellTimeoutError("the cell ran past cell_timeout (%g s)" % timeout)

    signal.signal(signal.SIGALRM, alarm)
    main_module = types.ModuleType("__main__")  # the cells' module: pickle finds their classes
    sys.modules["__main__"] = main_module
    g = main_module.__dict__
    g.update(__builtins__=builtins, display=display)
    for i, src in enumerate(req["cells"]):
        name = "<cell %d>" % i
        linecache.cache[name] = (len(src), None, src.splitlines(True), name)
        for f in (out, err):
            f.truncate(0)
        cell = _Cell()
        _current[0] = cell
        for s in streams:  # the same objects every cell: a logging handler keeps working
            s.n, s.dropped = 0, False
        sys.stdout = sys.__stdout__ = streams[0]
        sys.stderr = sys.__stderr__ = streams[1]
        emit({"start": i})
        error = None
        state["deadline"] = False
        signal.signal(signal.SIGALRM, alarm)  # again: the last cell may have replaced it
        try:
            if timeout > 0:
                signal.setitimer(signal.ITIMER_REAL, timeout)
            try:
                _run(src, name, g)
            finally:
                signal.setitimer(signal.ITIMER_REAL, 0)
        except BaseException as e:  # SystemExit and KeyboardInterrupt too, as a kernel does
            signal.setitimer(signal.ITIMER_REAL, 0)
            error = _error(e, name)
            if state["deadline"]:
                error["ename"] = "CellTimeoutError"
                error["evalue"] = "the cell ran past cell_timeout (%g s)" % timeout
        signal.setitimer(signal.ITIMER_REAL, 0)
        if os.getpid() != pid:  # a process the cell forked came back here: it ends, unheard
            os._exit(0)
        _figures(cell)
        _current[0] = None
        stdout, t1 = _read(out)
        stderr, t2 = _read(err)
        rec = {"cell": i, "stdout": stdout, "stderr": stderr, "display": cell.display,
               "error": [error] if error else [],
               "output_truncated": t1 or t2 or cell.display_dropped or
               streams[0].dropped or streams[1].dropped}
        if written[0] + len(json.dumps(rec)) > TOTAL_MAX:
            rec.update(stdout="", stderr="", display=[], output_truncated=True)
        emit(rec)
        if error and req.get("stop_on_error", True):
            break
    emit({"done": True})
    results.close()
    real_err.close()
    # The kernel is done: threads the cells left running do not hold the exit (as daemon
    # threads do not), while the cells' open files are still flushed as the interpreter ends.
    threading = sys.modules.get("threading")
    if threading is not None and hasattr(threading, "_shutdown"):
        threading._shutdown = lambda: None


main()
