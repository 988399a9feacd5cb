# The program's side of the grader's channel (runners/job.h: fd 3 in, fd 4 out), run after the
# program's own code as `verdict_host.py`, PROGRAM being the program's globals. It holds no
# secret and decides nothing: it answers the grader's requests, one per line, in the wire's
# grammar (wire.py), and the grader trusts nothing it says beyond the values it carries.
#   ("get", name)              the program's global `name`
#   ("call", h, args, kwargs)  handle h called
#   ("getattr", h, name)       an attribute of handle h
#   ("setattr", h, name, v)    set one
#   ("item", h, key)           h[key]
#   ("bool", h) ("len", h) ("list", h)   bool(h), len(h), list(h)
# The answer is ("ok", value) or ("raise", type name, message).

import sys as _sys


def _serve(program):
    if hasattr(_sys, "set_int_max_str_digits"):
        _sys.set_int_max_str_digits(0)
    handles, ids = [], {}

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

    def answer(req):
        op = req[0]
        if op == "get":
            if req[1] not in program:
                raise NameError("name %r is not defined" % (req[1],))
            return program[req[1]]
        if op == "call":
            return handle(req[1])(*req[2], **req[3])
        if op == "getattr":
            return getattr(handle(req[1]), req[2])
        if op == "setattr":
            setattr(handle(req[1]), req[2], req[3])
            return None
        if op == "item":
            return handle(req[1])[req[2]]
        if op in ("bool", "len", "list"):
            return {"bool": bool, "len": len, "list": list}[op](handle(req[1]))
        raise ValueError("unknown request")

    rin = open(3, "rb", closefd=False)
    wout = open(4, "wb", buffering=0, closefd=False)
    for line in rin:
        try:
            out = "('ok',%s)" % wire_encode(answer(wire_decode(line.decode("ascii"), handle, True)),
                                            handle_of)
        except BaseException as e:  # the program's SystemExit too: a call that did not return
            try:
                out = "('raise',%s,%s)" % (ascii(type(e).__name__), ascii(str(e)[:2000]))
            except BaseException:
                out = "('raise','Exception','')"
        try:
            _sys.stdout.flush()
        except BaseException:
            pass
        wout.write(out.encode("ascii") + b"\n")


_serve(PROGRAM)
