"""Admission: one client's big batch cannot take the whole queue
or delay another client's request by its length, and the request bytes held by waiting and
running requests are bounded (--queue-bytes: 503 with Retry-After past it).

At 8c38c95 the first test's /run_code got 503 (the batch filled the one shared queue) and
the second's server refused --queue-bytes (and held every queued body)."""
import concurrent.futures
import json
import os
import time

import pytest
import requests

import conftest
from conftest import Server


@pytest.fixture
def root():
    if os.geteuid() != 0:
        pytest.skip("the sandbox needs root")


def sleeper(i, seconds):
    # distinct programs: identical batch items would be judged once
    return f"import time\ntime.sleep({seconds})\nprint({i})"


def test_batch_cannot_starve_another_client(root):
    s = Server(cells=1, extra=["--queue", "256"])  # a client's share: max(256/4, 64) = 64
    try:
        items = [{"id": i, "language": "python", "code": sleeper(i, 0.1),
                  "tests": [{"stdin": "", "expected": str(i)}]} for i in range(300)]
        batch = requests.post(s.url + "/v1/judge/batch", json={"items": items}, stream=True,
                              headers={"X-Verdict-Client": "trainer-A"}, timeout=120)
        assert batch.status_code == 200  # headers come once every item was submitted
        start = time.monotonic()
        r = s.post("/run_code", {"code": "print(6 * 7)", "language": "python"}, timeout=60)
        waited = time.monotonic() - start
        assert r.status_code == 200, r.text  # 8c38c95: 503, the queue was full
        assert r.json()["run_result"]["stdout"] == "42\n"
        # Round robin: it waited for about one batch item, not for 64 of them (6 s and more).
        assert waited < 3.0, waited
        lines = [json.loads(l) for l in batch.iter_lines() if l]
        busy = [l for l in lines if "error" in l]
        done = [l for l in lines if "result" in l]
        assert len(lines) == 300
        assert all(l["error"]["type"] == "busy" for l in busy)
        assert 64 <= len(done) <= 80 and len(busy) == 300 - len(done)
        assert all(l["result"]["reward"] == 1 for l in done)
    finally:
        s.stop()


def test_queue_bytes_bound_answers_503(root):
    s = Server(cells=1,
               extra=["--max-body", "1M", "--queue-bytes", "2M", "--client-bytes", "2M"])
    try:
        pad = "#" + "x" * (900 << 10) + "\n"  # a 900 KiB body

        def big(i):
            return requests.post(s.url + "/run_code", timeout=60, json={
                "code": pad + sleeper(i, 1), "language": "python"})

        with concurrent.futures.ThreadPoolExecutor(4) as pool:
            bigs = [pool.submit(big, i) for i in range(4)]
            time.sleep(0.5)  # all four arrived: two held (1.8 MiB), two refused
            small = s.post("/run_code", {"code": "print(1)", "language": "python"})
            answers = [f.result() for f in bigs]
        assert small.status_code == 200, small.text  # small bodies still fit
        codes = sorted(r.status_code for r in answers)
        assert codes == [200, 200, 503, 503], codes
        for r in answers:
            if r.status_code == 503:
                assert r.headers["Retry-After"] == "1"
            else:
                assert r.json()["status"] == "Success"
        h = requests.get(s.url + "/healthz", timeout=10).json()
        assert h["queue"]["queued"] == 0
    finally:
        s.stop()


def test_queue_bytes_below_max_body_is_refused(root):
    with pytest.raises(AssertionError, match="queue-bytes"):
        Server(cells=1, extra=["--max-body", "4M", "--queue-bytes", "1M"])


def test_cells_default_to_the_usable_cpus_and_weigh_as_many(root):
    """serve's default admits as many of verdict's CPU-bound jobs at once as it has CPUs (its
    affinity here, no quota on this host's cgroup), and its cgroup tree weighs as many tasks
    (v1 cpu.shares 1024 a cell; v2 cpu.weight 100 a cell), so that busy loops beside the
    server do not outweigh all of its jobs together."""
    s = Server(cells=None)
    try:
        usable = len(os.sched_getaffinity(0))
        assert len(s.cells) == usable, (s.cells, usable)
        weights = {}
        for d in conftest.server_cgroups(s.proc.pid):
            for name, per in (("cpu.shares", 1024), ("cpu.weight", 100)):
                if os.path.exists(f"{d}/{name}"):
                    weights[d] = (int(open(f"{d}/{name}").read()), per)
        assert weights, "no cpu controller on verdict's tree"
        for d, (w, per) in weights.items():
            if os.path.basename(d).startswith("verdict-server-"):
                continue  # v2: the server's own leaf, not the jobs' tree
            assert w == (min(100 * usable, 10000) if per == 100 else 1024 * usable), (d, w)
        # a job's answer says it ran once (no load spoiled it)
        r = s.post("/v1/judge", {"language": "python", "code": "print(1)",
                                 "tests": [{"expected": "1"}]})
        assert r.status_code == 200 and r.json()["tests"][0]["reruns"] == 0, r.text
        assert 'verdict_reruns_total{reason="starved"} 0' in requests.get(s.url + "/metrics").text
    finally:
        s.stop()
