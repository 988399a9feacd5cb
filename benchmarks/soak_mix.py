"""The mix of benchmarks/soak.py: every request it sends, each a Case whose run(ctx, rng,
session) sends one request (or one raw exchange) and returns an Outcome: the verdict
expected, the one seen, whether it was answered as it should, and the store's submission
ids it named.

The programs are tests/sandbox/languages' (echo, hello, ce, re, tle, mle per language, pass
and fail for the test runners), the hand-written MultiPL-E completions are
tests/datasets/multiple's, and the reference solutions come from the dataset files the server
imported. build_mix weighs the cases by SHARES. Only 127.0.0.1 is contacted; every exchange
is bounded by REQ_TIMEOUT or a deadline of its own.
"""
import gzip
import json
import os
import socket
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
PROGRAMS = os.path.join(ROOT, "tests", "sandbox", "languages")
MULTIPLE = os.path.join(ROOT, "tests", "datasets", "multiple")
KNOWN_BROKEN = os.path.join(ROOT, "tests", "datasets", "known_broken.txt")
REQ_TIMEOUT = 300  # s; one request's bound (a cold JVM compile on a loaded machine)
MAX_BODY = 1 << 20  # the soak server's --max-body
FULL_SET = ("c", "cpp", "python", "go", "rust")
SLOW_COMPILE = ("scala", "kotlin_script")  # about 5 s of CPU a compile: no CE case
JVM = ("java", "scala", "kotlin_script")
TEST_RUNNERS = ("go_test", "rust_test", "d_ut", "pytest", "junit", "jest")
CHEAP = ("c", "cpp", "python")


# ---- outcomes ----------------------------------------------------------------------------


class Outcome:
    """What one request of the mix came to: the table's row (kind, case), the verdict expected
    and the one seen, whether it was answered as it should (once, well formed), the submission
    ids it named, and how many more rows it may have made without naming them (a cut stream)."""
    __slots__ = ("kind", "case", "expect", "got", "answered", "ids", "unnamed", "detail",
                 "recorded")

    def __init__(self, kind, case, expect):
        self.kind, self.case, self.expect = kind, case, expect
        self.got, self.answered, self.ids, self.unnamed, self.detail = None, True, [], 0, ""
        self.recorded = 0  # submissions this request should have named

    def fail(self, got, detail):
        self.got, self.detail = got, detail[:400]
        return self


def set_of(v):
    return (v,) if isinstance(v, str) else tuple(v)


# ---- HTTP helpers ------------------------------------------------------------------------


RESENT = []  # one entry per resend of a request answered 503 or 504 (list.append: thread-safe)
RESENDS = 5  # at most, per request


def post_judging(s, url, body, timeout=REQ_TIMEOUT):
    """POSTs a judging request as veRL's client does: a 503 (queue full: Retry-After) or a
    504 (it could not start before the client's own timeout) was never run, and is sent
    again, up to RESENDS times, a bounded pause between. Returns the last answer."""
    for attempt in range(RESENDS + 1):
        r = s.post(url, json=body, timeout=timeout)
        if r.status_code not in (503, 504) or attempt == RESENDS:
            return r
        RESENT.append(r.status_code)
        try:
            pause = float(r.headers.get("Retry-After", "1"))
        except ValueError:
            pause = 1.0
        time.sleep(min(max(pause, 0.2), 5.0))
    return r


def submission_id(r):
    v = r.headers.get("X-Verdict-Submission")
    return int(v) if v and v.isdigit() else None


def raw_request(port, method, path, body=b"", headers=(), content_length=None):
    """The bytes of one HTTP/1.1 request with Connection: close."""
    n = len(body) if content_length is None else content_length
    head = [f"{method} {path} HTTP/1.1", f"Host: 127.0.0.1:{port}", "Connection: close",
            "Content-Type: application/json", f"Content-Length: {n}", *headers]
    return ("\r\n".join(head) + "\r\n\r\n").encode()


def read_response(sock, deadline, chunk=65536, pause=0.0):
    """Reads one whole answer from sock (Connection: close: until EOF), bounded by deadline.
    Returns (status, headers, body bytes, bytes after the first answer)."""
    data = b""
    while time.monotonic() < deadline:
        sock.settimeout(max(0.1, deadline - time.monotonic()))
        try:
            b = sock.recv(chunk)
        except socket.timeout:
            raise TimeoutError("answer not finished by the deadline") from None
        if not b:
            break
        data += b
        if pause:
            time.sleep(pause)
    else:
        raise TimeoutError("answer not finished by the deadline")
    head, sep, rest = data.partition(b"\r\n\r\n")
    if not sep:
        raise ValueError(f"no complete answer ({len(data)} bytes)")
    lines = head.decode("latin-1").split("\r\n")
    status = int(lines[0].split()[1])
    headers = {k.strip().lower(): v.strip() for k, _, v in (l.partition(":") for l in lines[1:])}
    if headers.get("transfer-encoding", "").lower() == "chunked":
        body, rest = dechunk(rest)
    else:
        n = int(headers.get("content-length", len(rest)))
        body, rest = rest[:n], rest[n:]
    return status, headers, body, rest


def dechunk(data):
    """(body, what follows the last chunk) of a chunked transfer; raises on a cut one."""
    body = b""
    while True:
        line, sep, data = data.partition(b"\r\n")
        if not sep:
            raise ValueError("chunked answer cut")
        size = int(line.split(b";")[0], 16)
        if size == 0:
            _, _, data = data.partition(b"\r\n")
            return body, data
        body, data = body + data[:size], data[size + 2:]


# ---- the programs ------------------------------------------------------------------------


def program(lang, name):
    """The text of tests/sandbox/languages/<lang>/<name>.<ext>, or None."""
    d = os.path.join(PROGRAMS, lang)
    if not os.path.isdir(d):
        return None
    for f in sorted(os.listdir(d)):
        if f.split(".")[0] == name:
            with open(os.path.join(d, f)) as fh:
                return fh.read()
    return None


OLE = {  # more than the 16 MiB a stream keeps
    "c": "#include <stdio.h>\n#include <string.h>\nint main(void){static char b[1<<20];"
         "memset(b,'x',sizeof b);for(int i=0;i<20;i++)fwrite(b,1,sizeof b,stdout);return 0;}\n",
    "cpp": "#include <iostream>\n#include <string>\nint main(){std::string s(1<<20,'y');"
           "for(int i=0;i<20;i++)std::cout<<s;return 0;}\n",
    "python": "import sys\ns = 'z' * (1 << 20)\nfor _ in range(20):\n    sys.stdout.write(s)\n",
}

HOSTILE = [  # (name, language, code, run_timeout, memory MB, expected verdicts, expected stdout)
    ("fork bomb", "python", "import os\nwhile True:\n    os.fork()\n", 2, 0, ("RE", "TLE"), None),
    ("fork bomb", "c", "#include <unistd.h>\nint main(void){for(;;)fork();}\n", 1, 0, ("TLE",),
     None),
    ("memory hog", "python", "x = []\nwhile True:\n    x.append(b'x' * (1 << 20))\n", 5, 64,
     ("MLE",), None),
    ("memory hog", "c", program("c", "mle") or "", 5, 64, ("MLE",), None),
    ("kill(-1)", "python", "import os, signal\ntry:\n    os.kill(-1, signal.SIGKILL)\n"
     "except ProcessLookupError:\n    pass\nprint('alive')\n", 5, 0, ("OK",), "alive\n"),
    ("kill(-1)", "c", "#include <signal.h>\n#include <stdio.h>\n"
     "int main(void){kill(-1,SIGKILL);puts(\"alive\");return 0;}\n", 5, 0, ("OK",), "alive\n"),
    ("read /etc/shadow", "python",
     "try:\n    open('/etc/shadow').read()\n    print('READ')\nexcept OSError:\n"
     "    print('denied')\n", 5, 0, ("OK",), "denied\n"),
    ("write outside /w", "python",
     "import os\nw = []\nfor p in ('/etc/soak', '/usr/soak', '/soak', '/var/soak', '/bin/soak',\n"
     "          '/proc/sys/kernel/hostname'):\n    try:\n        with open(p, 'w') as f:\n"
     "            f.write('x')\n        w.append(p)\n    except OSError:\n        pass\n"
     "print('wrote ' + ' '.join(w) if w else 'denied')\n", 5, 0, ("OK",), "denied\n"),
    ("connect to the server", "python",
     "import socket\ntry:\n    socket.create_connection(('127.0.0.1', PORT), timeout=2)\n"
     "    print('CONNECTED')\nexcept OSError:\n    print('denied')\n", 5, 0, ("OK",), "denied\n"),
    ("fill the work dir", "python",
     "b = b'x' * (1 << 20)\ntry:\n    with open('fill', 'wb') as f:\n        for _ in range(256):\n"
     "            f.write(b)\n    print('FILLED')\nexcept OSError:\n    print('denied')\n", 10, 0,
     ("OK",), "denied\n"),
    ("sleep past the limit", "python", "import time\ntime.sleep(60)\n", 1, 0, ("TLE",), None),
]

WRONG = {  # a completion that must fail, by the language family of a dataset
    "python": "raise RuntimeError('wrong')\n",
    "cpp": "    __builtin_trap();\n}\n",
    "go": "    panic(\"wrong\")\n}\n",
    "rust": "    panic!(\"wrong\")\n}\n",
}


# ---- the mix -----------------------------------------------------------------------------


class Case:
    """One entry of the mix: its kind (the report's group), name, weight in the main phase,
    and run(ctx, rng, session) -> Outcome."""

    def __init__(self, kind, name, weight, run):
        self.kind, self.name, self.weight, self.run = kind, name, weight, run


def nonce(rng):
    return f"soak-{rng.randrange(1 << 40):010x}"


# The load a host may be under, answered as docs/api.md says: a /run_code run still going at
# run_timeout + 8 s of elapsed time, having had less than run_timeout of CPU, is TLE on the
# wall clock (within veRL's client timeout); a /v1/judge test still within its limits at the
# backstop is SE "starved by load". Either counts as "starved": not the program's verdict,
# not a wrong one (the report counts them).
STARVED = "starved"


def verdict_of_run_code(j, want_stdout, run_timeout=10):
    """A /run_code answer as one verdict: CE (or the compile's TLE/MLE), the run's verdict,
    WA for a run that finished OK with other output than wanted, STARVED for a run held back
    by load (run_timeout: the request's)."""
    c, r = j.get("compile_result"), j.get("run_result")
    if c and c.get("verdict") not in (None, "OK"):
        return "CE" if c["verdict"] == "CE" else "compile " + c["verdict"]
    if r is None:
        return "SE" if j.get("status") == "SandboxError" else "no run"
    v = r.get("verdict") or ("TLE" if r.get("status") == "TimeLimitExceeded" else "?")
    if v == "TLE" and r.get("limit") == "wall" and (r.get("cpu_time") or 0) < run_timeout and \
            (r.get("execution_time") or 0) >= run_timeout + 8:
        return STARVED
    if v == "OK" and want_stdout is not None and r.get("stdout") != want_stdout:
        return "WA"
    if v == "RE" and j.get("_lang") in JVM and \
            "OutOfMemoryError" in (r.get("stderr") or ""):
        return "MLE"  # the JVM's heap is sized from the limit: its own OOM is running out
    return v


def verdict_of_judge(j):
    """A /v1/judge result as one verdict: its status when not OK, else the first test's that
    is not OK, else OK."""
    if j.get("status") == "SE" and "starved by load" in (j.get("message") or ""):
        return STARVED
    if j.get("status") != "OK":
        return j.get("status")
    for t in j.get("tests", []):
        if t.get("verdict") != "OK":
            v = t["verdict"]
            if v == "RE" and "OutOfMemoryError" in (t.get("stderr") or "") and \
                    j.get("_lang") in JVM:
                return "MLE"
            return v
    return "OK"


def language_body(ctx, lang, prog, rng, expect):
    """(a /run_code body, the stdout wanted) for program prog of lang. With ctx.tight, half
    the right and wrong c, cpp and python programs run with veRL's tight run_timeout of 1 s
    instead of 20."""
    n = nonce(rng)
    body = {"code": prog, "language": lang, "stdin": n + "\n", "compile_timeout": 120,
            "run_timeout": 20}
    if ctx.tight and lang in CHEAP and expect in ("OK", "WA"):
        body["run_timeout"] = rng.choice((1, 20))
    elif lang not in CHEAP + NATIVE_OR_LIGHT:  # a JVM, Mono, R, racket, tsx: seconds of CPU
        body["run_timeout"] = 60
    if expect == "TLE":
        body["run_timeout"] = 2 if lang in JVM else 0.5
    if expect == "MLE":
        body["memory_limit_MB"] = 256 if lang in JVM else 64
        body["run_timeout"] = 30
    return body, n + "\n"


def posted(o, ctx, s, route, body, lang, verdict_of):
    """Posts one judged request and fills o: recorded once, the submission's id, the verdict
    verdict_of(json) reads, and the answer itself when that verdict is not expected."""
    r = post_judging(s, ctx.url + route, body)
    if r.status_code != 200:
        return o.fail(f"HTTP {r.status_code}", r.text)
    j = r.json()
    j["_lang"] = lang
    o.recorded = 1
    sid = submission_id(r)
    o.ids = [sid] if sid else []
    o.got = verdict_of(j)
    if o.got not in o.expect:
        o.detail = json.dumps(j)[:400]
    return o


def run_code_case(lang, pname, prog, expect):
    def run(ctx, rng, s):
        o = Outcome("run_code", f"{lang}/{pname}", set_of(expect))
        body, want = language_body(ctx, lang, prog, rng, expect)

        def verdict_of(j):
            got = verdict_of_run_code(j, want if pname in ("echo", "hello") else None,
                                      body["run_timeout"])
            if pname in ("pass", "fail"):  # test runners: judged by their exit status
                got = "OK" if j.get("status") == "Success" else got
            return got
        return posted(o, ctx, s, "/run_code", body, lang, verdict_of)
    return run


def judge_tests(rng, k):
    ns = [nonce(rng) for _ in range(k)]
    return [{"stdin": n + "\n", "expected": n} for n in ns]


def judge_body(lang, prog, rng, expect):
    """Several tests, but one for a program that runs into a limit (each test would)."""
    k = 1 if expect in ("TLE", "MLE", "OLE") else rng.randint(1, 4)
    body = {"code": prog, "language": lang, "tests": judge_tests(rng, k)}
    if expect == "TLE":  # a wall limit far off: the CPU limit decides even on a busy host
        body["limits"] = {"time_ms": 1000 if lang in JVM else 200, "wall_ms": 20000}
    elif expect == "MLE":
        body["limits"] = {"memory_mb": 256 if lang in JVM else 64, "time_ms": 20000}
    return body


def judge_case(lang, pname, prog, expect):
    def run(ctx, rng, s):
        o = Outcome("judge", f"{lang}/{pname}", set_of(expect))
        return posted(o, ctx, s, "/v1/judge", judge_body(lang, prog, rng, expect), lang,
                      verdict_of_judge)
    return run


def batch_case(items_pool, name):
    """A batch of 2 to 6 items drawn from items_pool [(lang, pname, prog, expect)]: each item's
    verdict as expected and every index back exactly once."""
    def run(ctx, rng, s):
        picks = [rng.choice(items_pool) for _ in range(rng.randint(2, 6))]
        o = Outcome("batch", name, ("OK",))
        items = []
        for i, (lang, _, prog, expect) in enumerate(picks):
            items.append({"id": i, **judge_body(lang, prog, rng, expect)})
        r = s.post(ctx.url + "/v1/judge/batch", json={"items": items}, timeout=REQ_TIMEOUT)
        if r.status_code != 200:
            return o.fail(f"HTTP {r.status_code}", r.text)
        seen, bad = {}, []
        for line in r.text.splitlines():
            if not line.strip():
                continue
            j = json.loads(line)
            seen[j.get("id")] = seen.get(j.get("id"), 0) + 1
            if "result" not in j:
                bad.append(f"item {j.get('id')}: {line[:200]}")
                continue
            lang, pname, _, expect = picks[j["id"]]
            j["result"]["_lang"] = lang
            v = verdict_of_judge(j["result"])
            if v not in set_of(expect) and v != STARVED:
                bad.append(f"item {j['id']} {lang}/{pname}: {v}, expected {expect}")
            if isinstance(j.get("submission"), int):
                o.ids.append(j["submission"])
        o.recorded = len(items)
        if sorted(seen) != list(range(len(items))) or any(n != 1 for n in seen.values()):
            o.answered = False
            return o.fail("items", f"lines per index {seen} for {len(items)} items")
        o.got = "OK" if not bad else "wrong item"
        o.detail = "; ".join(bad)
        return o
    return run


def hostile_case(name, lang, code, timeout, mem, expect, want):
    def run(ctx, rng, s):
        o = Outcome("hostile", f"{name} ({lang})", expect)
        body = {"code": code.replace("PORT", str(ctx.port)), "language": lang,
                "run_timeout": timeout, "compile_timeout": 60}
        if mem:
            body["memory_limit_MB"] = mem
        return posted(o, ctx, s, "/run_code", body, lang,
                      lambda j: verdict_of_run_code(j, want, timeout))
    return run


def unavailable_case(lang, runnable_why):
    """A language the server lists but cannot run: needs a GPU (SandboxError, saying so) or
    not installed (422 at language)."""
    def run(ctx, rng, s):
        prog = program(lang, "hello") or "1"
        if runnable_why == "gpu":
            o = Outcome("language", f"{lang}/no GPU", ("SE",))
            return posted(o, ctx, s, "/run_code", {"code": prog, "language": lang}, lang,
                          lambda j: "SE" if j.get("status") == "SandboxError" and
                          "GPU" in j.get("message", "") else j.get("status"))
        o = Outcome("language", f"{lang}/not installed", ("422 language",))
        r = s.post(ctx.url + "/run_code", json={"code": prog, "language": lang},
                   timeout=REQ_TIMEOUT)
        o.got = f"{r.status_code} " + ("language" if "language" in field_locs(r) else "?")
        if o.got not in o.expect:
            o.detail = r.text
        return o
    return run


def field_locs(r):
    """The names in the loc lists of a 422 answer's detail."""
    try:
        d = r.json().get("detail")
    except ValueError:
        return set()
    out = set()
    for e in d if isinstance(d, list) else []:
        for part in e.get("loc", []):
            out.update(str(part).split("."))
    return out


def jupyter_case():
    def run(ctx, rng, s):
        n = nonce(rng)
        o = Outcome("jupyter", "two cells", ("OK",))
        body = {"cells": [f"x = {n!r}", "print(x)", "x"], "total_timeout": 30}

        def verdict_of(j):
            cells = j.get("cells") or [{}, {}, {}]
            good = j.get("status") == "Success" and cells[1].get("stdout") == n + "\n" and \
                cells[2].get("display") == [{"text/plain": repr(n)}]
            return "OK" if good else "wrong"
        return posted(o, ctx, s, "/run_jupyter", body, "python", verdict_of)
    return run


# Malformed requests: (name, method, path, body, status, the field the answer must name or a
# substring of its detail)
MALFORMED = [
    ("bad JSON", "POST", "/run_code", b"{not json", 422, "json_invalid"),
    ("code not a string", "POST", "/run_code", {"code": 5, "language": "python"}, 422, "code"),
    ("unknown language", "POST", "/run_code", {"code": "x", "language": "cobol"}, 422, "language"),
    ("negative run_timeout", "POST", "/run_code", {"code": "x", "run_timeout": -1}, 422,
     "run_timeout"),
    ("NUL in code", "POST", "/run_code", {"code": "print(1)\u0000"}, 422, "code"),
    ("body an array", "POST", "/run_code", b"[]", 422, "body"),
    ("no tests", "POST", "/v1/judge", {"code": "x", "language": "python", "tests": []}, 422,
     "tests"),
    ("stdin not a string", "POST", "/v1/judge",
     {"code": "x", "language": "python", "tests": [{"stdin": 1, "expected": "1"}]}, 422, "tests"),
    ("time_ms 0", "POST", "/v1/judge",
     {"code": "x", "language": "python", "tests": [{"stdin": "", "expected": ""}],
      "limits": {"time_ms": 0}}, 422, "limits"),
    ("no items", "POST", "/v1/judge/batch", {"items": []}, 422, "items"),
    ("unknown dataset", "POST", "/submit", {"dataset": "no_such", "id": "1", "completion": "x",
                                            "config": {}}, 400, "no eval class found"),
    ("no completion", "POST", "/submit", {"dataset": "humaneval", "id": "HumanEval/0",
                                          "config": {}}, 422, "completion"),
    ("cells not a list", "POST", "/run_jupyter", {"cells": "print(1)"}, 422, "cells"),
    ("limit 0", "GET", "/v1/submissions?limit=0", None, 422, "limit"),
    ("id not a number", "GET", "/v1/submissions/abc", None, 422, "id"),
    ("unknown path", "GET", "/no/such/route", None, 404, "Not Found"),
    ("wrong method", "GET", "/run_code", None, 405, ""),
    ("body over --max-body", "POST", "/run_code", None, 413, "body"),  # ctx.max_body + 256 KiB
]


def malformed_case(name, method, path, body, status, names):
    def run(ctx, rng, s):
        o = Outcome("malformed", name, (f"{status} ok",))
        if isinstance(body, (dict, list)):
            data = json.dumps(body).encode()
        else:
            data = b"x" * (ctx.max_body + (256 << 10)) if status == 413 else body
        r = s.request(method, ctx.url + path, data=data, timeout=REQ_TIMEOUT,
                      headers={"Content-Type": "application/json"} if data else {})
        try:
            j = r.json()
        except ValueError:
            return o.fail(f"{r.status_code} not JSON", r.text)
        said = json.dumps(j)
        ok = r.status_code == status and isinstance(j, dict) and "detail" in j and \
            (not names or names in field_locs(r) or names in said)
        o.got = f"{r.status_code} " + ("ok" if ok else "bad body")
        o.detail = "" if ok else said
        return o
    return run


def slow_client_case():
    """The body in 3 to 6 pieces with pauses, the answer read 512 bytes at a time: one answer,
    the right one, nothing after it."""
    def run(ctx, rng, s):
        o = Outcome("slow", "slow body, slow read", ("OK",))
        n = nonce(rng)
        body = json.dumps({"code": "print(input())", "language": "python",
                           "stdin": n + "\n"}).encode()
        deadline = time.monotonic() + 120
        with socket.create_connection(("127.0.0.1", ctx.port), timeout=60) as sock:
            sock.sendall(raw_request(ctx.port, "POST", "/run_code", body))
            k = rng.randint(3, 6)
            step = -(-len(body) // k)
            for i in range(0, len(body), step):
                sock.sendall(body[i:i + step])
                time.sleep(rng.uniform(0.05, 0.3))
            status, headers, got, rest = read_response(sock, deadline, chunk=512, pause=0.002)
        if rest:
            o.answered = False
            return o.fail("second answer", rest[:200].decode("latin-1"))
        if status != 200:
            return o.fail(f"HTTP {status}", got[:300].decode("latin-1"))
        j = json.loads(got)
        o.recorded = 1
        sid = headers.get("x-verdict-submission")
        o.ids = [int(sid)] if sid and sid.isdigit() else []
        o.got = verdict_of_run_code(j, n + "\n")
        if o.got != "OK":
            o.detail = got[:300].decode("latin-1")
        return o
    return run


def cut_request_case():
    """A client that sends its headers and half its body, then hangs up: no answer is owed,
    nothing may be recorded, nothing may leak."""
    def run(ctx, rng, s):
        o = Outcome("cut", "half a body", ("cut",))
        body = json.dumps({"code": "print(input())", "language": "python",
                           "stdin": nonce(rng) + "\n"}).encode()
        with socket.create_connection(("127.0.0.1", ctx.port), timeout=60) as sock:
            if rng.random() < 0.2:  # hung up inside the headers
                sock.sendall(raw_request(ctx.port, "POST", "/run_code", body)[:30])
            else:
                sock.sendall(raw_request(ctx.port, "POST", "/run_code", body) +
                             body[:len(body) // 2])
            time.sleep(rng.uniform(0, 0.2))
        o.got = "cut"
        return o
    return run


def cut_stream_case():
    """A batch whose stream the client leaves after its first line: the first line is well
    formed; the items not read may still run and be recorded (counted as allowed extras)."""
    def run(ctx, rng, s):
        o = Outcome("cut", "batch stream after one line", ("cut",))
        k = rng.randint(3, 6)
        items = [{"id": 0, "code": "print(input())", "language": "python",
                  "tests": judge_tests(rng, 1)}]
        for i in range(1, k):
            items.append({"id": i, "code": "import time\ntime.sleep(0.3)\nprint(input())",
                          "language": "python", "tests": judge_tests(rng, 1)})
        body = json.dumps({"items": items}).encode()
        deadline = time.monotonic() + REQ_TIMEOUT
        data = b""
        with socket.create_connection(("127.0.0.1", ctx.port), timeout=60) as sock:
            sock.sendall(raw_request(ctx.port, "POST", "/v1/judge/batch", body) + body)
            while time.monotonic() < deadline:
                b = sock.recv(4096)
                if not b:
                    break
                data += b
                head, sep, rest = data.partition(b"\r\n\r\n")
                if sep and b"\n" in dechunk_partial(rest):
                    break
        head, _, rest = data.partition(b"\r\n\r\n")
        first = dechunk_partial(rest).split(b"\n")[0]
        try:
            j = json.loads(first)
        except ValueError:
            o.answered = False
            return o.fail("no first line", data[:300].decode("latin-1"))
        if not head.startswith(b"HTTP/1.1 200") or j.get("id") not in range(k) or \
                "result" not in j:
            return o.fail("bad first line", first[:300].decode("latin-1"))
        if isinstance(j.get("submission"), int):
            o.ids = [j["submission"]]
            o.recorded = 1
        o.unnamed = k - 1
        o.got = "cut"
        return o
    return run


def dechunk_partial(data):
    """The payload of as many complete chunks as data holds."""
    out = b""
    while True:
        line, sep, rest = data.partition(b"\r\n")
        if not sep:
            return out
        try:
            size = int(line.split(b";")[0], 16)
        except ValueError:
            return out
        if size == 0 or len(rest) < size:
            return out + rest[:size] if size else out
        out, data = out + rest[:size], rest[size + 2:]


def get_case(path, want_json=True):
    def run(ctx, rng, s):
        p = path
        if "{id}" in p:
            sid = ctx.some_submission()
            if sid is None:
                p = "/v1/submissions?limit=5"
            else:
                p = p.replace("{id}", str(sid))
        o = Outcome("get", path, ("200",))
        r = s.get(ctx.url + p, timeout=REQ_TIMEOUT)
        o.got = str(r.status_code)
        if r.status_code == 200 and want_json:
            try:
                r.json()
            except ValueError:
                o.got = "200 not JSON"
        if o.got != "200":
            o.detail = r.text[:300]
        return o
    return run


# ---- datasets ----------------------------------------------------------------------------


def read_rows(path):
    if path.endswith(".json"):
        with open(path) as f:
            return json.load(f)
    op = gzip.open if path.endswith(".gz") else open
    with op(path, "rt") as f:
        return [json.loads(l) for l in f if l.strip()]


# dataset -> (source file under the data dir, id key, solution key, wrong family, id type)
REFERENCES = {
    "humaneval": ("HumanEval.jsonl.gz", "task_id", "canonical_solution", "python", str),
    "mbpp": ("mbpp/mbpp.jsonl", "task_id", "code", "python", int),
    "mbpp_sanitized": ("mbpp/sanitized-mbpp.json", "task_id", "code", "python", int),
    "humanevalx_cpp": ("humaneval-x/humaneval_cpp.jsonl.gz", "task_id", "canonical_solution",
                       "cpp", str),
    "humanevalx_go": ("humaneval-x/humaneval_go.jsonl.gz", "task_id", "canonical_solution", "go",
                      str),
    "humanevalx_rust": ("humaneval-x/humaneval_rust.jsonl.gz", "task_id", "canonical_solution",
                        "rust", str),
    "mceval_c": ("mceval/C.jsonl", "task_id", "canonical_solution", "cpp", str),
    "mceval_cpp": ("mceval/CPP.jsonl", "task_id", "canonical_solution", "cpp", str),
    "mceval_go": ("mceval/Go.jsonl", "task_id", "canonical_solution", "go", str),
    "mceval_rust": ("mceval/Rust.jsonl", "task_id", "canonical_solution", "rust", str),
}
FAMILY = {"multiple_cpp": "cpp", "multiple_go": "go", "multiple_rs": "rust",
          "multiple_mbpp_cpp": "cpp", "multiple_mbpp_go": "go", "multiple_mbpp_rs": "rust"}
HAND_WRITTEN = {"multiple_cpp": "cpp", "multiple_go": "go", "multiple_rs": "rs"}
PER_DATASET = 2  # problems per dataset whose references the soak submits
HAND_WRITTEN_N = 4  # hand-written MultiPL-E completions per dataset (pass, fail alternate)


def known_broken():
    out = set()
    if os.path.exists(KNOWN_BROKEN):
        with open(KNOWN_BROKEN) as f:
            for line in f:
                if line.strip() and not line.startswith("#"):
                    ds, tid = line.split()[:2]
                    out.add((ds, tid))
    return out


def submit_case(ds, pid, completion, config, expect, name):
    """/submit of one completion: accepted for "OK", else rejected with a verdict in expect."""
    def run(ctx, rng, s):
        o = Outcome("submit", f"{ds} {name}", set_of(expect))
        body = {"dataset": ds, "id": pid, "completion": completion, "config": config}
        r = post_judging(s, ctx.url + "/submit", body)
        if r.status_code != 200:
            return o.fail(f"HTTP {r.status_code}", r.text)
        j = r.json()
        o.recorded = 1
        sid = submission_id(r)
        o.ids = [sid] if sid else []
        v = (j.get("extra") or {}).get("verdict")
        o.got = v if bool(j.get("accepted")) == (v == "OK") else f"accepted={j.get('accepted')} {v}"
        if o.got not in o.expect:
            o.detail = json.dumps(j)[:400]
        return o
    return run


def prompts_case(ds, nprob):
    def run(ctx, rng, s):
        o = Outcome("dataset query", ds, ("OK",))
        which = rng.randrange(3)
        if which == 0:
            off = rng.randrange(max(1, nprob))
            r = s.post(ctx.url + "/get_prompts", json={"dataset": ds, "config": {}, "offset": off,
                                                       "limit": 3}, timeout=REQ_TIMEOUT)
            good = r.status_code == 200 and len(r.json()) == min(3, nprob - off)
        elif which == 1:
            r = s.post(ctx.url + "/list_ids", json={"dataset": ds, "config": {}},
                       timeout=REQ_TIMEOUT)
            good = r.status_code == 200 and len(r.json()) == nprob
        else:
            ids = ctx.dataset_ids[ds]
            pid = ids[rng.randrange(len(ids))]
            r = s.post(ctx.url + "/get_prompt_by_id", json={"dataset": ds, "config": {},
                                                            "id": pid}, timeout=REQ_TIMEOUT)
            good = r.status_code == 200 and r.json().get("id") == pid
        o.got = "OK" if good else f"HTTP {r.status_code}"
        o.detail = "" if good else r.text[:300]
        return o
    return run


def dataset_cases(ctx, data):
    """The /submit and query cases of every dataset the server imported."""
    cases = []
    broken = known_broken()
    for ds in ctx.datasets:
        ids = ctx.dataset_ids[ds]
        cases.append(Case("datasets", f"query {ds}", 1.0, prompts_case(ds, len(ids))))
        ref = REFERENCES.get(ds)
        rows = []
        if ref and data and os.path.exists(os.path.join(data, ref[0])):
            rows = [r for r in read_rows(os.path.join(data, ref[0]))
                    if (ds, str(r[ref[1]])) not in broken]
        asis = {"extra": {"is_freeform": False}}
        for r in rows[:PER_DATASET]:
            pid = ref[4](r[ref[1]])
            cases.append(Case("datasets", f"{ds} reference", 1.0,
                              submit_case(ds, pid, r[ref[2]], asis, "OK", "reference")))
        family = ref[3] if ref else FAMILY.get(ds)
        if family and ids:
            wrong = WRONG[family]
            if ds in ("mceval_c", "mceval_cpp"):  # these follow the signature: a whole body
                wrong = "{\n" + wrong
            cases.append(Case("datasets", f"{ds} wrong", 1.0,
                              submit_case(ds, ids[0], wrong, asis, "RE", "wrong")))
        if ds in HAND_WRITTEN:
            with open(os.path.join(MULTIPLE, HAND_WRITTEN[ds] + ".jsonl")) as f:
                samples = [json.loads(l) for l in f][:HAND_WRITTEN_N]
            for smp in samples:
                exp = "OK" if smp["expect"] == "pass" else ("WA", "RE", "CE")
                cases.append(Case("datasets", f"{ds} hand-written {smp['expect']}", 1.0,
                                  submit_case(ds, smp["task_id"], smp["completion"], asis, exp,
                                              "hand-written " + smp["expect"])))
        if ds == "code_contests":
            cfg = {"language": "python", "extra": {"is_freeform": False}}
            cases.append(Case("datasets", f"{ds} wrong", 1.0,
                              submit_case(ds, ids[0], "print(0)\n", cfg, "WA", "wrong")))
    return cases


# ---- building the mix --------------------------------------------------------------------


# The main phase's share (percent) of each group of cases, split evenly among its cases: mostly
# cheap programs (cached C and C++, warm Python), so that throughput stays high, and the
# costly ones (JVMs, limits reached, hostile programs) rare. The warm-up runs every case once
# whatever its share.
SHARES = {"cheap": 62, "batch": 8, "cheap failure": 5, "light": 4, "limits": 1.5, "heavy": 0.8,
          "hostile": 1, "malformed": 4, "get": 4.5, "datasets": 3.5, "slow": 0.8, "cut": 0.8,
          "jupyter": 0.5, "unavailable": 0.2}
NATIVE_OR_LIGHT = ("go", "rust", "d", "d_ut", "go_test", "rust_test", "verilog", "bash", "lua",
                   "perl", "php", "ruby", "sql", "nodejs", "pytest")  # a run costs < 0.1 s


def language_cases(langs):
    """(cases as (group, Case), batch item pool) for every language of GET /v1/languages."""
    cases, pool = [], []
    for l in langs:
        name = l["name"]
        if not l.get("available") or not l.get("runnable"):
            why = "missing" if not l.get("available") else "gpu"
            cases.append(("unavailable", Case("language", f"{name} " + (
                "not installed" if why == "missing" else "needs a GPU"), 0,
                unavailable_case(name, why))))
            continue
        group = "light" if name in NATIVE_OR_LIGHT else "heavy"
        if name in TEST_RUNNERS:
            for pname, expect in (("pass", "OK"), ("fail", "RE")):
                prog = program(name, pname)
                if prog is not None:
                    cases.append((group, Case("run_code", f"{name}/{pname}", 0,
                                              run_code_case(name, pname, prog, expect))))
            continue
        kinds = [("echo", "OK"), ("hello", "WA")]
        if name in FULL_SET:
            kinds += [("ce", "CE" if l.get("compiled") else "RE"), ("re", "RE"), ("tle", "TLE"),
                      ("mle", "MLE")]
        elif l.get("compiled") and name not in SLOW_COMPILE:
            kinds += [("ce", "CE")]
        for pname, expect in kinds:
            prog = program(name, pname)
            if prog is None:
                continue
            g = group
            if pname in ("tle", "mle"):
                g = "limits"
            elif name in CHEAP:
                g = "cheap" if pname in ("echo", "hello") else "cheap failure"
            share = 2 if g == "cheap" else 1  # /run_code twice as often as /v1/judge
            cases.append((g, Case("run_code", f"{name}/{pname}", share,
                                  run_code_case(name, pname, prog, expect))))
            cases.append((g, Case("judge", f"{name}/{pname}", 1,
                                  judge_case(name, pname, prog, expect))))
            if name in CHEAP and pname in ("echo", "hello", "re", "ce"):
                pool.append((name, pname, prog, expect))
        if name in OLE:
            cases.append(("limits", Case("judge", f"{name}/ole", 1,
                                         judge_case(name, "ole", OLE[name], "OLE"))))
    return cases, pool


def build_mix(ctx, data):
    """Every case, its weight its group's share over the group's (relative) sizes."""
    grouped, pool = language_cases(ctx.languages)
    grouped.append(("batch", Case("batch", "2-6 items, several tests", 1,
                                  batch_case(pool, "items"))))
    grouped += [("hostile", Case("hostile", f"{h[0]} ({h[1]})", 1, hostile_case(*h)))
                for h in HOSTILE if h[2]]
    grouped += [("malformed", Case("malformed", m[0], 1, malformed_case(*m))) for m in MALFORMED
                if m[4] != 413 or ctx.max_body]  # a server's unknown --max-body: left out
    grouped.append(("slow", Case("slow", "slow client", 1, slow_client_case())))
    grouped.append(("cut", Case("cut", "half a body", 1, cut_request_case())))
    grouped.append(("cut", Case("cut", "batch stream cut", 1, cut_stream_case())))
    grouped.append(("jupyter", Case("jupyter", "run_jupyter", 1, jupyter_case())))
    for path, js in (("/healthz", True), ("/metrics", False), ("/v1/stats", True),
                     ("/v1/submissions?limit=20", True), ("/v1/submissions/{id}", True),
                     ("/v1/datasets", True), ("/v1/runs", True), ("/v1/languages", True),
                     ("/v1/ping", True), ("/", False), ("/openapi.json", True),
                     ("/list_datasets", True)):
        grouped.append(("get", Case("get", path, 1, get_case(path, js))))
    if ctx.datasets:
        grouped += [("datasets", c) for c in dataset_cases(ctx, data)]
    totals = {}
    for g, c in grouped:
        c.weight = c.weight or 1
        totals[g] = totals.get(g, 0) + c.weight
    for g, c in grouped:
        c.weight = SHARES[g] * c.weight / totals[g]
    return [c for _, c in grouped]
