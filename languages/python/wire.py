# The grader's wire (languages/python/grader.py, host.py): values cross between the grader
# and the program as text of a Python literal, one per line, never as pickles or objects.
#
# encode writes None, bool, int, float (nan and inf too), complex, str, bytes, and lists,
# tuples, sets, frozensets and dicts of them, by the base type's own methods, so a subclass's
# __eq__, __repr__ or __iter__ never runs and never crosses: what arrives is a plain value.
# Values of the standard library's plain value types cross as S('module.Type', data) and are
# rebuilt from that data alone (_STDLIB_TYPES: dates and times, Decimal, Fraction, paths),
# only an object of exactly that type (a subclass is the program's own).
# Anything else crosses as the text handle_of gives for it: H(n), a handle the sending side
# keeps, or (from the grader only) B('name'), one of Python's builtins (a type the tests pass,
# as in remove_datatype(t, int)). decode accepts exactly that grammar (a parse to an AST, then a walk
# that builds only those types) and nothing else: nothing is called or imported, and the only
# name it looks up is a builtin's, where the caller allows it (the program's side).

import builtins as _builtins_module
from _ast import (Call as _Call, Constant as _Constant, Dict as _Dict, List as _List,
                  Name as _Name, PyCF_ONLY_AST as _ONLY_AST, Set as _Set, Tuple as _Tuple,
                  UAdd as _UAdd, UnaryOp as _UnaryOp, USub as _USub)

# Python's builtins as they were when this file ran (before the program, in the host): what
# B('name') means, whatever the program rebinds in builtins later.
_BUILTINS = dict(vars(_builtins_module))
WIRE_DEPTH = 100  # nesting levels a value may have


def wire_encode(v, handle_of, depth=0):
    if depth > WIRE_DEPTH:
        raise ValueError("value nested too deeply")
    d = depth + 1
    if v is None or v is True or v is False:
        return repr(v)
    if isinstance(v, int) and not isinstance(v, bool):
        return int.__repr__(v)
    if isinstance(v, float):
        return float.__repr__(v)
    if isinstance(v, complex):
        return "complex(%s,%s)" % (float.__repr__(v.real), float.__repr__(v.imag))
    if isinstance(v, str):
        return ascii(str.__str__(v))
    if isinstance(v, bytes):
        return bytes.__repr__(bytes(v))
    if isinstance(v, list):
        return "[%s]" % ",".join(wire_encode(x, handle_of, d) for x in list.__iter__(v))
    if isinstance(v, tuple):
        items = [wire_encode(x, handle_of, d) for x in tuple.__iter__(v)]
        return "(%s%s)" % (",".join(items), "," if len(items) == 1 else "")
    if isinstance(v, dict):
        return "{%s}" % ",".join(
            "%s:%s" % (wire_encode(k, handle_of, d), wire_encode(x, handle_of, d))
            for k, x in dict.items(v))
    if isinstance(v, (set, frozenset)):
        items = ",".join(wire_encode(x, handle_of, d) for x in frozenset.__iter__(frozenset(v)))
        inner = "{%s}" % items if items else ""
        return ("frozenset(%s)" if isinstance(v, frozenset) else "set(%s)") % inner
    s = _stdlib_encode(v)
    return s if s is not None else handle_of(v)


def _iso(t):
    return lambda v: t.isoformat(v) if getattr(v, "tzinfo", None) is None else None


def _stdlib_types():
    """'module.Type' -> (the type, its data as a literal or None, the value from that data),
    for the standard library's plain value types (imported here on first use only)."""
    import datetime as dt
    import decimal
    import fractions
    import pathlib
    fmt = {}

    def add(t, enc, dec):
        fmt["%s.%s" % (t.__module__, t.__qualname__)] = (t, enc, dec)
    for t in (dt.datetime, dt.date, dt.time):
        add(t, _iso(t), lambda s, t=t: t.fromisoformat(s) if type(s) is str else None)
    add(dt.timedelta, lambda v: (v.days, v.seconds, v.microseconds),
        lambda a: dt.timedelta(*a) if type(a) is tuple and len(a) == 3 and
        all(type(x) is int for x in a) else None)
    add(decimal.Decimal, lambda v: decimal.Decimal.__str__(v),
        lambda s: decimal.Decimal(s) if type(s) is str else None)
    add(fractions.Fraction, lambda v: (v.numerator, v.denominator),
        lambda a: fractions.Fraction(*a) if type(a) is tuple and len(a) == 2 and
        all(type(x) is int for x in a) and a[1] != 0 else None)
    for t in (pathlib.PosixPath, pathlib.PurePosixPath):
        add(t, lambda v: str(v), lambda s, t=t: t(s) if type(s) is str else None)
    return fmt


_STDLIB_TYPES = {}
_STDLIB_MODULES = ("datetime", "decimal", "fractions", "pathlib")


def _stdlib_encode(v):
    t = type(v)
    if getattr(t, "__module__", None) not in _STDLIB_MODULES:
        return None  # no import for values of other types (most of them)
    if not _STDLIB_TYPES:
        _STDLIB_TYPES.update(_stdlib_types())
    name = "%s.%s" % (t.__module__, t.__qualname__)
    known = _STDLIB_TYPES.get(name)
    if known is None or known[0] is not t:
        return None
    data = known[1](v)
    if data is None or type(data) not in (str, tuple):
        return None
    return "S(%s,%s)" % (ascii(name), wire_encode(data, None))


_CONST = (int, float, complex, str, bytes, bool, type(None))


def _wire_value(n, handle, depth, builtins_ok):
    if depth > WIRE_DEPTH + 2:
        raise ValueError("value nested too deeply")
    d = depth + 1
    t = type(n)
    if t is _Constant and type(n.value) in _CONST:
        return n.value
    if t is _List:
        return [_wire_value(e, handle, d, builtins_ok) for e in n.elts]
    if t is _Tuple:
        return tuple(_wire_value(e, handle, d, builtins_ok) for e in n.elts)
    if t is _Set:
        return {_wire_value(e, handle, d, builtins_ok) for e in n.elts}
    if t is _Dict and None not in n.keys:
        return {_wire_value(k, handle, d, builtins_ok): _wire_value(v, handle, d, builtins_ok)
                for k, v in zip(n.keys, n.values)}
    if t is _UnaryOp and type(n.op) in (_USub, _UAdd):
        x = _wire_value(n.operand, handle, d, builtins_ok)
        if type(x) in (int, float):
            return -x if type(n.op) is _USub else x
    if t is _Name and n.id in ("nan", "inf"):
        return float(n.id)
    if t is _Call and type(n.func) is _Name and not n.keywords:
        f, args = n.func.id, [_wire_value(a, handle, d, builtins_ok) for a in n.args]
        if f in ("set", "frozenset") and len(args) <= 1 and all(type(a) is set for a in args):
            return (set if f == "set" else frozenset)(*args)
        if f == "complex" and len(args) == 2 and all(type(a) is float for a in args):
            return complex(*args)
        if f == "S" and len(args) == 2 and type(args[0]) is str:
            if not _STDLIB_TYPES:
                _STDLIB_TYPES.update(_stdlib_types())
            known = _STDLIB_TYPES.get(args[0])
            v = known[2](args[1]) if known else None
            if v is not None:
                return v
        if f == "H" and len(args) == 1 and type(args[0]) is int:
            return handle(args[0])
        if f == "B" and builtins_ok and len(args) == 1 and type(args[0]) is str:
            return _builtin(args[0])
    raise ValueError("not a value of the wire")


def _builtin(name):
    v = _BUILTINS.get(name) if not name.startswith("_") else None
    if v is None:
        raise ValueError("not a builtin: %r" % (name,))
    return v


def wire_builtin(v):
    """B('name') for one of Python's builtins itself, else None."""
    name = getattr(v, "__name__", None)
    if type(name) is str and not name.startswith("_") and _BUILTINS.get(name) is v:
        return "B(%s)" % ascii(name)
    return None


def wire_decode(text, handle, builtins_ok=False):
    # compile to an AST only (ast.parse without importing ast, which costs ~20 ms a process)
    tree = compile(text, "<wire>", "eval", _ONLY_AST)
    return _wire_value(tree.body, handle, 0, builtins_ok)
