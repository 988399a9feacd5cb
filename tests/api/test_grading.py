"""Every judged answer says how its tests decided it (`grading`, docs/integrity/grading.md), over
a real server: /v1/judge, /v1/judge/batch lines, /submit's extra (and the /v1/judge answer it
carries), /v1/languages' `harness_grading`, and no field where no test decides (/run_code,
/run_jupyter). The store's column and the metrics are checked in test_store.py and
test_metrics.py.

What a harness in a language is decided by may change as graders land (a language with a
grader moves to `isolated`), so a harness's expected kind is read from /v1/languages, and the
fixed points are asserted: Python's harness is isolated, a C/C++/Go/Rust harness is never
judged by exit status alone, stdin/stdout tests (compared or checked) are output."""
import json

import pytest

from conftest import Server, needs_root

SEALED = {"c", "cpp", "go", "go_test", "rust", "rust_test"}
KINDS = {"isolated", "output", "in-process", "exit-status"}

# A harness per language, right and wrong: twice(x) = 2x, sent with `entry_point` (C++'s
# compiled grader needs it; the others find `twice` by name). Each is written for the way its
# language is judged on main (the first field); verdicts are asserted where the language is
# still judged so, and a harness judged another way must at least never pass the wrong answer.
HARNESSES = {
    "python": ("isolated", "def twice(x):\n    return 2 * x\n", "def twice(x):\n    return x\n",
               "assert twice(2) == 4\nassert twice(5) == 10\n"),
    "c": ("isolated", "int twice(int x) { return 2 * x; }\n", "int twice(int x) { return x; }\n",
          "#include <assert.h>\nint main(void) {\n    assert(twice(2) == 4);\n    return 0;\n}\n"),
    "cpp": ("isolated", "int twice(int x) { return 2 * x; }\n", "int twice(int x) { return x; }\n",
            "#include <cassert>\nint main() {\n    assert(twice(2) == 4);\n}\n"),
    "bash": ("isolated", "twice() { echo $(( $1 * 2 )); }\n", "twice() { echo $1; }\n",
             "[ \"$(twice 2)\" = 4 ] || exit 1\n"),
    "nodejs": ("isolated", "function twice(x) { return 2 * x; }\n",
               "function twice(x) { return x; }\n",
               "const assert = require('node:assert');\nassert.deepEqual(twice(2), 4);\n"),
    "lua": ("isolated", "function twice(x) return 2 * x end\n", "function twice(x) return x end\n",
            "assert(twice(2) == 4)\n"),
    "pytest": ("isolated", "def twice(x):\n    return 2 * x\n", "def twice(x):\n    return x\n",
               "def test_twice():\n    assert twice(2) == 4\n"),
    "ruby": ("isolated", "def twice(x)\n  2 * x\nend\n", "def twice(x)\n  x\nend\n",
             "raise 'wrong' unless twice(2) == 4\n"),
    # Java's tests continue class Problem's body (the grader's setup opens it), as MultiPL-E's
    "java": ("isolated", "class Problem {\n    static long twice(long x) { return 2 * x; }\n}\n",
             "class Problem {\n    static long twice(long x) { return x; }\n}\n",
             "    public static void main(String[] a) {\n        assert twice(2) == 4;\n    }\n}\n"
             "class Main { public static void main(String[] a) { Problem.main(a); } }\n"),
    "csharp": ("isolated", "class Problem {\n    static long twice(long x) { return 2 * x; }\n}\n",
               "class Problem {\n    static long twice(long x) { return x; }\n}\n",
               "    public static void Main(string[] a) {\n        Debug.Assert(twice(2) == 4);\n    }\n}\n"),
    "d_ut": ("isolated", "long twice(long x) { return 2 * x; }\n", "long twice(long x) { return x; }\n",
             "unittest\n{\n    assert(twice(2) == 4);\n}\nvoid main(){}\n"),
    "d": ("isolated", "long twice(long x) { return 2 * x; }\n", "long twice(long x) { return x; }\n",
          "void main()\n{\n    assert(twice(2) == 4);\n}\n"),
    "go_test": ("isolated", "package main\n\nfunc twice(x int) int { return 2 * x }\n",
                "package main\n\nfunc twice(x int) int { return x }\n",
                "func TestTwice(t *testing.T) {\n\tif twice(2) != 4 {\n\t\tt.Fatal(\"no\")\n\t}\n}\n"),
    "rust": ("isolated", "fn twice(x: i64) -> i64 { 2 * x }\n", "fn twice(x: i64) -> i64 { x }\n",
             "fn main() {\n    assert_eq!(twice(2), 4);\n}\n"),
    "rust_test": ("isolated", "fn twice(x: i64) -> i64 { 2 * x }\n", "fn twice(x: i64) -> i64 { x }\n",
                  "#[cfg(test)]\nmod tests {\n    use super::*;\n    #[test]\n"
                  "    fn t() { assert_eq!(twice(2), 4); }\n}\n"),
}

# One problem row per kind of /submit, inline (config.provided_data).
HUMANEVAL_ROW = {"task_id": "G/0", "prompt": "def twice(x):\n    \"\"\"Twice x.\"\"\"\n",
                 "entry_point": "twice",
                 "canonical_solution": "    return 2 * x\n",
                 "test": "def check(candidate):\n    assert candidate(2) == 4\n    assert candidate(5) == 10\n"}
MULTIPLE_CPP_ROW = {"name": "G_1_twice", "language": "cpp", "task_id": "G_1_twice",
                    "prompt": "#include<assert.h>\n#include<bits/stdc++.h>\nlong twice(long x) {\n",
                    "tests": "}\nint main() {\n    auto candidate = twice;\n"
                             "    assert(candidate((2)) == (4));\n}\n",
                    "stop_tokens": ["\n}"]}
MULTIPLE_SH_ROW = {"name": "G_2_twice", "language": "sh", "task_id": "G_2_twice",
                   "prompt": "#!/bin/bash\n# $1 is an integer\ntwice() {\n",
                   "tests": "}\n\ncandidate() {\n    twice \"$@\"\n}\n\nset -e\nrun_test() {\n"
                            "    [[ $(candidate \"2\") = \"4\" ]]\n}\n\nrun_test",
                   "stop_tokens": ["\n}"]}
STDIO_ROW = {"id": "g3", "content": "Print twice the number read.",
             "labels": json.dumps({"name": "twice"}),
             "test": json.dumps([{"input": {"stdin": "2\n"}, "output": {"stdout": "4\n"}},
                                 {"input": {"stdin": "5\n"}, "output": {"stdout": "10\n"}}])}


@pytest.fixture(scope="module")
def srv():
    needs_root()
    s = Server(cells=2)
    s.langs = {l["name"]: l for l in s.get_json("/v1/languages")}
    yield s
    code, left = s.stop()
    assert code == 0 and not left


def judge(srv, body):
    r = srv.post("/v1/judge", body)
    assert r.status_code == 200, r.text
    return r.json()


def harness_kind(srv, lang):
    return srv.langs[lang]["harness_grading"]


def runnable(srv, lang):
    return lang in srv.langs and srv.langs[lang]["runnable"]


def test_languages_say_how_their_harness_is_decided(srv):
    for name, l in srv.langs.items():
        assert l["harness_grading"] in KINDS - {"output"}, (name, l)
        if name in SEALED:  # sealed today; a grader would make it isolated, never weaker
            assert l["harness_grading"] in ("in-process", "isolated"), (name, l)
        elif l["harness_grading"] != "isolated":
            assert l["harness_grading"] == "exit-status", (name, l)
    assert srv.langs["python"]["harness_grading"] == "isolated"


def test_stdio_tests_are_output(srv):
    tests = [{"stdin": "2\n", "expected": "4\n"}, {"stdin": "5\n", "expected": "10\n"}]
    ok = judge(srv, {"language": "python", "code": "print(2 * int(input()))", "tests": tests})
    assert ok["grading"] == "output" and ok["status"] == "OK" and ok["reward"] == 1
    wa = judge(srv, {"language": "python", "code": "print(int(input()))", "tests": tests})
    assert wa["grading"] == "output" and wa["passed"] == 0
    # a compiled language, and one that does not compile: still decided by output
    ce = judge(srv, {"language": "cpp", "code": "int main() { return x; }", "tests": tests})
    assert ce["status"] == "CE" and ce["grading"] == "output" and ce["tests"] == []
    # a checker decides outside the program's sandbox too
    checker = {"language": "python", "code":
               "import sys\nout = open(sys.argv[2]).read().split()\nans = open(sys.argv[3]).read().split()\n"
               "sys.exit(0 if out == ans else 1)\n"}
    ck = judge(srv, {"language": "python", "code": "print(2 * int(input()))", "tests": tests,
                     "compare": {"mode": "checker", "checker": checker}})
    assert ck["grading"] == "output" and ck["status"] == "OK" and ck["reward"] == 1, ck


@pytest.mark.parametrize("lang", sorted(HARNESSES))
def test_harness_grading_per_language(srv, lang):
    if not runnable(srv, lang):
        pytest.skip(f"{lang} is not available here")
    written_for, right, wrong, tests = HARNESSES[lang]
    kind = harness_kind(srv, lang)
    body = {"language": lang, "harness": tests, "entry_point": "twice"}
    ok = judge(srv, {**body, "code": right})
    bad = judge(srv, {**body, "code": wrong})
    assert ok["grading"] == kind and bad["grading"] == kind, (ok, bad)
    assert bad["reward"] == 0, bad
    if kind == written_for:
        assert ok["status"] == "OK" and ok["reward"] == 1, ok
        assert bad["tests"][0]["verdict"] in ("WA", "RE"), bad


def test_cpp_without_its_grader_says_in_process(srv):
    """A C++ harness whose grader cannot be planned (no entry point named) is sealed instead,
    and its answer says so: the result's grading is what was done, not the language's."""
    if harness_kind(srv, "cpp") != "isolated":
        pytest.skip("C++'s compiled grader is off here")
    _, right, wrong, tests = HARNESSES["cpp"]
    ok = judge(srv, {"language": "cpp", "code": right, "harness": tests})
    bad = judge(srv, {"language": "cpp", "code": wrong, "harness": tests})
    assert ok["grading"] == "in-process" and ok["reward"] == 1, ok
    assert bad["grading"] == "in-process" and bad["reward"] == 0, bad


def test_every_kind_seen_on_judge(srv):
    """The four kinds, each in one /v1/judge answer: the exit-status one from a language
    without a grader (SQL's), which only a client that accepts it gets."""
    seen = {judge(srv, {"language": "python", "code": "print(1)",
                        "tests": [{"stdin": "", "expected": "1"}]})["grading"]}
    for lang in ("python", "c", *sorted(set(HARNESSES) - {"python", "c"})):
        if runnable(srv, lang):
            seen.add(judge(srv, {"language": lang, "code": HARNESSES[lang][1],
                                 "harness": HARNESSES[lang][3], "entry_point": "twice"})["grading"])
    want = {"output", "isolated"} | {harness_kind(srv, "c")}
    if runnable(srv, "sql"):
        body = {"language": "sql", "code": "CREATE TABLE t(x);", "harness": "SELECT * FROM t;"}
        r = srv.post("/v1/judge", body)
        assert r.status_code == 422 and r.json()["detail"][0]["loc"] == ["body", "harness"], r.text
        assert "allow_exit_status" in r.json()["detail"][0]["msg"], r.text
        seen.add(judge(srv, {**body, "allow_exit_status": True})["grading"])
        want.add("exit-status")
    assert want <= seen, (want, seen)


def test_batch_lines(srv):
    items = [{"id": "stdio", "language": "python", "code": "print(2 * int(input()))",
              "tests": [{"stdin": "2", "expected": "4"}]},
             {"id": "py", "language": "python", "code": HARNESSES["python"][1],
              "harness": HARNESSES["python"][3]},
             {"id": "c", "language": "c", "code": HARNESSES["c"][1], "harness": HARNESSES["c"][3]},
             {"id": "sh", "language": "bash", "code": HARNESSES["bash"][1],
              "harness": HARNESSES["bash"][3]},
             {"id": "bad", "language": "nope", "code": "", "tests": []}]
    r = srv.post("/v1/judge/batch", {"items": items})
    assert r.status_code == 200, r.text
    lines = {l["id"]: l for l in map(json.loads, r.text.splitlines())}
    assert set(lines) == {"stdio", "py", "c", "sh", "bad"}
    assert lines["stdio"]["result"]["grading"] == "output"
    assert lines["py"]["result"]["grading"] == "isolated"
    assert lines["c"]["result"]["grading"] == "in-process"  # no entry point: sealed
    assert lines["sh"]["result"]["grading"] == harness_kind(srv, "bash")
    assert "error" in lines["bad"] and "grading" not in json.dumps(lines["bad"])


def test_no_grading_where_no_test_decides(srv):
    r = srv.post("/run_code", {"language": "python", "code": "print(1)"})
    assert r.status_code == 200 and r.json()["status"] == "Success"
    assert "grading" not in r.json() and "grading" not in r.json()["run_result"]
    r = srv.post("/run_jupyter", {"cells": ["print(1)"]})
    assert r.status_code == 200, r.text
    assert "grading" not in r.json()


def submit(srv, row, completion, **config):
    task = row.get("task_id", row.get("id"))
    r = srv.post("/submit", {"dataset": "grading_" + task.replace("/", "_"), "id": task,
                             "completion": completion, "config": {"provided_data": row, **config}})
    assert r.status_code == 200, r.text
    d = r.json()
    if "judge" in d["extra"]:  # the /v1/judge answer it carries says the same
        assert d["extra"]["judge"]["grading"] == d["extra"]["grading"]
    return d


def test_submit_extra(srv):
    free = {"extra": {"is_freeform": False}}
    he = submit(srv, HUMANEVAL_ROW, "    return 2 * x\n", **free)
    assert he["accepted"] is True and he["extra"]["grading"] == "isolated", he["extra"]
    he_bad = submit(srv, HUMANEVAL_ROW, "    return x\n", **free)
    assert he_bad["accepted"] is False and he_bad["extra"]["grading"] == "isolated"
    cpp = submit(srv, MULTIPLE_CPP_ROW, "    return 2 * x;\n}\n", **free)
    assert cpp["extra"]["grading"] == harness_kind(srv, "cpp")
    assert cpp["accepted"] is True, cpp["extra"]
    cpp_bad = submit(srv, MULTIPLE_CPP_ROW, "    return x;\n}\n", **free)
    assert cpp_bad["accepted"] is False and cpp_bad["extra"]["grading"] == harness_kind(srv, "cpp")
    if runnable(srv, "bash"):
        sh = submit(srv, MULTIPLE_SH_ROW, "    echo $(( $1 * 2 ))\n}\n", **free)
        assert sh["extra"]["grading"] == harness_kind(srv, "bash")
        assert sh["accepted"] is True, sh["extra"]
        sh_bad = submit(srv, MULTIPLE_SH_ROW, "    echo $1\n}\n", **free)
        assert sh_bad["accepted"] is False, sh_bad["extra"]
    io = submit(srv, STDIO_ROW, "```python\nprint(2 * int(input()))\n```", language="python")
    assert io["accepted"] is True and io["extra"]["grading"] == "output", io["extra"]
    # A completion without code is answered at once: nothing ran, nothing decided.
    none = submit(srv, STDIO_ROW, "I would rather not.", language="python")
    assert none["accepted"] is False and none["tests"] == []
    assert none["extra"]["verdict"] == "not run" and none["extra"]["grading"] is None


def test_openapi_documents_grading(srv):
    doc = srv.get_json("/openapi.json")
    schemas = doc["components"]["schemas"]
    assert set(schemas["Grading"]["enum"]) == KINDS
    assert schemas["JudgeResponse"]["properties"]["grading"] == {"$ref": "#/components/schemas/Grading"}
    assert "grading" in schemas["EvalResult"]["properties"]["extra"]["properties"]
    params = {p["name"] for p in doc["paths"]["/v1/submissions"]["get"]["parameters"]}
    assert "grading" in params
