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
        (body(HONEST, "def test_f(monkeypatch):\n    assert scaled(1) == 982451653\n"),)])
    assert_accepted(ok)
    assert ok["grading"] == "isolated", ok
    assert wrong["tests"][0]["verdict"] == "WA", wrong
    assert "test_scaled" in wrong["tests"][0]["stderr"], wrong
    assert fixture["status"] == "SE" and fixture["tests"][0]["verdict"] == "SE", fixture
    assert "fixture monkeypatch" in fixture["tests"][0]["stderr"], fixture


# NaturalCodeBench's shape (SandboxFusion's code_eval_ncb_python): a Test* class whose fixture
# makes the program's object, tests that read what the program printed with capsys and capfd;
# beside them every other kind of fixture pytest gives, each checked by what it leaves behind.
FIXTURE_TESTS = code("""
    import pytest

    EVENTS = []

    @pytest.fixture(scope="module")
    def base():
        EVENTS.append("base up")
        yield 982451653
        EVENTS.append("base down")

    @pytest.fixture
    def scale(base):
        return Scaler(base)

    @pytest.fixture(params=[1, 2, 3])
    def n(request):
        return request.param

    @pytest.fixture(autouse=True)
    def counted():
        EVENTS.append("test")

    @pytest.fixture(name="renamed")
    def _some_fixture():
        return 7

    def test_params(scale, n, base):
        assert scale.times(n) == base * n

    def test_renamed(scale, renamed):
        assert scale.times(renamed) == 7 * 982451653

    @pytest.mark.usefixtures("base")
    def test_capsys(scale, capsys):
        print("mine")
        scale.show(2)
        out, err = capsys.readouterr()
        assert out == "mine\\n1964903306\\n", out
        assert err == "shown\\n", err
        scale.show(1)
        assert capsys.readouterr().out == "982451653\\n"

    def test_capfd(scale, capfd):
        scale.show_fd(3)
        assert capfd.readouterr().out.strip() == str(3 * 982451653)

    def test_tmp_path(scale, tmp_path, tmpdir):
        f = tmp_path / "in.txt"
        f.write_text("5")
        assert scale.from_file(str(f)) == 5 * 982451653
        assert (tmp_path / "out.txt").read_text() == "done"
        assert tmpdir.check(dir=1)

    class TestScaler:
        @pytest.fixture
        def scaler(self, base):
            self.seen = base
            return Scaler(base)

        @pytest.fixture(scope="class")
        def shared(self):
            return []

        def test_one(self, scaler, shared):
            shared.append(1)
            assert scaler.times(1) == self.seen

        def test_two(self, scaler, shared):
            shared.append(2)
            assert shared == [1, 2]
            assert scaler.times(0) == 0

    def test_teardown_order():
        assert EVENTS[0] == "base up" and "base down" not in EVENTS
        assert EVENTS.count("test") == 10
""")
FIXTURE_HONEST = code("""
    import os, sys
    class Scaler:
        def __init__(self, base):
            self.base = base
        def times(self, n):
            return self.base * n
        def show(self, n):
            print(self.base * n)
            print("shown", file=sys.stderr)
        def show_fd(self, n):
            os.write(1, b"%d\\n" % (self.base * n))
        def from_file(self, path):
            with open(path) as f:
                v = int(f.read())
            with open(os.path.join(os.path.dirname(path), "out.txt"), "w") as f:
                f.write("done")
            return self.base * v
""")
FIXTURE_ATTACKS = {
    # the expected lines printed before the tests capture anything
    "print_at_import": "print('1964903306')\nprint('mine')\n" + FIXTURE_HONEST.replace(
        "print(self.base * n)", "pass").replace("os.write(1", "0 and os.write(1"),
    # the program's stdout closed while captured: its later lines are lost, never faked
    "close_stdout": FIXTURE_HONEST.replace("print(self.base * n)", "os.close(1)"),
    # wrong by one in the parametrized case only
    "wrong_param": FIXTURE_HONEST.replace("return self.base * n", "return self.base * n + (n == 3)"),
    # a fixture of its own, named as the tests' (the tests' module is where fixtures come from)
    "own_fixture": "import pytest\n@pytest.fixture\ndef base():\n    return 1\n" +
                   FIXTURE_HONEST.replace("return self.base * n", "return n"),
}


def fixture_body(src):
    return {"language": "pytest", "code": src, "harness": FIXTURE_TESTS, "entry_point": "Scaler",
            "limits": {"time_ms": 10000, "wall_ms": 30000}}


def test_fixtures(srv):
    names = sorted(FIXTURE_ATTACKS)
    got = in_parallel(lambda b: judge(srv, b), [(fixture_body(FIXTURE_HONEST),)] +
                      [(fixture_body(FIXTURE_ATTACKS[n]),) for n in names])
    assert_accepted(got[0])
    assert got[0]["grading"] == "isolated", got[0]
    for n, res in zip(names, got[1:]):
        assert res.get("grading") == "isolated", (n, res)
        assert_refused(res)

# The standard library's plain values cross as themselves (languages/python/wire.py): the
# tests compare real datetimes, Decimals, Fractions and paths, never an object of the
# program's making.
STDLIB_TESTS = code("""
    import datetime, decimal, fractions

    def test_values(tmp_path):
        d = datetime.datetime(2023, 12, 20, 18, 0)
        assert shift(d) == d + datetime.timedelta(days=1)
        assert shift(datetime.date(2024, 1, 5)) == datetime.date(2024, 1, 6)
        assert shift(datetime.timedelta(hours=1)) == datetime.timedelta(hours=1, days=1)
        assert shift(decimal.Decimal("1.10")) == decimal.Decimal("2.10")
        assert shift(fractions.Fraction(1, 3)) == fractions.Fraction(4, 3)
        assert shift(tmp_path) == tmp_path / "next"
        assert type(shift(tmp_path)) is type(tmp_path)
""")
STDLIB_HONEST = code("""
    import datetime, pathlib
    def shift(x):
        if isinstance(x, (datetime.date, datetime.timedelta)):
            return x + datetime.timedelta(days=1)
        if isinstance(x, pathlib.PurePath):
            return x / "next"
        return x + 1
""")
STDLIB_ATTACKS = {
    "plain_wrong": "def shift(x):\n    return x\n",
    # a datetime of its own, equal to everything; and one that claims to be datetime's own
    "rigged_datetime": code("""
        import datetime
        class D(datetime.datetime):
            def __eq__(self, other):
                return True
            __hash__ = datetime.datetime.__hash__
        class E(D):
            pass
        E.__module__, E.__qualname__ = "datetime", "datetime"
        def shift(x):
            return E(2000, 1, 1) if isinstance(x, datetime.datetime) else D(2000, 1, 1)
    """),
}


def test_stdlib_values_cross(srv):
    names = sorted(STDLIB_ATTACKS)
    bodies = [{"language": "pytest", "code": c, "harness": STDLIB_TESTS, "entry_point": "shift"}
              for c in [STDLIB_HONEST] + [STDLIB_ATTACKS[n] for n in names]]
    got = in_parallel(lambda b: judge(srv, b), [(b,) for b in bodies])
    assert_accepted(got[0])
    for n, res in zip(names, got[1:]):
        assert res.get("grading") == "isolated", (n, res)
        assert_refused(res)


def test_missing_module_is_se(srv):
    """Tests that import a module this Python lacks: SE, never WA, at the top of the tests or
    inside a test; the program raising ModuleNotFoundError is still its RE."""
    top, inner, program = in_parallel(lambda b: judge(srv, b), [
        (body(HONEST, "import verdict_no_such_module\ndef test_a():\n    assert scaled(1) == 982451653\n"),),
        (body(HONEST, "def test_a():\n    import verdict_no_such_module\n    assert scaled(1) == 982451653\n"),),
        (body("def scaled(x):\n    import verdict_no_such_module\n",
              "def test_a():\n    assert scaled(1) == 982451653\n"),)])
    for res in (top, inner):
        assert res["status"] == "SE" and res["tests"][0]["verdict"] == "SE", res
        assert "verdict_no_such_module" in res["tests"][0]["stderr"], res
    assert program["tests"][0]["verdict"] == "RE", program
