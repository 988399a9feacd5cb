"""`/v1/judge` harnesses in the pytest template judged by a grader (languages/pytest.json,
python/pytest_runner.py): the tests run in the Python grader's process as another uid, which
runs what pytest would collect from them; the program (run as `pytest main.py`, as
SandboxFusion runs it) only serves the names they call. Before the grader, the tests were
joined after the code and any exit status 0 of pytest passed. Every attack below is a wrong
answer written as a hostile policy would write it: exits in every form (at import, in the
call, atexit, a SIGTERM handler), pytest's own levers (a module-level `pytestmark` skip, a
collection hook, a plugin that marks every report passed, patching `pytest.approx` and
`pytest.raises`, tests of its own), rigged equality, printing pytest's summary, killing every
process. None may get reward 1; the controls pass (parametrize, classes, xfail, approx and
raises crossing), a wrong answer is WA, and a harness asking for a fixture the grader does not
provide is SE (the request's, never the program's fault)."""
import pytest

from conftest import assert_accepted, assert_refused, code, in_parallel, judge

TESTS = code("""
    import pytest

    @pytest.mark.parametrize("x,y", [(1, 982451653), (2, 1964903306), pytest.param(3, 0, marks=pytest.mark.skip)])
    def test_scaled(x, y):
        assert scaled(x) == y

    class TestMore:
        def test_zero(self):
            assert scaled(0) == 0

        def test_float(self):
            assert scaled(0.5) == pytest.approx(491225826.5)

        @pytest.mark.xfail(strict=True)
        def test_known_bad(self):
            assert scaled(1) == 3

    def test_raises():
        with pytest.raises(TypeError):
            scaled("a", "b")
""")
HONEST = "def scaled(x):\n    return 982451653 * x\n"
WRONG = "def scaled(x):\n    return x\n"

ATTACKS = {
    "plain_wrong": WRONG,
    "exit_at_import": "import os\nos._exit(0)\n" + WRONG,
    "sys_exit_at_import": "import sys\nsys.exit(0)\n" + WRONG,
    "exit_in_call": "import os\ndef scaled(x):\n    os._exit(0)\n",
    "atexit_exit": "import atexit, os\natexit.register(lambda: os._exit(0))\n" + WRONG,
    "sigterm_exit": "import os, signal\nsignal.signal(signal.SIGTERM, lambda *a: os._exit(0))\n" + WRONG,
    "module_skip_mark": "import pytest\npytestmark = pytest.mark.skip\n" + WRONG,
    "collection_hook": "def pytest_collection_modifyitems(session, config, items):\n    items.clear()\n" + WRONG,
    "report_patch": ("import _pytest.reports\n_orig = _pytest.reports.TestReport.from_item_and_call\n"
                     "def _ok(item, call):\n    r = _orig(item, call)\n    r.outcome = 'passed'\n    return r\n"
                     "_pytest.reports.TestReport.from_item_and_call = staticmethod(_ok)\n" + WRONG),
    "patch_approx_and_raises": ("import pytest, contextlib\npytest.approx = lambda *a, **k: True\n"
                                "pytest.raises = lambda *a, **k: contextlib.nullcontext()\n" + WRONG),
    "own_passing_tests": WRONG + "def test_mine():\n    assert True\n",
    "rigged_eq": ("class Any(int):\n    def __eq__(self, o):\n        return True\n    __hash__ = int.__hash__\n"
                  "def scaled(x):\n    return Any(0)\n"),
    "fake_summary": "print('=== 5 passed in 0.01s ===')\n" + WRONG,
    "kill_every_process": "import os, signal\ndef scaled(x):\n    os.kill(-1, signal.SIGKILL)\n",
    "builtins_rebound": "import builtins\nbuiltins.AssertionError = type('X', (Exception,), {})\n" + WRONG,
}


def body(src, tests=TESTS):
    return {"language": "pytest", "code": src, "harness": tests, "entry_point": "scaled",
            "limits": {"time_ms": 10000, "wall_ms": 30000}}


@pytest.fixture(scope="module")
def results(srv):
    names = sorted(ATTACKS)
    return dict(zip(names, in_parallel(lambda b: judge(srv, b), [(body(ATTACKS[n]),) for n in names])))


@pytest.mark.parametrize("name", sorted(ATTACKS))
def test_attack_refused(results, name):
    res = results[name]
    assert res.get("grading") == "isolated", (name, res.get("grading"))
    assert_refused(res)


def test_controls(srv):
    ok, wrong, fixture = in_parallel(lambda b: judge(srv, b), [
        (body(HONEST),), (body(WRONG),),
        (body(HONEST, "def test_f(tmp_path):\n    assert scaled(1) == 982451653\n"),)])
    assert_accepted(ok)
    assert ok["grading"] == "isolated", ok
    assert wrong["tests"][0]["verdict"] == "WA", wrong
    assert "test_scaled" in wrong["tests"][0]["stderr"], wrong
    assert fixture["status"] == "SE" and fixture["tests"][0]["verdict"] == "SE", fixture
    assert "fixture tmp_path" in fixture["tests"][0]["stderr"], fixture
