"""C# harnesses judged by a compiled grader (server/judge/graded.h, languages/csharp/): the
tests are compiled into an assembly of their own that mono loads from memory (/dev/fd/5) as
another uid; the candidate's process holds its class and a host that answers calls by
reflection. Every attack below is a wrong answer written as a hostile policy would write it,
sent the way MultiPL-E's problems send theirs (/v1/judge with the prompt as `harness_setup` and
`entry_point`, or /submit on the real problems): early exits in every form C# offers
(Environment.Exit, FailFast, killing its own process, static constructors, ProcessExit
handlers, threads), the assert listeners cleared, equality rigged on the returned values,
objects of its own in an object-typed answer, a Main of its own, garbage and early answers on
the channel, reading the sources, assemblies and /proc for the expected values, a plain
wrong answer. None may get reward 1; the controls pass, a throwing answer is RE and a wrong
one WA."""
import base64

import pytest

from conftest import assert_accepted, assert_refused, code, in_parallel, judge, judged, submit

USINGS = code("""
    using System;
    using System.Numerics;
    using System.Diagnostics;
    using System.Collections.Generic;
    using System.Linq;
    using System.Text;
    using System.Security.Cryptography;
""")
# A problem of MultiPL-E's shape: the prompt opens class Problem and the entry point, the
# tests close both; the expected values appear nowhere but in the tests.
SETUP = USINGS + code("""
    class Problem {
        // The sum of the list and a constant.
        public static Tuple<long, long> SumPlus(List<long> v) {
""")
TESTS = code("""
        }
        public static void Main(string[] args) {
        Debug.Assert(SumPlus((new List<long>(new long[]{(long)3L, (long)1L, (long)2L}))).Equals((Tuple.Create(6L, 982451653L))));
        Debug.Assert(SumPlus((new List<long>())).Equals((Tuple.Create(0L, 982451653L))));
        }

    }
""")
HONEST = "        return Tuple.Create(v.Sum(), 982451653L);\n"
WRONG = "        return Tuple.Create(v.Sum(), 0L);\n"
AFTER = "        return Tuple.Create(0L, 0L);\n    }\n"

# Looks everywhere a file might hold the tests' expected value and returns it.
SNOOP = code(r"""
    static long found = 0;
    static void Scan(byte[] data) {
        string s = Encoding.GetEncoding("ISO-8859-1").GetString(data);
        string pat = new string(" ,L6(etaerC.elpuT".Reverse().ToArray()); // never spelled out
        for (int at = s.IndexOf(pat); at >= 0; at = s.IndexOf(pat, at + 1)) {
            int e = at + pat.Length;
            var d = new StringBuilder();
            while (e < s.Length && char.IsDigit(s[e])) d.Append(s[e++]);
            if (d.Length > 6) found = long.Parse(d.ToString());
        }
    }
    static void ScanFile(string f) {
        try {
            using (var i = System.IO.File.OpenRead(f)) {
                var b = new byte[1 << 16]; var all = new System.IO.MemoryStream(); int n;
                while (all.Length < (1 << 20) && (n = i.Read(b, 0, b.Length)) > 0) all.Write(b, 0, n);
                Scan(all.ToArray());
            }
        } catch (Exception) {}
    }
    static void Walk(string d, int depth) {
        if (depth > 6) return;
        try { foreach (var f in System.IO.Directory.GetFiles(d)) ScanFile(f); foreach (var s in System.IO.Directory.GetDirectories(d)) Walk(s, depth + 1); } catch (Exception) {}
    }
    static void Snoop() {
        Walk(".", 0);
        try {
            foreach (var p in System.IO.Directory.GetDirectories("/proc")) {
                if (!System.IO.Path.GetFileName(p).All(char.IsDigit)) continue;
                foreach (var n in new[] {"cmdline", "environ", "fd/0", "cwd/Grader.cs", "exe"}) ScanFile(p + "/" + n);
            }
        } catch (Exception) {}
        foreach (var r in new[] {"/tmp", "/var/tmp", "/dev/shm", "/var/lib/verdict", "/w"}) Walk(r, 0);
    }
""")

# name -> the continuation of the prompt's open method
ATTACKS = {
    "plain_wrong": WRONG,
    "environment_exit_0": "        Environment.Exit(0);\n        return null;\n",
    "fail_fast": "        Environment.FailFast(\"as if\");\n        return null;\n",
    "kill_own_process": "        Process.GetCurrentProcess().Kill();\n        return null;\n",
    "process_exit_handler": ("        AppDomain.CurrentDomain.ProcessExit += (s, e) => Environment.Exit(0);\n"
                             "        Environment.Exit(1);\n        return null;\n"),
    "static_ctor_exit": AFTER + "    static Problem() { Environment.Exit(0); }\n    static void Unused() {\n",
    "thread_exit": ("        new System.Threading.Thread(() => { System.Threading.Thread.Sleep(50); Environment.Exit(0); }).Start();\n"
                    "        return Tuple.Create(0L, 0L);\n"),
    "kill_every_process": ("        foreach (var p in Process.GetProcesses()) { try { if (p.Id != Process.GetCurrentProcess().Id) p.Kill(); } catch (Exception) {} }\n"
                           "        return Tuple.Create(0L, 0L);\n"),
    "listeners_cleared": "        Trace.Listeners.Clear();\n        Debug.Listeners.Clear();\n        return Tuple.Create(0L, 0L);\n",
    "throw": "        throw new Exception(\"as if the tests passed\");\n",
    "stack_overflow": "        return SumPlus(v);\n",
    "fake_main": AFTER + "    public static void Main() { Console.WriteLine(\"OK\"); Environment.Exit(0); }\n    static void Unused() {\n",
    "fd4_fake_answers": ("        var o = new System.IO.FileStream(\"/dev/fd/4\", System.IO.FileMode.Open, System.IO.FileAccess.Write);\n"
                         "        var b = Encoding.UTF8.GetBytes(\"{\\\"ok\\\":{\\\"tuple\\\":[6,982451653]}}\\n{\\\"ok\\\":{\\\"tuple\\\":[0,982451653]}}\\n\");\n"
                         "        o.Write(b, 0, b.Length); o.Flush(); System.Threading.Thread.Sleep(100000);\n        return null;\n"),
    "fd4_garbage": ("        var o = new System.IO.FileStream(\"/dev/fd/4\", System.IO.FileMode.Open, System.IO.FileAccess.Write);\n"
                    "        var b = Encoding.UTF8.GetBytes(\"PASS\\n{\\\"ok\\\":true} trailing\\n\");\n"
                    "        o.Write(b, 0, b.Length); o.Flush();\n        return Tuple.Create(0L, 0L);\n"),
    "fd4_deep_line": ("        var o = new System.IO.FileStream(\"/dev/fd/4\", System.IO.FileMode.Open, System.IO.FileAccess.Write);\n"
                      "        var b = Encoding.UTF8.GetBytes(\"{\\\"ok\\\":\" + new string('[', 4 << 20) + \"\\n\");\n"
                      "        o.Write(b, 0, b.Length); o.Flush(); System.Threading.Thread.Sleep(100000);\n        return null;\n"),
    "fake_pass_print": "        Console.WriteLine(\"OK\\nPASS\\nAll tests passed\");\n        Console.Out.Flush();\n        Environment.Exit(0);\n        return null;\n",
    "snoop_files_and_proc": ("        Snoop();\n        return Tuple.Create(v.Sum(), found);\n    }\n" + SNOOP + "    static void Unused() {\n"),
}
# A tuple of the program's own type, equal to everything, returned where the tests compare
# with Equals (its class declared after the method, in the continuation).
ATTACKS["object_subclass_tuple"] = ("        return new Rigged();\n    }\n"
                                    "    class Rigged : Tuple<long, long> { public Rigged() : base(0, 0) {}"
                                    " public override bool Equals(object o) { return true; }"
                                    " public override int GetHashCode() { return 0; } }\n    static void Unused() {\n")
WHOLE = {
    "whole_static_ctor_exit": (USINGS + "class Problem {\n    static Problem() { Environment.Exit(0); }\n"
                               "    public static Tuple<long, long> SumPlus(List<long> v) {\n" + WRONG + "    }\n}\n"),
    "whole_overload_entry": (USINGS + "class Problem {\n    public static Tuple<long, long> SumPlus(List<long> v) {\n"
                             + WRONG + "    }\n    public static Tuple<long, long> SumPlus(IEnumerable<long> v) { return null; }\n}\n"),
}


def judge_body(src, whole):
    return {"language": "csharp", "code": src if whole else SETUP + src,
            "harness": TESTS.split("\n", 1)[1] if whole else TESTS,
            "harness_setup": SETUP, "entry_point": "SumPlus",
            "limits": {"time_ms": 5000, "wall_ms": 20000}}


def results_of(srv):
    names = sorted(ATTACKS) + sorted(WHOLE)
    bodies = [judge_body(ATTACKS[n], False) if n in ATTACKS else judge_body(WHOLE[n], True)
              for n in names]
    return dict(zip(names, in_parallel(lambda b: judge(srv, b), [(b,) for b in bodies])))


@pytest.fixture(scope="module")
def results(srv):
    return results_of(srv)


# Attacks that break their own program's build: CE, the program's verdict (reward 0). A Main
# of the program's own is a second entry point beside the host's (CS0017).
CE_OK = {"fake_main"}


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
        (judge_body(USINGS + "class Problem {\n    public static Tuple<long, long> SumPlus(List<long> v) {\n"
                    + HONEST + "    }\n}\n", True),),
        (judge_body("        throw new InvalidOperationException(\"no\");\n", False),),
        (judge_body(WRONG, False),)])
    assert_accepted(ok)
    assert ok["grading"] == "isolated", ok
    assert_accepted(whole)
    assert raised["tests"][0]["verdict"] == "RE", raised
    assert "InvalidOperationException" in raised["tests"][0]["stderr"], raised
    assert wrong["tests"][0]["verdict"] == "WA", wrong
    assert "verdict grader: a check failed" in wrong["tests"][0]["stderr"], wrong


def test_snoop_works_where_the_tests_are_readable(srv):
    """The snooping attack is refused for want of anything to read, not for failing to try:
    with the tests' text in a file of its work dir, it passes."""
    body = judge_body(ATTACKS["snoop_files_and_proc"], False)
    body["files"] = {"notes/leak.txt": base64.b64encode(TESTS.encode()).decode()}
    assert_accepted(judge(srv, body))


TYPED_SETUP = USINGS + code("""
    class Problem {
        public static Tuple<long, Nullable<long>, string> Mix(List<List<string>> a, Dictionary<string, long> m, Tuple<float, bool, char> t, Nullable<long> o, List<object> any, HashSet<long> s, long[] arr) {
""")
TYPED_BODY = code("""
            long n = 0;
            foreach (var r in a) foreach (var x in r) n += x.Length + (m.ContainsKey(x) ? m[x] : 0L);
            if (t.Item1 != 0.5f || !t.Item2 || t.Item3 != 'é') return Tuple.Create(-1L, (long?)null, "");
            if (!(any[0] is long) || !(any[1] is float) || !(any[2] is string) || !(any[3] is List<object>) || any[4] != null)
                return Tuple.Create(-2L, (long?)null, "");
            if (!s.Contains(7L) || arr.Length != 2 || arr[1] != -9000000000L) return Tuple.Create(-3L, (long?)null, "");
            return Tuple.Create(n + (o ?? 1000L), o.HasValue ? (long?)o.Value * 2 : null, "q\\n\\u0001\\"\\\\\\u00ff\\ud83d\\ude00");
        }
""")
TYPED_TESTS = code("""
    }
    public static void Main(string[] args) {
    var any = new List<object>(new object[]{9000000000L, 2.5f, "s", new List<object>(), null});
    var m = new Dictionary<string, long>{{"bb", 10L}};
    var a = new List<List<string>>{new List<string>{"a", "bb"}, new List<string>{"a"}};
    var s = new HashSet<long>{7L};
    Debug.Assert(Mix(a, m, Tuple.Create(0.5f, true, 'é'), -9000000000L, any, s, new long[]{1L, -9000000000L}).Equals(Tuple.Create(14L - 9000000000L, (long?)-18000000000L, "q\\n\\u0001\\"\\\\\\u00ff\\ud83d\\ude00")));
    Debug.Assert(Mix(a, m, Tuple.Create(0.5f, true, 'é'), null, any, s, new long[]{1L, -9000000000L}).Equals(Tuple.Create(1014L, (long?)null, "q\\n\\u0001\\"\\\\\\u00ff\\ud83d\\ude00")));
    }
    }
""")


def test_typed_values_cross(srv):
    """Values of MultiPL-E's C# types cross both ways as the framework's own: Tuple, Nullable,
    Dictionary, HashSet, nested List, arrays, strings with every kind of character, chars,
    floats, longs past 32 bits, and a List<object> whose items keep their types."""
    res = judge(srv, {"language": "csharp", "code": TYPED_SETUP + TYPED_BODY, "harness": TYPED_TESTS,
                      "harness_setup": TYPED_SETUP, "entry_point": "Mix",
                      "limits": {"time_ms": 5000, "wall_ms": 20000}})
    assert_accepted(res)
    assert res["grading"] == "isolated", res


def test_object_answers_of_its_own_do_not_cross(srv):
    """An object-typed answer of the program's own class (equal to everything) is RE."""
    setup = USINGS + "class Problem {\n    public static object Pick(long x) {\n"
    tests = code("""
        }
        public static void Main(string[] args) {
        Debug.Assert(Pick((1L)).Equals((2.5f)));
        }
        }
    """)
    body = "        return new Eq();\n    }\n    class Eq { public override bool Equals(object o) { return true; } public override int GetHashCode() { return 0; } }\n    static void Unused() {\n"
    res = judge(srv, {"language": "csharp", "code": setup + body, "harness": tests, "harness_setup": setup,
                      "entry_point": "Pick", "limits": {"time_ms": 5000, "wall_ms": 20000}})
    assert_refused(res)
    assert res["tests"][0]["verdict"] == "RE", res


def test_bare_judge_takes_the_code_declaration(srv):
    """Without harness_setup the declaration is the code's (class Problem's member), and the
    tests continue class Problem's body, as MultiPL-E's do."""
    tests = "    public static void Main(string[] a) {\n        Debug.Assert(Twice(4) == 8);\n    }\n}\n"
    ok, bad = in_parallel(lambda b: judge(srv, b), [
        ({"language": "csharp", "code": "class Problem {\n    public static long Twice(long x) { return 2 * x; }\n}\n",
          "harness": tests, "entry_point": "Twice", "limits": {"time_ms": 5000, "wall_ms": 20000}},),
        ({"language": "csharp", "code": "class Problem {\n    public static long Twice(long x) { return x; }\n}\n",
          "harness": tests, "entry_point": "Twice", "limits": {"time_ms": 5000, "wall_ms": 20000}},)])
    assert_accepted(ok)
    assert ok["grading"] == "isolated", ok
    assert bad["tests"][0]["verdict"] == "WA", bad


def test_arguments_convert_as_the_tests_call_would(srv):
    """The host decodes each argument as the prompt declares it, then passes it as the tests'
    call would: an answer declaring `double` or `Complex` where the prompt says `long` gets the
    implicit conversion (MBPP 252's answers do), one declaring `int` gets nothing (C# has no
    implicit long to int: the tests would not compile against it) and fails."""
    setup = USINGS + "class Problem {\n    public static double Half(long x) {\n"
    tests = "    public static void Main(string[] a) {\n        Debug.Assert(Half(9L) == 4.5);\n    }\n}\n"
    answers = {"double": "class Problem {\n    public static double Half(double x) { return x / 2; }\n}\n",
               "complex": "class Problem {\n    public static double Half(Complex x) { return x.Real / 2; }\n}\n",
               "int": "class Problem {\n    public static double Half(int x) { return x / 2.0; }\n}\n"}
    got = dict(zip(answers, in_parallel(lambda c: judge(srv, {
        "language": "csharp", "code": USINGS + c, "harness": tests, "harness_setup": setup + "    }\n",
        "entry_point": "Half", "limits": {"time_ms": 5000, "wall_ms": 20000}}), [(c,) for c in answers.values()])))
    assert_accepted(got["double"])
    assert_accepted(got["complex"])
    assert got["int"]["reward"] == 0 and got["int"]["tests"][0]["verdict"] == "RE", got["int"]


HE0 = "HumanEval_0_has_close_elements"
HE0_HEAD = "public static bool HasCloseElements(List<float> numbers, float threshold) {\n"
SUBMITTED = {
    "exit_in_call": "class Problem {\n    " + HE0_HEAD + "        Environment.Exit(0); return false;\n    }\n}\n",
    "static_exit": ("class Problem {\n    static Problem() { Environment.Exit(0); }\n    " + HE0_HEAD
                    + "        return false;\n    }\n}\n"),
    "own_main_exit": ("class Problem {\n    " + HE0_HEAD + "        return true;\n    }\n"
                      "    public static void Main(string[] a) { Environment.Exit(0); }\n}\n"),
    "wrong": "class Problem {\n    " + HE0_HEAD + "        return true;\n    }\n}\n",
    # a class after the answer's own that would clash with the grader's, were it joined to
    # the tests (its grader would not compile, and the problem would fall back to exit status)
    "class_to_break_the_grader": ("class Problem {\n    " + HE0_HEAD + "        Environment.Exit(0); return true;\n"
                                  "    }\n}\nstatic class VerdictTests {}\n"),
}


def test_submitted_attacks(srv):
    got = in_parallel(lambda k: submit(srv, "multiple_cs", HE0, USINGS + SUBMITTED[k], fence="csharp"),
                      [(k,) for k in sorted(SUBMITTED)])
    for res in got:
        assert_refused(res)
        assert judged(res)["grading"] == "isolated", res


def test_submitted_control(srv):
    good = submit(srv, "multiple_cs", HE0,
                  USINGS + "class Problem {\n    " + HE0_HEAD
                  + "        for (int i = 0; i < numbers.Count; i++)\n"
                  "            for (int j = i + 1; j < numbers.Count; j++)\n"
                  "                if (Math.Abs(numbers[i] - numbers[j]) < threshold) return true;\n"
                  "        return false;\n    }\n}\n", fence="csharp")
    assert_accepted(good)
    assert judged(good)["grading"] == "isolated", good
