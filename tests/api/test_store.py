"""The results store through the API: every judging route records its requests (ids in the
X-Verdict-Submission header and on batch lines), the store's JSON routes (/v1/submissions,
/v1/runs, /v1/datasets) with their filters, paging and errors, /v1/stats, the store's fields
in /healthz and /metrics, --store off, the dashboard token, a kill -9 losing nothing
committed, retention (--retain-rows) and a full disk under the store."""
import gzip
import json
import os
import shutil
import subprocess
import tempfile
import uuid

import pytest
import requests

from conftest import Server, needs_root, wait_for

DATA = next((d for d in (os.environ.get("VERDICT_TEST_DATA"),
                         os.path.join(os.path.dirname(os.path.abspath(__file__)), "../../../shared/datasets"),
                         "/work/shared/datasets") if d and os.path.isdir(d)), "/work/shared/datasets")
HUMANEVAL = os.path.join(DATA, "HumanEval.jsonl.gz")
ECHO = "print(input())"


def store_health(s):
    return s.get_json("/healthz")["store"]


def written_at_least(s, n):
    return wait_for(f"store.written >= {n}", lambda: store_health(s)["written"] >= n)


def submission(s, sid):
    """GET /v1/submissions/{sid} once it is committed (the writer batches every 50 ms)."""
    def get():
        r = requests.get(f"{s.url}/v1/submissions/{sid}", timeout=30)
        assert r.status_code in (200, 404), r.text
        return r.json() if r.status_code == 200 else None
    return wait_for(f"submission {sid}", get)


def rows(s, **query):
    r = requests.get(s.url + "/v1/submissions", params=query, timeout=30)
    assert r.status_code == 200, r.text
    return r.json()


def judge(s, code, tests, label=None, **extra):
    headers = {"X-Verdict-Client": label} if label else {}
    r = s.post("/v1/judge", {"code": code, "language": "python", "tests": tests, **extra},
               headers=headers)
    assert r.status_code == 200, r.text
    return r


@pytest.fixture(scope="module")
def srv():
    needs_root()
    d = tempfile.mkdtemp(prefix="verdict-store-ds-", dir="/var/tmp")
    extra = ()
    if os.path.exists(HUMANEVAL):
        os.symlink(os.path.abspath(HUMANEVAL), d + "/HumanEval.jsonl.gz")
        extra = ("--datasets", d)
    s = Server(cells=2, extra=extra)
    s.has_humaneval = bool(extra)
    yield s
    code, left = s.stop()
    shutil.rmtree(d, ignore_errors=True)
    assert code == 0 and not left


def test_run_code_recorded(srv):
    r = srv.post("/run_code", {"code": "import sys\nprint('hi')\nprint('oops', file=sys.stderr)",
                               "language": "python"}, headers={"X-Verdict-Client": "rc-label"})
    assert r.status_code == 200 and r.json()["status"] == "Success", r.text
    sid = int(r.headers["X-Verdict-Submission"])
    row = submission(srv, sid)
    assert row["id"] == sid and row["route"] == "/run_code" and row["verdict"] == "OK"
    assert row["language"] == "python" and row["label"] == "rc-label"
    assert row["client"] == "127.0.0.1"
    assert row["code"].startswith("import sys") and row["code_truncated"] is False
    assert row["code_bytes"] == len(row["code"]) and len(row["code_sha256"]) == 64
    t = row["detail"]["tests"][0]
    assert t["stdout"] == "hi\n" and t["stderr"] == "oops\n" and t["verdict"] == "OK"
    assert "expected" not in t  # /run_code compares nothing
    assert row["detail"]["limits"]["cpu_ms"] > 0


def test_judge_recorded_with_tests(srv):
    r = judge(srv, ECHO, [{"stdin": "a\n", "expected": "a\n"}, {"stdin": "b\n", "expected": "c\n"}])
    sid = int(r.headers["X-Verdict-Submission"])
    row = submission(srv, sid)
    assert row["route"] == "/v1/judge" and row["verdict"] == "WA"
    assert row["passed"] == 1 and row["total"] == 2 and row["reward"] == 0.5
    assert row["code"] == ECHO and row["label"] is None
    tests = row["detail"]["tests"]
    assert [t["verdict"] for t in tests] == ["OK", "WA"]
    assert tests[1]["stdin"] == "b\n" and tests[1]["expected"] == "c\n"
    assert tests[1]["stdout"] == "b\n" and tests[1]["reason"]
    assert row["detail"]["tests_dropped"] == 0


def test_excerpts_are_bounded_and_valid_utf8(srv):
    # 10,000 bytes on stdout (the judge keeps 512 for /v1/judge), invalid UTF-8 on stderr
    code = "import sys\nprint('é' * 5000)\nsys.stderr.buffer.write(b'\\xff\\xfe' * 10)"
    r = srv.post("/run_code", {"code": code, "language": "python"})
    assert r.status_code == 200
    row = submission(srv, int(r.headers["X-Verdict-Submission"]))
    t = row["detail"]["tests"][0]
    assert len(t["stdout"].encode()) <= 4096 and t["stdout_truncated"] is True
    assert set(t["stdout"]) == {"é"}  # cut on a character's boundary
    assert t["stderr"] == "\ufffd" * 20


def test_batch_items_each_recorded(srv):
    items = [{"id": "a", "code": ECHO, "language": "python", "tests": [{"stdin": "x", "expected": "x"}]},
             {"id": "b", "code": ECHO, "language": "python", "tests": [{"stdin": "x", "expected": "x"}]},
             {"id": "c", "code": "print(1/0)", "language": "python", "tests": [{"stdin": "", "expected": ""}]}]
    r = srv.post("/v1/judge/batch", {"items": items})
    assert r.status_code == 200
    lines = {l["id"]: l for l in map(json.loads, r.text.splitlines())}
    assert set(lines) == {"a", "b", "c"}
    ids = [lines[k]["submission"] for k in "abc"]
    assert len(set(ids)) == 3  # a and b judged once, stored as two submissions
    for k, want in zip("abc", ("OK", "OK", "RE")):
        row = submission(srv, lines[k]["submission"])
        assert row["route"] == "/v1/judge/batch" and row["verdict"] == want, row


def test_submit_recorded(srv):
    if not srv.has_humaneval:
        pytest.skip(f"no HumanEval at {HUMANEVAL}")
    body = {"dataset": "humaneval", "id": "HumanEval/2", "config": {"extra": {"is_freeform": True}},
            "completion": "```python\ndef truncate_number(number: float) -> float:\n"
                          "    return number % 1.0\n```"}
    r = srv.post("/submit", body)
    assert r.status_code == 200 and r.json()["accepted"] is True, r.text
    ok = submission(srv, int(r.headers["X-Verdict-Submission"]))
    assert ok["route"] == "/submit" and ok["verdict"] == "OK"
    assert ok["dataset"] == "humaneval" and ok["problem"] == "HumanEval/2"
    assert "truncate_number" in ok["code"]
    body["completion"] = "```python\ndef truncate_number(number):\n    return number\n```"
    r = srv.post("/submit", body)
    assert r.json()["accepted"] is False
    bad = submission(srv, int(r.headers["X-Verdict-Submission"]))
    assert bad["verdict"] in ("RE", "WA") and bad["problem"] == "HumanEval/2"
    # the datasets' counts
    ds = {d["name"]: d for d in srv.get_json("/v1/datasets")["datasets"]}
    he = ds["humaneval"]
    assert he["problems"] == 164 and he["submissions"] >= 2 and he["passed"] >= 1
    assert he["by_verdict"].get("OK", 0) >= 1 and he["by_verdict"].get(bad["verdict"], 0) >= 1
    one = srv.get_json("/v1/datasets/humaneval")
    assert len(one["problems"]) == 164  # every problem, submitted or not
    p = {x["id"]: x for x in one["problems"]}
    assert p["HumanEval/2"]["submissions"] >= 2 and p["HumanEval/2"]["passed"] >= 1
    assert p["HumanEval/0"]["submissions"] == 0 and p["HumanEval/0"]["by_verdict"] == {}
    listed = rows(srv, dataset="humaneval", problem="HumanEval/2")["submissions"]
    assert {ok["id"], bad["id"]} <= {x["id"] for x in listed}


def test_submit_provided_data_recorded(srv):
    row = {"task_id": "T/1", "prompt": "def f(x):\n", "entry_point": "f",
           "test": "def check(candidate):\n    assert candidate(2) == 4\n",
           "canonical_solution": "    return 2 * x\n"}
    name = "provided_" + uuid.uuid4().hex[:8]
    r = srv.post("/submit", {"dataset": name, "id": "T/1", "config": {"provided_data": row},
                             "completion": "    return x * 2\n"})
    assert r.status_code == 200, r.text
    sub = submission(srv, int(r.headers["X-Verdict-Submission"]))
    assert sub["dataset"] == name and sub["problem"] == "T/1"
    assert sub["verdict"] == r.json()["extra"]["verdict"]
    ds = {d["name"]: d for d in srv.get_json("/v1/datasets")["datasets"]}
    assert ds[name]["submissions"] == 1 and ds[name]["format"] is None
    one = srv.get_json(f"/v1/datasets/{name}")
    assert [p["id"] for p in one["problems"]] == ["T/1"]


def test_run_jupyter_recorded(srv):
    r = srv.post("/run_jupyter", {"cells": ["x = 21", "print(x * 2)"]})
    assert r.status_code == 200, r.text
    row = submission(srv, int(r.headers["X-Verdict-Submission"]))
    assert row["route"] == "/run_jupyter" and row["verdict"] == "OK"
    assert "x = 21" in row["code"] and "print(x * 2)" in row["code"]


def test_rejected_requests_are_not_recorded(srv):
    r = srv.post("/v1/judge", {"code": ECHO, "language": "nope", "tests": [{"stdin": "", "expected": ""}]})
    assert r.status_code == 422 and "X-Verdict-Submission" not in r.headers


def test_filters_and_keyset_paging(srv):
    label = "pager-" + uuid.uuid4().hex[:8]
    ids = []
    for i in range(5):
        tests = [{"stdin": "a", "expected": "a" if i % 2 == 0 else "b"}]
        ids.append(int(judge(srv, ECHO, tests, label=label).headers["X-Verdict-Submission"]))
    submission(srv, ids[-1])
    seen, before = [], None
    for _ in range(10):  # bounded: 5 rows, 2 a page
        q = {"client": label, "limit": 2, **({"before": before} if before else {})}
        page = rows(srv, **q)
        assert len(page["submissions"]) <= 2
        seen += [x["id"] for x in page["submissions"]]
        before = page["next_before"]
        if before is None:
            break
    assert seen == sorted(ids, reverse=True)  # newest first, each once
    wa = rows(srv, client=label, verdict="WA")["submissions"]
    assert sorted(x["id"] for x in wa) == [ids[1], ids[3]]
    assert all(x["verdict"] == "WA" and x["label"] == label for x in wa)
    assert len(rows(srv, client=label, route="/v1/judge", language="python")["submissions"]) == 5
    assert rows(srv, client=label, route="/run_code")["submissions"] == []
    by_addr = rows(srv, client="127.0.0.1", limit=500)["submissions"]
    assert ids[0] in {x["id"] for x in by_addr}  # client matches the address too


def test_grading_recorded_and_filtered(srv):
    """Each row says how its tests were decided (null where none did), and lists filter on it."""
    label = "grading-" + uuid.uuid4().hex[:8]
    headers = {"X-Verdict-Client": label}
    langs = {l["name"]: l for l in srv.get_json("/v1/languages")}
    sent = {  # kind -> a request decided so
        "output": ("/v1/judge", {"language": "python", "code": ECHO,
                                 "tests": [{"stdin": "a", "expected": "a"}]}),
        "isolated": ("/v1/judge", {"language": "python", "code": "def f(x):\n    return x\n",
                                   "harness": "assert f(3) == 3\n"}),
        # no entry point: C's harness is sealed
        "in-process": ("/v1/judge", {
            "language": "c", "code": "int f(int x) { return x; }\n",
            "harness": "#include <assert.h>\nint main(void) { assert(f(3) == 3); return 0; }\n"}),
    }
    if "sql" in langs and langs["sql"]["runnable"]:  # a language without a grader, accepted
        sent["exit-status"] = ("/v1/judge", {"language": "sql", "code": "CREATE TABLE t(x);",
                                             "harness": "SELECT * FROM t;",
                                             "allow_exit_status": True})
    ids = {}
    for kind, (path, body) in sent.items():
        r = srv.post(path, body, headers=headers)
        assert r.status_code == 200 and r.json()["grading"] == kind, r.text
        ids[kind] = int(r.headers["X-Verdict-Submission"])
    r = srv.post("/run_code", {"language": "python", "code": "print(1)"}, headers=headers)
    ids[None] = int(r.headers["X-Verdict-Submission"])
    for kind, sid in ids.items():
        assert submission(srv, sid)["grading"] == kind, (kind, sid)
    mine = {x["id"]: x["grading"] for x in rows(srv, client=label)["submissions"]}
    assert mine == {sid: kind for kind, sid in ids.items()}
    for kind in (k for k in ids if k):
        got = rows(srv, client=label, grading=kind)["submissions"]
        assert [x["id"] for x in got] == [ids[kind]] and got[0]["grading"] == kind
        everyone = rows(srv, grading=kind, limit=500)["submissions"]
        assert ids[kind] in {x["id"] for x in everyone}
        assert {x["grading"] for x in everyone} == {kind}
    # combined with the other filters
    assert rows(srv, client=label, grading="output", verdict="WA")["submissions"] == []
    assert len(rows(srv, client=label, grading="output", route="/v1/judge",
                    language="python")["submissions"]) == 1


@pytest.mark.parametrize("query,field", [
    ("limit=0", "limit"), ("limit=501", "limit"), ("limit=abc", "limit"),
    ("before=-1", "before"), ("before=x", "before"), ("verdict=NOPE", "verdict"),
    ("language=" + "x" * 300, "language"), ("grading=sealed", "grading"),
    ("grading=none", "grading"), ("grading=Isolated", "grading"),
])
def test_bad_queries_are_422(srv, query, field):
    r = requests.get(f"{srv.url}/v1/submissions?{query}", timeout=30)
    assert r.status_code == 422, r.text
    assert r.json()["detail"][0]["loc"] == ["query", field]


def test_bad_paths_and_missing_rows(srv):
    for path in ("/v1/submissions/abc", "/v1/submissions/0", "/v1/runs/-3"):
        r = requests.get(srv.url + path, timeout=30)
        assert r.status_code == 422 and r.json()["detail"][0]["loc"] == ["path", "id"], path
    r = requests.get(srv.url + "/v1/submissions/987654321", timeout=30)
    assert r.status_code == 404 and r.json() == {"detail": "no submission 987654321"}
    r = requests.get(srv.url + "/v1/runs/987654321", timeout=30)
    assert r.status_code == 404 and r.json() == {"detail": "no run 987654321"}
    r = requests.get(srv.url + "/v1/datasets/no_such_dataset", timeout=30)
    assert r.status_code == 404 and "no_such_dataset" in r.json()["detail"]
    r = requests.get(srv.url + "/v1/datasets/Bad-Name", timeout=30)
    assert r.status_code == 422 and r.json()["detail"][0]["loc"] == ["path", "name"]
    assert requests.get(srv.url + "/v1/runs?limit=9999", timeout=30).status_code == 422


def test_post_run_then_get(srv):
    run = {"dataset": "humaneval", "label": "nightly", "model": "m-7b", "source": "server",
           "problems": 2, "samples": 4, "judged": 4, "seconds": 1.5, "interrupted": False,
           "pass_at_k": {"1": 0.5, "10": None}, "verdicts": {"OK": 2, "WA": 2}, "failed": [],
           "results": [{"task_id": "HumanEval/0", "language": "python", "samples": 2, "passed": 2,
                        "verdicts": {"OK": 2}},
                       {"task_id": "HumanEval/1", "language": "python", "samples": 2, "passed": 0,
                        "verdicts": {"WA": 2}}]}
    r = srv.post("/v1/runs", run)
    assert r.status_code == 201, r.text
    rid = r.json()["id"]

    def get():
        x = requests.get(f"{srv.url}/v1/runs/{rid}", timeout=30)
        return x.json() if x.status_code == 200 else None
    got = wait_for("the run", get)
    assert got["label"] == "nightly" and got["model"] == "m-7b" and got["dataset"] == "humaneval"
    assert got["pass_at_k"] == {"pass@1": 0.5, "pass@10": None}  # null: too few samples for k
    assert [x["task_id"] for x in got["results"]] == ["HumanEval/0", "HumanEval/1"]
    assert got["results"][1]["verdicts"] == {"WA": 2}
    listed = srv.get_json("/v1/runs?dataset=humaneval")["runs"]
    assert listed[0]["id"] == rid and "results" not in listed[0]


@pytest.mark.parametrize("body,field", [
    ({}, "dataset"),
    ({"dataset": "x"}, "results"),
    ({"dataset": "x", "results": [{"passed": 1}]}, "results"),
    ({"dataset": "x", "results": [], "pass_at_k": {"pass@1": "high"}}, "pass_at_k"),
    ({"dataset": "x", "results": [], "source": "elsewhere"}, "source"),
    ({"dataset": "x", "results": [], "samples": "many"}, "samples"),
])
def test_post_run_malformed_is_422(srv, body, field):
    r = srv.post("/v1/runs", body)
    assert r.status_code == 422, r.text
    assert r.json()["detail"][0]["loc"] == ["body", field]


def test_stats_move(srv):
    def judged_total():
        return sum(b["judged"] for b in srv.get_json("/v1/stats")["series"])
    before = judged_total()
    label = "stats-" + uuid.uuid4().hex[:6]
    for _ in range(3):
        judge(srv, ECHO, [{"stdin": "q", "expected": "q"}], label=label)
    st = srv.get_json("/v1/stats")
    assert st["bucket_s"] == 5 and st["window_s"] == 900 and len(st["series"]) == 180
    assert sum(b["judged"] for b in st["series"]) >= before + 3
    assert st["series"][-1]["t"] <= st["now_ms"] < st["series"][-1]["t"] + 5000
    assert all(a["t"] + 5000 == b["t"] for a, b in zip(st["series"], st["series"][1:]))
    assert st["throughput_rps"] > 0 and st["latency_ms"]["p50"] > 0
    assert st["latency_ms"]["p50"] <= st["latency_ms"]["p90"] <= st["latency_ms"]["p99"]
    assert st["by_route"]["/v1/judge"]["OK"] >= 3 and st["by_language"]["python"]["OK"] >= 3
    assert st["queue"]["capacity"] > 0 and st["cells"]["started"] >= 2
    assert st["store"]["enabled"] is True and "sandbox_errors" in st


def test_healthz_and_metrics_store_fields(srv):
    judge(srv, ECHO, [{"stdin": "m", "expected": "m"}])
    h = written_at_least(srv, 1) and store_health(srv)
    assert h["enabled"] is True and h["ok"] is True and h["last_error"] is None
    for k in ("queued", "written", "dropped", "errors", "deleted", "db_bytes"):
        assert isinstance(h[k], (int, float)), k
    assert h["db_bytes"] > 0
    assert srv.get_json("/healthz")["status"] == "ok"
    m = {}
    for line in srv.get_text("/metrics").splitlines():
        if line and not line.startswith("#"):
            k, v = line.rsplit(" ", 1)
            m[k] = float(v)
    assert m["verdict_store_written_total"] >= 1 and m["verdict_store_ok"] == 1
    for k in ("dropped_total", "errors_total", "deleted_total", "queued", "db_bytes"):
        assert f"verdict_store_{k}" in m, k
    requests.get(srv.url + "/v1/submissions/1", timeout=30)
    m2 = srv.get_text("/metrics")
    assert 'verdict_requests_total{route="/v1/submissions/{id}"' in m2


def test_store_off():
    needs_root()
    s = Server(cells=1, extra=("--store", "off"))
    try:
        r = s.post("/run_code", {"code": "print(1)", "language": "python"})
        assert r.status_code == 200 and "X-Verdict-Submission" not in r.headers
        r = s.post("/v1/judge/batch", {"items": [{"id": 1, "code": ECHO, "language": "python",
                                                  "tests": [{"stdin": "a", "expected": "a"}]}]})
        assert "submission" not in json.loads(r.text.splitlines()[0])
        for path in ("/v1/submissions", "/v1/submissions/1", "/v1/runs", "/v1/runs/1",
                     "/v1/datasets", "/v1/datasets/x"):
            r = requests.get(s.url + path, timeout=30)
            assert r.status_code == 404 and r.json() == {"detail": "the store is off (--store off)"}, path
        assert s.post("/v1/runs", {"dataset": "x", "results": []}).status_code == 404
        st = s.get_json("/v1/stats")
        assert st["store"]["enabled"] is False and sum(b["judged"] for b in st["series"]) >= 2
        h = s.get_json("/healthz")
        assert h["status"] == "ok" and h["store"]["enabled"] is False
    finally:
        code, left = s.stop()
    assert code == 0 and not left


GUARDED = ("/v1/submissions", "/v1/runs", "/v1/stats", "/v1/datasets")


def test_beyond_loopback_needs_a_token():
    needs_root()
    s = Server(cells=1, listen="0.0.0.0:0")
    try:
        for path in GUARDED:
            r = requests.get(s.url + path, timeout=30)
            assert r.status_code == 403, path
            assert "--dashboard-token" in r.json()["detail"]
        r = s.post("/run_code", {"code": "print(1)", "language": "python"})  # judging stays open
        assert r.status_code == 200 and r.json()["status"] == "Success"
        assert requests.get(s.url + "/healthz", timeout=30).status_code == 200
    finally:
        code, left = s.stop()
    assert code == 0 and not left


def test_token():
    needs_root()
    token = uuid.uuid4().hex
    s = Server(cells=1, listen="0.0.0.0:0", env={"VERDICT_DASHBOARD_TOKEN": token})
    try:
        sid = s.post("/run_code", {"code": "print(7)", "language": "python"}).headers["X-Verdict-Submission"]
        for path in GUARDED:
            r = requests.get(s.url + path, timeout=30)
            assert r.status_code == 401 and "token" in r.json()["detail"], path
            r = requests.get(s.url + path, headers={"Authorization": "Bearer wrong"}, timeout=30)
            assert r.status_code == 401 and r.json()["detail"] == "wrong dashboard token", path
            r = requests.get(s.url + path, headers={"Authorization": "Bearer " + token[:-1]}, timeout=30)
            assert r.status_code == 401, path
            r = requests.get(s.url + path, headers={"Authorization": f"Bearer {token}"}, timeout=30)
            assert r.status_code == 200, path
            r = requests.get(s.url + path, cookies={"verdict_token": token}, timeout=30)
            assert r.status_code == 200, path
            r = requests.get(s.url + path, cookies={"verdict_token": "x" + token}, timeout=30)
            assert r.status_code == 401, path
        assert s.post("/v1/runs", {"dataset": "x", "results": []}).status_code == 401
        row = wait_for("the submission", lambda: (lambda r: r.json() if r.status_code == 200 else None)(
            requests.get(f"{s.url}/v1/submissions/{sid}", cookies={"verdict_token": token}, timeout=30)))
        assert row["code"] == "print(7)"
        r = s.post("/v1/judge", {"code": ECHO, "language": "python", "tests": [{"stdin": "a", "expected": "a"}]})
        assert r.status_code == 200 and r.json()["status"] == "OK"  # judging needs no token
    finally:
        code, left = s.stop()
    assert code == 0 and not left


def test_token_on_loopback_too():
    needs_root()
    s = Server(cells=1, extra=("--dashboard-token", "sesame"))
    try:
        assert requests.get(s.url + "/v1/stats", timeout=30).status_code == 401
        r = requests.get(s.url + "/v1/stats", headers={"Authorization": "Bearer sesame"}, timeout=30)
        assert r.status_code == 200
    finally:
        code, left = s.stop()
    assert code == 0 and not left


def test_kill_9_loses_nothing_committed():
    needs_root()
    d = tempfile.mkdtemp(prefix="verdict-store-kill-", dir="/var/tmp")
    db = d + "/store.db"
    try:
        s = Server(cells=2, extra=("--store", db))
        n = 20
        items = [{"id": i, "code": f"print({i})", "language": "python",
                  "tests": [{"stdin": "", "expected": f"{i}\n"}]} for i in range(n)]
        r = s.post("/v1/judge/batch", {"items": items})
        ids = sorted(json.loads(l)["submission"] for l in r.text.splitlines())
        assert len(ids) == n
        written_at_least(s, n)
        left = s.kill()
        assert not left, f"cells outlived a killed server: {left}"
        s = Server(cells=1, extra=("--store", db))
        try:
            got = rows(s, limit=500, route="/v1/judge/batch")["submissions"]
            assert sorted(x["id"] for x in got) == ids
            assert all(x["verdict"] == "OK" for x in got)
            assert submission(s, ids[0])["code"].startswith("print(")
            again = int(s.post("/run_code", {"code": "print(1)", "language": "python"})
                        .headers["X-Verdict-Submission"])
            assert again > ids[-1]  # ids keep increasing across the restart
        finally:
            code, left = s.stop()
        assert code == 0 and not left
    finally:
        shutil.rmtree(d, ignore_errors=True)


def test_retention_rows():
    needs_root()
    s = Server(cells=2, extra=("--retain-rows", "50"))
    try:
        batch = 40
        for k in range(3):  # 120 submissions
            items = [{"id": i, "code": f"print({k * batch + i})", "language": "python",
                      "tests": [{"stdin": "", "expected": f"{k * batch + i}\n"}]} for i in range(batch)]
            r = s.post("/v1/judge/batch", {"items": items})
            assert len(r.text.splitlines()) == batch
        written_at_least(s, 3 * batch)
        assert len(rows(s, limit=500)["submissions"]) <= 50 + batch
        wait_for("retention down to 50 rows",
                 lambda: len(rows(s, limit=500)["submissions"]) <= 50, timeout=60, step=0.5)
        kept = [x["id"] for x in rows(s, limit=500)["submissions"]]
        newest = rows(s, limit=1)["submissions"][0]["id"]
        assert kept[0] == newest and kept == sorted(kept, reverse=True)  # the newest are kept
        assert store_health(s)["deleted"] >= 120 - 50
    finally:
        code, left = s.stop()
    assert code == 0 and not left


def test_disk_full_keeps_judging():
    needs_root()
    mnt = tempfile.mkdtemp(prefix="verdict-store-full-", dir="/var/tmp")
    if subprocess.run(["mount", "-t", "tmpfs", "-o", "size=2m", "tmpfs", mnt]).returncode != 0:
        os.rmdir(mnt)
        pytest.skip("cannot mount a tmpfs")
    s = None
    try:
        s = Server(cells=2, extra=("--store", mnt + "/store.db"))
        judge(s, ECHO, [{"stdin": "a", "expected": "a"}])
        written_at_least(s, 1)
        with open(mnt + "/filler", "wb") as f:  # fill what is left of the 2 MiB
            try:
                while True:
                    f.write(b"\0" * 65536)
                    f.flush()
            except OSError:
                pass
        big = "x" * 3000  # large excerpts, so that each record needs new pages

        def one(i):
            r = judge(s, f"print('{i}' + '{big}')", [{"stdin": "", "expected": f"{i}{big}\n"},
                                                    {"stdin": "", "expected": "nope\n"}])
            j = r.json()
            assert j["status"] == "OK" and [t["verdict"] for t in j["tests"]] == ["OK", "WA"], j
        i = 0

        def failing():
            nonlocal i
            for _ in range(5):
                one(i)
                i += 1
            h = store_health(s)
            return not h["ok"] and h["dropped"] + h["errors"] > 0 and h
        h = wait_for("the store to report the full disk", failing, timeout=120, step=0)
        assert h["last_error"], h
        assert s.get_json("/healthz")["status"] == "ok"
        m = s.get_text("/metrics")
        assert "verdict_store_ok 0" in m
        os.unlink(mnt + "/filler")

        def recovered():
            one(i + 1000)
            return store_health(s)["ok"]
        wait_for("the store to recover", recovered, timeout=120, step=0.5)
        sid = int(judge(s, ECHO, [{"stdin": "z", "expected": "z"}]).headers["X-Verdict-Submission"])
        assert submission(s, sid)["verdict"] == "OK"
    finally:
        if s:
            code, left = s.stop()
        subprocess.run(["umount", "-l", mnt])
        os.rmdir(mnt)
    assert code == 0 and not left


def test_bench_server_run_is_stored(srv, tmp_path):
    if not srv.has_humaneval:
        pytest.skip(f"no HumanEval at {HUMANEVAL}")
    from conftest import VERDICT_CMD
    with gzip.open(HUMANEVAL, "rt") as f:
        rows_ = [json.loads(l) for l, _ in zip(f, range(2))]
    samples = tmp_path / "samples.jsonl"
    samples.write_text("".join(json.dumps({"task_id": r["task_id"], "completion": c}) + "\n"
                               for r in rows_ for c in (r["canonical_solution"], "    pass\n")))
    label = "bench-" + uuid.uuid4().hex[:6]
    p = subprocess.run([*VERDICT_CMD, "bench", "humaneval", str(samples), "--server", srv.url,
                        "--db", srv.cache + "/verdict.db", "-k", "1,10", "--label", label,
                        "--summary", "json"], capture_output=True, text=True, timeout=300)
    assert p.returncode == 0, p.stderr

    def stored():
        return [r for r in srv.get_json("/v1/runs?dataset=humaneval")["runs"] if r["label"] == label]
    run = wait_for("the bench run", stored)[0]
    assert run["source"] == "server" and run["samples"] == 4
    got = srv.get_json(f"/v1/runs/{run['id']}")
    assert sorted(r["task_id"] for r in got["results"]) == sorted(r["task_id"] for r in rows_)
    assert all(r["samples"] == 2 and r["passed"] == 1 for r in got["results"])
