"""The HTTP transport under a hostile client, over raw sockets to a real `verdict serve` on
127.0.0.1: ambiguous framing refused with one answer and the connection closed (never the
request hidden in the body served), a short timeout for idle connections and unfinished
heads but not for a request waiting for its verdict, a per-peer connection cap, and a
per-peer budget for streamed answers the client does not read.

Other loopback addresses (127.0.0.2..) stand for other peers: a client socket bound to one
before it connects to 127.0.0.1."""
import json
import os
import re
import socket
import time

import pytest
import requests

from conftest import Server, wait_for

TIMEOUT_S = 2      # the server's --idle-timeout here
PEER_CAP = 4       # its --peer-connections
CONNECTIONS = 16   # its --connections
STREAM_BUDGET = 4  # its --peer-stream-bytes, MiB


@pytest.fixture(scope="module")
def server():
    if os.geteuid() != 0:
        pytest.skip("the sandbox needs root")
    # Under AddressSanitizer freed blocks wait in a quarantine (256 MiB by default), which would
    # read as held memory in the RSS test: a small one keeps the figure the server's own.
    asan = ":".join(filter(None, [os.environ.get("ASAN_OPTIONS"), "quarantine_size_mb=16"]))
    s = Server(cells=2, extra=["--idle-timeout", str(TIMEOUT_S), "--connections", str(CONNECTIONS),
                               "--peer-connections", str(PEER_CAP),
                               "--peer-stream-bytes", f"{STREAM_BUDGET}M", "--store", "off"],
               env={"ASAN_OPTIONS": asan})
    yield s
    code, _ = s.stop()
    assert code == 0, "server did not stop cleanly"


def port_of(server):
    return int(server.url.rsplit(":", 1)[1])


def connect(server, src="127.0.0.1", rcvbuf=None):
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    if rcvbuf:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, rcvbuf)
    sock.bind((src, 0))
    sock.connect(("127.0.0.1", port_of(server)))
    return sock


def read_to_eof(sock, limit=30):
    """Everything the server sends until it closes (EOF or reset), and whether it closed
    within limit seconds."""
    data = b""
    deadline = time.monotonic() + limit
    while time.monotonic() < deadline:
        sock.settimeout(max(0.05, deadline - time.monotonic()))
        try:
            chunk = sock.recv(65536)
        except socket.timeout:
            break
        except ConnectionResetError:
            return data, True
        if not chunk:
            return data, True
        data += chunk
    return data, False


def statuses(data):
    """The status codes of every response in data (status lines at line starts)."""
    return [int(m.group(1)) for m in re.finditer(rb"HTTP/1\.[01] (\d{3}) ", data)]


SMUGGLED = b"GET /healthz HTTP/1.1\r\nHost: localhost\r\n\r\n"
PIPELINED = b"GET /v1/ping HTTP/1.1\r\nHost: localhost\r\n\r\n"


def head(*lines):
    return b"POST /v1/ping HTTP/1.1\r\nHost: localhost\r\n" + b"".join(l + b"\r\n" for l in lines) + b"\r\n"


# Each: the head's framing lines, the body (carrying a second request), the status, the
# header the answer names.
AMBIGUOUS = {
    "cl_and_te": ([b"Content-Length: %d" % (5 + len(SMUGGLED)), b"Transfer-Encoding: chunked"],
                  b"0\r\n\r\n" + SMUGGLED, 400, "Content-Length"),
    "te_and_cl": ([b"Transfer-Encoding: chunked", b"Content-Length: 5"],
                  b"0\r\n\r\n" + SMUGGLED, 400, "Content-Length"),
    "two_cl_differing": ([b"Content-Length: 0", b"Content-Length: %d" % len(SMUGGLED)],
                         SMUGGLED, 400, "Content-Length"),
    "two_cl_same": ([b"Content-Length: %d" % len(SMUGGLED)] * 2, SMUGGLED, 400,
                    "Content-Length"),
    "folded_cl": ([b"Content-Length:", b" %d" % len(SMUGGLED)], SMUGGLED, 400, "Content-Length"),
    "folded_other": ([b"Content-Length: %d" % len(SMUGGLED), b"X-Note: a", b"\tb"], SMUGGLED,
                     400, "X-Note"),
    "te_gzip": ([b"Transfer-Encoding: gzip"], SMUGGLED, 501, "Transfer-Encoding"),
    "te_gzip_chunked": ([b"Transfer-Encoding: gzip, chunked"], b"0\r\n\r\n" + SMUGGLED, 501,
                        "Transfer-Encoding"),
    "two_te": ([b"Transfer-Encoding: chunked", b"Transfer-Encoding: chunked"],
               b"0\r\n\r\n" + SMUGGLED, 400, "Transfer-Encoding"),
    "space_before_colon": ([b"Content-Length : %d" % len(SMUGGLED)], SMUGGLED, 400,
                           "Content-Length "),
}


@pytest.mark.parametrize("case", sorted(AMBIGUOUS))
def test_ambiguous_framing_is_refused_and_closed(server, case):
    lines, body, status, header = AMBIGUOUS[case]
    sock = connect(server)
    try:
        sock.sendall(head(*lines) + body + PIPELINED)
        data, closed = read_to_eof(sock)
    finally:
        sock.close()
    assert closed, f"the connection stayed open: {data[:300]!r}"
    assert statuses(data) == [status], data[:600]
    head_part, _, answer = data.partition(b"\r\n\r\n")
    assert re.search(rb"\r\nConnection: close\r\n", head_part, re.I), head_part
    # a folded line reads as the name with the continuation joined to it
    assert json.loads(answer)["header"].startswith(header), answer
    assert b"healthz" not in data and b"pong" not in data.lower()


def test_content_length_not_digits_is_refused(server):
    """libmicrohttpd answers these itself, before any handler is called: 400 with its own page
    naming the header (0.9.75 sends its head twice), and closes."""
    for value in (b"+5", b"5 5", b"0x5", b"-1", b"5,5"):
        sock = connect(server)
        try:
            sock.sendall(head(b"Content-Length: " + value) + SMUGGLED + PIPELINED)
            data, closed = read_to_eof(sock)
        finally:
            sock.close()
        assert closed, value
        assert statuses(data)[:1] == [400] and set(statuses(data)) == {400}, (value, data[:300])
        assert b"Content-Length" in data and b"healthz" not in data


def test_plain_framing_still_served(server):
    """Pipelined requests on one keep-alive connection, and a chunked body, are answered."""
    sock = connect(server)
    try:
        body = json.dumps({"code": "print(6 * 7)", "language": "python"}).encode()
        chunked = b"%x\r\n%s\r\n0\r\n\r\n" % (len(body), body)
        sock.sendall(PIPELINED + b"POST /run_code HTTP/1.1\r\nHost: localhost\r\nContent-Type: "
                     b"application/json\r\nTransfer-Encoding: chunked\r\n\r\n" + chunked +
                     PIPELINED.replace(b"\r\n\r\n", b"\r\nConnection: close\r\n\r\n"))
        data, closed = read_to_eof(sock, limit=60)
    finally:
        sock.close()
    assert closed
    assert statuses(data) == [200, 200, 200], data[:600]
    assert b'"stdout":"42\\n"' in data


def test_idle_and_unfinished_heads_time_out(server):
    """A keep-alive connection left idle, and a head never finished, are closed after the
    short timeout (bounded generously: the point is seconds, not the 600 s of old)."""
    idle = connect(server)
    half = connect(server)
    try:
        idle.sendall(PIPELINED)
        half.sendall(b"GET /v1/ping HTTP/1.1\r\nHost: localhost\r\n")
        t0 = time.monotonic()
        data, closed = read_to_eof(idle, limit=30)
        assert closed and statuses(data) == [200]
        data, closed = read_to_eof(half, limit=30)
        assert closed and data == b""
        assert time.monotonic() - t0 < 30
    finally:
        idle.close()
        half.close()


def test_waiting_request_outlives_the_timeout(server):
    """A request whose program runs longer than the idle timeout still gets its answer: its
    connection is suspended, not idle."""
    sleep_s = 2 * TIMEOUT_S + 1
    r = server.post("/run_code", {"code": f"import time\ntime.sleep({sleep_s})\nprint('woke')",
                                  "language": "python", "run_timeout": 30}, timeout=120)
    assert r.status_code == 200, r.text
    assert r.json()["run_result"]["stdout"] == "woke\n"


def test_client_not_reading_its_answer_is_dropped(server):
    """An answer (8 MiB of output) the client stops reading: the connection is closed after the
    short timeout, the rest of the answer never sent."""
    body = json.dumps({"code": "import sys\nsys.stdout.write('x' * (8 << 20))",
                       "language": "python"}).encode()
    sock = connect(server, src="127.0.0.6", rcvbuf=4096)
    try:
        sock.sendall(b"POST /run_code HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n"
                     b"Content-Length: %d\r\n\r\n" % len(body) + body)
        sock.settimeout(60)
        first = sock.recv(4096)  # the answer has begun
        assert statuses(first) == [200], first[:200]
        # not reading now; once closed, what the socket buffers held, then EOF
        wait_for("the server to drop the connection", lambda: not peer_has(server, "127.0.0.6"),
                 timeout=60, step=0.2)
        data, closed = read_to_eof(sock, limit=30)
        assert closed
        assert len(first) + len(data) < 8 << 20
    finally:
        sock.close()


def peer_has(server, addr):
    """Whether the server's process still holds a TCP connection from addr (its sockets in
    /proc/net/tcp, by inode)."""
    inodes = set()
    for fd in os.listdir(f"/proc/{server.proc.pid}/fd"):
        try:
            link = os.readlink(f"/proc/{server.proc.pid}/fd/{fd}")
        except OSError:
            continue
        if link.startswith("socket:["):
            inodes.add(link[8:-1])
    want = "".join(f"{int(b):02X}" for b in reversed(addr.split(".")))
    with open("/proc/net/tcp") as f:
        for line in f.readlines()[1:]:
            cols = line.split()
            if cols[2].split(":")[0] == want and cols[9] in inodes:
                return True
    return False


def test_one_peer_cannot_hold_every_connection():
    """One peer (127.0.0.3) opens as many connections as the server takes in all, half-sent
    heads; only PEER_CAP of them are kept, and another peer (127.0.0.2) is served at once.
    (A server of its own, with a timeout long enough that no kept connection times out.)"""
    if os.geteuid() != 0:
        pytest.skip("the sandbox needs root")
    server = Server(cells=1, extra=["--idle-timeout", "60", "--connections", str(CONNECTIONS),
                                    "--peer-connections", str(PEER_CAP)])
    socks = []
    try:
        for _ in range(CONNECTIONS):
            s = connect(server, src="127.0.0.3")
            s.sendall(b"GET /v1/ping HTTP/1.1\r\n")
            socks.append(s)
        fresh = connect(server, src="127.0.0.2")
        fresh.sendall(PIPELINED.replace(b"\r\n\r\n", b"\r\nConnection: close\r\n\r\n"))
        data, closed = read_to_eof(fresh, limit=20)
        fresh.close()
        assert statuses(data) == [200], f"another peer was not served: {data[:200]!r}"
        # Finish every head: the refused connections were closed unanswered.
        answered = refused = 0
        for s in socks:
            try:
                s.sendall(b"Host: localhost\r\nConnection: close\r\n\r\n")
            except OSError:
                refused += 1
                continue
            data, closed = read_to_eof(s, limit=20)
            if statuses(data) == [200]:
                answered += 1
            else:
                refused += 1
        assert answered <= PEER_CAP
        assert refused >= CONNECTIONS - PEER_CAP
    finally:
        for s in socks:
            s.close()
        assert server.stop()[0] == 0


def vm(pid, field):
    with open(f"/proc/{pid}/status") as f:
        return int(next(l for l in f if l.startswith(field + ":")).split()[1]) * 1024


def batches_answered(server):
    text = requests.get(server.url + "/metrics", timeout=30).text
    m = re.search(r'verdict_requests_total\{route="/v1/judge/batch",status="200"\} (\d+)', text)
    return int(m.group(1)) if m else 0


# A C program whose compile fails with 64 KiB of errors (the compile output cap): each
# answer line carries it.
LOUD_CE = ('#define E _Pragma("GCC error \\"' + "x" * 90 + '\\"")\n'
           "#define E1 E E E E E E E E E E\n#define E2 E1 E1 E1 E1 E1 E1 E1 E1 E1 E1\n"
           "#define E3 E2 E2 E2 E2 E2 E2 E2 E2 E2 E2\nE3\nint main(void) { return 0; }\n")


def batch(n):
    items = [{"id": i, "language": "c", "code": LOUD_CE, "tests": [{"stdin": "", "expected": ""}]}
             for i in range(n)]
    return json.dumps({"items": items}).encode()


def test_unread_stream_is_bounded_per_peer(server):
    """A client that never reads a batch of 4096 answers of ~64 KiB each (256 MiB): the
    server holds at most the peer's budget of it, ends that stream and closes the
    connection; a client that reads gets its whole answer."""
    pid = server.proc.pid
    before = batches_answered(server)
    hwm0 = vm(pid, "VmHWM")
    body = batch(4096)
    hog = connect(server, src="127.0.0.4", rcvbuf=4096)
    try:
        hog.sendall(b"POST /v1/judge/batch HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json"
                    b"\r\nContent-Length: %d\r\n\r\n" % len(body) + body)
        wait_for("the unread batch to be produced", lambda: batches_answered(server) > before,
                 timeout=120)
        grown = vm(pid, "VmHWM") - hwm0
        print(f"server peak RSS grew {grown >> 20} MiB")
        # the budget, plus what the batch itself costs to parse and judge (and a sanitizer's
        # shadow and quarantine): half the 256 MiB the answer would pin unbounded, at most
        assert grown < 128 << 20, f"server peak RSS grew {grown >> 20} MiB"
        r = requests.post(server.url + "/v1/judge/batch", data=batch(8),
                          headers={"Content-Type": "application/json"}, timeout=120)
        assert r.status_code == 200
        lines = [json.loads(l) for l in r.text.splitlines()]
        assert sorted(l["id"] for l in lines) == list(range(8))
        assert all(l["result"]["status"] == "CE" for l in lines)
        assert len(lines[0]["result"]["compile_output"]) > 32768
        data, closed = read_to_eof(hog, limit=60)
        assert closed, "the unread stream's connection was left open"
        assert not data.endswith(b"\r\n0\r\n\r\n"), "the cut stream looked complete"
        assert len(data) < 2 * (STREAM_BUDGET << 20) + (1 << 20)
    finally:
        hog.close()
