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
# raised, exited, closed the channel or answered out of protocol (RE); CANNOT the tests import
# a module this Python does not have (SE: the judge's want, never the program's fault).

import builtins
import sys

FAILED, BROKE, CANNOT = 1, 2, 3
REPLY_MAX = 64 << 20  # bytes of one answer


class ProgramBroke(BaseException):
    """The program stopped serving: not an Exception, so no `except Exception` in the tests
    can swallow it, and once raised every later call raises it again."""


class ProgramRaised(Exception):
    """The program raised an exception that is not one of Python's own."""


_state = {"broken": None, "entry": "", "capture": None}


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


def rpc(*req, checked=True):
    """The program's answer to req; the handles in it are `checked` (Remote)."""
    if _state["broken"]:
        raise ProgramBroke(_state["broken"])
    if _state["capture"] is not None:  # the tests' prints while captured go first
        _state["capture"].push()
    try:
        _out.write((wire_encode(req, _send_handle) + "\n").encode("ascii"))
    except (BrokenPipeError, OSError):
        raise _broke("the program stopped serving (it exited or closed its channel)")
    line = _in.readline(REPLY_MAX)
    if not line.endswith(b"\n"):
        raise _broke("the program stopped serving (it exited or closed its channel)"
                     if len(line) < REPLY_MAX else "the program's answer is too long")
    try:
        rep = wire_decode(line.decode("ascii"), lambda n: Remote(n, checked))
    except Exception:
        raise _broke("the program answered with what is not a value")
    if type(rep) is tuple and len(rep) == 2 and rep[0] == "ok":
        return rep[1]
    if (req[0] == "get" and type(rep) is tuple and len(rep) == 2 and rep[0] == "module" and
            type(rep[1]) is str):
        return _OwnModule(rep[1])
    if (type(rep) is tuple and len(rep) == 3 and rep[0] == "raise" and type(rep[1]) is str and
            type(rep[2]) is str):
        raise _raised(rep[1], rep[2])
    raise _broke("the program answered out of protocol")


class _OwnModule:
    """The host's word that a global of the program is a module, and which: the grader
    imports that module itself (_own_module)."""
    __slots__ = ("name",)

    def __init__(self, name):
        self.name = name


def _typed(v, t):
    if type(v) is not t:
        raise _broke("the program answered a %s where Python needs a %s" %
                     (type(v).__name__, t.__name__))
    return v


class Remote:
    """A value of the program that is not a literal: it can be called, indexed, its
    attributes read and set, passed back, tested for truth, measured and iterated (the program
    answers, as values); never compared or hashed here: no answer of the program's can make
    it equal to anything. Only a checked handle (the entry point, and what it gives) answers
    with literals: one the tests took from another name of the program (MBPP 367's Node, 601's
    Pair) makes inputs for the entry point, handles only, or its answers would be the program's
    choice of what the entry point's are checked against."""
    __slots__ = ("_n", "_checked")

    def __init__(self, n, checked=True):
        object.__setattr__(self, "_n", n)
        object.__setattr__(self, "_checked", checked)

    def _ask(self, *req):
        v = rpc(*req, checked=self._checked)
        if not self._checked and type(v) is not Remote:
            raise TypeError("a value of the program that is not its entry point gave a %s: "
                            "the tests may pass what it makes to the entry point, not check it"
                            % type(v).__name__)
        return v

    def __call__(self, *args, **kwargs):
        return self._ask("call", self._n, args, kwargs)

    def __getattr__(self, name):
        if name.startswith("__"):
            raise AttributeError(name)
        return self._ask("getattr", self._n, name)

    def __setattr__(self, name, value):
        rpc("setattr", self._n, name, value)

    def __getitem__(self, key):
        return self._ask("item", self._n, key)

    def __bool__(self):
        return _typed(self._ask("bool", self._n), bool)

    def __len__(self):
        return _typed(self._ask("len", self._n), int)

    def __iter__(self):
        return iter(_typed(self._ask("list", self._n), list))

    def _refuse(self, *_):
        raise TypeError("a value of the program that is not a literal cannot be compared "
                        "or hashed here")

    __eq__ = __ne__ = __lt__ = __le__ = __gt__ = __ge__ = __hash__ = _refuse

    def __repr__(self):
        return "<program value #%d>" % self._n


# Modules the grader never imports on a program's word: their import does more than define
# names (a browser, a GUI, the standard library's own test runs).
_NOT_IMPORTED = frozenset(
    "this antigravity idlelib turtledemo turtle tkinter test ensurepip venv lib2to3 pip".split())
_STDLIB = getattr(sys, "stdlib_module_names", frozenset())  # Python 3.10 and later


def _own_module(name):
    """The grader's own import of module `name`: the standard library's, or one installed
    beside it (never a file the program can write: -I keeps the work dir off sys.path)."""
    parts = name.split(".")
    if (not all(p.isidentifier() and not p.startswith("__") for p in parts) or
            parts[0] in _NOT_IMPORTED):
        raise NameError("the tests use a module the grader does not import: %r" % (name,))
    try:
        __import__(name)
        return sys.modules[name]
    except BaseException:
        raise NameError("the tests use a module the grader cannot import: %r" % (name,))


def _program_name(name):
    """The program's global `name`, as the tests may use it: a handle (its function, class or
    object: whatever they do with it, the program answers as values), or, where it is a
    module, the grader's own import of the module it names, never the program's. A literal is
    refused: a value the program picks (an expected answer, a test's input) would let it
    supply the checking side."""
    v = rpc("get", name, checked=not _state["entry"])
    if type(v) is _OwnModule:
        return _own_module(v.name)
    if type(v) is not Remote:
        raise NameError("the tests use the program's %r, a value (%s), not a function, class "
                        "or module: put what the tests need in the setup" %
                        (name, type(v).__name__))
    return v


class ProgramNames(dict):
    """The tests' builtins: Python's; then, for a name of the standard library's modules (MBPP
    596 uses sys and imports nothing), the grader's own import of that module, whatever the
    program calls by that name; then the program's globals (_program_name)."""

    def __missing__(self, name):
        if name.startswith("__"):
            raise KeyError(name)
        if name in _STDLIB and name not in _NOT_IMPORTED:
            v = _own_module(name)
        else:
            v = _program_name(name)
        self[name] = v
        return v


def _traceback():
    import traceback  # here only: importing it costs ~20 ms, a passing run never needs it
    traceback.print_exc()


def main(tests, setup, entry):
    if hasattr(sys, "set_int_max_str_digits"):
        sys.set_int_max_str_digits(0)
    ns = {"__name__": "__main__", "__builtins__": ProgramNames(builtins.__dict__)}
    _state["entry"] = entry
    status = 0
    try:
        if setup:
            exec(compile(setup, "<setup>", "exec"), ns)
        ns.pop(entry, None)
        if entry:  # the program's, even where a builtin has the name, if it defines it
            try:
                v = rpc("get", entry)
                ns[entry] = _own_module(v.name) if type(v) is _OwnModule else v
            except NameError:
                pass
        exec(compile(tests, "<tests>", "exec"), ns)
        run = globals().get("_run_collected")  # pytest's grader: the tests it collects
        if run:
            run(ns)
    except ProgramBroke:
        status = BROKE
        _traceback()
    except SystemExit as e:
        status = 0 if e.code in (None, 0) else FAILED
    except ModuleNotFoundError as e:
        if getattr(e, "raised_by_program", False):
            status = BROKE
            _traceback()
        else:
            status = CANNOT
            print("verdict grader: the tests import %s, which the grader's Python does not have"
                  % (e.name,), file=sys.stderr)
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
