"""GET /metrics: Prometheus text that counts what the server did."""
import re

import requests

LINE = re.compile(r'^[a-z_]+(\{[a-z_]+="[^"]*"(,[a-z_]+="[^"]*")*\})? [0-9.e+-]+$')


def scrape(server):
    r = requests.get(server.url + "/metrics", timeout=10)
    assert r.status_code == 200
    assert r.headers["Content-Type"].startswith("text/plain")
    values = {}
    for line in r.text.splitlines():
        if line.startswith("#") or not line:
            continue
        assert LINE.match(line), line
        name, value = line.rsplit(" ", 1)
        values[name] = float(value)
    return values


def test_metrics_count_requests_verdicts_and_latency(server):
    server.run_code(code="print(1)", language="python")
    server.run_code(code="while True: pass", language="python", run_timeout=0.3)
    server.run_code(code="int main() { return x; }", language="cpp")
    server.post("/run_code", {"language": "python"})  # 422
    m = scrape(server)
    assert m['verdict_requests_total{route="/run_code",status="200"}'] >= 3
    assert m['verdict_requests_total{route="/run_code",status="422"}'] >= 1
    assert m['verdict_verdicts_total{language="python",verdict="OK"}'] >= 1
    assert m['verdict_verdicts_total{language="python",verdict="TLE"}'] >= 1
    assert m['verdict_verdicts_total{language="cpp",verdict="CE"}'] >= 1
    assert m["verdict_run_seconds_count"] >= 2
    assert m['verdict_run_seconds_bucket{le="+Inf"}'] == m["verdict_run_seconds_count"]
    assert m["verdict_queue_wait_seconds_count"] >= 3
    assert m["verdict_compile_cache_misses_total"] >= 1
    assert m["verdict_cells"] == 4 and m["verdict_sandbox_errors_total"] == 0


def test_metrics_count_answers_by_grading(server):
    """verdict_graded_total{grading,verdict}: one per judged answer (not per test), under how its
    tests decided it; /run_code is no judged answer; at most 4 x 9 series."""
    langs = {l["name"]: l for l in server.get_json("/v1/languages")}
    before = scrape(server)

    def judge(body):
        r = server.post("/v1/judge", body)
        assert r.status_code == 200, r.text
        return r.json()

    two = [{"stdin": "1", "expected": "1"}, {"stdin": "2", "expected": "3"}]
    assert judge({"language": "python", "code": "print(input())", "tests": two})["grading"] == "output"
    judge({"language": "python", "code": "def f(x):\n    return x\n", "harness": "assert f(2) == 2\n"})
    judge({"language": "python", "code": "def f(x):\n    return 0\n", "harness": "assert f(2) == 2\n"})
    c = judge({"language": "c", "code": "int f(int x) { return x; }\n",
               "harness": "#include <assert.h>\nint main(void) { assert(f(2) == 2); return 0; }\n"})
    server.run_code(code="print(1)", language="python")
    after = scrape(server)

    def grew(grading, verdict):
        k = f'verdict_graded_total{{grading="{grading}",verdict="{verdict}"}}'
        return after.get(k, 0) - before.get(k, 0)

    assert grew("output", "WA") == 1 and grew("output", "OK") == 0  # the answer, not its tests
    assert grew("isolated", "OK") == 1 and grew("isolated", "WA") == 1
    assert grew(langs["c"]["harness_grading"], "OK") == 1 and c["status"] == "OK"
    series = [k for k in after if k.startswith("verdict_graded_total")]
    assert all('grading="none"' not in k for k in series)
    assert len(series) <= 4 * 9
