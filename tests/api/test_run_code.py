"""/run_code against the real server: SandboxFusion's own cases (reference §5), veRL's cases,
verdict's additions, and bad input answered with clear 4xx errors."""
import base64
import concurrent.futures
import json
import os
import shutil

import pytest
import requests

import conftest


def b64(s):
    return base64.b64encode(s.encode()).decode()


# ---- SandboxFusion's test suite (sandbox/tests/runners), case by case ----------------------

def test_python_print(server):
    r = server.run_code(code="print(123)", language="python", run_timeout=5)
    assert r["status"] == "Success"
    assert r["compile_result"] is None
    assert r["run_result"]["stdout"].strip() == "123"
    assert r["executor_pod_name"] is None and r["files"] == {}


def test_python_timeout(server):
    r = server.run_code(code="import time\ntime.sleep(0.2)", language="python", run_timeout=0.1)
    assert r["status"] == "Failed"
    assert r["run_result"]["status"] == "TimeLimitExceeded"
    assert r["run_result"]["return_code"] is None
    assert r["run_result"]["limit"] == "wall"
    r = server.run_code(code="while True: pass", language="python", run_timeout=0.3)
    assert r["run_result"]["status"] == "TimeLimitExceeded"
    assert r["run_result"]["limit"] == "cpu" and r["run_result"]["cpu_time"] >= 0.3
    r = server.run_code(code="print(1)", language="python")
    assert "limit" not in r["run_result"]


def test_python_assert(server):
    r = server.run_code(code="assert 1 == 2", language="python")
    assert r["status"] == "Failed"
    assert r["run_result"]["status"] == "Finished"
    assert "AssertionError" in r["run_result"]["stderr"]


def test_python_syntax_error(server):
    r = server.run_code(code="int a = 1", language="python")
    assert r["status"] == "Failed"
    assert r["run_result"]["status"] == "Finished"
    assert "SyntaxError" in r["run_result"]["stderr"]


def test_files_in(server):
    code = "print(open('dir1/dir2/dir3/secret_flag').read())"
    r = server.run_code(code=code, language="python",
                        files={"dir1/dir2/dir3/secret_flag": b64('"hello, this is a test"'),
                               "skipped": None})
    assert r["status"] == "Success", r
    assert "hello, this is a test" in r["run_result"]["stdout"]


def test_stdin(server):
    r = server.run_code(code="print(int(input()))", language="python", stdin="65535")
    assert r["run_result"]["stdout"] == "65535\n"


def test_fetch_files(server):
    code = "open('a.txt', 'w').write('secret')\nopen('sub/b', 'w').write('sauce')"
    r = server.run_code(code="import os\nos.mkdir('sub')\n" + code, language="python",
                        fetch_files=["a.txt", "sub/b", "missing", "/etc/passwd"])
    assert r["status"] == "Success", r
    assert base64.b64decode(r["files"]["a.txt"]) == b"secret"
    assert base64.b64decode(r["files"]["sub/b"]) == b"sauce"
    assert "missing" not in r["files"] and "/etc/passwd" not in r["files"]


def test_cpp_compile_error(server):
    r = server.run_code(code="int main() { return x; }", language="cpp")
    assert r["status"] == "Failed"
    assert r["compile_result"]["status"] == "Finished"
    assert r["compile_result"]["return_code"] != 0
    assert "not declared" in r["compile_result"]["stderr"]
    assert r["run_result"] is None


def test_cpp_timeout_assert_threads_stdin(server):
    sleep = ("#include <thread>\n#include <chrono>\nint main(){std::this_thread::sleep_for("
             "std::chrono::milliseconds(1000));}")
    r = server.run_code(code=sleep, language="cpp", run_timeout=0.5)
    assert r["run_result"]["status"] == "TimeLimitExceeded"
    r = server.run_code(code="#include <cassert>\nint main(){assert(1==2);}", language="cpp")
    assert r["status"] == "Failed" and "Assertion" in r["run_result"]["stderr"]
    threads = """
    #include <condition_variable>
    #include <iostream>
    #include <mutex>
    #include <queue>
    #include <thread>
    #include <vector>
    int main() {
        std::queue<int> q; std::mutex m; std::condition_variable cv; long sum = 0; int done = 0;
        std::vector<std::thread> ts;
        for (int p = 0; p < 2; p++) ts.emplace_back([&] { for (int i = 1; i <= 1000; i++) {
            std::lock_guard<std::mutex> l(m); q.push(i); cv.notify_one(); } });
        for (int c = 0; c < 2; c++) ts.emplace_back([&] { for (;;) { std::unique_lock<std::mutex> l(m);
            cv.wait(l, [&] { return !q.empty() || done == 2000; }); if (q.empty()) return;
            sum += q.front(); q.pop(); if (++done == 2000) cv.notify_all(); } });
        for (auto &t : ts) t.join();
        std::cout << sum << std::endl;
    }"""
    r = server.run_code(code=threads, language="cpp", run_timeout=2)
    assert r["status"] == "Success", r
    assert r["run_result"]["stdout"] == "1001000\n"
    r = server.run_code(code="#include <iostream>\nint main(){int x; std::cin >> x; std::cout << x"
                        " << std::endl;}", language="cpp", stdin="65535")
    assert r["run_result"]["stdout"] == "65535\n"


def test_bash(server):
    assert server.run_code(code='echo "Hello World"', language="bash")["run_result"][
        "stdout"] == "Hello World\n"
    r = server.run_code(code="test 1 -eq 2", language="bash")
    assert r["status"] == "Failed" and r["run_result"]["status"] == "Finished"
    r = server.run_code(code="if [", language="bash")
    assert "syntax error" in r["run_result"]["stderr"]
    r = server.run_code(code="read input; echo $input", language="bash", stdin="65535")
    assert r["run_result"]["stdout"] == "65535\n"


def test_r_racket_sql_verilog(server):
    """SandboxFusion's R, racket, sql and verilog: a hello world is Success, a failing program
    Failed (sql runs in the sqlite3 shell on an in-memory database; verilog's top module is
    tb, and a syntax error is a compile error)."""
    programs = {
        "R": ('cat("hello\\n")', "stop('boom')", "boom"),
        "racket": ('#lang racket/base\n(displayln "hello")', "#lang racket/base\n(car 1)",
                   "car: contract violation"),
        "sql": ("CREATE TABLE t(x TEXT);\nINSERT INTO t VALUES ('hello');\nSELECT x FROM t;",
                "SELECT * FROM missing;", "no such table: missing"),
        "verilog": ('module tb; initial begin $display("hello"); $finish; end endmodule',
                    'module tb; initial $display("hello") endmodule', "syntax error"),
    }
    for language, (hello, failing, why) in programs.items():
        r = server.run_code(code=hello, language=language, compile_timeout=30)
        assert r["status"] == "Success", (language, r)
        assert r["run_result"]["stdout"] == "hello\n", (language, r)
        r = server.run_code(code=failing, language=language, compile_timeout=30)
        assert r["status"] == "Failed", (language, r)
        if language == "verilog":
            assert r["compile_result"]["return_code"] != 0 and r["run_result"] is None, r
            assert why in r["compile_result"]["stderr"] + r["compile_result"]["stdout"], r
        else:
            assert r["compile_result"] is None, (language, r)
            assert r["run_result"]["return_code"] != 0, (language, r)
            assert why in r["run_result"]["stderr"], (language, r)
    # files reach a verilog run as any other (SandboxFusion does not restore them for it)
    memory = ('module tb; reg [7:0] m[0:0]; initial begin $readmemh("data.hex", m); '
              '$display("%0d", m[0]); $finish; end endmodule')
    r = server.run_code(code=memory, language="verilog", files={"data.hex": b64("2a\n")})
    assert r["status"] == "Success" and r["run_result"]["stdout"] == "42\n", r


def test_rust(server):
    sleep = "fn main() { std::thread::sleep(std::time::Duration::from_millis(200)); }"
    r = server.run_code(code=sleep, language="rust", run_timeout=0.1, compile_timeout=10)
    assert r["compile_result"]["status"] == "Finished"
    assert r["run_result"]["status"] == "TimeLimitExceeded"
    r = server.run_code(code="fn main() { assert_eq!(1, 2); }", language="rust")
    assert r["status"] == "Failed" and "assertion" in r["run_result"]["stderr"]


def test_nodejs_modules(server):
    """SandboxFusion's node_modules: lodash, dayjs and chai resolve for require()."""
    code = """const _ = require("lodash");
const dayjs = require("dayjs");
const { expect } = require("chai");
expect(_.sum([1, 2, 3])).to.equal(6);
console.log(_.uniq([3, 1, 3]).join(","), dayjs("2024-02-28").add(1, "day").format("YYYY-MM-DD"));
expect(_.sum([1, 2])).to.equal(4);"""
    r = server.run_code(code=code, language="nodejs")
    assert r["status"] == "Failed" and r["run_result"]["return_code"] == 1, r
    assert r["run_result"]["stdout"] == "3,1 2024-02-29\n"
    assert "AssertionError: expected 3 to equal 4" in r["run_result"]["stderr"]


def test_nodejs_without_its_modules_is_unavailable(tmp_path, monkeypatch):
    """A host without the modules directory: nodejs is unavailable with a reason, the rest run."""
    if os.geteuid() != 0:
        pytest.skip("the sandbox needs root")
    langs = tmp_path / "languages"
    shutil.copytree(conftest.LANGUAGES, langs)
    template = json.loads((langs / "nodejs.json").read_text())
    template["binds"] = ["/var/lib/verdict/no-such-node_modules"]
    (langs / "nodejs.json").write_text(json.dumps(template))
    monkeypatch.setattr(conftest, "LANGUAGES", str(langs))
    s = conftest.Server(cells=1)
    try:
        node = next(l for l in requests.get(s.url + "/v1/languages").json()
                    if l["name"] == "nodejs")
        assert not node["available"] and "no-such-node_modules" in node["reason"], node
        r = s.post("/run_code", {"code": "console.log(1)", "language": "nodejs"})
        assert r.status_code == 422 and "unavailable" in r.text, r.text
        assert s.run_code(code="print(1)", language="python")["run_result"]["stdout"] == "1\n"
    finally:
        code, left = s.stop()
    assert code == 0 and not left


GO_TEST = """package main

import "testing"

func TestAdd(t *testing.T) {
	if 2+3 != %s {
		t.Fatal("2+3")
	}
}
"""


def test_go_test_prints_go_tests_summary(server):
    # SandboxFusion runs `go test <f>_test.go`: `ok  \tcommand-line-arguments\t<time>s` when
    # the tests passed, `FAIL\tcommand-line-arguments\t<time>s` when they did not. verdict's
    # compiled test binary prints it too, chosen by the binary's exit status.
    r = server.run_code(code=GO_TEST % "5", language="go_test", compile_timeout=60)
    assert r["status"] == "Success", r
    out = r["run_result"]["stdout"]
    assert "\nok  \tcommand-line-arguments\t" in out and out.endswith("s\n"), out
    assert "FAIL" not in out
    r = server.run_code(code=GO_TEST % "6", language="go_test", compile_timeout=60)
    assert r["status"] == "Failed" and r["run_result"]["return_code"] == 1, r
    out = r["run_result"]["stdout"]
    assert "--- FAIL: TestAdd" in out and "\nFAIL\tcommand-line-arguments\t" in out, out
    assert "ok  \t" not in out
    # a test that prints the line itself and fails is still FAIL; os.Exit(0) in a test panics,
    # as under `go test`
    fake = GO_TEST.replace('import "testing"', 'import (\n\t"fmt"\n\t"os"\n\t"testing"\n)')
    fake += ('func TestFake(t *testing.T) {\n\tfmt.Println("ok  \\tcommand-line-arguments\\t0.001s")'
             '\n\tos.Exit(0)\n}\n')
    r = server.run_code(code=fake % "5", language="go_test", compile_timeout=60)
    assert r["status"] == "Failed" and r["run_result"]["return_code"] != 0, r
    assert "\nFAIL\tcommand-line-arguments\t" in r["run_result"]["stdout"], r
    assert "unexpected call to os.Exit(0)" in r["run_result"]["stderr"], r


def test_java_assertions_and_javatuples(server):
    # SandboxFusion runs `java -cp .:javatuples-1.2.jar -ea Main`: a failing assert fails the
    # run, and org.javatuples (every MultiPL-E Java prompt imports it) compiles and runs.
    r = server.run_code(code='public class Main { public static void main(String[] a) '
                        '{ assert 1 == 2 : "one is not two"; System.out.println("off"); } }',
                        language="java")
    assert r["status"] == "Failed"
    assert r["compile_result"]["status"] == "Finished" and r["compile_result"]["return_code"] == 0
    assert r["run_result"]["status"] == "Finished"
    assert r["run_result"]["return_code"] not in (0, None)
    assert r["run_result"]["verdict"] == "RE" and r["run_result"]["stdout"] == ""
    assert "AssertionError: one is not two" in r["run_result"]["stderr"]
    tuples = ("import org.javatuples.*;\n"
              "class Main { public static void main(String[] a) {\n"
              "  Pair<Integer, String> p = Pair.with(42, \"ba\");\n"
              "  assert p.getValue0() == 42;\n"
              "  System.out.println(p + \" \" + p.getValue1()); } }")
    r = server.run_code(code=tuples, language="java")
    assert r["status"] == "Success", r
    assert r["compile_result"]["return_code"] == 0
    assert r["run_result"]["return_code"] == 0 and r["run_result"]["verdict"] == "OK"
    assert r["run_result"]["stdout"] == "[42, ba] ba\n"


def test_php_lua_perl_ruby(server):
    # Interpreted as in SandboxFusion (no compile_result); PHP code without `<?php` gets one.
    hello = {"php": 'echo "Hello World\\n";',
             "lua": 'print("Hello World")',
             "perl": 'print "Hello World\\n";',
             "ruby": 'puts "Hello World"'}
    failing = {"php": "<?php\nexit(1);", "lua": "os.exit(1)", "perl": "exit 1;",
               "ruby": "exit 1"}
    echo = {"php": "<?php echo trim(fgets(STDIN)) * 2, \"\\n\";",
            "lua": 'print(io.read("n") * 2)',
            "perl": "my $n = <STDIN>; print $n * 2, \"\\n\";",
            "ruby": "puts gets.to_i * 2"}
    for lang in hello:
        r = server.run_code(code=hello[lang], language=lang)
        assert r["status"] == "Success", (lang, r)
        assert r["compile_result"] is None
        assert r["run_result"]["stdout"] == "Hello World\n" and r["run_result"]["return_code"] == 0
        r = server.run_code(code=failing[lang], language=lang)
        assert r["status"] == "Failed", (lang, r)
        assert r["run_result"]["status"] == "Finished" and r["run_result"]["return_code"] == 1
        r = server.run_code(code=echo[lang], language=lang, stdin="21")
        assert r["status"] == "Success" and r["run_result"]["stdout"] == "42\n", (lang, r)
    r = server.run_code(code="<?php\nfunction broken( {", language="php")
    assert r["status"] == "Failed" and "PHP Parse error" in r["run_result"]["stderr"]
    assert r["run_result"]["stdout"] == ""


def test_typescript_and_d(server):
    # SandboxFusion's `tsx <f>.ts` (types stripped, not checked) and `dmd <f>.d -unittest`
    # (the unittest blocks run, and a failing one fails the run), by their SandboxFusion names.
    r = server.run_code(code='const n: number = 42;\nconsole.log(`Hello, ${n}`);',
                        language="typescript")
    assert r["status"] == "Success", r
    assert r["compile_result"] is None and r["run_result"]["stdout"] == "Hello, 42\n"
    r = server.run_code(code="const s: string = 1;\nprocess.exit(s - 1 + 2);", language="ts")
    assert r["status"] == "Failed" and r["run_result"]["return_code"] == 2, r
    r = server.run_code(code="function f( {", language="typescript")
    assert r["status"] == "Failed" and r["run_result"]["return_code"] == 1, r
    assert "esbuild" in r["run_result"]["stderr"]
    d = ("import std.stdio;\nint twice(int x) { return 2 * x; }\n"
         "unittest { writeln(\"Hello, world!\"); assert(twice(21) == %s); }\nvoid main() {}\n")
    r = server.run_code(code=d % "42", language="D_ut", compile_timeout=30)
    assert r["status"] == "Success", r
    assert r["compile_result"]["status"] == "Finished" and r["compile_result"]["return_code"] == 0
    assert r["run_result"]["stdout"] == "Hello, world!\n"
    r = server.run_code(code=d % "41", language="D_ut", compile_timeout=30)
    assert r["status"] == "Failed" and r["run_result"]["return_code"] == 1, r
    assert "main.d(3): [unittest] Assertion failure" in r["run_result"]["stdout"], r
    r = server.run_code(code='import std.stdio;\nvoid main() { writeln("Hello") }',
                        language="D_ut")
    assert r["status"] == "Failed" and r["run_result"] is None
    assert r["compile_result"]["return_code"] != 0
    assert "main.d(2): Error" in r["compile_result"]["stderr"]
    r = server.run_code(code='import std.stdio;\nvoid main() { writeln("Hello, D"); }',
                        language="d")
    assert r["status"] == "Success" and r["run_result"]["stdout"] == "Hello, D\n", r


# ---- veRL's cases (verl/utils/reward_score/sandbox_fusion) --------------------------------

def test_verl_python_as_cpp_is_a_compile_error(server):
    r = server.run_code(code="a=b", language="cpp")
    assert r["compile_result"]["status"] == "Finished" and r["compile_result"]["return_code"] != 0


def test_verl_runtime_error_and_timeout(server):
    r = server.run_code(code="raise ValueError('x')", language="python")
    assert r["run_result"]["return_code"] != 0 and "ValueError" in r["run_result"]["stderr"]
    r = server.run_code(code="import time\ntime.sleep(10)", language="python", run_timeout=1)
    assert r["run_result"]["status"] == "TimeLimitExceeded"


def test_verl_stdin_variants(server):
    code = "import sys\nprint(f\"You said '{sys.stdin.read()}'\")"
    for stdin, want in ((None, ""), ("", ""), ("hello", "hello")):
        r = server.run_code(code=code, language="python", stdin=stdin)
        assert r["run_result"]["stdout"] == f"You said '{want}'\n"


def test_parallel_mix(server):
    """Correct, wrong and timing-out programs at once: each gets its own answer."""
    cases = []
    for i in range(24):
        kind = i % 3
        code = ["print(input())", "print('wrong')", "import time\ntime.sleep(5)"][kind]
        cases.append((kind, dict(code=code, language="python", stdin=f"v{i}", run_timeout=1)))
    with concurrent.futures.ThreadPoolExecutor(24) as ex:
        results = list(ex.map(lambda c: server.run_code(**c[1]), cases))
    for (kind, body), r in zip(cases, results):
        if kind == 0:
            assert r["run_result"]["stdout"] == body["stdin"] + "\n", r["run_result"]
        elif kind == 1:
            assert r["run_result"]["stdout"] == "wrong\n", r["run_result"]
        else:
            assert r["run_result"]["status"] == "TimeLimitExceeded", r["run_result"]


# ---- verdict's additions -----------------------------------------------------------------

def test_default_language_is_python(server):
    assert server.run_code(code="print(1+1)")["run_result"]["stdout"] == "2\n"


def test_c_is_accepted(server):
    r = server.run_code(code="#include <stdio.h>\nint main(void){puts(\"c\");}", language="c")
    assert r["status"] == "Success" and r["run_result"]["stdout"] == "c\n"


def test_memory_limit_is_visible(server):
    r = server.run_code(code="x = bytearray(200 << 20)\nprint(len(x))", language="python",
                        memory_limit_MB=64)
    assert r["status"] == "Failed"
    assert r["run_result"]["verdict"] == "MLE"
    assert r["run_result"]["memory_limit_exceeded"] is True


def test_large_output_is_not_a_timeout(server):
    """SandboxFusion #62: > ~160 KB of output turned into a timeout. Drained here."""
    r = server.run_code(code="print('x' * 1000000)", language="python")
    assert r["status"] == "Success"
    assert len(r["run_result"]["stdout"]) == 1000001


def test_compile_once(server):
    code = "#include <iostream>\nint main(){std::string s; std::cin >> s; std::cout << s;}"
    first = server.run_code(code=code, language="cpp", stdin="a")
    again = server.run_code(code=code, language="cpp", stdin="b")
    assert first["compile_result"]["cached"] is False
    assert again["compile_result"]["cached"] is True
    assert again["run_result"]["stdout"] == "b"


# ---- other routes and bad input ------------------------------------------------------------

def test_ping_health_languages(server):
    assert requests.get(server.url + "/v1/ping").json() == "pong"
    h = requests.get(server.url + "/healthz").json()
    assert h["status"] == "ok" and h["cells"] == 4
    langs = {l["name"]: l for l in requests.get(server.url + "/v1/languages").json()}
    assert langs["python"]["available"] and "python3" in langs["python"]["aliases"]
    assert langs["cuda"]["needs_gpu"]


def test_validation_errors(server):
    def detail(body):
        r = server.post("/run_code", body)
        assert r.status_code == 422, r.text
        return r.json()["detail"][0]
    assert detail({"language": "python"})["loc"] == ["body", "code"]
    assert detail({"code": "x", "language": "cobol"})["loc"] == ["body", "language"]
    assert detail({"code": "x", "run_timeout": "soon"})["loc"] == ["body", "run_timeout"]
    assert detail({"code": "x", "run_timeout": -1})["loc"] == ["body", "run_timeout"]
    assert detail({"code": "x", "memory_limit_MB": 1.5})["loc"] == ["body", "memory_limit_MB"]
    assert detail({"code": "x", "stdin": 5})["loc"] == ["body", "stdin"]
    assert detail({"code": "x", "files": {"a": "!!!"}})["loc"] == ["body", "files", "a"]
    assert detail({"code": "x", "files": {"/etc/x": "YQ=="}})["loc"] == ["body", "files", "/etc/x"]
    assert detail({"code": "x", "fetch_files": "a"})["loc"] == ["body", "fetch_files"]
    assert detail(["not", "an", "object"])["loc"] == ["body"]
    r = requests.post(server.url + "/run_code", data="{not json",
                      headers={"Content-Type": "application/json"}, timeout=10)
    assert r.status_code == 422 and r.json()["detail"][0]["type"] == "json_invalid"


def test_unknown_route_and_method(server):
    r = requests.get(server.url + "/nope")
    assert r.status_code == 404 and r.json() == {"detail": "Not Found"}
    r = requests.delete(server.url + "/run_code")
    assert r.status_code == 405 and r.json() == {"detail": "Method Not Allowed"}


def test_body_too_large(server):
    r = requests.post(server.url + "/run_code", data=b"x" * (17 << 20), timeout=60)
    assert r.status_code == 413


def test_openapi_matches_the_routes(server):
    doc = requests.get(server.url + "/openapi.json").json()
    assert doc["openapi"].startswith("3.")
    documented = {f"{method.upper()} {path}" for path, ops in doc["paths"].items()
                  for method in ops}
    served = set(requests.get(server.url + "/healthz").json()["routes"])
    assert documented == served
    for route in served:  # and each one answers (never 405; 404 only for a {parameter})
        method, path = route.split(" ", 1)
        r = requests.request(method, server.url + path, json={}, timeout=30)
        assert r.status_code not in ((405,) if "{" in path else (404, 405)), route


def test_pytest_and_unpackaged_languages(server):
    # SandboxFusion's `pytest <f>.py`: Success when every test passes, Failed when one fails.
    r = server.run_code(code="def test_one():\n    assert 1 + 1 == 2\n", language="pytest")
    assert r["status"] == "Success" and "1 passed" in r["run_result"]["stdout"], r
    r = server.run_code(code="def test_one():\n    assert 1 + 1 == 3\n", language="pytest")
    assert r["status"] == "Failed" and r["run_result"]["return_code"] == 1, r
    # julia, swift and lean are SandboxFusion's too, but Debian 12 packages none of them: listed
    # unavailable with what to install, and refused with the reason.
    langs = {l["name"]: l for l in requests.get(server.url + "/v1/languages").json()}
    for name in ("julia", "swift", "lean"):
        if langs[name]["available"]:
            continue  # a host that installed it
        assert "Debian 12 has no" in langs[name]["reason"], langs[name]
        r = server.post("/run_code", {"code": "1", "language": name})
        assert r.status_code == 422 and "unavailable" in r.text, r.text


def test_jvm_dotnet_and_test_languages(server):
    """SandboxFusion's scala, kotlin_script, csharp, junit and jest, by their names."""
    r = server.run_code(code='object Hello extends App { println("hi " + readLine()) }',
                        language="scala", stdin="there\n")
    assert r["status"] == "Success" and r["run_result"]["stdout"] == "hi there\n", r
    r = server.run_code(code="class NoObject", language="scala")
    assert r["status"] == "Failed" and r["run_result"] is None, r
    assert "Object name not found." in r["compile_result"]["stderr"], r
    r = server.run_code(code='println(listOf(1, 2, 3).sum())', language="kotlin_script")
    assert r["status"] == "Success" and r["run_result"]["stdout"] == "6\n", r
    r = server.run_code(code='check(1 + 1 == 3) { "bad sum" }', language="kotlin_script")
    assert r["status"] == "Failed" and "bad sum" in r["run_result"]["stderr"], r
    r = server.run_code(code='using System; class P { static void Main() { '
                             'Console.WriteLine(Console.ReadLine().ToUpper()); } }',
                        language="csharp", stdin="mono")
    assert r["status"] == "Success" and r["run_result"]["stdout"] == "MONO\n", r
    # MultiPL-E's C# tests are Debug.Asserts: a failing one fails the run, as under .NET.
    r = server.run_code(code="using System.Diagnostics;\nclass Problem { public static void "
                             "Main(string[] args) { Debug.Assert(1 + 1 == 3); } }",
                        language="csharp")
    assert r["status"] == "Failed" and r["run_result"]["return_code"] == 134, r
    assert "Assertion failed." in r["run_result"]["stderr"], r
    # junit: the code may be empty, with the tests in files.
    test = ("import org.junit.jupiter.api.Test;\nimport static org.junit.jupiter.api.Assertions.*;\n"
            "public class CalcTest { @Test void adds() { assertEquals(%d, Calc.add(2, 2)); } }\n")
    calc = "public class Calc { static int add(int a, int b) { return a + b; } }\n"
    r = server.run_code(code="", language="junit",
                        files={"CalcTest.java": b64(test % 4), "Calc.java": b64(calc)})
    assert r["status"] == "Success" and "1 tests successful" in r["run_result"]["stdout"], r
    r = server.run_code(code=calc, language="junit", files={"CalcTest.java": b64(test % 5)})
    assert r["status"] == "Failed" and r["run_result"]["return_code"] == 1, r
    # jest: a TypeScript test file; its report comes back through fetch_files.
    r = server.run_code(code="const add = (a: number, b: number): number => a + b;\n"
                             "test('adds', () => { expect(add(2, 2)).toBe(4); });\n",
                        language="jest", fetch_files=["jest-report.json"])
    assert r["status"] == "Success", r
    report = json.loads(base64.b64decode(r["files"]["jest-report.json"]))
    assert report["numPassedTests"] == 1 and report["success"], report
    # the nodejs template's modules, and a module of its own from files
    r = server.run_code(code="import _ from 'lodash';\nimport { add } from './calc';\n"
                             "test('adds', () => { expect(add(_.sum([1, 2]), 1)).toBe(4); });\n",
                        language="jest",
                        files={"calc.ts": b64("export const add = (a: number, b: number) => a + b;\n")})
    assert r["status"] == "Success", r
    r = server.run_code(code="test('adds', () => { expect(2 + 2).toBe(5); });\n", language="jest")
    assert r["status"] == "Failed" and r["run_result"]["return_code"] == 1, r


def test_python_gpu(server):
    """SandboxFusion's python_gpu: python compile.py, then python run.py, from files; on a
    server without a GPU a SandboxError that says so."""
    files = {"compile.py": b64("open('built.txt', 'w').write('built')\n"),
             "run.py": b64("print(open('built.txt').read())\n")}
    langs = {l["name"]: l for l in requests.get(server.url + "/v1/languages").json()}
    assert langs["python_gpu"]["needs_gpu"]
    r = server.run_code(code="", language="python_gpu", files=files)
    if langs["python_gpu"]["runnable"]:
        assert r["status"] == "Success" and r["run_result"]["stdout"] == "built\n", r
    else:
        assert r["status"] == "SandboxError" and "no GPU" in r["message"], r


def test_python_gpu_harness_is_graded(server):
    """A python_gpu harness's tests run in Python's grader: the program's early exit is not a
    pass (on a server without a GPU, the run's SandboxError says so)."""
    langs = {l["name"]: l for l in requests.get(server.url + "/v1/languages").json()}
    assert langs["python_gpu"]["harness_grading"] == "isolated"
    body = {"language": "python_gpu", "code": "import os\nos._exit(0)\ndef double(x):\n    return 0\n",
            "harness": "assert double(2) == 4\n"}
    r = server.post("/v1/judge", body)
    assert r.status_code == 200, r.text
    res = r.json()
    assert res["grading"] == "isolated" and res["reward"] == 0, res
    if langs["python_gpu"]["runnable"]:
        assert res["tests"][0]["verdict"] == "RE", res
    else:
        assert res["status"] == "SE" and "GPU" in json.dumps(res), res
