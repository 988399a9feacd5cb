"""Request fields whose entries are skipped or deduplicated (fetch_files repeats, /run_code's
null files) are walked in linear time: the parser runs on the one HTTP thread, and a walk by
index made a 1 MB body of 200,000 entries hold it for most of a minute (100,000: 13 s), every
other client waiting. Loopback only; the programs are print(1)."""
import threading
import time

import requests


N = 200000


def timed_with_ping(srv, body):
    """Posts body to /run_code; meanwhile pings. Returns (status, seconds, slowest ping)."""
    out = {}

    def go():
        t0 = time.monotonic()
        out["status"] = requests.post(srv.url + "/run_code", json=body, timeout=600).status_code
        out["s"] = time.monotonic() - t0

    t = threading.Thread(target=go)
    t.start()
    pings = []
    while t.is_alive():
        t0 = time.monotonic()
        requests.get(srv.url + "/v1/ping", timeout=600)
        pings.append(time.monotonic() - t0)
        time.sleep(0.05)
    t.join()
    return out["status"], out["s"], max(pings, default=0)


def test_repeated_fetch_files(server):
    body = {"code": "print(1)", "language": "python", "fetch_files": ["out.txt"] * N}
    status, s, ping = timed_with_ping(server, body)
    assert status == 200 and s < 10 and ping < 2, (status, s, ping)


def test_many_null_files(server):
    body = {"code": "print(1)", "language": "python",
            "files": {f"f{i}": None for i in range(N)}}
    status, s, ping = timed_with_ping(server, body)
    assert status == 200 and s < 10 and ping < 2, (status, s, ping)
