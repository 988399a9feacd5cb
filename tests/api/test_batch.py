"""POST /v1/judge/batch: NDJSON streamed in completion order, one line per item, identical
programs judged once, bad items answered on their own line."""
import json
import time

import requests

ADD = "a, b = map(int, input().split())\nprint(a + b)"


def test_batch_streams_in_completion_order(server):
    items = [
        {"id": "slow", "language": "python", "code": "import time\ntime.sleep(1.5)\nprint(3)",
         "tests": [{"stdin": "", "expected": "3"}]},
        {"id": 1, "language": "python", "code": ADD, "tests": [{"stdin": "1 2", "expected": "3"}]},
        {"id": 2, "language": "python", "code": ADD, "tests": [{"stdin": "1 2", "expected": "4"}]},
        {"id": "bad", "language": "cobol", "code": "x", "tests": [{"expected": ""}]},
    ]
    start = time.monotonic()
    r = requests.post(server.url + "/v1/judge/batch", json={"items": items}, stream=True,
                      timeout=60)
    assert r.status_code == 200
    assert r.headers["Content-Type"].startswith("application/x-ndjson")
    lines, arrival = [], {}
    for raw in r.iter_lines():
        if raw:
            line = json.loads(raw)
            lines.append(line)
            arrival[json.dumps(line["id"])] = time.monotonic() - start
    by_id = {json.dumps(l["id"]): l for l in lines}
    assert len(lines) == 4
    assert by_id['"bad"']["error"]["loc"] == ["language"]
    assert by_id["1"]["result"]["reward"] == 1
    assert by_id["2"]["result"]["reward"] == 0
    assert by_id['"slow"']["result"]["reward"] == 1
    # Streamed: the quick answers came well before the slow one finished.
    assert arrival["1"] < arrival['"slow"'] - 0.5
    assert [json.dumps(l["id"]) for l in lines][-1] == '"slow"'


def test_batch_judges_identical_programs_once(server):
    code = ('#include <cstdio>\nint main(){int a, b; scanf("%d %d", &a, &b); '
            'printf("%d\\n", a + b);}')
    item = {"language": "cpp", "code": code, "tests": [{"stdin": "20 22", "expected": "42"}]}
    before = requests.get(server.url + "/healthz").json()["compile_cache"]
    items = [dict(item, id=i) for i in range(10)]
    r = requests.post(server.url + "/v1/judge/batch", json={"items": items}, timeout=60)
    lines = [json.loads(l) for l in r.text.splitlines() if l]
    assert sorted(l["id"] for l in lines) == list(range(10))
    assert all(l["result"]["reward"] == 1 for l in lines)
    after = requests.get(server.url + "/healthz").json()["compile_cache"]
    # Judged once: one compile, and no cache lookups for the nine duplicates either.
    assert after["misses"] - before["misses"] == 1
    assert after["hits"] - before["hits"] == 0


def test_batch_validation(server):
    r = requests.post(server.url + "/v1/judge/batch", json={"items": []}, timeout=10)
    assert r.status_code == 422 and r.json()["detail"][0]["loc"] == ["body", "items"]
    r = requests.post(server.url + "/v1/judge/batch", json={"nope": 1}, timeout=10)
    assert r.status_code == 422
