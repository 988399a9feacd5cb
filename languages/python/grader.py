# verdict's grader for Python harnesses (docs/integrity.md). It runs in a process of its own,
# as another uid than the program (runners/job.h), with the tests on its stdin: the program can
# neither read the tests nor reach this process. The tests run here; the names they call that
# the program defines resolve to handles of the program's values, and each call crosses the
# channel (fd 4 out, fd 3 in) as literals (wire.py). Whatever the program does, it can only
# answer calls: its exit, its patches of builtins, rigged objects and printed text never reach
# the checks. (Not made non-dumpable: between two uids the kernel already refuses ptrace and
# /proc/<pid>/mem, seccomp refuses ptrace, and importing ctypes to call prctl cost 14% of
# HumanEval's wall time.)
#
# ARGS (from the bootstrap in python.json): the tests, the setup (trusted code the tests see,
# e.g. a HumanEval prompt's helpers, run here only), the entry point (a name the program must
# define even where the setup defines it too).
# Values the tests pass must be literals, the program's own values (handles), or Python's
# builtins (by name); anything else is refused (TypeError), failing the check.
# Exit status: 0 every check passed; FAILED a check failed on the program's answers (an
# assertion, or the checks' own code raising on them: WA); BROKE the program failed a call: it
# raised, exited, closed the channel or answered out of protocol (RE).

import builtins
import sys

FAILED, BROKE = 1, 2
REPLY_MAX = 64 << 20  # bytes of one answer


class ProgramBroke(BaseException):
    """The program stopped serving: not an Exception, so no `except Exception` in the tests
    can swallow it, and once raised every later call raises it again."""


class ProgramRaised(Exception):
    """The program raised an exception that is not one of Python's own."""


_state = {"broken": None}


def _send_handle(v):
    if type(v) is Remote:
        return "H(%d)" % object.__getattribute__(v, "_n")
    b = wire_builtin(v)
    if b:
        return b
    raise TypeError("a %s cannot be passed to the program" % type(v).__name__)


def _raised(name, message):
    """The program's exception, as Python's own class of that name where there is one (the
    tests may expect it), marked as the program's."""
    e = None
    cls = getattr(builtins, name, None)
    if isinstance(cls, type) and issubclass(cls, Exception):
        try:
            e = cls(message)
        except Exception:
            pass
    if e is None:
        e = ProgramRaised("%s: %s" % (name, message))
    e.raised_by_program = True
    return e


def _broke(why):
    _state["broken"] = why
    return ProgramBroke(why)


def rpc(*req):
    if _state["broken"]:
        raise ProgramBroke(_state["broken"])
    try:
        _out.write((wire_encode(req, _send_handle) + "\n").encode("ascii"))
    except (BrokenPipeError, OSError):
        raise _broke("the program stopped serving (it exited or closed its channel)")
    line = _in.readline(REPLY_MAX)
    if not line.endswith(b"\n"):
        raise _broke("the program stopped serving (it exited or closed its channel)"
                     if len(line) < REPLY_MAX else "the program's answer is too long")
    try:
        rep = wire_decode(line.decode("ascii"), Remote)
    except Exception:
        raise _broke("the program answered with what is not a value")
    if type(rep) is tuple and len(rep) == 2 and rep[0] == "ok":
        return rep[1]
    if (type(rep) is tuple and len(rep) == 3 and rep[0] == "raise" and type(rep[1]) is str and
            type(rep[2]) is str):
        raise _raised(rep[1], rep[2])
    raise _broke("the program answered out of protocol")


def _typed(v, t):
    if type(v) is not t:
        raise _broke("the program answered a %s where Python needs a %s" %
                     (type(v).__name__, t.__name__))
    return v


class Remote:
    """A value of the program that is not a literal: it can be called, indexed, its
    attributes read and set, passed back, tested for truth, measured and iterated (the program
    answers, as values); never compared or hashed here: no answer of the program's can make
    it equal to anything."""
    __slots__ = ("_n",)

    def __init__(self, n):
        object.__setattr__(self, "_n", n)

    def __call__(self, *args, **kwargs):
        return rpc("call", self._n, args, kwargs)

    def __getattr__(self, name):
        if name.startswith("__"):
            raise AttributeError(name)
        return rpc("getattr", self._n, name)

    def __setattr__(self, name, value):
        rpc("setattr", self._n, name, value)

    def __getitem__(self, key):
        return rpc("item", self._n, key)

    def __bool__(self):
        return _typed(rpc("bool", self._n), bool)

    def __len__(self):
        return _typed(rpc("len", self._n), int)

    def __iter__(self):
        return iter(_typed(rpc("list", self._n), list))

    def _refuse(self, *_):
        raise TypeError("a value of the program that is not a literal cannot be compared "
                        "or hashed here")

    __eq__ = __ne__ = __lt__ = __le__ = __gt__ = __ge__ = __hash__ = _refuse

    def __repr__(self):
        return "<program value #%d>" % self._n


class ProgramNames(dict):
    """The tests' builtins: Python's, then the program's globals for any other name."""

    def __missing__(self, name):
        if name.startswith("__"):
            raise KeyError(name)
        v = rpc("get", name)
        if type(v) is Remote:
            self[name] = v
        return v


def _traceback():
    import traceback  # here only: importing it costs ~20 ms, a passing run never needs it
    traceback.print_exc()


def main(tests, setup, entry):
    if hasattr(sys, "set_int_max_str_digits"):
        sys.set_int_max_str_digits(0)
    ns = {"__name__": "__main__", "__builtins__": ProgramNames(builtins.__dict__)}
    status = 0
    try:
        if setup:
            exec(compile(setup, "<setup>", "exec"), ns)
        ns.pop(entry, None)
        if entry:  # the program's, even where a builtin has the name, if it defines it
            try:
                ns[entry] = rpc("get", entry)
            except NameError:
                pass
        exec(compile(tests, "<tests>", "exec"), ns)
    except ProgramBroke:
        status = BROKE
        _traceback()
    except SystemExit as e:
        status = 0 if e.code in (None, 0) else FAILED
    except BaseException as e:  # the checks failed on the answer, or the program raised
        status = BROKE if getattr(e, "raised_by_program", False) else FAILED
        _traceback()
    if _state["broken"]:
        status = BROKE
        print("verdict grader: %s" % _state["broken"], file=sys.stderr)
    sys.stdout.flush()
    sys.stderr.flush()
    return status


_in = open(3, "rb", closefd=False)
_out = open(4, "wb", buffering=0, closefd=False)
sys.exit(main(*ARGS))
