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
