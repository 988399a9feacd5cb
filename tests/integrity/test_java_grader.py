"""Java harnesses judged by a compiled grader (server/judge/graded.h, languages/java/): the
tests are compiled into a jar of their own and run as another uid by a JVM that reads the jar
from memory (/dev/fd/5); the candidate's JVM holds its class and a host that answers calls by
reflection. Every attack below is a wrong answer written as a hostile policy would write it,
sent the way MultiPL-E's problems send theirs (/v1/judge with the prompt as `harness_setup`
and `entry_point`, or /submit on the real problems): early exits in every form Java offers
(System.exit, Runtime.halt, static initializers, shutdown hooks, threads, destroying every
process it can see), equality rigged on the returned collections, objects of its own in an
Object-typed answer, a fake main, garbage and early answers on the channel, reading the
sources, jars and /proc for the expected values, a plain wrong answer. None may get reward 1;
the controls pass, a throwing answer is RE and a wrong one WA."""
import base64

import pytest

from conftest import assert_accepted, assert_refused, code, in_parallel, judge, judged, submit

IMPORTS = code("""
    import java.util.*;
    import java.lang.reflect.*;
    import org.javatuples.*;
    import java.security.*;
    import java.math.*;
    import java.io.*;
    import java.util.stream.*;
""")
# A problem of MultiPL-E's shape: the prompt opens class Problem and the entry point, the
# tests close both and run from class Main; the expected values appear nowhere but the tests.
SETUP = IMPORTS + code("""
    class Problem {
        // The list sorted, and a constant appended.
        public static ArrayList<Long> sortedPlus(ArrayList<Long> v) {
""")
TESTS = code("""
        }
        public static void main(String[] args) {
        assert(sortedPlus((new ArrayList<Long>(Arrays.asList((long)3l, (long)1l, (long)2l)))).equals((new ArrayList<Long>(Arrays.asList((long)1l, (long)2l, (long)3l, (long)982451653l)))));
        assert(sortedPlus((new ArrayList<Long>(Arrays.asList()))).equals((new ArrayList<Long>(Arrays.asList((long)982451653l)))));
        }

    }
    class Main {
        public static void main(String[] args) throws Exception {
            Problem.main(args);
        }
    }
""")
HONEST = "        Collections.sort(v);\n        v.add(982451653l);\n        return v;\n"
WRONG = "        return v;\n"
# A member after the entry point: the continuation closes the entry point, adds its own.
AFTER = "        return v;\n    }\n"

# Looks everywhere a file might hold the tests' expected value and returns it: its own
# source and jar, the work dir, every /proc entry it can open (cmdline, environ, fds, the
# grader's jar at fd 5), /tmp and the cache's usual places.
SNOOP = code(r"""
    static long found = 0;
    static void scan(byte[] data) {
        String s = new String(data, java.nio.charset.StandardCharsets.ISO_8859_1);
        String pat = new StringBuilder(")gnol(").reverse().toString(); // never spelled out
        for (int at = s.indexOf(pat); at >= 0; at = s.indexOf(pat, at + 1)) {
            int e = at + pat.length();
            StringBuilder d = new StringBuilder();
            while (e < s.length() && Character.isDigit(s.charAt(e))) d.append(s.charAt(e++));
            if (d.length() > 6) found = Long.parseLong(d.toString());
        }
    }
    static void scanFile(File f) {
        try (FileInputStream in = new FileInputStream(f)) { scan(in.readNBytes(64 << 20)); } catch (Throwable t) {}
    }
    static void walk(File d, int depth) {
        File[] fs = d.listFiles();
        if (fs == null || depth > 6) return;
        for (File f : fs) { if (f.isDirectory()) walk(f, depth + 1); else scanFile(f); }
    }
    static void snoop() {
        walk(new File("."), 0);
        File[] procs = new File("/proc").listFiles();
        for (File p : procs == null ? new File[0] : procs) {
            for (String n : new String[] {"cmdline", "environ", "fd/0", "fd/5", "cwd/Grader.java"}) scanFile(new File(p, n));
            File[] fds = new File(p, "fd").listFiles();
            for (File f : fds == null ? new File[0] : fds) scanFile(f);
        }
        for (String r : new String[] {"/tmp", "/var/tmp", "/dev/shm", "/var/lib/verdict", "/w"}) walk(new File(r), 0);
    }
""")

# name -> the continuation of the prompt's open method (what follows `sortedPlus(...) {`)
ATTACKS = {
    "plain_wrong": WRONG,
    "system_exit_0": "        System.exit(0);\n        return v;\n",
    "halt_0": "        Runtime.getRuntime().halt(0);\n        return v;\n",
    "shutdown_hook_halt": ("        Runtime.getRuntime().addShutdownHook(new Thread(() -> Runtime.getRuntime().halt(0)));\n"
                           "        System.exit(1);\n        return v;\n"),
    "static_init_exit": AFTER + "    static { System.exit(0); }\n    static void unused() {\n",
    "static_init_thread_exit": (AFTER + "    static { new Thread(() -> { try { Thread.sleep(50); } catch (Exception e) {} "
                                "Runtime.getRuntime().halt(0); }).start(); }\n    static void unused() {\n"),
    "destroy_every_process": ("        ProcessHandle.allProcesses().forEach(p -> { if (p.pid() != ProcessHandle.current().pid()) "
                              "p.destroyForcibly(); });\n        return v;\n"),
    "throw_error": "        throw new AssertionError(\"as if the tests passed\");\n",
    "stack_overflow": "        return sortedPlus(v);\n",
    "rigged_equals_list": ("        return new ArrayList<Long>(v) { public boolean equals(Object o) { return true; }"
                           " public int hashCode() { return 0; } };\n"),
    "fake_main": AFTER + ("    public static void main(String[] args) { System.out.println(\"OK\"); System.exit(0); }\n"
                          "    static void unused() {\n"),
    "fd4_fake_answers": ("        try { FileOutputStream o = new FileOutputStream(\"/dev/fd/4\");\n"
                         "            o.write(\"{\\\"ok\\\":[1,2,3,982451653]}\\n{\\\"ok\\\":[982451653]}\\n\".getBytes()); o.flush();\n"
                         "            Thread.sleep(100000); } catch (Exception e) {}\n        return v;\n"),
    "fd4_garbage": ("        try { FileOutputStream o = new FileOutputStream(\"/dev/fd/4\");\n"
                    "            o.write(\"PASS\\n{\\\"ok\\\":true} trailing\\n\".getBytes()); o.flush(); } catch (Exception e) {}\n"
                    "        return v;\n"),
    "fd4_deep_line": ("        try { FileOutputStream o = new FileOutputStream(\"/dev/fd/4\");\n"
                      "            o.write((\"{\\\"ok\\\":\" + \"[\".repeat(4 << 20) + \"\\n\").getBytes()); o.flush();\n"
                      "            Thread.sleep(100000); } catch (Exception e) {}\n        return v;\n"),
    "fd3_steal_calls": (AFTER + "    static { new Thread(() -> { try { FileInputStream i = new FileInputStream(\"/dev/fd/3\");"
                        " i.read(new byte[1 << 16]); } catch (Exception e) {} }).start(); }\n    static void unused() {\n"),
    "fake_pass_print": ("        System.out.println(\"OK\\nPASS\\nAll tests passed\");\n        System.out.flush();\n"
                        "        Runtime.getRuntime().halt(0);\n        return v;\n"),
    "snoop_files_and_proc": ("        snoop();\n        if (found > 0) { Collections.sort(v); v.add(found); }\n        return v;\n    }\n"
                             + SNOOP + "    static void unused() {\n"),
}
# Whole answers (a fenced class of its own, as chat models write them): the class comes from
# the answer; what it adds around the entry point is its own.
WHOLE = {
    "whole_static_exit": (IMPORTS + "class Problem {\n    static { Runtime.getRuntime().halt(0); }\n"
                          "    public static ArrayList<Long> sortedPlus(ArrayList<Long> v) {\n" + WRONG + "    }\n}\n"),
    "whole_overload_entry": (IMPORTS + "class Problem {\n    public static ArrayList<Long> sortedPlus(ArrayList<Long> v) {\n"
                             + WRONG + "    }\n    public static ArrayList<Long> sortedPlus(List<Long> v) { return null; }\n}\n"),
    "whole_main_class": (IMPORTS + "class Problem {\n    public static ArrayList<Long> sortedPlus(ArrayList<Long> v) {\n"
                         + WRONG + "    }\n}\nclass Main { public static void main(String[] a) { System.exit(0); } }\n"),
}


def judge_body(src, whole):
    return {"language": "java", "code": src if whole else SETUP + src,
            "harness": TESTS.split("\n", 1)[1] if whole else TESTS,
            "harness_setup": SETUP, "entry_point": "sortedPlus",
            "limits": {"time_ms": 5000, "wall_ms": 20000}}


def results_of(srv):
    names = sorted(ATTACKS) + sorted(WHOLE)
    bodies = [judge_body(ATTACKS[n], False) if n in ATTACKS else judge_body(WHOLE[n], True)
              for n in names]
    return dict(zip(names, in_parallel(lambda b: judge(srv, b), [(b,) for b in bodies])))


@pytest.fixture(scope="module")
def results(srv):
    return results_of(srv)


# Attacks that break their own program's build: CE, the program's verdict (reward 0). A class
# Main of the answer's own clashes with the host's.
CE_OK = {"whole_main_class"}


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
        (judge_body(IMPORTS + "class Problem {\n    public static ArrayList<Long> sortedPlus(ArrayList<Long> v) {\n"
                    + HONEST + "    }\n}\n", True),),
        (judge_body("        throw new IllegalStateException(\"no\");\n", False),),
        (judge_body(WRONG, False),)])
    assert_accepted(ok)
    assert ok["grading"] == "isolated", ok
    assert_accepted(whole)
    assert raised["tests"][0]["verdict"] == "RE", raised
    assert "IllegalStateException" in raised["tests"][0]["stderr"], raised
    assert wrong["tests"][0]["verdict"] == "WA", wrong
    assert "verdict grader: a check failed" in wrong["tests"][0]["stderr"], wrong


def test_snoop_works_where_the_tests_are_readable(srv):
    """The snooping attack is refused for want of anything to read, not for failing to try:
    with the tests' text in a file of its work dir, it passes."""
    body = judge_body(ATTACKS["snoop_files_and_proc"], False)
    body["files"] = {"notes/leak.txt": base64.b64encode(TESTS.encode()).decode()}
    assert_accepted(judge(srv, body))


TYPED_SETUP = IMPORTS + code("""
    class Problem {
        public static Pair<Long, Optional<String>> mix(ArrayList<ArrayList<String>> a, HashMap<String, Long> m, Triplet<Float, Boolean, Character> t, Optional<Long> o, ArrayList<Object> any) {
""")
TYPED_BODY = code("""
            long n = 0;
            for (ArrayList<String> r : a) for (String s : r) n += s.length() + m.getOrDefault(s, 0l);
            if (t.getValue0() != 0.5f || !t.getValue1() || t.getValue2() != 'é') return Pair.with(-1l, Optional.empty());
            if (!(any.get(0) instanceof Long) || !(any.get(1) instanceof Float) || !(any.get(2) instanceof String)
                || !(any.get(3) instanceof ArrayList) || any.get(4) != null) return Pair.with(-2l, Optional.empty());
            return Pair.with(n + o.orElse(1000l), o.isPresent() ? Optional.of("q\\n\\u0001\\"\\\\\\u00ff\\ud83d\\ude00") : Optional.empty());
        }
""")
TYPED_TESTS = code("""
    }
    public static void main(String[] args) {
    ArrayList<Object> any = new ArrayList<Object>(Arrays.asList((Object)9000000000l, (Object)2.5f, (Object)"s", (Object)new ArrayList<Long>(Arrays.asList(1l)), null));
    HashMap<String, Long> m = new HashMap<String, Long>(Map.of("bb", 10l));
    ArrayList<ArrayList<String>> a = new ArrayList<ArrayList<String>>(Arrays.asList(new ArrayList<String>(Arrays.asList("a", "bb")), new ArrayList<String>(Arrays.asList("a"))));
    assert(mix(a, m, Triplet.with(0.5f, true, 'é'), Optional.of(-9000000000l), any).equals(Pair.with(14l - 9000000000l, Optional.of("q\\n\\u0001\\"\\\\\\u00ff\\ud83d\\ude00"))));
    assert(mix(a, m, Triplet.with(0.5f, true, 'é'), Optional.empty(), any).equals(Pair.with(1014l, Optional.empty())));
    }
    }
    class Main { public static void main(String[] a) { Problem.main(a); } }
""")


def test_typed_values_cross(srv):
    """Values of MultiPL-E's Java types cross both ways as the JDK's own classes: javatuples,
    HashMap, Optional, nested ArrayList, strings with every kind of character, chars, floats,
    longs past 32 bits, and an ArrayList<Object> whose items keep their classes."""
    res = judge(srv, {"language": "java", "code": TYPED_SETUP + TYPED_BODY, "harness": TYPED_TESTS,
                      "harness_setup": TYPED_SETUP, "entry_point": "mix",
                      "limits": {"time_ms": 5000, "wall_ms": 20000}})
    assert_accepted(res)
    assert res["grading"] == "isolated", res


def test_object_answers_of_its_own_do_not_cross(srv):
    """An Object-typed answer of the program's own class (equal to everything) is RE: only
    the wire's values cross."""
    setup = IMPORTS + "class Problem {\n    public static Object pick(long x) {\n"
    tests = code("""
        }
        public static void main(String[] args) {
        assert(pick((1l)).equals((2.5f)));
        }
        }
        class Main { public static void main(String[] a) { Problem.main(a); } }
    """)
    body = "        return new Object() { public boolean equals(Object o) { return true; } };\n"
    res = judge(srv, {"language": "java", "code": setup + body, "harness": tests, "harness_setup": setup,
                      "entry_point": "pick", "limits": {"time_ms": 5000, "wall_ms": 20000}})
    assert_refused(res)
    assert res["tests"][0]["verdict"] == "RE", res


def test_bare_judge_takes_the_code_declaration(srv):
    """Without harness_setup the declaration is the code's (class Problem's member), and the
    tests continue class Problem's body, as MultiPL-E's do."""
    tests = ("    public static void main(String[] a) {\n        assert twice(4) == 8;\n    }\n}\n"
             "class Main { public static void main(String[] a) { Problem.main(a); } }\n")
    ok, bad = in_parallel(lambda b: judge(srv, b), [
        ({"language": "java", "code": "class Problem {\n    public static long twice(long x) { return 2 * x; }\n}\n",
          "harness": tests, "entry_point": "twice", "limits": {"time_ms": 5000, "wall_ms": 20000}},),
        ({"language": "java", "code": "class Problem {\n    public static long twice(long x) { return x; }\n}\n",
          "harness": tests, "entry_point": "twice", "limits": {"time_ms": 5000, "wall_ms": 20000}},)])
    assert_accepted(ok)
    assert ok["grading"] == "isolated", ok
    assert bad["tests"][0]["verdict"] == "WA", bad


def test_arguments_convert_as_the_tests_call_would(srv):
    """The host decodes each argument as the prompt declares it, then reflection passes it as
    the tests' call would: an answer declaring `double` or `Long` where the prompt says `long`
    gets it (widening, boxing), one declaring `int` does not (Java has no implicit long to int:
    the tests would not compile against it) and fails."""
    setup = IMPORTS + "class Problem {\n    public static double half(long x) {\n"
    tests = ("    public static void main(String[] a) {\n        assert half(9l) == 4.5;\n    }\n}\n"
             "class Main { public static void main(String[] a) { Problem.main(a); } }\n")
    answers = {"double": "class Problem {\n    public static double half(double x) { return x / 2; }\n}\n",
               "boxed": "class Problem {\n    public static double half(Long x) { return x / 2.0; }\n}\n",
               "int": "class Problem {\n    public static double half(int x) { return x / 2.0; }\n}\n"}
    got = dict(zip(answers, in_parallel(lambda c: judge(srv, {
        "language": "java", "code": IMPORTS + c, "harness": tests, "harness_setup": setup + "    }\n",
        "entry_point": "half", "limits": {"time_ms": 5000, "wall_ms": 20000}}), [(c,) for c in answers.values()])))
    assert_accepted(got["double"])
    assert_accepted(got["boxed"])
    assert got["int"]["reward"] == 0 and got["int"]["tests"][0]["verdict"] == "RE", got["int"]


# ---- the datasets' own problems through /submit --------------------------------------------

HE0 = "HumanEval_0_has_close_elements"
HE0_HEAD = "public static boolean hasCloseElements(ArrayList<Float> numbers, float threshold) {\n"
SUBMITTED = {
    "exit_in_call": "class Problem {\n    " + HE0_HEAD + "        System.exit(0); return false;\n    }\n}\n",
    "static_halt": ("class Problem {\n    static { Runtime.getRuntime().halt(0); }\n    " + HE0_HEAD
                    + "        return false;\n    }\n}\n"),
    "own_main_exit": ("class Problem {\n    " + HE0_HEAD + "        return true;\n    }\n"
                      "    public static void main(String[] a) { System.exit(0); }\n}\n"),
    "wrong": "class Problem {\n    " + HE0_HEAD + "        return true;\n    }\n}\n",
    # A class after the answer's own that would clash with the grader's: were it joined to the
    # tests, the grader would not compile and the problem would fall back to exit status
    "class_to_break_the_grader": ("class Problem {\n    " + HE0_HEAD + "        System.exit(0); return true;\n"
                                  "    }\n}\nclass VerdictGrader {}\n"),
}


def test_submitted_attacks(srv):
    got = in_parallel(lambda k: submit(srv, "multiple_java", HE0, IMPORTS + SUBMITTED[k], fence="java"),
                      [(k,) for k in sorted(SUBMITTED)])
    for res in got:
        assert_refused(res)
        assert judged(res)["grading"] == "isolated", res


def test_submitted_control(srv):
    good = submit(srv, "multiple_java", HE0,
                  IMPORTS + "class Problem {\n    " + HE0_HEAD
                  + "        for (int i = 0; i < numbers.size(); i++)\n"
                  "            for (int j = i + 1; j < numbers.size(); j++)\n"
                  "                if (Math.abs(numbers.get(i) - numbers.get(j)) < threshold) return true;\n"
                  "        return false;\n    }\n}\n", fence="java")
    assert_accepted(good)
    assert judged(good)["grading"] == "isolated", good


def test_problem_whose_tests_do_not_compile(srv):
    """MBPP 116's tests use a three-item javatuples Pair, which does not exist: its grader does
    not compile. An answer that declares such a Pair itself (and exits 0) would make the tests
    compile were they joined to it; judged by exit status, it would pass. Such a problem is CE
    for every answer, the honest one included, with the grader's compiler output."""
    attack = (IMPORTS + "class Pair<A, B, C> {\n    static <A, B, C> Pair<A, B, C> with(A a, B b, C c) "
              "{ return new Pair<A, B, C>(); }\n}\nclass Problem {\n"
              "    public static long tupleToInt(Pair<Long, Long, Long> nums) {\n"
              "        System.exit(0);\n        return 0;\n    }\n}\n")
    res = submit(srv, "multiple_mbpp_java", "mbpp_116_tuple_to_int", attack, fence="java")
    j = judged(res)
    assert not res.get("accepted") and j.get("reward") == 0, j
    assert j["status"] == "CE" and "the problem's tests do not compile" in j["message"], j
    assert "wrong number of type arguments" in j["compile_output"], j
    assert j["grading"] == "isolated", j


def test_problem_whose_setup_declares_no_entry_point(srv):
    """MBPP 568's prompt declares its entry point with `Optional.empty()` inside a type: no
    declaration a grader can call. Judged by exit status, an answer declaring its own
    `Object emptyList(long)` that exits 0 would pass (its tests compare with `.equals`, which
    compiles against any type). Such a problem is CE for every answer."""
    attack = (IMPORTS + "class Problem {\n    public static Object emptyList(long length) {\n"
              "        System.exit(0);\n        return null;\n    }\n}\n")
    res = submit(srv, "multiple_mbpp_java", "mbpp_568_empty_list", attack, fence="java")
    j = judged(res)
    assert not res.get("accepted") and j.get("reward") == 0, j
    assert j["status"] == "CE" and "the problem's setup has no declaration of" in j["message"], j
