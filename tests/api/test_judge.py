"""/v1/judge against the real server: stdin/expected tests with each comparison mode, the
harness with its secret completion marker, rewards, CE, options, and bad input."""


def judge(server, **body):
    r = server.post("/v1/judge", body)
    assert r.status_code == 200, r.text
    return r.json()


ADD = "a, b = map(int, input().split())\nprint(a + b)"


def test_stdin_tests_and_fraction_reward(server):
    r = judge(server, language="python", code=ADD,
              tests=[{"stdin": "1 2", "expected": "3"}, {"stdin": "2 2", "expected": "5\n"},
                     {"stdin": "0 0", "expected": "0  \n\n"}])
    assert r["status"] == "OK" and r["total"] == 3 and r["passed"] == 2
    assert abs(r["reward"] - 2 / 3) < 1e-9
    verdicts = [t["verdict"] for t in r["tests"]]
    assert verdicts == ["OK", "WA", "OK"]
    assert r["tests"][1]["reason"] == 'line 1: expected "5", got "4"'


def test_all_or_nothing_and_stop_and_only(server):
    tests = [{"stdin": "1 1", "expected": "2"}, {"stdin": "1 1", "expected": "3"},
             {"stdin": "2 2", "expected": "4"}]
    r = judge(server, language="python", code=ADD, tests=tests, reward="all")
    assert r["reward"] == 0 and r["passed"] == 2
    r = judge(server, language="python", code=ADD, tests=tests, stop_on_failure=True)
    assert r["ran"] == 2
    r = judge(server, language="python", code=ADD, tests=tests, only=[0, 2], reward="all")
    assert r["total"] == 2 and r["reward"] == 1


def test_compare_modes(server):
    code = "print('1.0000001  2\\nYES')"
    t = [{"expected": "1 2 yes"}]
    assert judge(server, language="python", code=code, tests=t)["passed"] == 0
    t = [{"expected": "1.0000001 2 YES"}]
    assert judge(server, language="python", code=code, tests=t,
                 compare={"mode": "tokens"})["passed"] == 1
    t = [{"expected": "1 2 YES"}]
    assert judge(server, language="python", code=code, tests=t,
                 compare={"mode": "float", "abs_eps": 1e-5})["passed"] == 1
    t = [{"expected": r"1\.0+1\s+2\nYES\n"}]
    assert judge(server, language="python", code=code, tests=t,
                 compare={"mode": "regex"})["passed"] == 1


def test_verdicts_per_test(server):
    code = ("import sys\nn = int(input())\n"
            "if n == 1: sys.exit(3)\n"
            "if n == 2:\n    while True: pass\n"
            "if n == 3: x = bytearray(300 << 20)\n"
            "print(n)")
    tests = [{"stdin": str(i), "expected": str(i)} for i in range(4)]
    r = judge(server, language="python", code=code, tests=tests,
              limits={"time_ms": 500, "memory_mb": 64})
    assert [t["verdict"] for t in r["tests"]] == ["OK", "RE", "TLE", "MLE"]


def test_compile_error_and_compile_once(server):
    r = judge(server, language="cpp", code="int main() { return x; }", tests=[{"expected": ""}])
    assert r["status"] == "CE" and r["reward"] == 0 and r["tests"] == []
    assert "not declared" in r["compile_output"]
    code = "#include <iostream>\nint main(){int a,b; std::cin>>a>>b; std::cout<<a*b<<'\\n';}"
    first = judge(server, language="cpp", code=code, tests=[{"stdin": "6 7", "expected": "42"}])
    again = judge(server, language="cpp", code=code, tests=[{"stdin": "2 3", "expected": "6"}])
    assert first["reward"] == 1 and again["reward"] == 1
    assert again["compile"]["cached"] is True


def test_harness_graded(server):
    """A Python harness runs in the grader, out of the program's reach (docs/integrity.md):
    a failed check is WA, a call the program broke RE."""
    code = "def add(a, b):\n    return a + b\n"
    r = judge(server, language="python", code=code, harness="assert add(1, 2) == 3\n")
    assert r["reward"] == 1 and r["tests"][0]["verdict"] == "OK"
    r = judge(server, language="python", code=code, harness="assert add(1, 2) == 4\n")
    assert r["reward"] == 0 and r["tests"][0]["verdict"] == "WA"
    assert "a check failed" in r["tests"][0]["reason"]
    # An early exit(0) leaves the grader's call unanswered: the program broke it.
    sneaky = "import os\ndef add(a, b):\n    return 0\nos._exit(0)\n"
    r = judge(server, language="python", code=sneaky, harness="assert add(1, 2) == 3\n")
    assert r["reward"] == 0 and r["tests"][0]["verdict"] == "RE"
    assert "broke the grader's call" in r["tests"][0]["reason"]
    # The setup is the grader's own (a prompt's helpers); the entry point is the program's even
    # where the setup defines it, and even where a builtin has its name.
    r = judge(server, language="python", code="def sum(a, b):\n    return a * b\n",
              harness="assert sum(2, 3) == six()\n", harness_setup="def six():\n    return 6\n",
              entry_point="sum")
    assert r["reward"] == 1
    r = judge(server, language="python", code="def six():\n    return 5\ndef f():\n    return 5\n",
              harness="assert f() == six()\n", harness_setup="def six():\n    return 6\n")
    assert r["reward"] == 0 and r["tests"][0]["verdict"] == "WA"


def test_harness_by_exit_status(server):
    """A language without a marker trailer (C++ here: the tests hold main) joins code and
    harness and is judged by exit status, as HumanEval-X's and MultiPL-E's harnesses are."""
    code = "#include <cassert>\nint add(int a, int b) { return a + b; }\n"
    r = judge(server, language="cpp", code=code, harness="int main() { assert(add(1, 2) == 3); }\n")
    assert r["reward"] == 1 and r["tests"][0]["verdict"] == "OK"
    r = judge(server, language="cpp", code=code, harness="int main() { assert(add(1, 2) == 4); }\n")
    assert r["reward"] == 0 and r["tests"][0]["verdict"] == "RE"


def test_judge_validation(server):
    def detail(body):
        r = server.post("/v1/judge", body)
        assert r.status_code == 422, r.text
        return r.json()["detail"][0]
    assert detail({"code": "x", "tests": []})["loc"] == ["body", "language"]
    assert detail({"language": "python", "tests": [{"expected": ""}]})["loc"] == ["body", "code"]
    assert detail({"language": "python", "code": "x", "tests": []})["loc"] == ["body", "tests"]
    assert detail({"language": "python", "code": "x", "tests": [{"stdin": "1"}]})["loc"] == [
        "body", "tests", "0", "expected"]
    assert detail({"language": "python", "code": "x", "tests": [{"expected": ""}],
                   "compare": {"mode": "fuzzy"}})["loc"] == ["body", "compare", "mode"]
    assert detail({"language": "python", "code": "x", "tests": [{"expected": ""}],
                   "limits": {"time_ms": 0}})["loc"] == ["body", "limits", "time_ms"]
    assert detail({"language": "python", "code": "x", "tests": [{"expected": ""}],
                   "only": [5]})["loc"] == ["body", "only"]
    assert detail({"language": "bash", "code": "x", "harness": 5})["loc"] == ["body", "harness"]


# A task with many right answers: print two non-negative numbers summing to n.
TWO = "n = int(input())\nprint(1, n - 1)"
CHECKER_C = r"""#include <stdio.h>
int main(int argc, char **argv) {
    if (argc != 4) return 3;
    FILE *in = fopen(argv[1], "r"), *out = fopen(argv[2], "r"), *ans = fopen(argv[3], "r");
    long n, a, b;
    if (!in || !out || !ans || fscanf(in, "%ld", &n) != 1) return 3;
    if (fscanf(out, "%ld %ld", &a, &b) != 2) { fprintf(stderr, "expected two numbers\n"); return 2; }
    if (a < 0 || b < 0 || a + b != n) { fprintf(stderr, "%ld + %ld != %ld\n", a, b, n); return 1; }
    return 0;
}
"""


def test_checker(server):
    tests = [{"stdin": "5", "expected": "2 3"}, {"stdin": "9", "expected": "4 5"}]
    cmp = {"mode": "checker", "checker": {"language": "c", "code": CHECKER_C}}
    r = judge(server, language="python", code=TWO, tests=tests, compare=cmp)
    assert r["status"] == "OK" and r["reward"] == 1, r  # other answers than the expected ones
    wrong = "n = int(input())\nprint(n, 1)"
    r = judge(server, language="python", code=wrong, tests=tests, compare=cmp)
    assert [t["verdict"] for t in r["tests"]] == ["WA", "WA"]
    assert r["tests"][0]["reason"] == "wrong answer: 5 + 1 != 5"
    r = judge(server, language="python", code="print('x')", tests=tests[:1], compare=cmp)
    assert r["tests"][0]["verdict"] == "WA"
    assert r["tests"][0]["reason"] == "presentation error: expected two numbers"
    # The checker runs only on output the program finished within its limits.
    r = judge(server, language="python", code="while True: pass", tests=tests[:1], compare=cmp,
              limits={"time_ms": 300})
    assert r["tests"][0]["verdict"] == "TLE"


def test_checker_faults_are_not_the_programs(server):
    tests = [{"stdin": "5", "expected": "2 3"}]

    def with_checker(language, code):
        return judge(server, language="python", code=TWO, tests=tests,
                     compare={"mode": "checker", "checker": {"language": language, "code": code}})
    r = with_checker("python", "import sys\nsys.exit(3)")
    assert r["status"] == "SE" and r["tests"][0]["verdict"] == "SE"
    assert "checker failed" in r["tests"][0]["reason"]
    r = with_checker("python", "while True: pass")
    assert r["status"] == "SE" and "limits" in r["tests"][0]["reason"]
    r = with_checker("c", "int main( { }")
    assert r["status"] == "SE" and r["tests"] == [] and r["checker_compile_output"]
    assert r["compile"]["ok"] is True  # the program itself compiled fine
    # A hostile checker is sandboxed like any program (an uncaught exception exits 1: WA, by
    # testlib's convention), and the server goes on judging.
    r = with_checker("python", "import os, sys\ntry: os.kill(-1, 9)\nexcept OSError: pass\n"
                     "sys.stderr.write(open('/etc/shadow').read())")
    assert r["tests"][0]["verdict"] != "OK" and "root:" not in r["tests"][0]["reason"]
    assert with_checker("python", "import sys\nsys.exit(0)")["reward"] == 1


def test_checker_validation(server):
    def loc(compare, **extra):
        body = {"language": "python", "code": "x", "compare": compare, **extra}
        body.setdefault("tests", [{"expected": ""}])
        r = server.post("/v1/judge", body)
        assert r.status_code == 422, r.text
        return r.json()["detail"][0]["loc"]
    assert loc({"mode": "checker"}) == ["body", "compare", "checker"]
    assert loc({"mode": "checker", "checker": {"language": "cobol", "code": ""}}) == [
        "body", "compare", "checker", "language"]
    assert loc({"mode": "checker", "checker": {"language": "python"}}) == [
        "body", "compare", "checker", "code"]


def test_tle_names_the_limit(server):
    """A program that sleeps is TLE by the wall clock (waiting for a CPU is not charged, but
    sleeping is); one that spins is TLE by CPU time, past its limit and grace."""
    sleeper = judge(server, language="python", code="import time\ntime.sleep(30)",
                    tests=[{"expected": ""}], limits={"time_ms": 5000, "wall_ms": 500})
    t = sleeper["tests"][0]
    assert t["verdict"] == "TLE" and t["limit"] == "wall", t
    assert t["reason"] == "wall time limit exceeded"
    spinner = judge(server, language="python", code="while True: pass",
                    tests=[{"expected": ""}], limits={"time_ms": 300})
    t = spinner["tests"][0]
    assert t["verdict"] == "TLE" and t["limit"] == "cpu", t
    assert t["time_ms"] >= 300 + 50  # the grace: max(50 ms, 10%)
    ok = judge(server, language="python", code="print(1)", tests=[{"expected": "1"}])
    assert "limit" not in ok["tests"][0]
    # instructions are counted where the host has a PMU, and absent where it has none
    assert ok["tests"][0].get("instructions", 1) > 0


def test_instruction_limit_validation(server):
    for bad in (0, -1, 1.5, "many", 1e16):
        r = server.post("/v1/judge", {"language": "python", "code": "print(1)",
                                      "tests": [{"expected": "1"}],
                                      "limits": {"instructions": bad}})
        assert r.status_code == 422, (bad, r.text)
    r = judge(server, language="python", code="print(1)", tests=[{"expected": "1"}],
              limits={"instructions": 10 ** 12})
    assert r["tests"][0]["verdict"] == "OK"
