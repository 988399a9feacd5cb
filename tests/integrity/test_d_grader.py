"""D harnesses judged by a compiled grader (server/judge/graded.h, languages/d/): the tests'
unittest blocks are compiled with a proxy of the prompt's declaration into an executable of
their own, run from a sealed memory file as another uid; the candidate's executable holds its
module and a host (verdict_host.d) that answers calls. Every attack below is a wrong answer
written as a hostile policy would write it, sent the way MultiPL-E's problems send theirs
(/v1/judge with the prompt as `harness_setup` and `entry_point`, or /submit on the real
problems): early exits in every form D offers (exit, _exit, abort handlers, module and thread
constructors and destructors, C constructors, atexit handlers, a unittest runner of its own,
killing every process it can see), equality rigged on the answer's own type, a main and a
host of its own, garbage and early answers on the channel, reading the sources, executables
and /proc for the expected values, a number that does not fit the declared type, a plain
wrong answer. None may get reward 1; the controls pass, a throwing answer is RE and a wrong
one WA."""
import base64

import pytest

from conftest import assert_accepted, assert_refused, code, in_parallel, judge, judged, submit

# A problem of MultiPL-E's shape: the prompt ends with the entry point's declaration, the
# completion opens its body; the expected values appear nowhere but the tests.
SETUP = code("""
    import std.math;
    import std.typecons;
    /*
     The list sorted, and a constant appended.
    */
    long[] sorted_plus(long[] v) 
""")
TESTS = code("""
    unittest
    {
        alias candidate = sorted_plus;

        assert(candidate([3L, 1L, 2L]) == [1L, 2L, 3L, 982451653L]);
        assert(candidate([]) == [982451653L]);
    }
    void main(){}
""")
HONEST = "{\n    import std.algorithm : sort;\n    auto r = v.dup;\n    r.sort();\n    return r ~ 982451653L;\n}\n"
WRONG = "{\n    return v;\n}\n"
EXIT0 = "import core.stdc.stdlib : exit; exit(0);"
UEXIT0 = "import core.sys.posix.unistd : _exit; _exit(0);"

# Looks everywhere a file might hold the tests' expected value (a long literal of 7 digits or
# more, never spelled out here) and returns it: its own source and executable, the work dir,
# every /proc entry it can open (cmdline, environ, fds, the grader's executable at fd 5), /tmp
# and the cache's usual places.
SNOOP = code(r"""
    long found = 0;
    void scan(const(ubyte)[] d)
    {
        for (size_t i = 0; i < d.length; i++) {
            size_t j = i;
            long n = 0;
            while (j < d.length && d[j] >= '0' && d[j] <= '9' && j - i < 18)
                n = n * 10 + (d[j++] - '0');
            if (j - i > 6 && j < d.length && d[j] == 'L')
                found = n;
            if (j > i)
                i = j;
        }
    }
    void scanFile(string f)
    {
        import std.file : isFile, read;
        try { if (isFile(f)) scan(cast(const(ubyte)[]) read(f, 64 << 20)); } catch (Throwable) {}  // no pipes
    }
    void walk(string d, int depth)
    {
        import std.file : dirEntries, SpanMode;
        if (depth > 6) return;
        try {
            foreach (e; dirEntries(d, SpanMode.shallow, false)) {
                try { if (e.isDir) walk(e.name, depth + 1); else scanFile(e.name); } catch (Throwable) {}
            }
        } catch (Throwable) {}
    }
    void snoop()
    {
        import std.file : dirEntries, SpanMode;
        walk(".", 0);
        try {
            foreach (p; dirEntries("/proc", SpanMode.shallow, false)) {
                foreach (n; ["cmdline", "environ", "fd/0", "fd/5", "exe", "cwd/grader.d"]) scanFile(p.name ~ "/" ~ n);
                try { foreach (f; dirEntries(p.name ~ "/fd", SpanMode.shallow, false)) scanFile(f.name); } catch (Throwable) {}
            }
        } catch (Throwable) {}
        foreach (r; ["/tmp", "/var/tmp", "/dev/shm", "/var/lib/verdict", "/w"]) walk(r, 0);
    }
""")

FD4 = ("import core.sys.posix.unistd : write, sleep;\n    string s = {msg};\n"
       "    write(4, s.ptr, s.length);\n")

# name -> the continuation of the prompt (what follows `sorted_plus(long[] v)`)
ATTACKS = {
    "plain_wrong": WRONG,
    "exit_0": "{\n    " + EXIT0 + "\n    return v;\n}\n",
    "posix_exit_0": "{\n    " + UEXIT0 + "\n    return v;\n}\n",
    "abort_handler_exit_0": ("{\n    import core.stdc.signal : signal, SIGABRT; import core.stdc.stdlib : abort;\n"
                             "    signal(SIGABRT, &quit);\n    abort();\n    return v;\n}\n"
                             "extern (C) void quit(int) nothrow @nogc\n{\n    " + UEXIT0 + "\n}\n"),
    "atexit_exit_0": ("{\n    import core.stdc.stdlib : atexit, exit;\n    atexit(&quit);\n"
                      "    exit(1);\n    return v;\n}\n"
                      "extern (C) void quit() nothrow @nogc\n{\n    " + UEXIT0 + "\n}\n"),
    "module_ctor_exit": WRONG + "shared static this()\n{\n    " + EXIT0 + "\n}\n",
    "thread_ctor_exit": WRONG + "static this()\n{\n    " + UEXIT0 + "\n}\n",
    "module_dtor_exit": WRONG + "shared static ~this()\n{\n    " + UEXIT0 + "\n}\n",
    "crt_constructor_exit": WRONG + "pragma(crt_constructor) extern (C) void early()\n{\n    " + UEXIT0 + "\n}\n",
    "own_unittest_exit": WRONG + "unittest\n{\n    " + EXIT0 + "\n}\n",
    "own_unit_tester": (WRONG + "shared static this()\n{\n    import core.runtime : Runtime;\n"
                        "    Runtime.moduleUnitTester = () { " + EXIT0 + " return true; };\n}\n"),
    "kill_every_process": ("{\n    import core.sys.posix.signal : kill, SIGKILL;\n    kill(-1, SIGKILL);\n"
                           "    return v;\n}\n"),
    "kill_parent": ("{\n    import core.sys.posix.signal : kill, SIGKILL; import core.sys.posix.unistd : getppid;\n"
                    "    kill(getppid(), SIGKILL);\n    return v;\n}\n"),
    "throw_assert_error": ("{\n    import core.exception : AssertError;\n"
                           "    throw new AssertError(\"as if the tests passed\");\n}\n"),
    "stack_overflow": "{\n    return sorted_plus(v ~ 1L);\n}\n",
    "fake_main": WRONG + "void main()\n{\n    " + EXIT0 + "\n}\n",
    "own_module_name": WRONG + "struct verdict_host {}\n",
    "fd4_fake_answers": ("{\n    " + FD4.replace("{msg}", r'"{\"ok\":[1,2,3,982451653]}\n{\"ok\":[982451653]}\n"')
                         + "    sleep(100);\n    return v;\n}\n"),
    "fd4_garbage": ("{\n    " + FD4.replace("{msg}", r'"PASS\n{\"ok\":true} trailing\n"') + "    return v;\n}\n"),
    "fd4_deep_line": ("{\n    import std.array : replicate;\n    "
                      + FD4.replace("{msg}", r'"{\"ok\":" ~ "[".replicate(4 << 20) ~ "\n"')
                      + "    sleep(100);\n    return v;\n}\n"),
    "fd3_steal_calls": (WRONG + "shared static this()\n{\n    import core.thread : Thread;\n"
                        "    new Thread({ import core.sys.posix.unistd : read; ubyte[65536] b; read(3, b.ptr, b.length); }).start();\n}\n"),
    "fake_pass_print": ("{\n    import std.stdio : writeln, stdout;\n    writeln(\"1 modules passed unittests\\nOK\");\n"
                        "    stdout.flush();\n    " + UEXIT0 + "\n    return v;\n}\n"),
    "snoop_files_and_proc": ("{\n    import std.algorithm : sort;\n    snoop();\n    if (found > 0) { v.sort(); v ~= found; }\n"
                             "    return v;\n}\n" + SNOOP),
}
# Whole answers (fenced code of its own, as chat models write them): what it adds around the
# entry point is its own.
WHOLE = {
    "whole_static_exit": ("import std.math;\nshared static this()\n{\n    " + EXIT0 + "\n}\n"
                          "long[] sorted_plus(long[] v)\n" + WRONG),
    "whole_rigged_equality": ("struct Rig\n{\n    long[] a;\n    alias a this;\n"
                              "    bool opEquals(T)(auto ref const T) const { return true; }\n}\n"
                              "Rig sorted_plus(long[] v)\n{\n    return Rig(v);\n}\n"),
    "whole_own_serve": ("long[] sorted_plus(long[] v)\n" + WRONG
                        + "void verdictServe(alias a, alias b)()\n{\n    " + EXIT0 + "\n}\n"),
    "whole_module_verdict_host": "module verdict_host;\nlong[] sorted_plus(long[] v)\n" + WRONG,
}


def judge_body(src, whole):
    return {"language": "d_ut", "code": src if whole else SETUP + src, "harness": TESTS,
            "harness_setup": SETUP, "entry_point": "sorted_plus",
            "limits": {"time_ms": 5000, "wall_ms": 20000}}


@pytest.fixture(scope="module")
def results(srv):
    names = sorted(ATTACKS) + sorted(WHOLE)
    bodies = [judge_body(ATTACKS[n], False) if n in ATTACKS else judge_body(WHOLE[n], True)
              for n in names]
    return dict(zip(names, in_parallel(lambda b: judge(srv, b), [(b,) for b in bodies])))


# Attacks that break their own program's build: CE, the program's verdict (reward 0). A main
# of the answer's own clashes with the host's, a module named as the host's too.
CE_OK = {"fake_main", "own_module_name", "whole_module_verdict_host"}


@pytest.mark.parametrize("name", sorted(ATTACKS) + sorted(WHOLE))
def test_attack_refused(results, name):
    res = results[name]
    assert res.get("grading") == "isolated", (name, res.get("grading"))
    if name in CE_OK and res.get("status") == "CE":
        assert res.get("reward") == 0, (name, res)
        return
    assert_refused(res)


def test_controls(srv):
    ok, whole, raised, wrong = in_parallel(lambda b: judge(srv, b), [
        (judge_body(HONEST, False),),
        (judge_body("import std.algorithm;\nlong[] sorted_plus(long[] v)\n" + HONEST, True),),
        (judge_body("{\n    throw new Exception(\"no\");\n}\n", False),),
        (judge_body(WRONG, False),)])
    assert_accepted(ok)
    assert ok["grading"] == "isolated", ok
    assert_accepted(whole)
    assert raised["tests"][0]["verdict"] == "RE", raised
    assert "object.Exception" in raised["tests"][0]["stderr"], raised
    assert wrong["tests"][0]["verdict"] == "WA", wrong
    assert "verdict grader: a check failed" in wrong["tests"][0]["stderr"], wrong


def test_snoop_works_where_the_tests_are_readable(srv):
    """The snooping attack is refused for want of anything to read, not for failing to try:
    with the tests' text in a file of its work dir, it passes."""
    body = judge_body(ATTACKS["snoop_files_and_proc"], False)
    body["files"] = {"notes/leak.txt": base64.b64encode(TESTS.encode()).decode()}
    assert_accepted(judge(srv, body))


TYPED_SETUP = code("""
    import std.math;
    import std.typecons;
    Tuple!(long, Nullable!(string)) mix(string[][] a, long[string] m, Tuple!(float, bool) t, Nullable!(long) o, float[] f, string[long] back) 
""")
TYPED_BODY = code(r"""
    {
        long n = 0;
        foreach (r; a) foreach (s; r) n += s.length + m.get(s, 0);
        if (t[0] != 0.5f || !t[1]) return tuple(-1L, Nullable!(string).init);
        if (f.length == 4 && !(isNaN(f[0]) && f[1] == float.infinity && f[2] == 0 && signbit(f[2]) && f[3] == 1.5e-30f))
            return tuple(-2L, Nullable!(string).init);
        if (back.length && back.get(2, "") != "x\u00e9") return tuple(-3L, Nullable!(string).init);
        return tuple(n + (o.isNull ? 1000L : o.get), o.isNull ? Nullable!(string).init : Nullable!(string)("q\n\u0001\"\\\u00ff\U0001F600"));
    }
""")
TYPED_TESTS = code(r"""
    unittest
    {
        alias candidate = mix;
        auto r = candidate([["a", "bb"], ["a"]], ["bb": 10L], tuple(0.5f, true), Nullable!(long)(-9000000000L), [float.nan, float.infinity, -0.0f, 1.5e-30f], [2L: "x\u00e9"]);
        assert(r[0] == 14L - 9000000000L && !r[1].isNull && r[1].get == "q\n\u0001\"\\\u00ff\U0001F600");
        auto s = candidate([], null, tuple(0.5f, true), Nullable!(long).init, [], null);
        assert(s[0] == 1000L && s[1].isNull);
    }
    void main(){}
""")


def test_typed_values_cross(srv):
    """Values of MultiPL-E's D types cross both ways as Phobos' own: Tuple, Nullable,
    associative arrays, nested arrays, strings with every kind of character, floats (nan, inf,
    -0.0, denormal-near values), longs past 32 bits, and empty arrays and maps."""
    res = judge(srv, {"language": "d_ut", "code": TYPED_SETUP + TYPED_BODY, "harness": TYPED_TESTS,
                      "harness_setup": TYPED_SETUP, "entry_point": "mix",
                      "limits": {"time_ms": 5000, "wall_ms": 20000}})
    assert_accepted(res)
    assert res["grading"] == "isolated", res


def test_answers_convert_only_by_value(srv):
    """An answer whose own declaration returns a wider type than the prompt's gets its value
    converted, refused when it does not fit: 2^32 + 3 declared `long` where the prompt says
    `int` is RE, never the 3 a truncation would give; an int[] answer where long[] is
    declared converts element by element."""
    setup = "import std.math;\nint low(long x) \n"
    tests = "unittest\n{\n    alias candidate = low;\n    assert(candidate(3L) == 3);\n}\nvoid main(){}\n"
    lsetup = "import std.math;\nlong[] twice(long[] x) \n"
    ltests = "unittest\n{\n    alias candidate = twice;\n    assert(candidate([1L, 2L]) == [2L, 4L]);\n}\nvoid main(){}\n"
    fits, wide, arr = in_parallel(lambda b: judge(srv, b), [
        ({"language": "d_ut", "code": "long low(long x) { return x; }\n", "harness": tests,
          "harness_setup": setup, "entry_point": "low"},),
        ({"language": "d_ut", "code": "long low(long x) { return x + (1L << 32); }\n", "harness": tests,
          "harness_setup": setup, "entry_point": "low"},),
        ({"language": "d_ut", "code": "int[] twice(long[] x) { int[] r; foreach (e; x) r ~= cast(int)(2 * e); return r; }\n",
          "harness": ltests, "harness_setup": lsetup, "entry_point": "twice"},)])
    assert_accepted(fits)
    assert_accepted(arr)
    assert_refused(wide)
    assert wide["tests"][0]["verdict"] == "RE", wide


def test_bare_judge_takes_the_code_declaration(srv):
    """Without harness_setup the declaration is the code's own, and plain."""
    tests = "unittest\n{\n    assert(twice(4) == 8);\n}\nvoid main(){}\n"
    ok, bad = in_parallel(lambda b: judge(srv, b), [
        ({"language": "d_ut", "code": "long twice(long x) { return 2 * x; }\n", "harness": tests,
          "entry_point": "twice"},),
        ({"language": "d_ut", "code": "long twice(long x) { return x; }\n", "harness": tests,
          "entry_point": "twice"},)])
    assert_accepted(ok)
    assert ok["grading"] == "isolated", ok
    assert bad["tests"][0]["verdict"] == "WA", bad


# ---- the datasets' own problems through /submit --------------------------------------------

HE0 = "HumanEval_0_has_close_elements"
HE0_HEAD = "bool has_close_elements(float[] numbers, float threshold)\n"
SUBMITTED = {
    "exit_in_call": "import std.math;\n" + HE0_HEAD + "{\n    " + EXIT0 + "\n    return false;\n}\n",
    "module_ctor_exit": ("import std.math;\nshared static this()\n{\n    " + UEXIT0 + "\n}\n" + HE0_HEAD
                         + "{\n    return false;\n}\n"),
    "wrong": "import std.math;\n" + HE0_HEAD + "{\n    return true;\n}\n",
    # A declaration after the answer's own that would clash with the grader's: were it joined
    # to the tests, the grader would not compile and the problem would fall back to exit status
    "clash_with_the_grader": ("import std.math;\n" + HE0_HEAD + "{\n    " + EXIT0 + "\n    return true;\n}\n"
                              "struct VerdictValue {}\nvoid verdictCall() {}\n"),
}


def test_submitted_attacks(srv):
    got = in_parallel(lambda k: submit(srv, "multiple_d", HE0, SUBMITTED[k], fence="d"),
                      [(k,) for k in sorted(SUBMITTED)])
    for res in got:
        assert_refused(res)
        assert judged(res)["grading"] == "isolated", res


def test_submitted_control(srv):
    good = submit(srv, "multiple_d", HE0,
                  "import std.math;\n" + HE0_HEAD
                  + "{\n    foreach (i; 0 .. numbers.length)\n        foreach (j; i + 1 .. numbers.length)\n"
                  "            if (abs(numbers[i] - numbers[j]) < threshold) return true;\n    return false;\n}\n",
                  fence="d")
    assert_accepted(good)
    assert judged(good)["grading"] == "isolated", good


def test_plain_d_harness_with_main(srv):
    """The `d` template (no unittest blocks run in the program) grades the same way; tests
    written in main run in the grader as they would have in the program."""
    tests = "void main()\n{\n    assert(twice(4) == 8);\n    assert(twice(-1) == -2);\n}\n"
    ok, bad, exit0 = in_parallel(lambda b: judge(srv, b), [
        ({"language": "d", "code": "long twice(long x) { return 2 * x; }\n", "harness": tests,
          "entry_point": "twice"},),
        ({"language": "d", "code": "long twice(long x) { return x; }\n", "harness": tests,
          "entry_point": "twice"},),
        ({"language": "d", "code": "long twice(long x) { " + EXIT0 + " return x; }\n", "harness": tests,
          "entry_point": "twice"},)])
    assert_accepted(ok)
    assert ok["grading"] == "isolated", ok
    assert bad["tests"][0]["verdict"] == "WA", bad
    assert_refused(exit0)
