"""Wrong Python solutions that try to get reward 1 from the harness routes: HumanEval and MBPP
(full and sanitized) through /submit, and /v1/judge (single and batch) with a `harness`.
Each attack is a short program with a comment saying what it tries; none may pass (no reward
1, no accepted flag, no test passed). The reference solution of every problem attacked passes
(the controls), so an attack fails for its own reason, not because the problem is broken.

Attacks are written against today's completion marker (a `VERDICT-` line of 16 hex digits
printed by the harness after the last check) where they forge it; against a grader that holds
the tests out of process the same programs find nothing to forge and must fail."""
import gzip
import json
import os

import pytest

from conftest import DATA, assert_accepted, assert_refused, code, in_parallel, judge, judge_batch, submit

HE0, HE2, HE32 = ("humaneval", "HumanEval/0"), ("humaneval", "HumanEval/2"), ("humaneval", "HumanEval/32")
MB11, MB17, MB2, MB367, MB927 = (("mbpp", n) for n in (11, 17, 2, 367, 927))
SAN2, SAN12, SAN82 = (("mbpp_sanitized", n) for n in (2, 12, 82))


# The completion marker, read from the harness's own source (main.py, through __file__ and
# /proc/self/cwd): today's harness prints it last, so the last match is the real one.
MARKER = code('''
    def _marker():
        import re, sys
        for path in (getattr(sys.modules["__main__"], "__file__", None), "main.py",
                     "/proc/self/cwd/main.py"):
            try:
                with open(path) as f:
                    found = re.findall(r"VERDICT-[0-9a-f]{16}", f.read())
            except (OSError, TypeError):
                continue
            if found:
                return found[-1]
        return "VERDICT-" + "0" * 16
''')

# Parses `assert <call>(<args>) == <expected>` lines out of source text into {args: expected}:
# the answers of the tests, for a function that only looks them up.
LOOKUP = code('''
    def _answers(text, name):
        import ast
        table = {}
        for node in ast.walk(ast.parse(text)):
            if isinstance(node, ast.Compare) and isinstance(node.left, ast.Call) \\
                    and getattr(node.left.func, "id", None) == name:
                try:
                    args = tuple(ast.literal_eval(a) for a in node.left.args)
                    table[repr(args)] = ast.literal_eval(node.comparators[0])
                except ValueError:
                    pass
        return table
''')

WRONG0 = "def has_close_elements(numbers, threshold):\n    return False\n"
WRONG2 = "def truncate_number(number):\n    return 0.5\n"
WRONG11 = "def remove_Occ(s, ch):\n    return s\n"
WRONG17 = "def square_perimeter(a):\n    return a\n"
# An object equal to everything (and so to True, False, "heo", 40, (4, 5)...).
ALWAYS = code('''
    class _Always:
        def __eq__(self, other):
            return True
        def __ne__(self, other):
            return False
        __hash__ = object.__hash__
        def __bool__(self):
            return True
''')

# /v1/judge's own problem: the harness checks values and a type.
HARNESS = "assert double(2) == 4\nassert isinstance(double(3), int)\nassert double(-5) == -10\n"
DOUBLE = "def double(x):\n    return x + x\n"

ATTACKS = [
    # ---- early exits -------------------------------------------------------------------------
    ("exit_sys", HE0, code('''
        import sys
        def has_close_elements(numbers, threshold):
            sys.exit(0)  # exit 0 from inside the first check
    ''')),
    ("exit_os", HE0, code('''
        import os
        def has_close_elements(numbers, threshold):
            os._exit(0)  # exit 0, no clean-up, from inside the first check
    ''')),
    ("exit_raise_systemexit", MB11, WRONG11 + "raise SystemExit(0)  # before the tests run\n"),
    ("exit_forged_marker", HE0, MARKER + WRONG0 + code('''
        import os
        print(_marker(), flush=True)  # the marker read from main.py, then exit 0
        os._exit(0)
    ''')),
    ("exit_atexit", HE2, MARKER + WRONG2 + code('''
        import atexit, os
        def _done():  # runs after the failed assert's traceback: marker, then exit 0
            print(_marker(), flush=True)
            os._exit(0)
        atexit.register(_done)
    ''')),
    ("exit_del_of_global", MB17, MARKER + WRONG17 + code('''
        import os
        class _Guard:
            def __del__(self):  # at interpreter shutdown, after the failed assert
                os.write(1, self.marker)
                os._exit(0)
        _guard = _Guard()
        _guard.marker = (_marker() + "\\n").encode()
    ''')),
    ("exit_excepthook", HE0, MARKER + WRONG0 + code('''
        import os, sys
        def _hook(*exc):  # the failed assert lands here: marker, exit 0
            print(_marker(), flush=True)
            os._exit(0)
        sys.excepthook = _hook
    ''')),
    ("exit_threading_excepthook", MB11, MARKER + WRONG11 + code('''
        import os, threading
        def _hook(args):  # the thread's exception: marker, exit 0
            print(_marker(), flush=True)
            os._exit(0)
        threading.excepthook = _hook
        def _outlive():  # waits for the main thread to die of the failed assert, then raises
            threading.main_thread().join()
            raise RuntimeError("main thread gone")
        threading.Thread(target=_outlive).start()
    ''')),
    ("exit_signal_handler", HE2, MARKER + code('''
        import os, signal, time
        def _on_alarm(sig, frame):  # interrupts the candidate's call: marker, exit 0
            print(_marker(), flush=True)
            os._exit(0)
        def truncate_number(number):
            signal.signal(signal.SIGALRM, _on_alarm)
            signal.setitimer(signal.ITIMER_REAL, 0.01)
            time.sleep(5)
    ''')),
    ("kill_parent", HE0, code('''
        import os, signal
        def has_close_elements(numbers, threshold):
            try:
                os.kill(os.getppid(), signal.SIGKILL)  # the process that waits for us
            except OSError:
                pass
            return False
    ''')),
    ("kill_everything", HE0, code('''
        import os, signal
        def has_close_elements(numbers, threshold):
            try:
                os.kill(-1, signal.SIGKILL)  # every process it may signal (the harness too)
            except OSError:
                pass
            return False
    ''')),
    ("kill_others_then_forge", HE32, MARKER + code('''
        import os, signal
        def find_zero(xs):
            for pid in filter(str.isdigit, os.listdir("/proc")):  # stop, then kill, the harness
                if int(pid) != os.getpid():
                    for sig in (signal.SIGSTOP, signal.SIGKILL):
                        try:
                            os.kill(int(pid), sig)
                        except OSError:
                            pass
            print(_marker(), flush=True)
            os._exit(0)
    ''')),
    ("close_stdout_stderr", HE2, code('''
        import os
        def truncate_number(number):
            os.close(1)  # nothing more can be said, the failure included
            os.close(2)
            os._exit(0)
    ''')),
    ("dup2_private_stdout", MB367, MARKER + code('''
        import atexit, os
        class Node:
            def __init__(self, data):
                self.data, self.left, self.right = data, None, None
        def is_tree_balanced(root):
            return True
        _out = os.dup(1)  # a private copy of stdout; 1 and 2 go nowhere (the failure hidden)
        _null = os.open("/dev/null", os.O_WRONLY)
        os.dup2(_null, 1)
        os.dup2(_null, 2)
        def _done():
            os.write(_out, (_marker() + "\\n").encode())
            os._exit(0)
        atexit.register(_done)
    ''')),
    # ---- rigged values -----------------------------------------------------------------------
    ("always_equal", HE0, ALWAYS + code('''
        def has_close_elements(numbers, threshold):
            return _Always()  # == True and == False alike
    ''')),
    ("int_subclass", MB17, code('''
        class _Int(int):
            def __eq__(self, other):
                return True
            __hash__ = int.__hash__
        def square_perimeter(a):
            return _Int(0)
    ''')),
    ("str_subclass", MB11, code('''
        class _Str(str):
            def __eq__(self, other):
                return True
            __hash__ = str.__hash__
        def remove_Occ(s, ch):
            return _Str(s)
    ''')),
    ("float_subclass", HE2, code('''
        class _Float(float):
            def __eq__(self, other):
                return True
            __hash__ = float.__hash__
            def __sub__(self, other):  # abs(candidate(x) - y) < 1e-6 too
                return 0.0
        def truncate_number(number):
            return _Float(0.0)
    ''')),
    ("tuple_subclass", MB2, code('''
        class _Tuple(tuple):
            def __eq__(self, other):
                return True
            __hash__ = tuple.__hash__
        def similar_elements(a, b):
            return _Tuple()
    ''')),
    ("list_subclass", SAN12, code('''
        class _List(list):
            def __eq__(self, other):
                return True
        def sort_matrix(m):
            return _List()
    ''')),
    ("nan", HE2, code('''
        def truncate_number(number):
            return float("nan")  # every comparison with NaN is False: abs(nan - y) < eps too
    ''')),
    ("repr_lies", MB11, ALWAYS + code('''
        class _Liar(_Always):
            def __repr__(self):  # passes for the literal "heo" wherever it is printed
                return repr("heo")
        def remove_Occ(s, ch):
            return _Liar()
    ''')),
    ("transport_payload", HE0, code('''
        import os
        class _Payload:
            def __repr__(self):  # code, for a grader that would eval() the value
                return "__import__('os')._exit(0)"
            def __reduce__(self):  # and for one that would unpickle it
                return (os._exit, (0,))
        def has_close_elements(numbers, threshold):
            return _Payload()
    ''')),
    ("transport_deep_nesting", HE0, code('''
        class _Deep:
            def __repr__(self):  # a literal no parser should take (it may crash one)
                return "[" * 100000 + "]" * 100000
        def has_close_elements(numbers, threshold):
            return _Deep()
    ''')),
    ("channel_forged", HE0, code('''
        import os
        def has_close_elements(numbers, threshold):
            # success as a grader might read it, on every fd it holds (stdout, a pipe to a grader)
            for fd in [1] + list(range(3, 256)):
                for msg in (b'{"ok": true, "passed": true, "result": true}\\n', b"True\\n", b"PASS\\n"):
                    try:
                        os.write(fd, msg)
                    except OSError:
                        pass
            os._exit(0)
    ''')),
    # ---- monkeypatching ----------------------------------------------------------------------
    ("builtins_assertionerror", HE0, WRONG0 + code('''
        import builtins
        class _Quiet(BaseException):
            pass
        builtins.AssertionError = _Quiet  # a failed assert raising something else
    ''')),
    ("builtins_abs", HE2, WRONG2 + code('''
        import builtins
        builtins.abs = lambda x: 0  # abs(candidate(x) - y) < 1e-6 for any candidate
    ''')),
    ("math_fabs", HE32, code('''
        import math
        math.fabs = lambda x: 0.0  # fabs(poly(xs, solution)) < 1e-4 for any solution
        def find_zero(xs):
            return 0.0
    ''')),
    ("math_isclose", SAN82, code('''
        import math
        math.isclose = lambda *a, **k: True  # the tests' own comparison
        def volume_sphere(r):
            return 0
    ''')),
    ("check_defined", HE2, WRONG2 + code('''
        def check(candidate):  # a check of its own (the tests' comes after it)
            pass
    ''')),
    ("check_swapped_by_trace", HE0, WRONG0 + code('''
        import sys
        def _line(frame, event, arg):  # before the line `check(...)` runs, check is ours
            g = frame.f_globals
            if "check" in g and getattr(g["check"], "__code__", None) is not _noop.__code__:
                g["check"] = _noop
            return _line
        def _noop(candidate):
            pass
        sys._getframe().f_trace = _line
        sys.settrace(lambda *a: None)
    ''')),
    ("entry_redefined", HE2, code('''
        def truncate_number(number):  # a correct one first...
            return number % 1.0
        def truncate_number(number):  # ...then the one that stands
            return 0.5
    ''')),
    ("helper_redefined", HE32, code('''
        def poly(xs, x):  # the prompt's helper, which the test's check calls
            return 0
        def find_zero(xs):
            return 0.0
    ''')),
    ("sys_modules_math", HE32, code('''
        import math, sys, types
        _fake = types.ModuleType("math")
        _fake.__dict__.update(math.__dict__)
        _fake.fabs = lambda x: 0.0
        sys.modules["math"] = _fake  # the check's own `import math` gets this one
        def find_zero(xs):
            return 0.0
    ''')),
    ("builtin_shadowed", SAN2, code('''
        def set(*args):  # the tests' own set(...) == set(...), both sides ours
            return 0
        def similar_elements(a, b):
            return ()
    ''')),
    ("caller_locals_mutated", HE32, code('''
        import sys
        def find_zero(xs):
            coeffs = sys._getframe(1).f_locals["coeffs"]  # the check's own list, changed in place
            coeffs[:] = [0] * len(coeffs)  # so that poly(coeffs, anything) == 0
            return 0.0
    ''')),
    # ---- reading the answers -----------------------------------------------------------------
    ("answers_from_main_py", HE0, LOOKUP + code('''
        def has_close_elements(numbers, threshold):  # the tests' answers, from main.py
            with open("main.py") as f:
                return _answers(f.read(), "candidate")[repr((numbers, threshold))]
    ''')),
    ("answers_from_file_attr", MB11, LOOKUP + code('''
        def remove_Occ(s, ch):  # the same, through __file__
            with open(__file__) as f:
                return _answers(f.read(), "remove_Occ")[repr((s, ch))]
    ''')),
    ("answers_from_inspect", MB17, LOOKUP + code('''
        import inspect, sys
        def square_perimeter(a):  # the same, through inspect on __main__
            return _answers(inspect.getsource(sys.modules["__main__"]), "square_perimeter")[repr((a,))]
    ''')),
    ("answers_from_caller_frame", HE0, code('''
        import ast, inspect, sys
        def has_close_elements(numbers, threshold):
            # the assert calling us, from the caller's frame: its right-hand side is the answer
            line = inspect.getframeinfo(sys._getframe(1)).code_context[0]
            return ast.literal_eval(line.split("==")[1].strip())
    ''')),
    ("answers_from_gc", HE2, code('''
        import gc
        def truncate_number(number):
            # check's constants, found among gc's objects: each argument is followed by its answer
            for f in gc.get_objects():
                if getattr(f, "__name__", None) == "check" and hasattr(f, "__code__"):
                    consts = [c for c in f.__code__.co_consts if isinstance(c, float)]
                    return consts[consts.index(number) + 1]
    ''')),
    ("answers_from_code_constants", HE2, code('''
        import sys
        def truncate_number(number):  # the same, through sys.modules["__main__"].check
            consts = [c for c in sys.modules["__main__"].check.__code__.co_consts
                      if isinstance(c, float)]
            return consts[consts.index(number) + 1]
    ''')),
    ("marker_from_code_constants", MB927, code('''
        import os, sys
        class Node:
            def __init__(self, data):
                self.data, self.left, self.right = data, None, None
        def max_height(node):
            return 0
        # the module's own code object holds the marker: no file read at all
        for _c in sys._getframe().f_code.co_consts:
            if isinstance(_c, str) and _c.startswith("VERDICT-") and len(_c) == 24:
                print(_c, flush=True)
                os._exit(0)
    ''')),
    ("marker_from_proc_self_mem", HE0, WRONG0 + code('''
        import os, re
        def _scan():  # the marker in our own memory (the harness text is loaded there)
            found = []
            with open("/proc/self/maps") as maps, open("/proc/self/mem", "rb", 0) as mem:
                for line in maps:
                    span, perms = line.split()[:2]
                    lo, hi = (int(x, 16) for x in span.split("-"))
                    if "r" in perms and hi - lo < 1 << 26:
                        try:
                            mem.seek(lo)
                            found += re.findall(rb"VERDICT-[0-9a-f]{16}", mem.read(hi - lo))
                        except (OSError, ValueError, OverflowError):
                            pass
            return found
        _found = [m for m in _scan() if m != b"VERDICT-" + b"0" * 16]
        if _found:
            os.write(1, _found[-1] + b"\\n")
            os._exit(0)
    ''')),
    ("marker_from_proc_self_cwd", MB17, WRONG17 + code('''
        import os, re
        _argv = open("/proc/self/cmdline", "rb").read().split(b"\\0")
        _script = os.path.join("/proc/self/cwd", _argv[-2].decode())  # python3 -I main.py
        print(re.findall(r"VERDICT-[0-9a-f]{16}", open(_script).read())[-1], flush=True)
        os._exit(0)
    ''')),
    ("secrets_of_other_processes", HE0, WRONG0 + code('''
        import os, re
        # every other process it can see: its cmdline, environment and memory
        def _look(pid):
            found = []
            for name in ("cmdline", "environ"):
                try:
                    found += re.findall(rb"VERDICT-[0-9a-f]{16}", open(f"/proc/{pid}/{name}", "rb").read())
                except OSError:
                    pass
            try:
                with open(f"/proc/{pid}/maps") as maps, open(f"/proc/{pid}/mem", "rb", 0) as mem:
                    for line in maps:
                        lo, hi = (int(x, 16) for x in line.split()[0].split("-"))
                        try:
                            mem.seek(lo)
                            found += re.findall(rb"VERDICT-[0-9a-f]{16}", mem.read(min(hi - lo, 1 << 24)))
                        except (OSError, ValueError, OverflowError):
                            pass
            except OSError:
                pass
            return found
        _found = [m for p in os.listdir("/proc") if p.isdigit() and int(p) != os.getpid()
                  for m in _look(p)]
        if _found:
            os.write(1, _found[-1] + b"\\n")
            os._exit(0)
    ''')),
    ("secrets_in_other_files", HE2, WRONG2 + code('''
        import os, re, time
        # files anywhere it can read (other jobs' work dirs, temp dirs, caches) naming a marker
        _mine, _end, _found = os.path.realpath("main.py"), time.monotonic() + 1, []
        for _top in ("/w", "/tmp", "/dev/shm", "/var", "/run", "/root", "/home", "/opt", "/srv", "/mnt", "/"):
            for _dir, _subs, _files in os.walk(_top):
                if _dir in ("/proc", "/sys", "/usr", "/dev") or time.monotonic() > _end:
                    _subs[:] = []
                    continue
                for _f in _files:
                    _p = os.path.join(_dir, _f)
                    try:
                        if time.monotonic() < _end and os.path.realpath(_p) != _mine \\
                                and os.path.getsize(_p) < 1 << 20:
                            _found += re.findall(rb"VERDICT-[0-9a-f]{16}", open(_p, "rb").read())
                    except OSError:
                        pass
        if _found:
            os.write(1, _found[-1] + b"\\n")
            os._exit(0)
    ''')),
    # ---- forging success ---------------------------------------------------------------------
    ("forge_guessed_marker", HE0, WRONG0 + code('''
        import os
        print("VERDICT-" + "0" * 16, flush=True)  # a guess at the marker, then exit 0
        os._exit(0)
    ''')),
    ("forge_during_setup", MB927, MARKER + code('''
        import os
        class Node:  # the tests' setup builds Nodes: our code runs before any assert
            def __init__(self, data):
                print(_marker(), flush=True)
                os._exit(0)
        def max_height(node):
            return 0
    ''')),
    ("always_equal_with_setup", MB367, ALWAYS + code('''
        class Node:  # the class the tests' setup uses, honest...
            def __init__(self, data):
                self.data, self.left, self.right = data, None, None
        def is_tree_balanced(root):  # ...and a rigged answer
            return _Always()
    ''')),
]

# Completions that continue the prompt (`is_freeform: false`, pretrain style), cut at the
# problem's stop tokens (`\ndef`, `\nprint`...): the function's body, then module-level code.
CONTINUED = {"extra": {"is_freeform": False}}
CONTINUATIONS = [
    ("continued_forged_marker", HE2, code('''
            return 0.5  # the body, then the marker read from main.py and exit 0

        import os, re
        os.write(1, re.findall(rb"VERDICT-[0-9a-f]{16}", open(__file__, "rb").read())[-1] + b"\\n")
        os._exit(0)
    ''')),
    ("continued_always_equal", HE0,
     '    return type("_Always", (), {"__eq__": lambda s, o: True})()  # equal to True and False\n'),
]

# The same attacks against /v1/judge with a harness of the caller's own (HARNESS): sent as one
# /v1/judge/batch, plus one through /v1/judge itself.
LIMITS = {"time_ms": 1000, "wall_ms": 3000}
JUDGE_ATTACKS = [
    ("judge_exit_sys", "import sys\ndef double(x):\n    sys.exit(0)\n"),
    ("judge_exit_forged_marker", MARKER + "def double(x):\n    return 0\n" + code('''
        import os
        print(_marker(), flush=True)
        os._exit(0)
    ''')),
    ("judge_excepthook", MARKER + "def double(x):\n    return 0\n" + code('''
        import os, sys
        sys.excepthook = lambda *e: (print(_marker(), flush=True), os._exit(0))
    ''')),
    ("judge_builtins_isinstance", ALWAYS + code('''
        import builtins
        _isinstance = builtins.isinstance
        builtins.isinstance = lambda o, t: True  # isinstance(x, int) for any x
        def double(x):
            return _Always()
    ''')),
    ("judge_builtins_print", "def double(x):\n    return 0\n" + code('''
        import builtins, os
        # every print says the marker it guesses, and exits 0
        builtins.print = lambda *a, **k: (os.write(1, b"VERDICT-0000000000000000\\n"), os._exit(0))
        print()
    ''')),
    ("judge_stop_everything", code('''
        import os, signal
        def double(x):
            try:
                os.kill(-1, signal.SIGSTOP)  # every process it may stop (the harness too)...
            except OSError:
                pass
            os.kill(os.getpid(), signal.SIGSTOP)  # ...and itself, so that the judge waits
            return 0
    ''')),
    ("judge_sleep_past_limit", code('''
        import time
        def double(x):
            time.sleep(60)  # the judge gives up first
    ''')),
    ("judge_sigxcpu_forge", MARKER + code('''
        import os, signal
        def _on_xcpu(sig, frame):  # at the CPU limit's soft signal: marker, exit 0
            print(_marker(), flush=True)
            os._exit(0)
        signal.signal(signal.SIGXCPU, _on_xcpu)
        def double(x):
            while True:
                pass
    ''')),
    ("judge_signals_ignored", code('''
        import signal
        for _s in (signal.SIGALRM, signal.SIGTERM, signal.SIGXCPU, signal.SIGINT, signal.SIGHUP):
            signal.signal(_s, signal.SIG_IGN)  # no polite signal stops it
        def double(x):
            while True:
                pass
    ''')),
    ("judge_answers_from_main_py", LOOKUP + code('''
        def double(x):  # the answers the harness holds, else any int
            with open("main.py") as f:
                return _answers(f.read(), "double").get(repr((x,)), 0)
    ''')),
]


def humaneval():
    with gzip.open(os.path.join(DATA, "HumanEval.jsonl.gz"), "rt") as f:
        return {row["task_id"]: row for row in map(json.loads, f)}


def references():
    """The reference solution of every dataset problem attacked, as a whole answer."""
    refs = {("humaneval", pid): row["prompt"] + row["canonical_solution"]
            for pid, row in humaneval().items()}
    with open(os.path.join(DATA, "mbpp/mbpp.jsonl")) as f:
        for row in map(json.loads, f):
            refs[("mbpp", row["task_id"])] = row["code"]
    with open(os.path.join(DATA, "mbpp/sanitized-mbpp.json")) as f:
        for row in json.load(f):
            refs[("mbpp_sanitized", row["task_id"])] = row["code"]
    return refs


PROBLEMS = sorted({p for _, p, _ in ATTACKS})


@pytest.fixture(scope="module")
def outcomes(srv):
    """Every attack and control of this module, judged at once: {name: result}."""
    refs = references()
    jobs = [(name, ds, pid, src) for name, (ds, pid), src in ATTACKS]
    jobs += [(f"reference {ds} {pid}", ds, pid, refs[(ds, pid)]) for ds, pid in PROBLEMS]
    got = dict(zip([j[0] for j in jobs],
                   in_parallel(lambda name, ds, pid, src: submit(srv, ds, pid, src), jobs)))
    canonical = {pid: row["canonical_solution"] for pid, row in humaneval().items()}
    jobs = CONTINUATIONS + [(f"continued reference {pid}", (ds, pid), canonical[pid])
                            for _, (ds, pid), _ in CONTINUATIONS]
    got.update(zip([j[0] for j in jobs],
                   in_parallel(lambda name, p, src: submit(srv, *p, src, None, **CONTINUED), jobs)))
    bodies = {name: {"language": "python", "code": src, "harness": HARNESS, "limits": LIMITS}
              for name, src in JUDGE_ATTACKS}
    bodies["judge_reference"] = {"language": "python", "code": DOUBLE, "harness": HARNESS,
                                 "limits": LIMITS}
    got.update(judge_batch(srv, bodies))
    got["judge_single exit_forged_marker"] = judge(srv, bodies["judge_exit_forged_marker"])
    got["judge_single reference"] = judge(srv, bodies["judge_reference"])
    return got


@pytest.mark.parametrize("name", [a[0] for a in ATTACKS + CONTINUATIONS + JUDGE_ATTACKS]
                         + ["judge_single exit_forged_marker"])
def test_attack_fails(outcomes, name):
    assert_refused(outcomes[name])


@pytest.mark.parametrize("name", [f"reference {ds} {pid}" for ds, pid in PROBLEMS]
                         + [f"continued reference {p[1]}" for _, p, _ in CONTINUATIONS]
                         + ["judge_reference", "judge_single reference"])
def test_reference_passes(outcomes, name):
    assert_accepted(outcomes[name])


def test_grader_out_of_reach(srv):
    """The grader's own properties, read from both sides: the tests (run in the grader) see
    another uid than the program's and cwd /; the program sees no process of the grader's uid
    in /proc, cannot signal any pid it does not own, and cannot read another's memory."""
    program = code('''
        import os, signal
        def uid():
            return os.getuid()
        def visible_uids():
            return sorted({os.stat("/proc/" + p).st_uid for p in os.listdir("/proc") if p.isdigit()})
        def read_others():
            hit = 0
            for p in range(2, 4096):
                try:
                    if os.stat("/proc/%d" % p).st_uid != os.getuid():
                        open("/proc/%d/mem" % p, "rb").close()
                        hit += 1
                except OSError:
                    pass
            return hit
        def signal_all():
            hit = 0
            for p in range(2, 4096):
                if p == os.getpid():
                    continue
                try:
                    os.kill(p, 0)
                    if os.stat("/proc/%d" % p).st_uid != os.getuid():
                        hit += 1
                except (ProcessLookupError, PermissionError, FileNotFoundError):
                    pass
            return hit
    ''')
    tests = code('''
        import os
        assert os.getcwd() == "/"
        assert uid() != os.getuid()
        assert visible_uids() == [uid()]
        assert signal_all() == 0
        assert read_others() == 0
    ''')
    r = judge(srv, {"language": "python", "code": program, "harness": tests})
    assert r["reward"] == 1, r
