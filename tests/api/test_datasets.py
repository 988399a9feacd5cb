"""SandboxFusion's dataset endpoints (/list_datasets, /list_ids, /get_prompts,
/get_prompt_by_id, /submit) on a server started with --datasets, and `verdict bench --server`
against it. Data comes from ../shared/datasets (HumanEval, MBPP), linked into a directory of
the test's own; a generated 20,000-row dataset checks that import and lists are linear and
that dataset work leaves the HTTP thread free (/v1/ping)."""
import gzip
import json
import os
import subprocess
import tempfile
import time

import pytest
import requests

from conftest import VERDICT_CMD, Server

# The benchmark data: $VERDICT_TEST_DATA, else ../shared/datasets beside the checkout, else
# the machines' /work/shared/datasets (a clone elsewhere still finds it).
DATA = next((d for d in (os.environ.get("VERDICT_TEST_DATA"),
                         os.path.join(os.path.dirname(os.path.abspath(__file__)), "../../../shared/datasets"),
                         "/work/shared/datasets") if d and os.path.isdir(d)), "/work/shared/datasets")


@pytest.fixture(scope="module")
def srv():
    if os.geteuid() != 0:
        pytest.skip("the sandbox needs root")
    if not os.path.exists(os.path.join(DATA, "HumanEval.jsonl.gz")):
        pytest.skip(f"no datasets at {DATA}")
    d = tempfile.mkdtemp(prefix="verdict-ds-", dir="/var/tmp")
    os.symlink(os.path.abspath(os.path.join(DATA, "HumanEval.jsonl.gz")), d + "/HumanEval.jsonl.gz")
    os.mkdir(d + "/mbpp")
    os.symlink(os.path.abspath(os.path.join(DATA, "mbpp/mbpp.jsonl")), d + "/mbpp/mbpp.jsonl")
    s = Server(cells=2, extra=("--datasets", d))
    s.data = d
    yield s
    code, left = s.stop()
    assert code == 0 and not left


FREEFORM = {"extra": {"is_freeform": True}}  # extract the code from an answer


def humaneval():
    with gzip.open(os.path.join(DATA, "HumanEval.jsonl.gz"), "rt") as f:
        return [json.loads(l) for l in f]


def test_list_datasets_and_ids(srv):
    names = requests.get(srv.url + "/list_datasets", timeout=10).json()
    assert "humaneval" in names and "mbpp" in names
    ids = srv.post("/list_ids", {"dataset": "humaneval", "config": {}}).json()
    assert len(ids) == 164 and ids[0] == "HumanEval/0"
    # SandboxFusion's own id for the dataset works too; MBPP's ids are numbers, as there.
    assert srv.post("/list_ids", {"dataset": "humaneval_python", "config": {}}).json() == ids
    mbpp = srv.post("/list_ids", {"dataset": "mbpp", "config": {}}).json()
    assert len(mbpp) == 974 and mbpp[:2] == [1, 2]


def test_get_prompts(srv):
    ps = srv.post("/get_prompts", {"dataset": "humaneval", "config": {}, "offset": 10, "limit": 3}).json()
    assert [p["id"] for p in ps] == ["HumanEval/10", "HumanEval/11", "HumanEval/12"]
    assert ps[0]["prompt"].startswith("\n\ndef is_palindrome") and isinstance(ps[0]["labels"], dict)
    assert len(srv.post("/get_prompts", {"dataset": "humaneval", "config": {}, "offset": 160}).json()) == 4
    assert srv.post("/get_prompts", {"dataset": "humaneval", "config": {}, "limit": -1}).json() == []
    one = srv.post("/get_prompt_by_id", {"dataset": "mbpp", "config": {}, "id": 11}).json()
    assert one["id"] == 11 and "Your code should pass these tests" in one["prompt"]
    r = srv.post("/get_prompt_by_id", {"dataset": "mbpp", "config": {}, "id": 99999})
    assert r.status_code == 404 and "99999" in r.json()["detail"]


def test_submit_fenced_and_prose(srv):
    body = {"dataset": "humaneval", "id": "HumanEval/2", "config": FREEFORM,
            "completion": "Here is my solution:\n\n```python\ndef truncate_number(number: float) -> float:\n"
                          "    return number % 1.0\n```\n\nIt keeps the fractional part."}
    r = srv.post("/submit", body).json()
    assert r["accepted"] is True, r
    assert r["id"] == "HumanEval/2" and r["extracted_type"] == "fenced"
    assert r["extracted_code"] == "def truncate_number(number: float) -> float:\n    return number % 1.0"
    assert "check(truncate_number)" in r["full_code"] and r["tests"][0]["passed"] is True
    assert r["tests"][0]["exec_info"]["status"] == "Success"

    body["completion"] = "Take the number and subtract its integer part; that is the answer."
    r = srv.post("/submit", body).json()
    assert r["accepted"] is False and r["extracted_code"] == "" and r["tests"] == []


def test_submit_wrong_and_continuation(srv):
    body = {"dataset": "humaneval", "id": "HumanEval/2", "config": FREEFORM,
            "completion": "```python\ndef truncate_number(number):\n    return number\n```"}
    r = srv.post("/submit", body).json()
    assert r["accepted"] is False
    t = r["tests"][0]
    assert t["passed"] is False and t["exec_info"]["status"] == "Failed"
    assert "AssertionError" in t["exec_info"]["run_result"]["stderr"]
    # is_freeform false: the completion continues the prompt as it is (pretrain style).
    body = {"dataset": "humaneval", "id": "HumanEval/2", "config": {"extra": {"is_freeform": False}},
            "completion": "    return number % 1.0\n"}
    r = srv.post("/submit", body).json()
    assert r["accepted"] is True and r["extracted_type"] is None


def test_judge_names_a_stored_problem(srv):
    """/v1/judge and batch items may name a stored problem instead of shipping its tests: the
    server builds the harness as /submit does (an answer extracted by default; extract false:
    a continuation of the prompt), with the request's own limits and reward; errors name the
    field."""
    right = "```python\ndef truncate_number(number: float) -> float:\n    return number % 1.0\n```"
    wrong = "```python\ndef truncate_number(number):\n    return number\n```"
    r = srv.post("/v1/judge", {"dataset": "humaneval", "problem": "HumanEval/2", "code": right})
    assert r.status_code == 200 and r.json()["reward"] == 1, r.text
    assert r.json()["grading"] == "isolated"
    r = srv.post("/v1/judge", {"dataset": "humaneval", "problem": "HumanEval/2", "code": wrong,
                               "limits": {"time_ms": 3000}})
    assert r.status_code == 200 and r.json()["reward"] == 0, r.text
    r = srv.post("/v1/judge", {"dataset": "humaneval", "problem": "HumanEval/2", "extract": False,
                               "code": "    return number % 1.0\n"})
    assert r.json()["reward"] == 1, r.text
    # MBPP's ids are numbers
    r = srv.post("/v1/judge", {"dataset": "mbpp", "problem": 2, "code": "```python\n"
                               "def similar_elements(a, b):\n    return tuple(set(a) & set(b))\n```"})
    assert r.status_code == 200 and r.json()["reward"] == 1, r.text
    items = [{"id": k, "dataset": "humaneval", "problem": "HumanEval/2", "code": c}
             for k, c in (("r", right), ("w", wrong))]
    items.append({"id": "missing", "dataset": "humaneval", "problem": "HumanEval/999", "code": right})
    r = srv.post("/v1/judge/batch", {"items": items}, timeout=120)
    lines = {l["id"]: l for l in map(json.loads, r.text.splitlines())}
    assert lines["r"]["result"]["reward"] == 1 and lines["w"]["result"]["reward"] == 0, lines
    assert "problem" in json.dumps(lines["missing"]["error"]), lines["missing"]

    def where(body):
        r = srv.post("/v1/judge", body)
        assert r.status_code == 422, r.text
        return r.json()["detail"][0]["loc"][1]
    assert where({"dataset": "humaneval", "problem": "HumanEval/999", "code": right}) == "problem"
    assert where({"dataset": "nope", "problem": "HumanEval/2", "code": right}) == "dataset"
    assert where({"problem": "HumanEval/2", "code": right}) == "dataset"
    assert where({"dataset": "humaneval", "problem": "HumanEval/2"}) == "code"
    assert where({"dataset": "humaneval", "problem": [1], "code": right}) == "problem"
    assert where({"dataset": "humaneval", "problem": "HumanEval/2", "code": right,
                  "tests": [{"expected": ""}]}) == "problem"
    assert where({"dataset": "humaneval", "problem": "HumanEval/2", "code": right,
                  "language": "cpp"}) == "language"


# A completion that goes on past the function, as a pretrained model's does: a helper at column
# 0, then prose (a SyntaxError were it kept).
JUNK = "\n\ndef random_helper():\n    return 1\n\nThat is the whole function.\n"


@pytest.mark.parametrize("config", [{}, {"extra": {}}, {"extra": {"is_freeform": False}},
                                    {"extra": {"is_freeform": None}}])
def test_submit_continuation_is_the_default_and_cut(srv, config):
    # SandboxFusion's pretrain mode (is_freeform missing or false): prompt + the completion cut
    # before its first line in column 0 + the tests.
    row = next(r for r in humaneval() if r["task_id"] == "HumanEval/2")
    body = {"dataset": "humaneval", "id": "HumanEval/2", "config": config,
            "completion": row["canonical_solution"] + JUNK}
    r = srv.post("/submit", body).json()
    assert r["accepted"] is True, r
    # cut where SandboxFusion's regex is, before the newline that a column-0 line follows
    assert r["extracted_code"] == row["canonical_solution"] + "\n" and r["extracted_type"] is None
    assert r["full_code"].startswith(row["prompt"] + row["canonical_solution"])
    assert "random_helper" not in r["full_code"] and "check(truncate_number)" in r["full_code"]
    # a wrong continuation is judged, and rejected
    body["completion"] = "    return number\n" + JUNK
    r = srv.post("/submit", body).json()
    assert r["accepted"] is False and r["extracted_code"] == "    return number\n\n", r
    assert r["tests"][0]["passed"] is False
    assert "AssertionError" in r["tests"][0]["exec_info"]["run_result"]["stderr"], r


def test_submit_continuation_of_provided_rows(srv):
    # rows sent inline (provided_data) continue by default too
    row = humaneval()[4]
    body = {"dataset": "humaneval_python", "id": row["task_id"], "config": {"provided_data": row},
            "completion": row["canonical_solution"] + JUNK}
    r = srv.post("/submit", body).json()
    assert r["accepted"] is True and r["extracted_code"] == row["canonical_solution"] + "\n", r


def test_submit_freeform_still_extracts(srv):
    # is_freeform true: the code is extracted from the answer, column-0 helpers and all
    body = {"dataset": "humaneval", "id": "HumanEval/2", "config": FREEFORM,
            "completion": "Here:\n```python\ndef helper(n):\n    return n % 1.0\n\n\n"
                          "def truncate_number(number):\n    return helper(number)\n```\nDone."}
    r = srv.post("/submit", body).json()
    assert r["accepted"] is True and r["extracted_type"] == "fenced", r
    assert r["extracted_code"].startswith("def helper(n):") and "def truncate_number" in r["extracted_code"]
    # the same fenced answer as a continuation is the prompt followed by a fence: not Python
    body["config"] = {}
    r = srv.post("/submit", body).json()
    assert r["accepted"] is False and r["extracted_type"] is None, r
    # MBPP (no pretrain mode in SandboxFusion) still extracts by default: test_submit_mbpp_by_number


def test_submit_mbpp_by_number(srv):
    code = "def remove_Occ(s, ch):\n    s = s.replace(ch, '', 1)\n    i = s.rfind(ch)\n    return s if i < 0 else s[:i] + s[i+1:]\n"
    r = srv.post("/submit", {"dataset": "mbpp", "id": 11, "config": {},
                             "completion": f"```python\n{code}```"}).json()
    assert r["id"] == 11 and r["accepted"] is True, r


def test_errors(srv):
    r = srv.post("/submit", {"dataset": "nope", "id": 1, "completion": "x", "config": {}})
    assert r.status_code == 400 and r.json() == {"detail": "no eval class found for dataset nope"}
    r = srv.post("/submit", {"dataset": "humaneval", "id": "HumanEval/0", "completion": "x",
                             "config": {"custom_extract_logic": "submit_code_blocks([])"}})
    assert r.status_code == 422
    assert r.json()["detail"][0]["loc"] == ["body", "config", "custom_extract_logic"]
    r = srv.post("/submit", {"dataset": "humaneval", "id": "HumanEval/0", "config": {}})
    assert r.status_code == 422 and r.json()["detail"][0]["loc"] == ["body", "completion"]
    r = srv.post("/submit", {"id": "HumanEval/0", "completion": "x", "config": {}})
    assert r.status_code == 422 and r.json()["detail"][0]["loc"] == ["body", "dataset"]
    r = srv.post("/submit", {"dataset": "humaneval", "id": "HumanEval/0", "completion": "x", "config": 3})
    assert r.status_code == 422 and r.json()["detail"][0]["loc"] == ["body", "config"]
    r = srv.post("/submit", {"dataset": "humaneval", "id": "HumanEval/0", "completion": "x",
                             "config": {"language": "cpp"}})
    assert r.status_code == 422 and "language must be python" in r.json()["detail"][0]["msg"]
    r = srv.post("/get_prompts", {"dataset": "x", "config": {"provided_data": {"a": 1}}})
    assert r.status_code == 400 and "provided_data" in r.json()["detail"]


def test_submit_refuses_nul(srv):
    # /submit read its body without the NUL check every judging route makes: "\u0000" in a
    # completion cut it short. It is a 422 naming the member, as on /run_code.
    row = humaneval()[5]
    body = {"dataset": "anything", "id": row["task_id"], "config": {"provided_data": row},
            "completion": row["canonical_solution"] + "\u0000    return None\n"}
    r = srv.post("/submit", body)
    assert r.status_code == 422, r.text
    assert r.json()["detail"][0]["loc"] == ["body", "completion"], r.text


def test_provided_data(srv):
    row = humaneval()[5]
    body = {"dataset": "anything", "id": row["task_id"],
            "config": {"provided_data": row, **FREEFORM},
            "completion": "```python\n" + row["prompt"] + row["canonical_solution"] + "```"}
    r = srv.post("/submit", body).json()
    assert r["accepted"] is True and r["id"] == row["task_id"]
    ps = srv.post("/get_prompts", {"dataset": "anything", "config": {"provided_data": humaneval()[:3]}}).json()
    assert [p["id"] for p in ps] == ["HumanEval/0", "HumanEval/1", "HumanEval/2"]
    ps = srv.post("/get_prompts", {"dataset": "anything", "offset": 1, "limit": 1,
                                   "config": {"provided_data": humaneval()[:3]}}).json()
    assert [p["id"] for p in ps] == ["HumanEval/1"]
    ids = srv.post("/list_ids", {"dataset": "anything", "config": {"provided_data": humaneval()[:2]}}).json()
    assert ids == ["HumanEval/0", "HumanEval/1"]
    r = srv.post("/submit", {"dataset": "anything", "id": 1, "completion": "x",
                             "config": {"provided_data": {"question": "?"}}})
    assert r.status_code == 400 and "unknown shape" in r.json()["detail"]


def test_bench_against_the_server(srv, tmp_path):
    rows = humaneval()[:6]
    samples = tmp_path / "samples.jsonl"
    with open(samples, "w") as f:
        for i, row in enumerate(rows):
            f.write(json.dumps({"task_id": row["task_id"], "completion": row["canonical_solution"]}) + "\n")
            f.write(json.dumps({"task_id": row["task_id"],
                                "completion": row["canonical_solution"] if i % 2 else "    pass\n"}) + "\n")
    out = tmp_path / "results.jsonl"
    p = subprocess.run([*VERDICT_CMD, "bench", "humaneval", str(samples), "--server", srv.url,
                        "--db", srv.cache + "/verdict.db", "-k", "1,2", "--out", str(out),
                        "--summary", "json"], capture_output=True, text=True, timeout=300)
    assert p.returncode == 0, p.stderr
    d = json.loads(p.stdout)
    # 3 problems with 2 of 2 passing, 3 with 1 of 2: pass@1 = (3*1 + 3*0.5)/6, pass@2 = 1.
    assert d["pass_at_k"] == {"1": 0.75, "2": 1.0}
    # "pass" answers None: a check fails on the answer (WA), nothing the program raised (RE)
    assert d["verdicts"]["OK"] == 9 and d["verdicts"]["WA"] == 3
    lines = [json.loads(l) for l in open(out)]
    assert len(lines) == 12 and sum(l["passed"] for l in lines) == 9
    failed = [l for l in lines if not l["passed"]]
    assert all(l["verdict"] == "WA" and l["failed_test"] == 0 for l in failed)


def test_restart_does_not_parse_again(srv):
    s = Server(cells=1, extra=("--datasets", srv.data, "--db", srv.cache + "/verdict.db"))
    try:
        names = s.post("/list_ids", {"dataset": "humaneval", "config": {}}).json()
        assert len(names) == 164
    finally:
        code, left = s.stop()
    assert code == 0 and not left


def test_metrics_count_submissions(srv):
    before = requests.get(srv.url + "/metrics", timeout=10).text
    body = {"dataset": "humaneval", "id": "HumanEval/2", "config": FREEFORM,
            "completion": "```python\ndef truncate_number(number):\n    return number % 1.0\n```"}
    assert srv.post("/submit", body).json()["accepted"] is True
    after = requests.get(srv.url + "/metrics", timeout=10).text

    def value(text, prefix):
        return sum(float(l.rsplit(" ", 1)[1]) for l in text.splitlines() if l.startswith(prefix))
    assert value(after, 'verdict_requests_total{route="/submit",status="200"}') == \
        value(before, 'verdict_requests_total{route="/submit",status="200"}') + 1
    assert value(after, 'verdict_verdicts_total{language="python",verdict="OK"}') == \
        value(before, 'verdict_verdicts_total{language="python",verdict="OK"}') + 1


# ---- a large dataset: linear reads, and dataset work off the HTTP thread -------------------
BIG = 20000


@pytest.fixture(scope="module")
def big():
    """A server over a generated 20,000-row HumanEval-shaped dataset (prompts of ~600 bytes,
    so that /get_prompts of all of it builds and sends about 12 MB)."""
    if os.geteuid() != 0:
        pytest.skip("the sandbox needs root")
    d = tempfile.mkdtemp(prefix="verdict-big-", dir="/var/tmp")
    with open(d + "/big.jsonl", "w") as f:
        for i in range(BIG):
            f.write(json.dumps({
                "task_id": f"HumanEval/{i}", "entry_point": f"f{i}",
                "prompt": f"def f{i}(x):\n    \"\"\"" + "Returns x. " * 50 + "\"\"\"\n",
                "canonical_solution": "    return x\n",
                "test": "def check(c):\n    assert c(1) == 1\n"}) + "\n")
    t0 = time.monotonic()
    s = Server(cells=1, extra=("--datasets", d))  # imports big.jsonl before it serves
    s.import_s = time.monotonic() - t0
    yield s
    code, left = s.stop()
    subprocess.run(["rm", "-rf", d])
    assert code == 0 and not left


def test_large_dataset_lists(big):
    assert big.import_s < 60  # 20,000 rows: the cubic import took hours
    t0 = time.monotonic()
    ids = big.post("/list_ids", {"dataset": "big", "config": {}}).json()
    assert len(ids) == BIG and ids[0] == "HumanEval/0" and ids[-1] == f"HumanEval/{BIG - 1}"
    ps = big.post("/get_prompts", {"dataset": "big", "config": {}, "offset": BIG - 10}).json()
    assert [p["id"] for p in ps] == [f"HumanEval/{i}" for i in range(BIG - 10, BIG)]
    one = big.post("/get_prompt_by_id", {"dataset": "big", "config": {}, "id": "HumanEval/777"})
    assert one.json()["prompt"].startswith("def f777(x)")
    assert time.monotonic() - t0 < 30


# The whole-dataset requests of test_ping_stays_fast_during_dataset_requests, in a process of
# their own: parsing 20,000 prompts holds a Python thread's GIL for tenths of a second, which a
# ping from a thread beside it would wait for and count as the server's.
HEAVY = """
import json, sys, time, requests
url, big = sys.argv[1], int(sys.argv[2])
start, n = time.monotonic(), 0
while n < 40 and (n < 4 or time.monotonic() - start < 1.5):  # 4 to 40 requests, at least 1.5 s
    route = ("/get_prompts", "/list_ids")[n % 2]
    r = requests.post(url + route, json={"dataset": "big", "config": {}}, timeout=300)
    assert r.status_code == 200 and len(r.json()) == big, (route, r.status_code)
    n += 1
"""


def test_ping_stays_fast_during_dataset_requests(big):
    """The HTTP thread only queues dataset requests: while whole-dataset /get_prompts and
    /list_ids are being answered (on a worker), /v1/ping answers at once. Before, they ran on
    the HTTP thread (SQLite, then quadratic loops) and every ping waited for them."""
    heavy = subprocess.Popen(["/usr/bin/python3", "-c", HEAVY, big.url, str(BIG)],
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    during = []
    deadline = time.monotonic() + 300
    while heavy.poll() is None and time.monotonic() < deadline:
        t0 = time.monotonic()
        assert requests.get(big.url + "/v1/ping", timeout=300).status_code == 200
        if heavy.poll() is None:  # answered while a dataset request was still in progress
            during.append(time.monotonic() - t0)
        time.sleep(0.02)
    out, errs = heavy.communicate(timeout=300)
    assert heavy.returncode == 0, errs
    assert len(during) >= 10, f"the dataset requests ended too soon to measure: {during}"
    # Had the HTTP thread done the dataset work, nearly every ping sent during it would wait
    # for the rest of a request (tenths of a second to seconds). On two busy cores, and under a
    # sanitizer, one ping in a while still waits for a CPU: the median and the 90th percentile
    # are the measure, not the slowest.
    during.sort()
    median, p90 = during[len(during) // 2], during[len(during) * 9 // 10]
    assert median < 0.1 and p90 < 0.5, f"pings waited behind dataset work: median {median:.3f} s, " \
                                       f"p90 {p90:.3f} s, slowest {during[-5:]}"
