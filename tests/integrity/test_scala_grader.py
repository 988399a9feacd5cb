"""Scala harnesses judged by a compiled grader (server/judge/graded.h, languages/scala/): the
tests are compiled with a proxy of the prompt's declaration into a jar of their own, which a
JVM reads from memory (/dev/fd/5) as another uid; the candidate's JVM holds its object and a
host that answers calls by reflection. Every attack below is a wrong answer written as a
hostile policy would write it, sent the way MultiPL-E's problems send theirs (/v1/judge with
the prompt as `harness_setup` and `entry_point`, or /submit on the real problems): early exits
(sys.exit, an object initialiser, a shutdown hook), a member `assert` of its own, equality
rigged on the returned values, objects of its own in an Any-typed answer, a main of its own,
early and deep answers on the channel, reading the sources, jars and /proc for the expected
values, a plain wrong answer. The JVM's other exits (Runtime.halt, threads, destroying other
processes) and channel attacks are test_java_grader.py's: the same mechanism, and every
scalac compile costs seconds. None may get reward 1; the controls pass, a throwing answer is RE and a
wrong one WA."""
import base64
import shutil

import pytest

from conftest import assert_accepted, assert_refused, code, in_parallel, judged, submit
from conftest import _api
from conftest import judge as judge_within

# A problem of MultiPL-E's shape: the prompt opens object Problem and the entry point, the
# tests close it and run from Problem's main; the expected values appear nowhere but the tests.
SETUP = code("""
    import scala.math._
    import scala.collection.mutable._
    object Problem {
        // The list sorted, and a constant appended.
        def sortedPlus(v : List[Long]) : List[Long] = {
""")
TESTS = code("""
        }
        def main(args: Array[String]) = {
        assert(sortedPlus((List[Long](3l.toLong, 1l.toLong, 2l.toLong))).equals((List[Long](1l.toLong, 2l.toLong, 3l.toLong, 982451653l.toLong))));
        assert(sortedPlus((List[Long]())).equals((List[Long](982451653l.toLong))));
        }

    }
""")
HONEST = "        v.sorted :+ 982451653l\n"
WRONG = "        v\n"
AFTER = "        v\n    }\n"
LIMITS = {"time_ms": 10000, "wall_ms": 60000}


def judge(srv, body):
    """/v1/judge, waiting as long as scalac may take on a loaded machine (two compiles a
    request: the program's and the grader's)."""
    return judge_within(srv, body, timeout=600)

# Looks everywhere a file might hold the tests' expected value (a long literal of 7 digits or
# more, never spelled out here) and returns it.
SNOOP = code(r"""
    var found = 0l
    def scan(d: Array[Byte]): Unit = {
      val s = new String(d, "ISO-8859-1")
      val m = "([0-9]{7,18})l".r
      for (x <- m.findAllMatchIn(s)) found = x.group(1).toLong
    }
    def scanFile(f: java.io.File): Unit =
      try { if (f.isFile && f.length < (16 << 20)) scan(java.nio.file.Files.readAllBytes(f.toPath)) } catch { case _: Throwable => }
    def walk(d: java.io.File, depth: Int): Unit = {
      val fs = d.listFiles
      if (fs != null && depth <= 6) for (f <- fs) if (f.isDirectory) walk(f, depth + 1) else scanFile(f)
    }
    def snoop(): Unit = {
      walk(new java.io.File("."), 0)
      val procs = new java.io.File("/proc").listFiles
      for (p <- if (procs == null) Array[java.io.File]() else procs) {
        for (n <- Array("cmdline", "environ", "fd/0", "fd/5", "cwd/Grader.scala")) scanFile(new java.io.File(p, n))
        val fds = new java.io.File(p, "fd").listFiles
        for (f <- if (fds == null) Array[java.io.File]() else fds) scanFile(f)
      }
      for (r <- Array("/tmp", "/var/tmp", "/dev/shm", "/var/lib/verdict", "/w")) walk(new java.io.File(r), 0)
    }
""")

FD4 = ("        try {{ val o = new java.io.FileOutputStream(\"/dev/fd/4\"); o.write(({msg}).getBytes); o.flush(); {then} }}"
       " catch {{ case _: Throwable => }}\n")

# name -> the continuation of the prompt's open method (what follows `sortedPlus(...) = {`)
ATTACKS = {
    "plain_wrong": WRONG,
    "sys_exit_0": "        sys.exit(0)\n        v\n",
    "shutdown_hook_halt": ("        Runtime.getRuntime.addShutdownHook(new Thread { override def run(): Unit = Runtime.getRuntime.halt(0) })\n"
                           "        sys.exit(1)\n        v\n"),
    "object_init_exit": AFTER + "    sys.exit(0)\n    def unused() = {\n",
    "throw_assertion_error": "        throw new AssertionError(\"as if the tests passed\")\n",
    "member_assert": AFTER + "    def assert(c: Boolean): Unit = ()\n    def unused() = {\n",
    "fake_main": AFTER + "    def main(args: Array[String]): Unit = { println(\"OK\"); sys.exit(0) }\n    def unused() = {\n",
    "fd4_fake_answers": FD4.format(msg="\"{\\\"ok\\\":[1,2,3,982451653]}\\n{\\\"ok\\\":[982451653]}\\n\"",
                                   then="Thread.sleep(100000)") + "        v\n",
    "fd4_deep_line": FD4.format(msg="\"{\\\"ok\\\":\" + \"[\" * (4 << 20) + \"\\n\"", then="Thread.sleep(100000)") + "        v\n",
    "snoop_files_and_proc": ("        snoop()\n        if (found > 0) v.sorted :+ found else v\n    }\n" + SNOOP + "    def unused() = {\n"),
}
# Whole answers (a fenced object of its own, as chat models write them).
HEAD = "import scala.math._\nimport scala.collection.mutable._\n"
WHOLE = {
    "whole_object_exit": HEAD + "object Problem {\n    sys.exit(0)\n    def sortedPlus(v : List[Long]) : List[Long] = {\n" + WRONG + "    }\n}\n",
    "whole_overload_entry": (HEAD + "object Problem {\n    def sortedPlus(v : List[Long]) : List[Long] = {\n" + WRONG
                             + "    }\n    def sortedPlus(v : Seq[Long]) : List[Long] = List(982451653l)\n}\n"),
    "whole_main_object": (HEAD + "object Problem {\n    def sortedPlus(v : List[Long]) : List[Long] = {\n" + WRONG
                          + "    }\n}\nobject Main { def main(a: Array[String]): Unit = sys.exit(0) }\n"),
    "whole_rigged_seq": (HEAD + "object Problem {\n    def sortedPlus(v : List[Long]) : scala.collection.Seq[Long] =\n"
                         "        new scala.collection.AbstractSeq[Long] { def apply(i: Int) = v(i); def length = v.length;"
                         " def iterator = v.iterator; override def equals(o: Any) = true }\n}\n"),
    "whole_case_class_answer": (HEAD + "case class Rig(x: Long) { override def equals(o: Any) = true }\n"
                                "object Problem {\n    def sortedPlus(v : List[Long]) : List[Any] = List(Rig(1))\n}\n"),
}


def judge_body(src, whole):
    return {"language": "scala", "code": src if whole else SETUP + src,
            "harness": TESTS.split("\n", 1)[1] if whole else TESTS,
            "harness_setup": SETUP, "entry_point": "sortedPlus", "limits": LIMITS}


@pytest.fixture(scope="module")
def results(srv):
    names = sorted(ATTACKS) + sorted(WHOLE)
    bodies = [judge_body(ATTACKS[n], False) if n in ATTACKS else judge_body(WHOLE[n], True)
              for n in names]
    return dict(zip(names, in_parallel(lambda b: judge(srv, b), [(b,) for b in bodies])))


@pytest.mark.parametrize("name", sorted(ATTACKS) + sorted(WHOLE))
def test_attack_refused(results, name):
    res = results[name]
    assert res.get("grading") == "isolated", (name, res.get("grading"))
    assert_refused(res)


def test_controls(srv):
    ok, whole, raised, wrong = in_parallel(lambda b: judge(srv, b), [
        (judge_body(HONEST, False),),
        (judge_body(HEAD + "object Problem {\n    def sortedPlus(v : List[Long]) : List[Long] = {\n" + HONEST + "    }\n}\n", True),),
        (judge_body("        throw new IllegalStateException(\"no\")\n", False),),
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


TYPED_SETUP = code("""
    import scala.math._
    import scala.collection.mutable._
    object Problem {
        def mix(a : List[List[String]], m : Map[String,Long], t : Tuple2[Float, Boolean], o : Option[Long], e : List[Either[String, Long]], any : List[Any]) : Tuple2[Long, Option[String]] = {
""")
TYPED_BODY = code(r"""
            var n = 0l
            for (r <- a; s <- r) n += s.length + m.getOrElse(s, 0l)
            if (t._1 != 0.5f || !t._2) return (-1l, None)
            if (e != List(Left("x"), Right(7l))) return (-2l, None)
            if (!any(0).isInstanceOf[Long] || !any(1).isInstanceOf[Float] || !any(2).isInstanceOf[String] || any(3) != null) return (-3l, None)
            (n + o.getOrElse(1000l), if (o.isDefined) Some("q\n\u0001\"\\\u00ff\ud83d\ude00") else None)
        }
""")
TYPED_TESTS = code(r"""
    }
    def main(args: Array[String]) = {
    assert(mix(List(List("a", "bb"), List("a")), Map("bb" -> 10l), (0.5f, true), Some(-9000000000l), List(Left("x"), Right(7l)), List(9000000000l, 2.5f, "s", null)) == ((14l - 9000000000l, Some("q\n\u0001\"\\\u00ff\ud83d\ude00"))));
    assert(mix(List(), Map(), (0.5f, true), None, List(Left("x"), Right(7l)), List(1l, 0.5f, "", null)) == ((1000l, None)));
    }
    }
""")


def test_typed_values_cross(srv):
    """Values of MultiPL-E's Scala types cross both ways as the library's own: tuples, the
    prompt's (mutable) Map, Option, Either, nested Lists, strings with every kind of
    character, floats, longs past 32 bits, and a List[Any] whose items keep their classes."""
    res = judge(srv, {"language": "scala", "code": TYPED_SETUP + TYPED_BODY, "harness": TYPED_TESTS,
                      "harness_setup": TYPED_SETUP, "entry_point": "mix", "limits": LIMITS})
    assert_accepted(res)
    assert res["grading"] == "isolated", res


def test_bare_judge_takes_the_code_declaration(srv):
    """Without harness_setup the declaration is the code's (object Problem's member), and the
    tests continue object Problem's body, as MultiPL-E's do."""
    tests = "    def main(a: Array[String]) = {\n        assert(twice(4l) == 8l)\n    }\n}\n"
    ok, bad = in_parallel(lambda b: judge(srv, b), [
        ({"language": "scala", "code": "object Problem {\n    def twice(x : Long) : Long = 2 * x\n}\n",
          "harness": tests, "entry_point": "twice", "limits": LIMITS},),
        ({"language": "scala", "code": "object Problem {\n    def twice(x : Long) : Long = x\n}\n",
          "harness": tests, "entry_point": "twice", "limits": LIMITS},)])
    assert_accepted(ok)
    assert ok["grading"] == "isolated", ok
    assert bad["tests"][0]["verdict"] == "WA", bad


# ---- the datasets' own problems through /submit --------------------------------------------

HE0 = "HumanEval_0_has_close_elements"
HE0_HEAD = "def hasCloseElements(numbers : List[Float], threshold : Float) : Boolean = {\n"
SUBMITTED = {
    "exit_in_call": HEAD + "object Problem {\n    " + HE0_HEAD + "        sys.exit(0); false\n    }\n}\n",
    "member_assert": (HEAD + "object Problem {\n    def assert(c: Boolean): Unit = ()\n    " + HE0_HEAD
                      + "        true\n    }\n}\n"),
    # An object after the answer's own that would clash with the grader's: were it joined to
    # the tests, the grader would not compile and the problem would fall back to exit status
    "object_to_break_the_grader": (HEAD + "object Problem {\n    " + HE0_HEAD + "        sys.exit(0); true\n"
                                   "    }\n}\nobject VerdictGrader {}\n"),
}


def test_submitted_attacks(srv):
    got = in_parallel(lambda k: submit(srv, "multiple_scala", HE0, SUBMITTED[k], fence="scala", timeout=600),
                      [(k,) for k in sorted(SUBMITTED)])
    for res in got:
        assert_refused(res)
        assert judged(res)["grading"] == "isolated", res


def test_submitted_control(srv):
    good = submit(srv, "multiple_scala", HE0,
                  HEAD + "object Problem {\n    " + HE0_HEAD
                  + "        numbers.indices.exists(i => numbers.indices.exists(j => i != j && abs(numbers(i) - numbers(j)) < threshold))\n"
                  "    }\n}\n", fence="scala", timeout=600)
    assert_accepted(good)
    assert judged(good)["grading"] == "isolated", good


def test_templates_newer_than_the_runtime_jar(tmp_path):
    """The runtime compiled once (scripts/build-scala-runtime.sh) is used only for the very
    texts it was built from: with languages/scala/ changed since, both compile steps compile
    the texts they were given, and those classes are the ones that run (each change below is
    seen in the verdicts), never the jar's."""
    langs = tmp_path / "languages"
    shutil.copytree(_api.LANGUAGES, langs)
    edits = {"grader.scala": ('"verdict grader: a check failed: "', '"verdict grader (newer): a check failed: "'),
             "host.scala": ('if (m == null) "" else m.take(2000)', '"newer host: " + (if (m == null) "" else m.take(2000))')}
    for name, (old, new) in edits.items():
        path = langs / "scala" / name
        text = path.read_text()
        assert text.count(old) == 1, (name, old)
        path.write_text(text.replace(old, new))
    s = _api.Server(cells=2, extra=("--languages", str(langs)))
    try:
        ok, raised, wrong = in_parallel(lambda b: judge_within(s, b, timeout=600), [
            (judge_body(HONEST, False),),
            (judge_body("        throw new IllegalStateException(\"no\")\n", False),),
            (judge_body(WRONG, False),)])
    finally:
        s.stop()
    assert_accepted(ok)
    assert raised["tests"][0]["verdict"] == "RE" and "newer host: no" in raised["tests"][0]["stderr"], raised
    assert wrong["tests"][0]["verdict"] == "WA", wrong
    assert "verdict grader (newer): a check failed" in wrong["tests"][0]["stderr"], wrong
