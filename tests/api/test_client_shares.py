"""Per-client shares that a header cannot multiply: a client is its address and its label
(X-Verdict-Client); the labels of one address share one --client-share of the queue and one
--client-bytes of the request bytes, and one --client-sessions of the sessions; behind a
balancer (--trusted-proxy) the forwarded address is the client's. Labels are made valid UTF-8
wherever they are shown. A session that fills its own disk gets its own verdict, not SE.

Before this (at 1756383): 12 requests under 12 labels from one address were all admitted
against a share of 4 (the server answered no 503); --client-bytes, --trusted-proxy and
--client-sessions were unknown options (the servers did not start); a label of invalid UTF-8
made GET /v1/submissions and GET /v1/sessions answer bytes that are not JSON
(UnicodeDecodeError); a session that filled its work dir got SE ("write job file: No space
left on device") for its next call's file."""
import base64
import concurrent.futures
import json
import os

import pytest
import requests

from conftest import Server, wait_for

# A program that holds the server's one CPU worker for a while (in the sandbox), so that what
# comes meanwhile queues.
HOLD = "import time\ntime.sleep({s})\nprint('held')"


@pytest.fixture(scope="module")
def root():
    if os.geteuid() != 0:
        pytest.skip("the sandbox needs root")


def judge(s, code, headers=None, pad=0, timeout=60):
    body = {"language": "python", "code": code + ("\n#" + "x" * pad if pad else ""),
            "tests": [{"stdin": "", "expected": ""}]}
    return requests.post(s.url + "/v1/judge", json=body, headers=headers or {}, timeout=timeout)


def holding(s, pool, seconds):
    """Starts a request that holds the one CPU worker; returns its future once it runs."""
    held = pool.submit(judge, s, HOLD.format(s=seconds), {"X-Verdict-Client": "holder"})
    wait_for("the held request to run",
             lambda: s.get_json("/healthz")["queue"]["running"] >= 1, timeout=30)
    return held


def burst(s, pool, n, headers_of):
    """n requests at once, request i with headers_of(i); their answers."""
    futs = [pool.submit(judge, s, f"print({i})", headers_of(i)) for i in range(n)]
    return [f.result() for f in futs]


def refused(answers, reason):
    out = [r for r in answers if r.status_code == 503]
    for r in out:
        assert r.headers.get("Retry-After") == "1", r.headers
        assert r.json()["reason"] == reason, r.text
    return len(out)


@pytest.fixture(scope="module")
def direct(root):
    """No trusted proxy: X-Forwarded-For is anyone's to send, so it is ignored."""
    s = Server(cells=1, extra=["--client-share", "4", "--max-sessions", "4"])
    yield s
    code, left = s.stop()
    assert code == 0 and not left


def test_labels_share_their_address(direct):
    with concurrent.futures.ThreadPoolExecutor(16) as pool:
        held = holding(direct, pool, 4)
        # 12 labels and a forged forwarded address, all from 127.0.0.1: one share of 4
        answers = burst(direct, pool, 12, lambda i: {"X-Verdict-Client": f"rotating-{i}",
                                                      "X-Forwarded-For": f"203.0.113.{i}"})
        assert held.result().status_code == 200
    ok = sum(r.status_code == 200 for r in answers)
    assert refused(answers, "client_share") == 12 - ok, [r.text for r in answers]
    q = direct.get_json("/healthz")["queue"]
    assert q["client_share"] == 4 and q["refused"]["client_share"] == 12 - ok, q
    assert ok <= 5, ok  # the share (4), and one more only if the held request ended first
    detail = next(r.json()["detail"] for r in answers if r.status_code == 503)
    assert "--client-share" in detail, detail


def test_client_sessions(direct):
    """--max-sessions 4: one address holds at most three (max(1, 3/4 of 4)), whatever its
    labels, so that another address always finds one."""
    ids = []
    try:
        for label in "abc":
            r = requests.post(direct.url + "/v1/sessions", json={},
                              headers={"X-Verdict-Client": label}, timeout=60)
            assert r.status_code == 201, r.text
            ids.append(r.json()["id"])
        assert all(len(sid) == 40 for sid in ids), ids  # 8 of the run, then 128 random bits
        r = requests.post(direct.url + "/v1/sessions", json={},
                          headers={"X-Verdict-Client": "d"}, timeout=60)
        assert r.status_code == 429, r.text
        assert r.json()["reason"] == "client_sessions", r.text
        assert "--client-sessions" in r.json()["detail"], r.text
    finally:
        for sid in ids:
            requests.delete(f"{direct.url}/v1/sessions/{sid}", timeout=60)
    r = requests.post(direct.url + "/v1/sessions", json={}, timeout=60)  # closed: room again
    assert r.status_code == 201, r.text
    requests.delete(f"{direct.url}/v1/sessions/{r.json()['id']}", timeout=60)


def shown(r):
    """The answer as text when it is JSON (strictly: bytes that are not UTF-8 raise) and shows
    the label's valid part, else None."""
    assert r.status_code == 200, r.text
    text = json.dumps(json.loads(r.content), ensure_ascii=False)
    return text if "ok-é" in text else None


def test_labels_are_valid_utf8(direct):
    label = b"bad\xff\xfe-\xc3(-\xed\xa0\x80-" + "ok-é".encode()
    r = requests.post(direct.url + "/run_code", json={"code": "print(1)", "language": "python"},
                      headers={"X-Verdict-Client": label}, timeout=60)
    assert r.status_code == 200, r.text
    r = requests.post(direct.url + "/v1/sessions", json={}, headers={"X-Verdict-Client": label},
                      timeout=60)
    assert r.status_code == 201, r.text
    sid = json.loads(r.content)["id"]
    try:
        for path in ("/v1/sessions", f"/v1/sessions/{sid}", "/v1/submissions?limit=5"):
            # the store writes behind the answer: wait for the record (bounded)
            text = wait_for(path, lambda: shown(requests.get(direct.url + path, timeout=30)))
            assert "\ufffd" in text, (path, text)
    finally:
        requests.delete(f"{direct.url}/v1/sessions/{sid}", timeout=60)


def test_session_that_fills_its_disk_is_not_se(direct):
    r = requests.post(direct.url + "/v1/sessions", json={}, timeout=60)
    assert r.status_code == 201, r.text
    sid = r.json()["id"]
    url = f"{direct.url}/v1/sessions/{sid}"
    try:
        # files of 8 MiB (each under the 16 MiB file size limit) until the work dir is full
        fill = ("try:\n    for i in range(64):\n        with open(f'fill{i}', 'wb') as f:\n"
                "            for _ in range(8):\n                f.write(b'x' * (1 << 20))\n"
                "except OSError as e:\n    errno = e.errno\n")
        d = requests.post(url + "/exec", json={"code": fill}, timeout=120).json()
        assert d["verdict"] != "SE", d
        d = requests.post(url + "/exec", timeout=60, json={
            "code": "print(open('new.txt').read())",
            "files": {"new.txt": base64.b64encode(b"x" * 65536).decode()}}).json()
        assert d["verdict"] == "RE", d  # the session's doing: never SE
        assert "No space left on device" in d["message"], d
        assert "disk is full" in d["message"], d
    finally:
        requests.delete(url, timeout=60)


def test_session_totals_between_calls(direct):
    """A background process spends the session's CPU (1.5 s) between calls and is killed for
    it: GET shows cpu_spent and the CPU it took without another call (it kept showing the
    last call's figures)."""
    r = requests.post(direct.url + "/v1/sessions", json={"limits": {"cpu_ms": 1500}}, timeout=60)
    assert r.status_code == 201, r.text
    sid = r.json()["id"]
    url = f"{direct.url}/v1/sessions/{sid}"
    try:
        spin = ("import subprocess, sys\n"
                "subprocess.Popen([sys.executable, '-c', 'while True: pass'])\n")
        d = requests.post(url + "/exec", json={"code": spin}, timeout=60).json()
        assert d["verdict"] == "OK", d
        g = wait_for("cpu_spent in GET", lambda: (lambda g: g if g["cpu_spent"] else None)(
            requests.get(url, timeout=30).json()), timeout=60, step=0.2)
        assert g["cpu_ms"] >= 1000 and g["calls"] == 1, g
    finally:
        requests.delete(url, timeout=60)


@pytest.fixture(scope="module")
def proxied(root):
    """Behind a balancer at 127.0.0.1: the forwarded address is the client's."""
    s = Server(cells=1, extra=["--client-share", "4", "--trusted-proxy", "10.9.9.9,127.0.0.0/8",
                               "--max-body", "1M", "--queue-bytes", "4M", "--client-bytes", "1M"])
    yield s
    code, left = s.stop()
    assert code == 0 and not left


def test_forwarded_addresses_are_clients(proxied):
    def fwd(addr):
        # the client's own X-Forwarded-For first, the balancer's appended address last
        return lambda i: {"X-Verdict-Client": f"l{i}", "X-Forwarded-For": f"1.2.3.4, {addr}"}

    with concurrent.futures.ThreadPoolExecutor(16) as pool:
        held = holding(proxied, pool, 4)
        one = [pool.submit(judge, proxied, f"print({i})", fwd("198.51.100.1")(i))
               for i in range(6)]
        two = [pool.submit(judge, proxied, f"print({i})", fwd("198.51.100.2")(i))
               for i in range(4)]
        one, two = [f.result() for f in one], [f.result() for f in two]
        assert held.result().status_code == 200
    assert refused(one, "client_share") >= 1, [r.text for r in one]  # 6 > 4 from one address
    assert all(r.status_code == 200 for r in two), [r.text for r in two]  # 4: its own share


def test_client_bytes(proxied):
    """--client-bytes 1M of --queue-bytes 4M: one address's big requests stop at 1 MiB, and
    another's request still fits (one client held 255 of 256 MiB before)."""
    pad = 600 << 10
    with concurrent.futures.ThreadPoolExecutor(16) as pool:
        held = holding(proxied, pool, 4)
        mine = [pool.submit(judge, proxied, f"print({i})", {"X-Real-IP": "198.51.100.7",
                                                            "X-Verdict-Client": f"b{i}"}, pad)
                for i in range(3)]
        other = pool.submit(judge, proxied, "print(1)", {"X-Real-IP": "198.51.100.8"}, pad)
        mine, other = [f.result() for f in mine], other.result()
        assert held.result().status_code == 200
    assert other.status_code == 200, other.text
    n = refused(mine, "client_bytes")
    assert n >= 2, [r.text for r in mine]  # at most one 600 KiB request within 1 MiB
    detail = next(r.json()["detail"] for r in mine if r.status_code == 503)
    assert "--client-bytes" in detail, detail


def test_bad_trusted_proxy(root):
    with pytest.raises(AssertionError, match="not-an-address"):
        Server(cells=1, extra=["--trusted-proxy", "10.0.0.1,not-an-address"])
