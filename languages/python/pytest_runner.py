# The pytest template's grader (pytest.json): grader.py, which runs the tests' module here with
# the program's names proxied, then calls _run_collected to run what pytest would collect from
# it, in the grader's process: module-level functions named test*, and the test* methods of
# classes named Test* that have no __init__ (a fresh instance per test, setup_method and
# teardown_method around it), in definition order; @pytest.mark.parametrize expanded (ids
# aside, pytest.param values and their skip marks included), skip and skipif honoured, xfail
# passing when the test fails (strict when it passes). Fixtures beyond parametrized arguments
# are not provided: tests that ask for one (tmp_path, capsys...) are not run at all, and the
# grader exits 3 (SE: the request's harness needs what this grader cannot give, never the
# program's fault: judge.c). Every test runs even after
# one failed; any failure (an assertion, the tests' own code raising) is the run's FAILED; the
# program raising in a call, exiting or breaking its channel is BROKE, as for any Python
# harness.


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


def _run_one(label, fn, marks, args, failures):
    """Runs one collected test (fn with args), adding to failures what failed."""
    marks = marks + _marks(fn)
    if _skipped(marks):
        return
    xfail, strict, raises = _xfail(marks)
    try:
        fn(**args)
    except ProgramBroke:
        raise
    except BaseException as e:
        if getattr(e, "raised_by_program", False) and not xfail:
            raise
        if xfail and (raises is None or isinstance(e, raises)):
            return
        failures.append("%s: %s: %s" % (label, type(e).__name__, e))
        _traceback()
        return
    if xfail and strict:
        failures.append("%s: passed, but is marked xfail(strict=True)" % label)


def _collect(ns):
    """(label, function, marks, args, class or None) for each test pytest would collect."""
    import inspect
    items = []
    for name, obj in list(ns.items()):
        if name.startswith("test") and inspect.isfunction(obj):
            for args, own in _param_sets(_marks(obj)):
                items.append((name, obj, own, args, None))
        elif (name.startswith("Test") and inspect.isclass(obj) and "__init__" not in vars(obj)
              and not _skipped(_marks(obj))):
            for mname, meth in list(vars(obj).items()):
                if mname.startswith("test") and inspect.isfunction(meth):
                    for args, own in _param_sets(_marks(meth)):
                        items.append(("%s.%s" % (name, mname), meth, _marks(obj) + own, args, obj))
    return items


def _run_collected(ns):
    import inspect
    import os
    items = _collect(ns)
    for label, fn, _, args, cls in items:  # before any call: the tests cannot run here at all
        wanted = [p for p in inspect.signature(fn).parameters
                  if p not in args and not (cls and p == "self")]
        if wanted:
            sys.stderr.write("verdict grader: %s asks for fixture %s, which verdict's pytest "
                             "grader does not provide\n" % (label, ", ".join(wanted)))
            sys.stderr.flush()
            os._exit(3)
    failures = []
    for label, fn, marks, args, cls in items:
        if cls is None:
            _run_one(label, fn, marks, args, failures)
            continue
        inst = cls()
        if hasattr(inst, "setup_method"):
            inst.setup_method(getattr(inst, fn.__name__))
        try:
            _run_one(label, getattr(inst, fn.__name__), marks, args, failures)
        finally:
            if hasattr(inst, "teardown_method"):
                inst.teardown_method(getattr(inst, fn.__name__))
    if not items:
        failures.append("no tests collected (pytest's exit status 5)")
    if failures:
        raise AssertionError("verdict grader: %d of %d tests failed:\n  %s" %
                             (len(failures), len(items), "\n  ".join(failures)))
