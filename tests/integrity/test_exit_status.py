"""Harnesses that exit status alone would decide (a language without a grader or seal; a
compiled grader's language without an `entry_point`): any exit 0 passes there, so verdict
refuses them (422 at `harness`, `/submit`: at `config.language`) unless the client accepts
that with `allow_exit_status: true`. Each attack below is a one-line early exit, or a test
framework the program fakes, in every language of that kind: none may earn a reward without
that consent, whether the language is installed here or not (docs/integrity.md, "Exit-status
languages")."""
import json

import pytest

from conftest import code, in_parallel, judge

# language: (code, harness, entry_point or None). Each code exits 0 before the tests (or
# fakes what they call), each harness fails an honest run.
ATTACKS = {
    "sql": (".exit 0\n", "SELECT * FROM no_such_table;\n", None),
    "verilog": ("module dut; initial $finish; endmodule\n",
                "module tb;\n  dut d();\n  initial $fatal(1, \"wrong\");\nendmodule\n", None),
    "kotlin_script": ("fun twice(x: Int) = x\nkotlin.system.exitProcess(0)\n",
                      "assert(twice(2) == 4)\n", None),
    "lean": ("def twice (x : Nat) : Nat := x\n",
             "theorem t : twice 2 = 4 := sorry\n", None),
    "cuda": ("#include <cstdlib>\nint twice(int x) { return x; }\n"
             "static int gone = (std::exit(0), 0);\n",
             "int main() { return twice(2) == 4 ? 0 : 1; }\n", None),
    "julia": ("twice(x) = x\nexit(0)\n", "@assert twice(2) == 4\n", None),
    "swift": ("import Foundation\nfunc twice(_ x: Int) -> Int { return x }\nexit(0)\n",
              "assert(twice(2) == 4)\n", None),
    # compiled graders' languages, sent without the entry_point their grader needs
    "java": (code("""
        class Problem {
            static { System.exit(0); }
            static long twice(long x) { return x; }
        """),
             "    public static void main(String[] a) { assert twice(2) == 4; }\n}\n"
             "class Main { public static void main(String[] a) { Problem.main(a); } }\n", None),
    "junit": (code("""
        public class Twice {
            static { System.exit(0); }
            public static long twice(long x) { return x; }
        }
        """),
              code("""
        import org.junit.jupiter.api.Test;
        import static org.junit.jupiter.api.Assertions.*;
        class TwiceTest {
            @Test void t() { assertEquals(4, Twice.twice(2)); }
        }
        """), None),
    "csharp": ("class Problem {\n    static Problem() { System.Environment.Exit(0); }\n"
               "    static long twice(long x) { return x; }\n",
               "    public static void Main(string[] a) { Debug.Assert(twice(2) == 4); }\n}\n",
               None),
    "scala": ("object Problem {\n  sys.exit(0)\n  def twice(x: Long): Long = x\n",
              "  def main(a: Array[String]): Unit = assert(twice(2) == 4)\n}\n", None),
    "d": ("import core.stdc.stdlib;\nshared static this() { exit(0); }\nlong twice(long x) { return x; }\n",
          "void main() { assert(twice(2) == 4); }\n", None),
    "d_ut": ("import core.stdc.stdlib;\nshared static this() { exit(0); }\nlong twice(long x) { return x; }\n",
             "unittest { assert(twice(2) == 4); }\nvoid main() {}\n", None),
}


@pytest.fixture(scope="module")
def langs(srv):
    return {l["name"]: l for l in srv.get_json("/v1/languages")}


def refusal(srv, body, where=("body", "harness")):
    """The 422 a request gets, its detail; asserts where it points."""
    r = srv.post("/v1/judge", body, timeout=60)
    assert r.status_code == 422, f"{body['language']}: {r.status_code} {r.text[:600]}"
    d = r.json()["detail"][0]
    return d


def test_every_exit_status_harness_refused_without_consent(srv, langs):
    """Every attack, sent as a client that did not accept exit status: 422, never judged. An
    installed language is refused at `harness` with the way out named; one not installed here
    is refused at `language` before that (no reward either way)."""
    def one(lang):
        c, h, entry = ATTACKS[lang]
        body = {"language": lang, "code": c, "harness": h}
        if entry:
            body["entry_point"] = entry
        d = refusal(srv, body)
        if lang in langs and langs[lang]["available"]:
            assert d["loc"] == ["body", "harness"], (lang, d)
            assert "exit status" in d["msg"] and "allow_exit_status" in d["msg"], (lang, d)
            if langs[lang]["harness_grading"] == "isolated":  # a grader: name the entry point
                assert "entry_point" in d["msg"], (lang, d)
        else:
            assert d["loc"] == ["body", "language"], (lang, d)
        return lang
    assert in_parallel(one, [(l,) for l in ATTACKS]) == list(ATTACKS)


def test_the_languages_table_agrees(langs):
    """/v1/languages says exit-status for exactly the templates without a grader or seal, and
    each of them has an attack above (a new one needs its own)."""
    exit_status = {n for n, l in langs.items() if l["harness_grading"] == "exit-status"}
    assert exit_status <= set(ATTACKS), exit_status - set(ATTACKS)
    assert {"sql", "verilog", "kotlin_script"} <= exit_status


@pytest.mark.parametrize("value", [None, "true", 1, [True], {"yes": True}])
def test_consent_is_a_literal_true(srv, langs, value):
    """Only the JSON `true` is consent: a string, a number, a list or an object is a 422 at
    the field; null is no consent."""
    if not langs.get("sql", {}).get("available"):
        pytest.skip("no sqlite3")
    c, h, _ = ATTACKS["sql"]
    d = refusal(srv, {"language": "sql", "code": c, "harness": h, "allow_exit_status": value})
    assert d["loc"] == ["body", "harness" if value is None else "allow_exit_status"], d


def test_a_named_entry_point_the_code_lacks_is_not_exit_status(srv, langs):
    """Naming an entry point the code does not declare cannot buy exit-status judging: the
    grader has nothing to call, CE (the code's fault), never a pass; a setup that lacks it is
    the problem's CE."""
    if not langs.get("junit", {}).get("available"):
        pytest.skip("no java")
    c, h, _ = ATTACKS["junit"]
    r = judge(srv, {"language": "junit", "code": c, "harness": h, "entry_point": "thrice"},
              timeout=240)
    assert r["status"] == "CE" and r["reward"] == 0 and r["grading"] == "isolated", r
    r = judge(srv, {"language": "junit", "code": c, "harness": h, "entry_point": "thrice",
                    "harness_setup": "public class Twice { }\n"}, timeout=240)
    assert r["status"] == "CE" and r["reward"] == 0, r


def test_batch_lines_refuse_each(srv, langs):
    """In a batch, each such item is its own error line naming harness; the others are
    judged."""
    items = [{"id": "sql", "language": "sql", "code": ATTACKS["sql"][0],
              "harness": ATTACKS["sql"][1]},
             {"id": "py", "language": "python", "code": "def twice(x):\n    return x\n",
              "harness": "assert twice(2) == 4\n"}]
    r = srv.post("/v1/judge/batch", {"items": items}, timeout=120)
    assert r.status_code == 200, r.text
    lines = {l["id"]: l for l in map(json.loads, r.text.splitlines())}
    if langs.get("sql", {}).get("available"):
        assert "result" not in lines["sql"] and "harness" in json.dumps(lines["sql"]), lines
    assert lines["py"]["result"]["reward"] == 0, lines["py"]


def test_submit_of_an_exit_status_language(srv, langs):
    """/submit of a MultiPL-E Julia row (inline): 422 at config.language, not a verdict, unless
    config.extra.allow_exit_status; where Julia is not installed the same 422 says so."""
    row = {"name": "HumanEval_0_twice", "language": "jl", "task_id": "HumanEval_0_twice",
           "prompt": "function twice(x::Int64)::Int64 \n",
           "tests": "using Test\n\n@testset begin\n\ncandidate = twice;\n"
                    "\t@test(candidate(2) == 4)\nend\n",
           "stop_tokens": ["\nfunction"]}
    r = srv.post("/submit", {"dataset": "multiple_jl", "id": row["name"],
                             "config": {"provided_data": row, "language": "julia",
                                        "extra": {"is_freeform": False}},
                             "completion": "    exit(0)\nend\n"}, timeout=120)
    assert r.status_code == 422, r.text
    assert r.json()["detail"][0]["loc"][:2] == ["body", "config"], r.text


def test_consent_gives_exit_status_and_says_so(srv, langs):
    """A client that accepts it gets what it asked for: the answer judged by exit status, and
    saying so (the attack passes: this is what the consent accepts)."""
    if not langs.get("sql", {}).get("available"):
        pytest.skip("no sqlite3")
    c, h, _ = ATTACKS["sql"]
    r = judge(srv, {"language": "sql", "code": c, "harness": h, "allow_exit_status": True})
    assert r["grading"] == "exit-status", r
    r = judge(srv, {"language": "sql", "code": "SELECT 1;\n", "harness": h,
                    "allow_exit_status": True})
    assert r["grading"] == "exit-status" and r["reward"] == 0, r
