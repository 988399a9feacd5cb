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


def test_harness_and_marker(server):
    code = "def add(a, b):\n    return a + b\n"
    r = judge(server, language="python", code=code, harness="assert add(1, 2) == 3\n")
    assert r["reward"] == 1 and r["tests"][0]["verdict"] == "OK"
    r = judge(server, language="python", code=code, harness="assert add(1, 2) == 4\n")
    assert r["reward"] == 0 and r["tests"][0]["verdict"] == "RE"
    # An early exit(0) skips the checks: not a pass.
    sneaky = "import os\ndef add(a, b):\n    return 0\nos._exit(0)\n"
    r = judge(server, language="python", code=sneaky, harness="assert add(1, 2) == 3\n")
    assert r["reward"] == 0 and r["tests"][0]["verdict"] == "WA"
    assert "completion marker" in r["tests"][0]["reason"]
    # Printing something like a marker does not help: it is secret and per run.
    fake = "def add(a, b):\n    return 0\nprint('VERDICT-0000')\nimport sys; sys.exit(0)\n"
    r = judge(server, language="python", code=fake, harness="assert add(1, 2) == 3\n")
    assert r["reward"] == 0


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
    assert detail({"language": "bash", "code": "x", "harness": "y"})["loc"] == ["body", "harness"]
