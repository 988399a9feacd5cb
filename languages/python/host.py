# The program's side of the grader's channel (runners/job.h: fd 3 in, fd 4 out). The program's
# source file (main.py) is only the join (python.json): it runs this code first, with a copy of
# the builtins taken before anything else ran, PROGRAM being main.py's globals and CODE_FILE
# the work-dir file that holds the program's code. This code runs the program's code in
# PROGRAM, as python3 would run it as main.py, and then answers the grader's requests. So every
# builtin, module function and type this code calls after the program ran is one it bound
# before: a program that rebinds builtins or os/sys functions (SandboxFusion's guard sets
# `exit`, `os._exit` and `sys.exit` to None) changes its own calls, never the host's.
# It holds no secret and decides nothing: it answers the grader's requests, one per line, in the
# wire's grammar (wire.py), and the grader trusts nothing it says beyond the values it carries.
#   ("get", name)              the program's global `name`
#   ("call", h, args, kwargs)  handle h called
#   ("getattr", h, name)       an attribute of handle h
#   ("setattr", h, name, v)    set one
#   ("item", h, key)           h[key]
#   ("bool", h) ("len", h) ("list", h)   bool(h), len(h), list(h)
#   ("capture", on)            the program's stdout and stderr (fds 1 and 2) sent to files of
#                              the host's own from now (True) or back to where they were
#   ("echo", out, err)         the tests' own prints while captured, written there in turn
#   ("readout",)               what was written there since the last readout: (out, err)
#                              (pytest's capsys and capfd, python/pytest_runner.py)
# The answer is ("ok", value), ("raise", type name, message), or, to a "get" of a module,
# ("module", its name): the grader then imports that module itself (grader.py).

import sys as _sys


def _run_program(program, code_file):
    """The program's code in PROGRAM, as python3 runs main.py: its own exceptions and exit end
    the process (no host: the grader's first call finds no one serving)."""
    import os.path
    path = os.path.abspath(code_file)
    with open(path, "rb") as f:
        source = f.read()
    program["__file__"] = path
    exec(compile(source, path, "exec", dont_inherit=True), program)


class _Capture:
    """fds 1 and 2 sent to memory files while captured, and sys.stdout and sys.stderr made
    streams of their own onto them (the program's may be pytest's capture, which writes to
    a file of pytest's); every function it calls bound before the program ran."""

    def __init__(self):
        import io
        import os
        self.os = {k: getattr(os, k) for k in
                   ("dup", "dup2", "close", "memfd_create", "lseek", "read", "ftruncate")}
        self.text, self.raw = io.TextIOWrapper, io.FileIO
        self.flush, self.saved = _flush_streams, None

    def start(self):
        o = self.os
        if self.saved is None:
            self.flush()
            self.saved = (o["dup"](1), o["dup"](2), _sys.stdout, _sys.stderr)
            self.files = (o["memfd_create"]("out"), o["memfd_create"]("err"))
            o["dup2"](self.files[0], 1)
            o["dup2"](self.files[1], 2)
            self.streams = [self.text(self.raw(o["dup"](fd), "w"), encoding="utf-8",
                                      errors="backslashreplace", write_through=True)
                            for fd in (1, 2)]
            _sys.stdout, _sys.stderr = self.streams

    def stop(self):
        o = self.os
        if self.saved is not None:
            self.flush()
            for stream in self.streams:
                try:
                    stream.close()
                except BaseException:
                    pass
            _sys.stdout, _sys.stderr = self.saved[2], self.saved[3]
            for fd, saved, f in ((1, self.saved[0], self.files[0]), (2, self.saved[1], self.files[1])):
                o["dup2"](saved, fd)
                o["close"](saved)
                o["close"](f)
            self.saved = None

    def echo(self, out, err):
        if self.saved is not None and type(out) is str and type(err) is str:
            self.flush()
            for stream, text in zip(self.streams, (out, err)):
                stream.write(text)

    def readout(self):
        if self.saved is None:
            return "", ""
        self.flush()
        o, got = self.os, []
        for f in self.files:
            o["lseek"](f, 0, 0)
            data = b""
            while len(data) < (16 << 20):
                chunk = o["read"](f, 1 << 16)
                if not chunk:
                    break
                data += chunk
            o["ftruncate"](f, 0)
            o["lseek"](f, 0, 0)
            got.append(data.decode("utf-8", "replace"))
        return got[0], got[1]


def _flush_streams():
    for name in ("stdout", "stderr"):
        try:
            getattr(_sys, name).flush()  # the program's, whatever it is now
        except BaseException:
            pass


def _serve(program, code_file):
    digits = getattr(_sys, "set_int_max_str_digits", None)
    module_type = type(_sys)
    handles, ids = [], {}
    capture = _Capture()
    _run_program(program, code_file)
    if digits is not None:
        digits(0)

    def handle_of(v):
        n = ids.get(id(v))
        if n is None:
            n = ids[id(v)] = len(handles)
            handles.append(v)
        return "H(%d)" % n

    def handle(n):
        if 0 <= n < len(handles):
            return handles[n]
        raise ValueError("no such handle")

    def module_name(v):
        name = object.__getattribute__(v, "__dict__").get("__name__")
        if type(name) is not str:
            raise TypeError("a module without a name")
        return "('module',%s)" % ascii(name)

    def answer(req):
        op = req[0]
        if op == "get":
            if req[1] not in program:
                raise NameError("name %r is not defined" % (req[1],))
            v = program[req[1]]
            if isinstance(v, module_type):
                return module_name(v)
            return "('ok',%s)" % wire_encode(v, handle_of)
        if op == "call":
            v = handle(req[1])(*req[2], **req[3])
        elif op == "getattr":
            v = getattr(handle(req[1]), req[2])
        elif op == "setattr":
            setattr(handle(req[1]), req[2], req[3])
            v = None
        elif op == "item":
            v = handle(req[1])[req[2]]
        elif op in ("bool", "len", "list"):
            v = {"bool": bool, "len": len, "list": list}[op](handle(req[1]))
        elif op == "capture":
            v = capture.start() if req[1] is True else capture.stop()
        elif op == "readout":
            v = capture.readout()
        elif op == "echo":
            v = capture.echo(req[1], req[2])
        else:
            raise ValueError("unknown request")
        return "('ok',%s)" % wire_encode(v, handle_of)

    rin = open(3, "rb", closefd=False)
    wout = open(4, "wb", buffering=0, closefd=False)
    for line in rin:
        try:
            out = answer(wire_decode(line.decode("ascii"), handle, True))
        except BaseException as e:  # the program's SystemExit too: a call that did not return
            try:
                out = "('raise',%s,%s)" % (ascii(type(e).__name__), ascii(str(e)[:2000]))
            except BaseException:
                out = "('raise','Exception','')"
        try:
            _sys.stdout.flush()  # the program's stdout, whatever it is now
        except BaseException:
            pass
        wout.write(out.encode("ascii") + b"\n")


_serve(PROGRAM, CODE_FILE)
