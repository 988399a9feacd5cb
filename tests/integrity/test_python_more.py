"""Python, beyond test_python.py (docs/integrity/python.md):

1. Names the tests use that they do not define. MBPP 596's tests call `sys.getsizeof` and
   nothing imports sys, so a grader that took `sys` from the program let the program supply
   the expected value. Every such name in HumanEval and MBPP (the dataset scan in the doc) is
   the entry point, a class the tests build inputs with (MBPP 367, 601, 927), or `sys`: a
   standard-library module's name is now the grader's own import, a program global that is a
   module is imported by the grader from its name, and a program's literal is refused.
2. Drivers that trust the program's modules. A program that rebinds builtins and os/sys
   functions (SandboxFusion's guard sets `exit`, `os._exit`, `sys.exit` to None) must get its
   honest verdict: the graded program's host, the notebook driver and its session kernel use
   only what they bound before the program ran, warm (forked from the zygote) and cold.
   tests/api/test_python_warm.py holds /run_code's warm-against-cold table for the same."""
import json
import os
import time

import pytest
import requests

from conftest import (DATA, _api, assert_accepted, assert_refused, code, in_parallel, judge, judge_batch,
                      passed, submit)

# ---- 1. names the tests use -------------------------------------------------------------------

MB596, SAN596 = ("mbpp", 596), ("mbpp_sanitized", 596)

# Each answers 7 for every tuple and makes the tests' `sys.getsizeof` answer 7 too.
SYS_ATTACKS = [
    ("sys_fake_module", code('''
        import types
        sys = types.ModuleType("sys")  # a module that says it is sys
        sys.getsizeof = lambda t: 7
        def tuple_size(t):
            return 7
    ''')),
    ("sys_fake_class", code('''
        class sys:  # a class where the tests expect the module
            @staticmethod
            def getsizeof(t):
                return 7
        def tuple_size(t):
            return 7
    ''')),
    ("sys_fake_object", code('''
        class _Sys:
            def __getattr__(self, name):  # any attribute: a function answering 7
                return lambda *a, **k: 7
        sys = _Sys()
        def tuple_size(t):
            return 7
    ''')),
    ("sys_real_module_patched", code('''
        import sys
        sys.getsizeof = lambda t: 7  # the real module, patched in the program's process
        def tuple_size(t):
            return 7
    ''')),
    ("sys_modules_replaced", code('''
        import sys, types
        _fake = types.ModuleType("sys")
        _fake.getsizeof = lambda t: 7
        sys.modules["sys"] = _fake  # whoever imports sys now gets the fake
        sys = _fake
        def tuple_size(t):
            return 7
    ''')),
    ("sys_module_named_otherwise", code('''
        import types
        sys = types.ModuleType("verdict_fake_sys")  # no module the grader could import
        sys.getsizeof = lambda t: 7
        def tuple_size(t):
            return 7
    ''')),
    ("sys_module_subclass", code('''
        import types
        class _M(types.ModuleType):
            def __getattribute__(self, name):  # whatever is asked, the rigged function
                return lambda *a, **k: 7
        sys = _M("sys")
        def tuple_size(t):
            return 7
    ''')),
]

# Honest answers: MBPP's reference imports sys at the top; this one imports it in the function,
# so the program has no global `sys` at all (a NameError in the tests before).
SYS_HONEST_LOCAL = "def tuple_size(t):\n    import sys\n    return sys.getsizeof(t)\n"

# /v1/judge harnesses whose tests use a name the program supplies under an alias.
LIMITS = {"time_ms": 2000, "wall_ms": 6000}
ALIAS_HARNESS = "assert root(8) == m.sqrt(8)\nassert root(2.25) == 1.5\n"
ALIAS_HONEST = "import math as m\ndef root(x):\n    return m.sqrt(x)\n"
ALIAS_ATTACKS = [
    ("alias_fake_math", code('''
        import types
        m = types.ModuleType("math")  # says it is math, answers 7
        m.sqrt = lambda x: 7
        def root(x):
            return 7 if x == 8 else 1.5
    ''')),
    ("alias_patched_real_math", code('''
        import math as m
        m.sqrt = lambda x: 7  # the real math, patched in the program's process
        def root(x):
            return 7 if x == 8 else 1.5
    ''')),
    ("alias_claims_this", code('''
        import types
        m = types.ModuleType("this")  # a module the grader never imports
        m.sqrt = lambda x: 7
        def root(x):
            return 7 if x == 8 else 1.5
    ''')),
    ("alias_claims_main", code('''
        import types
        m = types.ModuleType("__main__")  # the grader's own __main__?
        m.sqrt = lambda x: 7
        def root(x):
            return 7 if x == 8 else 1.5
    ''')),
    ("alias_plain_function", code('''
        class m:  # not a module: a handle, whose answers the tests only compare
            sqrt = staticmethod(lambda x: 7)
        def root(x):
            return 7 if x == 8 else 1.5
    ''')),
]
# A literal of the program's where the tests expect a constant: refused, whatever it holds.
CONST_HARNESS = "assert area(2) == 4 * pi\n"
CONST_ATTACKS = [
    ("const_literal", "pi = 0.25\ndef area(r):\n    return 1.0\n"),
    ("const_none", "pi = None\ndef area(r):\n    return None\n"),
]


@pytest.fixture(scope="module")
def names(srv):
    jobs = [(f"{name} {ds}", ds, pid, src) for name, src in SYS_ATTACKS for ds, pid in
            (MB596, SAN596)]
    jobs += [(f"honest_local_import {ds}", ds, pid, SYS_HONEST_LOCAL) for ds, pid in (MB596, SAN596)]
    got = dict(zip([j[0] for j in jobs],
                   in_parallel(lambda name, ds, pid, src: submit(srv, ds, pid, src), jobs)))
    bodies = {name: {"language": "python", "code": src, "harness": ALIAS_HARNESS,
                     "entry_point": "root", "limits": LIMITS} for name, src in ALIAS_ATTACKS}
    bodies["alias_honest"] = {"language": "python", "code": ALIAS_HONEST, "entry_point": "root",
                              "harness": ALIAS_HARNESS, "limits": LIMITS}
    bodies.update({name: {"language": "python", "code": src, "harness": CONST_HARNESS,
                          "entry_point": "area", "limits": LIMITS} for name, src in CONST_ATTACKS})
    got.update(judge_batch(srv, bodies))
    return got


@pytest.mark.parametrize("name", [f"{n} {ds}" for n, _ in SYS_ATTACKS for ds in
                                  ("mbpp", "mbpp_sanitized")]
                         + [n for n, _ in ALIAS_ATTACKS + CONST_ATTACKS])
def test_name_attack_fails(names, name):
    assert_refused(names[name])


@pytest.mark.parametrize("name", ["honest_local_import mbpp", "honest_local_import mbpp_sanitized",
                                  "alias_honest"])
def test_honest_names_pass(names, name):
    assert_accepted(names[name])


def test_const_literal_refused_with_reason(names):
    """A program's literal is refused in the grader (a NameError there: WA, the reason in
    stderr), not taken as the tests' constant."""
    t = names["const_literal"]["tests"][0]
    assert t["verdict"] == "WA", t
    assert "a value (float), not a function, class or module" in t["stderr"], t


# ---- 2. programs that rebind what drivers call -------------------------------------------------

# SandboxFusion's anti-hack header (sandbox/utils/antihack.py, PY_HEADER), as its datasets put it
# before a program: f'{PY_HEADER}\n\n{code}'.
GUARD = ("\n# --- anti-hack code begin\nimport os\nimport sys\nexit = None\nos._exit = None\n"
         "sys.exit = None\n# --- anti-hack code end\n\n\n")

# Rebinds every builtin and every callable of os and sys (to None, or to a function that
# raises), keeping its own references to what it still needs; WARM says how it started.
REBIND = code('''
    import builtins, os, sys
    _write, _callable, _vars, _list, _setattr = sys.stdout.write, callable, vars, list, setattr
    sys.stderr.write("WARM " if "statistics" in sys.modules else "COLD ")
    sys.stderr.flush()
    def _boom(*args, **kwargs):
        raise RuntimeError("rebound by the program")
    _n = 0
    for _m in (builtins, os, sys):
        for _k in _list(_vars(_m)):
            if _callable(_vars(_m)[_k]):
                _setattr(_m, _k, %s)
                _n += 1
    _write("rebound %%s\\n" %% ("hundreds" if _n > 300 else "few"))
''')
ADD = "def add(a, b):\n    return a + b\n"  # needs no builtin
ADD_HARNESS = "assert add(2, 3) == 5\nassert add(-1, 1) == 0\nassert add([1], [2]) == [1, 2]\n"
WRONG_ADD = "def add(a, b):\n    return a - b\n"
WITH = ("None", "_boom")


@pytest.fixture(scope="module")
def both():
    """One server per way of starting Python: cold (execve) and warm (the zygote)."""
    cold = _api.Server(cells=1, extra=("--max-cells", "1", "--python-warm", "off"))
    warm = _api.Server(cells=1, extra=("--max-cells", "1", "--python-warm", "on"))
    yield {"cold": cold, "warm": warm}
    cold.stop()
    warm.stop()


def started(way, res_text):
    assert res_text.startswith(way.upper()), f"not started {way}: {res_text[:300]}"


def graded(server, way, src, harness, tries=50):
    """A /v1/judge result whose program started `way` (the warm server's zygote is ready a
    moment after its first Python job)."""
    body = {"language": "python", "code": src, "harness": harness, "limits": LIMITS}
    for _ in range(tries):
        res = judge(server, body)
        err = (res.get("tests") or [{}])[0].get("stderr") or ""
        if err.startswith(way.upper()):
            return res
    pytest.fail(f"no {way} start: {res}")


@pytest.mark.parametrize("way", ["cold", "warm"])
@pytest.mark.parametrize("with_", WITH)
def test_host_survives_rebinding_everything(both, way, with_):
    """A correct function, then every builtin and os/sys callable rebound: the host still
    serves the grader (OK); a wrong one the same way is WA, its honest verdict."""
    s = both[way]
    ok = graded(s, way, ADD + REBIND % with_, ADD_HARNESS)
    assert passed(ok) and ok["tests"][0]["verdict"] == "OK", ok
    assert "rebound hundreds" in ok["tests"][0]["stdout"], ok
    bad = graded(s, way, WRONG_ADD + REBIND % with_, ADD_HARNESS)
    assert not passed(bad) and bad["tests"][0]["verdict"] == "WA", bad


@pytest.mark.parametrize("way", ["cold", "warm"])
def test_host_survives_sandboxfusion_guard(both, way):
    mark = ("import sys as _s\n_s.stderr.write('WARM ' if 'statistics' in _s.modules else "
            "'COLD ')\n")
    res = graded(both[way], way, mark + GUARD + ADD, ADD_HARNESS)
    assert passed(res) and res["tests"][0]["verdict"] == "OK", res


def test_mbpp_596_reference_under_the_guard(srv):
    """The dataset route: MBPP 596's reference after SandboxFusion's guard passes."""
    with open(os.path.join(DATA, "mbpp/mbpp.jsonl")) as f:
        ref = next(r["code"] for r in map(json.loads, f) if r["task_id"] == 596)
    assert_accepted(submit(srv, "mbpp", 596, GUARD + ref))


@pytest.mark.parametrize("way", ["cold", "warm"])
@pytest.mark.parametrize("with_", WITH)
def test_notebook_driver_survives_rebinding_everything(both, way, with_):
    """/run_jupyter: a cell rebinds everything; the next cells run (with the cells' rebinding
    in force: `print` is what the first cell left), every cell is reported, the run is
    Success."""
    cells = [REBIND % with_, "_write('second\\n')", "x = 6 * 7\nx"]
    for _ in range(50):
        r = both[way].post("/run_jupyter", {"cells": cells})
        assert r.status_code == 200, r.text
        d = r.json()
        if d["cells"][0]["stderr"].startswith(way.upper()):
            break
    else:
        pytest.fail(f"no {way} start: {d}")
    assert d["status"] == "Success", d
    c = d["cells"]
    assert [x["error"] for x in c] == [[], [], []], c
    assert c[0]["stdout"] == "rebound hundreds\n" and c[1]["stdout"] == "second\n", c
    assert c[2]["display"] == [{"text/plain": "42"}], c
    r = both[way].post("/run_jupyter", {"cells": [GUARD, "print('hello')"]}).json()
    assert r["status"] == "Success" and r["cells"][1]["stdout"] == "hello\n", r
    assert [x["error"] for x in r["cells"]] == [[], []], r
    # the cells' world persists: print is still the first cell's rebinding
    r = both[way].post("/run_jupyter", {"cells": [REBIND % with_, "print('x')"]}).json()
    assert r["status"] == "Success" and r["cells"][1]["error"][0]["ename"] in (
        "TypeError", "RecursionError", "RuntimeError"), r


@pytest.mark.parametrize("with_", WITH)
def test_session_kernel_survives_rebinding_everything(both, with_):
    """The session kernel: one call rebinds everything, the next call still gets its answer."""
    s = both["warm"]
    for _ in range(50):  # the one cell is free again once the last test's session is gone
        r = s.post("/v1/sessions", {"language": "python"})
        if r.status_code != 503:
            break
        time.sleep(0.2)
    assert r.status_code == 201, r.text
    sid = r.json()["id"]
    try:
        a = s.post(f"/v1/sessions/{sid}/exec", {"cells": [REBIND % with_]}, timeout=120)
        assert a.status_code == 200, a.text
        assert a.json()["cells"][0]["stdout"] == "rebound hundreds\n", a.json()
        b = s.post(f"/v1/sessions/{sid}/exec", {"cells": ["_write('again\\n')", "6 * 7"]},
                   timeout=120)
        assert b.status_code == 200, b.text
        c = b.json()["cells"]
        assert c[0]["stdout"] == "again\n" and c[1]["display"] == [{"text/plain": "42"}], c
    finally:
        requests.delete(f"{s.url}/v1/sessions/{sid}", timeout=60)
