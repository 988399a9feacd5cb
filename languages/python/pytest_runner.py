# The pytest template's grader (pytest.json): grader.py, which runs the tests' module here with
# the program's names proxied, then calls _run_collected to run what pytest would collect from
# it, in the grader's process: module-level functions named test*, and the test* methods of
# classes named Test* that have no __init__ (a fresh instance per test, setup_method and
# teardown_method around it), in definition order; @pytest.mark.parametrize expanded (ids
# aside, pytest.param values and their skip marks included), skip and skipif honoured, xfail
# passing when the test fails (strict when it passes). Fixtures as pytest gives them: the
# tests' own (@pytest.fixture at module level or in the test's class, the class's first; by
# name or `name=`; function, class, module, package and session scope; yield fixtures torn
# down at their scope's end; fixtures asking for fixtures; autouse; `params` with
# request.param, each test run once per value; @pytest.mark.usefixtures), and of pytest's
# own: request, tmp_path and tmpdir (a directory the program may read and write, shared with
# it: a test's file handed to the program's function), capsys and capfd (what the program
# wrote to its stdout and stderr while captured, then what the tests printed). A test that
# asks for any other (monkeypatch, caplog...: they would patch the grader, not the program) is
# not run, nor is any test: the grader exits 3 (SE: the request's harness needs what this
# grader cannot give, never the program's fault: judge.c). Every test runs even after one
# failed; any failure (an assertion, the tests' own code raising, a fixture's setup or
# teardown raising) is the run's FAILED; the program raising in a call, exiting or breaking
# its channel is BROKE, as for any Python harness.


def _marks(obj):
    m = getattr(obj, "pytestmark", [])
    return list(m) if isinstance(m, (list, tuple)) else [m]


def _param_sets(marks):
    """The argument dicts parametrize marks give (their product), each with its own marks."""
    sets = [({}, [])]
    for m in marks:
        if getattr(m, "name", "") != "parametrize":
            continue
        names, values = m.args[0], m.args[1]
        names = [n.strip() for n in names.split(",")] if isinstance(names, str) else list(names)
        out = []
        for args, own in sets:
            for v in values:
                vmarks = list(getattr(v, "marks", ()))
                vals = getattr(v, "values", v)
                if len(names) == 1 and not hasattr(v, "values"):
                    vals = (vals,)
                out.append(({**args, **dict(zip(names, vals))}, own + vmarks))
        sets = out
    return sets


def _skipped(marks):
    for m in marks:
        name = getattr(m, "name", "")
        if name == "skip":
            return True
        if name == "skipif" and (m.args[0] if m.args else m.kwargs.get("condition", False)):
            return True
    return False


def _xfail(marks):
    for m in marks:
        if getattr(m, "name", "") == "xfail":
            cond = m.args[0] if m.args else m.kwargs.get("condition", True)
            return bool(cond), m.kwargs.get("strict", False), m.kwargs.get("raises")
    return False, False, None


# ---- fixtures ----

_SCOPES = ("function", "class", "module", "package", "session")
_BUILTIN_FIXTURES = ("request", "tmp_path", "tmpdir", "capsys", "capfd")


class _Fixture:
    """One fixture the tests define: its function (unwrapped from pytest's decorator), scope,
    params, autouse, and whether it is a method of the test's class."""

    def __init__(self, name, func, marker, method):
        self.name, self.func, self.method = name, func, method
        scope = getattr(marker, "scope", "function") or "function"
        self.scope = scope if scope in _SCOPES else "function"
        params = getattr(marker, "params", None)
        self.params = None if params is None else [getattr(v, "values", (v,))[0] for v in params]
        self.autouse = bool(getattr(marker, "autouse", False))


def _as_fixture(obj, method):
    """obj as a _Fixture if pytest's decorator made it one (pytest 7's marker and wrapper;
    pytest 8's definition object), else None."""
    marker = (getattr(obj, "_pytestfixturefunction", None) or
              getattr(obj, "_fixture_function_marker", None))
    if marker is None:
        return None
    wrapped = getattr(obj, "__pytest_wrapped__", None)
    func = getattr(wrapped, "obj", None) or getattr(obj, "_fixture_function", None) or obj
    return _Fixture(getattr(marker, "name", None) or func.__name__, func, marker, method)


def _fixtures_of(items, method):
    out = {}
    for obj in items:
        f = _as_fixture(obj, method)
        if f is not None:
            out[f.name] = f
    return out


def _params_of(func, skip_self):
    import inspect
    ps = list(inspect.signature(func).parameters)
    return ps[1:] if skip_self and ps else ps


class _Closure:
    """The fixtures one test uses, in the order they are set up, and the names none provides."""

    def __init__(self, defs, wanted):
        self.defs, self.order, self.missing = defs, [], []
        for name in wanted:
            self._add(name, ())
        # set up as pytest does: wider scopes first (a fixture never asks for a narrower one)
        self.order.sort(key=lambda n: -_SCOPES.index(defs[n].scope) if n in defs else 0)

    def _add(self, name, stack):
        if name in self.order or name in self.missing or name in stack:
            return
        f = self.defs.get(name)
        if f is None:
            if name not in _BUILTIN_FIXTURES:
                self.missing.append(name)
            elif name not in self.order:
                self.order.append(name)
            return
        for dep in _params_of(f.func, f.method):
            if dep != "request":
                self._add(dep, stack + (name,))
        self.order.append(name)


class _Request:
    """pytest's `request`, as far as the tests' fixtures use it."""

    def __init__(self, name, scope, param, fn, cls, inst, finalizers):
        self.fixturename, self.scope, self.function, self.cls = name, scope, fn, cls
        self.instance, self._finalizers = inst, finalizers
        if param is not _NO_PARAM:
            self.param = param

    def addfinalizer(self, fn):
        self._finalizers.append(fn)


_NO_PARAM = object()


class CaptureResult(tuple):
    """capsys.readouterr()'s value: (out, err), also by name."""

    def __new__(cls, out, err):
        return tuple.__new__(cls, (out, err))

    out = property(lambda self: self[0])
    err = property(lambda self: self[1])


class _Capture:
    """capsys and capfd: the program's stdout and stderr captured by its host (written to
    memory files of its own while captured); what the tests here print meanwhile is sent
    there too, before the program's next call (rpc pushes it), so that the two come back in
    the order they were written."""

    def __init__(self):
        import io
        rpc("capture", True)
        self._saved = (sys.stdout, sys.stderr)
        sys.stdout, sys.stderr = io.StringIO(), io.StringIO()
        _state["capture"] = self

    def push(self):
        out, err = sys.stdout.getvalue(), sys.stderr.getvalue()
        if out or err:
            sys.stdout.seek(0), sys.stdout.truncate(), sys.stderr.seek(0), sys.stderr.truncate()
            rpc("echo", out, err)

    def readouterr(self):
        out, err = rpc("readout")
        if type(out) is not str or type(err) is not str:
            raise _broke("the program answered out of protocol")
        return CaptureResult(out, err)

    def close(self):
        _state["capture"] = None
        sys.stdout, sys.stderr = self._saved
        rpc("capture", False)


def _builtin_fixture(name, finalizers, request):
    if name == "request":
        return request
    if name in ("tmp_path", "tmpdir"):
        import os
        import pathlib
        import shutil
        import tempfile
        os.umask(0)  # the program's uid writes and reads there too, in what the tests make
        d = tempfile.mkdtemp(prefix="pytest-")
        os.chmod(d, 0o777)
        finalizers.append(lambda: shutil.rmtree(d, ignore_errors=True))
        if name == "tmp_path":
            return pathlib.Path(d)
        try:
            from _pytest.compat import LEGACY_PATH
            return LEGACY_PATH(d)
        except ImportError:
            import py
            return py.path.local(d)
    cap = _Capture()
    finalizers.append(cap.close)
    return cap


class _Scopes:
    """Fixture values cached per scope, with what tears each scope down."""

    def __init__(self):
        self.values = {s: {} for s in _SCOPES}
        self.finalizers = {s: [] for s in _SCOPES}

    def end(self, scope, failures, label):
        """Tears down the fixtures of `scope` (last set up, first torn down)."""
        fins = self.finalizers[scope]
        while fins:
            try:
                fins.pop()()
            except ProgramBroke:
                raise
            except BaseException as e:
                if getattr(e, "raised_by_program", False):
                    raise
                failures.append("%s: teardown: %s: %s" % (label, type(e).__name__, e))
        self.values[scope].clear()


def _setup(closure, scopes, params, fn, cls, inst):
    """The closure's fixture values for one test, set up in order, each cached in its scope
    (params: the index of each parametrized fixture's value for this test)."""
    import inspect
    got = {}
    for name in closure.order:
        f = closure.defs.get(name)
        scope = f.scope if f else ("session" if name == "request" else "function")
        if f is None and name == "request":
            got[name] = _Request(None, "function", _NO_PARAM, fn, cls, inst,
                                 scopes.finalizers["function"])
            continue
        key = (name, params.get(name))
        cache = scopes.values[scope]
        if key not in cache:
            fins = scopes.finalizers[scope]
            if f is None:
                cache[key] = _builtin_fixture(name, fins, None)
            else:
                param = f.params[params[name]] if name in params else _NO_PARAM
                req = _Request(name, scope, param, fn, cls, inst, fins)
                kw = {p: (req if p == "request" else got[p])
                      for p in _params_of(f.func, f.method)}
                call = f.func.__get__(inst) if f.method and inst is not None else f.func
                v = call(**kw)
                if inspect.isgeneratorfunction(f.func):  # a yield fixture: torn down later
                    gen, v = v, next(v)
                    fins.append(lambda gen=gen: next(gen, None))
                cache[key] = v
        got[name] = cache[key]
    return got


def _run_one(label, run, marks, failures):
    """Runs one collected test (run: its fixtures set up, then the test), adding to failures
    what failed."""
    if _skipped(marks):
        return
    xfail, strict, raises = _xfail(marks)
    try:
        run()
    except ProgramBroke:
        raise
    except BaseException as e:
        if getattr(e, "raised_by_program", False) and not xfail:
            raise
        if type(e) is ModuleNotFoundError and not getattr(e, "raised_by_program", False):
            raise  # a module this Python lacks: the grader's want (SE), not a failed test
        if xfail and (raises is None or isinstance(e, raises)):
            return
        failures.append("%s: %s: %s" % (label, type(e).__name__, e))
        _traceback()
        return
    if xfail and strict:
        failures.append("%s: passed, but is marked xfail(strict=True)" % label)


def _is_test(name, obj):
    import inspect
    return name.startswith("test") and inspect.isfunction(obj) and _as_fixture(obj, False) is None


def _collect(ns):
    """(label, function, marks, args, class or None) for each test pytest would collect."""
    import inspect
    items = []
    for name, obj in list(ns.items()):
        if _is_test(name, obj):
            for args, own in _param_sets(_marks(obj)):
                items.append((name, obj, _marks(obj) + own, args, None))
        elif (name.startswith("Test") and inspect.isclass(obj) and "__init__" not in vars(obj)
              and not _skipped(_marks(obj))):
            for mname, meth in list(vars(obj).items()):
                if _is_test(mname, meth):
                    for args, own in _param_sets(_marks(meth)):
                        items.append(("%s.%s" % (name, mname), meth,
                                      _marks(obj) + _marks(meth) + own, args, obj))
    return items


def _closure(ns_fixtures, item):
    """The test's fixture closure, and the product of its parametrized fixtures' values (a
    list of {name: index})."""
    label, fn, marks, args, cls = item
    defs = dict(ns_fixtures)
    if cls is not None:
        defs.update(_fixtures_of(vars(cls).values(), True))
    wanted = [f.name for f in defs.values() if f.autouse and (not f.method or cls is not None)]
    for m in marks:
        if getattr(m, "name", "") == "usefixtures":
            wanted += [a for a in m.args if isinstance(a, str)]
    wanted += [p for p in _params_of(fn, cls is not None) if p not in args]
    c = _Closure({k: v for k, v in defs.items() if k not in args}, wanted)
    combos = [{}]
    for name in c.order:
        f = c.defs.get(name)
        if f is not None and f.params is not None:
            combos = [{**d, name: i} for d in combos for i in range(len(f.params))]
    return c, combos


def _run_collected(ns):
    import os
    ns_fixtures = _fixtures_of(list(ns.values()), False)
    runs = []
    for item in _collect(ns):  # before any call: the tests cannot run here at all
        c, combos = _closure(ns_fixtures, item)
        if c.missing:
            sys.stderr.write("verdict grader: %s asks for fixture %s, which verdict's pytest "
                             "grader does not provide\n" % (item[0], ", ".join(c.missing)))
            sys.stderr.flush()
            os._exit(3)
        runs += [(item, c, p) for p in combos]
    failures = []
    scopes = _Scopes()
    last_cls = None
    for (label, fn, marks, args, cls), c, params in runs:
        if cls is not last_cls:
            scopes.end("class", failures, label)
            last_cls = cls
        inst = cls() if cls is not None else None
        if inst is not None and hasattr(inst, "setup_method"):
            inst.setup_method(getattr(inst, fn.__name__))

        def run(fn=fn, args=args, c=c, params=params, cls=cls, inst=inst):
            got = _setup(c, scopes, params, fn, cls, inst)
            call = getattr(inst, fn.__name__) if inst is not None else fn
            call(**args, **{k: v for k, v in got.items() if k in _params_of(fn, cls is not None)})

        try:
            _run_one(label, run, marks, failures)
        finally:
            scopes.end("function", failures, label)
            if inst is not None and hasattr(inst, "teardown_method"):
                inst.teardown_method(getattr(inst, fn.__name__))
    for scope in _SCOPES[1:]:
        scopes.end(scope, failures, "teardown")
    if not runs:
        failures.append("no tests collected (pytest's exit status 5)")
    if failures:
        raise AssertionError("verdict grader: %d of %d tests failed:\n  %s" %
                             (len(failures), len(runs), "\n  ".join(failures)))
