"""The integrity suite's server: a real `verdict serve` on 127.0.0.1 (a free port) with the
benchmark datasets imported at start (../shared/datasets, VERDICT_TEST_DATA, and problems/),
shared by every module of tests/integrity. Every attack is a wrong solution sent as a real
submission; the helpers here send them in parallel (bounded by the server's cells) and say
whether one got reward 1."""
import collections
import concurrent.futures
import importlib.util
import json
import os
import shutil
import tempfile
import textwrap
import threading

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
# The benchmark data: $VERDICT_TEST_DATA, else ../shared/datasets beside the checkout, else
# the machines' /work/shared/datasets.
DATA = next((d for d in (os.environ.get("VERDICT_TEST_DATA"),
                         os.path.join(ROOT, "../shared/datasets"), "/work/shared/datasets")
             if d and os.path.isdir(d)), "/work/shared/datasets")
CELLS = 4
# The data the server imports: every source of DATA but CUDA (torch bundles, not ours to run),
# and verdict's own stdin/stdout problems.
SOURCES = ("HumanEval.jsonl.gz", "mbpp", "humaneval-x", "mceval", "multipl-e", "stdio")
# MultiPL-E's other languages (more-datasets beside DATA), imported with the rest where they
# exist: their files join DATA's in one multipl-e directory.
MORE = os.path.join(os.path.dirname(os.path.abspath(DATA)), "more-datasets", "multipl-e")


_spec = importlib.util.spec_from_file_location("api_conftest",
                                               os.path.join(HERE, "..", "api", "conftest.py"))
_api = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_api)


class Server(_api.Server):
    """tests/api/conftest.py's server with the datasets imported at start; its later stdout
    and stderr are read and dropped as they come (a full pipe would stop the server)."""

    def __init__(self, datasets, cells=CELLS):
        super().__init__(cells=cells, extra=("--datasets", datasets))
        for pipe in (self.proc.stdout, self.proc.stderr):
            threading.Thread(target=lambda p=pipe: collections.deque(p, maxlen=0),
                             daemon=True).start()


@pytest.fixture(scope="session")
def srv():
    if os.geteuid() != 0:
        pytest.skip("the sandbox needs root")
    if not os.path.exists(os.path.join(DATA, "HumanEval.jsonl.gz")):
        pytest.skip(f"no datasets at {DATA}")
    d = tempfile.mkdtemp(prefix="verdict-integrity-data-", dir="/var/tmp")
    for name in SOURCES:
        if name == "multipl-e" and os.path.isdir(MORE):
            os.mkdir(os.path.join(d, name))
            for src in (os.path.join(DATA, name), MORE):
                for f in os.listdir(src):
                    os.symlink(os.path.abspath(os.path.join(src, f)), os.path.join(d, name, f))
        elif os.path.exists(os.path.join(DATA, name)):
            os.symlink(os.path.abspath(os.path.join(DATA, name)), os.path.join(d, name))
    os.mkdir(d + "/verdict")
    os.symlink(os.path.join(ROOT, "problems/stdio"), d + "/verdict/stdio")
    s = Server(d)
    yield s
    code, left = s.stop()
    shutil.rmtree(d, ignore_errors=True)
    assert code == 0, "server did not stop cleanly"
    assert not left, f"cells outlived the server: {left}"


def code(s):
    """An attack's source, written indented in its table."""
    return textwrap.dedent(s).strip("\n") + "\n"


# ---- sending submissions ---------------------------------------------------------------------

def submit(srv, dataset, pid, code, fence="python", timeout=60, **config):
    """/submit with `code` as an answer fenced as `fence` (None: the completion as it is); the
    EvalResult (a 500, the sandbox's failure, is its {"detail"}: not judged). A fenced answer is
    sent as freeform (`extra.is_freeform`), which the HumanEval family needs: its default is
    the prompt's continuation."""
    if fence:
        config.setdefault("extra", {"is_freeform": True})
    r = srv.post("/submit", {"dataset": dataset, "id": pid, "config": config,
                             "completion": f"```{fence}\n{code}\n```" if fence else code},
                 timeout=timeout)
    assert r.status_code in (200, 500), r.text
    return r.json()


def judge(srv, body, timeout=60):
    """/v1/judge; the result."""
    r = srv.post("/v1/judge", body, timeout=timeout)
    assert r.status_code == 200, r.text
    return r.json()


def judge_batch(srv, bodies):
    """/v1/judge/batch over {id: body}; {id: result or error line}."""
    r = srv.post("/v1/judge/batch", {"items": [{"id": k, **b} for k, b in bodies.items()]},
                 timeout=600)
    assert r.status_code == 200, r.text
    lines = [json.loads(l) for l in r.text.splitlines() if l.strip()]
    refused = [l for l in lines if "result" not in l]
    assert not refused, f"items not judged: {refused}"
    got = {l["id"]: l["result"] for l in lines}
    assert set(got) == set(bodies), f"missing answers: {set(bodies) - set(got)}"
    return got


def in_parallel(fn, args):
    """fn(*a) for each a of args, as many at once as the server has cells; results in order."""
    with concurrent.futures.ThreadPoolExecutor(max_workers=CELLS) as pool:
        return list(pool.map(lambda a: fn(*a), args))


# ---- what a result says ----------------------------------------------------------------------

def judge_passed(res):
    """True when a /v1/judge result gives reward 1 (every test OK)."""
    tests = res.get("tests") or []
    total = res.get("total") or 0
    return bool(res.get("reward") == 1 or (total > 0 and res.get("passed") == total)
                or (tests and all(t.get("verdict") == "OK" for t in tests)))


def submit_passed(res):
    """True when a /submit EvalResult counts the completion as passing anywhere it can."""
    judged = res.get("extra", {}).get("judge", {})
    tests = res.get("tests") or []
    return bool(res.get("accepted") or (tests and all(t.get("passed") for t in tests))
                or res.get("extra", {}).get("verdict") == "OK"
                or (judged and judge_passed(judged)))


def judged(res):
    """The /v1/judge answer in a result (a /submit EvalResult holds it in extra.judge)."""
    return res.get("extra", {}).get("judge", {}) if "accepted" in res else res


def passed(res):
    return submit_passed(res) if "accepted" in res else judge_passed(res)


def brief(res):
    """The parts of a result that say why it failed or passed, for assertion messages."""
    j = judged(res)
    tests = [{k: t.get(k) for k in ("verdict", "reason", "exit_code", "stdout", "stderr")}
             for t in (j.get("tests") or [])[:3]]
    return json.dumps({"reward": j.get("reward"), "status": j.get("status"),
                       "message": res.get("message") or res.get("detail"), "tests": tests})[:1500]


def assert_refused(res):
    """An attack's result: judged (not refused as a request, nor lost to the sandbox), no
    reward 1, no pass flag, no test passed as a whole; and charged to the program, never SE
    (SE is the server's own fault, which a trainer may skip or retry instead of scoring)."""
    j = judged(res)
    assert j.get("tests"), "the attack was not judged: " + brief(res)
    assert not passed(res), "the attack got reward 1: " + brief(res)
    assert j.get("status") != "SE" and all(t.get("verdict") != "SE" for t in j["tests"]), \
        "the attack ended as SE, not as the program's verdict: " + brief(res)


def assert_accepted(res):
    """A control's result: the honest solution passes."""
    assert passed(res), "the reference solution failed: " + brief(res)


@pytest.fixture
def server(srv):
    """The same server, by the name tests/integrity/test_compiled.py uses."""
    return srv
