"""Request boundaries a hostile client reaches: each bound answered with a 422 naming the field
(never a crash), byte strings carried exactly or refused, one request parser and one error
form for every judging route, and SE counted once. Loopback only, every loop bounded."""
import base64
import json
import os

import pytest
import requests

from conftest import LANGUAGES, Server
from test_metrics import scrape

B64 = base64.b64encode(b"x").decode()


def files(n):
    return {f"f{i}.txt": B64 for i in range(n)}


def judge_body(**extra):
    return {"language": "python", "code": "print(1)", "tests": [{"expected": "1"}], **extra}


def test_file_count_bound_on_every_route(server):
    # 65 files crashed the server (a 65-slot array behind a `>` meant as `>=`).
    r = server.post("/v1/judge", judge_body(files=files(65)))
    assert r.status_code == 200 and r.json()["status"] == "OK", r.text
    r = server.post("/v1/judge", judge_body(files=files(256)))
    assert r.status_code == 200 and r.json()["passed"] == 1, r.text
    for path, body in [("/v1/judge", judge_body(files=files(257))),
                       ("/run_code", {"code": "print(1)", "files": files(257)})]:
        r = server.post(path, body)
        assert r.status_code == 422, r.text
        assert r.json()["detail"][0]["loc"] == ["body", "files"], r.text
    r = server.post("/v1/judge/batch", {"items": [dict(judge_body(files=files(65)), id=1),
                                                  dict(judge_body(files=files(300)), id=2)]})
    lines = {json.loads(l)["id"]: json.loads(l) for l in r.text.splitlines()}
    assert lines[1]["result"]["status"] == "OK", r.text
    assert lines[2]["error"]["loc"] == ["files"] and lines[2]["error"]["type"] == "too_long"
    assert server.post("/run_code", {"code": "print(2)"}).json()["run_result"]["stdout"] == "2\n"


def test_fetch_files_deduplicated_and_bounded(server):
    # One file listed 256 times made the cell allocate 256 copies of it.
    code = "open('big.bin', 'wb').write(b'y' * (1 << 20))"
    d = server.run_code(code=code, fetch_files=["big.bin"] * 256)
    assert d["status"] == "Success", d
    assert list(d["files"]) == ["big.bin"]
    assert len(base64.b64decode(d["files"]["big.bin"])) == 1 << 20
    r = server.post("/run_code", {"code": code, "fetch_files": [f"f{i}" for i in range(65)]})
    assert r.status_code == 422 and r.json()["detail"][0]["loc"] == ["body", "fetch_files"]


def test_nul_in_strings_is_refused_not_cut(server):
    # "a\u0000b" ran with stdin "a": what the program saw was not what was sent.
    for path, body, field in [
        ("/run_code", {"code": "print(input())", "stdin": "a\u0000b"}, "stdin"),
        ("/run_code", {"code": "print(1)\u0000import os"}, "code"),
        ("/v1/judge", {"language": "python", "code": "print(input())",
                       "tests": [{"stdin": "a", "expected": "a\u0000b"}]}, "expected"),
    ]:
        r = server.post(path, body)
        assert r.status_code == 422, r.text
        assert r.json()["detail"][0]["loc"][-1] == field, r.text
    r = requests.post(server.url + "/run_code", data=b'{"code": "print(1)"}\x00junk',
                      headers={"Content-Type": "application/json"}, timeout=30)
    assert r.status_code == 422, r.text
    # An escaped backslash before u0000 is text, not NUL.
    d = server.run_code(code="print('\\\\u0000')")
    assert d["run_result"]["stdout"] == "\\u0000\n", d


def test_one_error_form(server):
    bad = {"language": "python", "code": 5, "tests": [{"expected": ""}]}
    r = server.post("/v1/judge", bad)
    single = r.json()["detail"][0]
    r = server.post("/v1/judge/batch", {"items": [dict(bad, id="a")]})
    item = json.loads(r.text.splitlines()[0])["error"]
    assert single["loc"] == ["body"] + item["loc"] and single["type"] == item["type"]
    assert single["msg"] == item["msg"]


def test_sandbox_error_counted_once(server):
    # A checker that fails is SE for the test; the request's status SE is not a second one.
    before = scrape(server)
    checker = "import sys\nsys.exit(3)\n"
    r = server.post("/v1/judge", judge_body(compare={"mode": "checker", "checker": {
        "language": "python", "code": checker}}))
    assert r.status_code == 200 and r.json()["status"] == "SE", r.text
    after = scrape(server)
    key = 'verdict_verdicts_total{language="python",verdict="SE"}'
    assert after.get(key, 0) - before.get(key, 0) == 1
    assert after["verdict_sandbox_errors_total"] - before["verdict_sandbox_errors_total"] == 1


def test_openapi_counted_as_its_route(server):
    assert requests.get(server.url + "/openapi.json", timeout=10).status_code == 200
    m = scrape(server)
    assert m['verdict_requests_total{route="/openapi.json",status="200"}'] >= 1
    assert 'verdict_requests_total{route="other",status="200"}' not in m


def test_compile_timeout_is_tle_and_never_cached(server):
    # A compile that ran out of time was cached as CE: every identical request after it was an
    # instant compile error. It is TimeLimitExceeded every time, and a later compile with time
    # enough succeeds.
    code = "#include <bits/stdc++.h>\nint main() { std::cout << 7 << std::endl; }\n"
    for _ in range(2):
        d = server.run_code(code=code, language="cpp", compile_timeout=0.01)
        assert d["status"] == "Failed", d
        assert d["compile_result"]["status"] == "TimeLimitExceeded", d
        assert d["compile_result"]["verdict"] == "TLE" and not d["compile_result"]["cached"], d
        assert d["run_result"] is None
    d = server.run_code(code=code, language="cpp", compile_timeout=60)
    assert d["status"] == "Success" and d["run_result"]["stdout"] == "7\n", d
    r = server.post("/v1/judge", {"language": "cpp", "code": code + "// v\n",
                                  "tests": [{"expected": "7"}], "limits": {"time_ms": 2000}})
    assert r.json()["status"] == "OK", r.text


def test_judge_compile_timeout_is_tle_and_never_cached(tmp_path):
    # /run_code's side is the test above. /v1/judge takes its compile limits from the
    # language's template: a server whose C++ template allows 50 ms of compile CPU (g++ needs
    # far more for <bits/stdc++.h>) answers TLE for the compile every time, never a cached
    # compile error.
    if os.geteuid() != 0:
        pytest.skip("the sandbox needs root")
    with open(os.path.join(LANGUAGES, "cpp.json")) as f:
        cpp = json.load(f)
    cpp["compile"]["limits"]["cpu_ms"] = 50
    (tmp_path / "cpp.json").write_text(json.dumps(cpp))
    (tmp_path / "cpp").symlink_to(os.path.abspath(os.path.join(LANGUAGES, "cpp")))  # the grader's sources
    s = Server(cells=1, extra=("--languages", str(tmp_path)))
    try:
        body = {"language": "cpp", "code": "#include <bits/stdc++.h>\nint main() { std::cout << 7; }\n",
                "tests": [{"expected": "7"}]}
        for _ in range(3):
            r = s.post("/v1/judge", body, timeout=120)
            assert r.status_code == 200, r.text
            d = r.json()
            assert d["status"] == "TLE" and d["reward"] == 0 and d["ran"] == 0, d
            assert d["compile"]["ok"] is False and d["compile"]["verdict"] == "TLE", d
            assert d["compile"]["cached"] is False, d
    finally:
        code, left = s.stop()
    assert code == 0 and not left
