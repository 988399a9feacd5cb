"""What a running verdict container must answer right (tests/container/test_container.py runs
these against `podman run` and against `podman kube play` of docker/k8s/deployment.yaml):
every language it offers, a hostile probe set (only ever inside verdict's sandbox), and a
HumanEval slice through /submit. Every request goes to 127.0.0.1 with a timeout."""
import concurrent.futures
import gzip
import json
import os

import requests

HERE = os.path.dirname(os.path.abspath(__file__))
PROGRAMS = os.path.join(HERE, "..", "sandbox", "languages")
ECHO_IN = "line one\nline two\n"
# Languages whose programs are test files: the fixture that passes (and one that fails).
TEST_LANGS = {"go_test": ("go_test", "pass_test.go", "fail_test.go"),
              "rust_test": ("rust_test", "pass.rs", "fail.rs"),
              "pytest": ("pytest", "pass.py", "fail.py"),
              "d_ut": ("d_ut", "pass.d", "fail.d"),
              "junit": ("junit", "pass.java", "fail.java"),
              "jest": ("jest", "pass.test.ts", "fail.test.ts")}
# Offered but needing what this machine lacks: a GPU.
NEEDS_GPU = {"python_gpu", "cuda"}


def post(url, path, body, timeout=300):
    r = requests.post(url + path, json=body, timeout=timeout)
    assert r.status_code == 200, f"{path}: {r.status_code} {r.text[:500]}"
    return r.json()


def program(lang_dir, stem):
    d = os.path.join(PROGRAMS, lang_dir)
    for f in sorted(os.listdir(d)):
        if f == stem or f.split(".")[0] == stem:
            with open(os.path.join(d, f)) as fh:
                return fh.read()
    return None


def available_languages(url):
    langs = requests.get(url + "/v1/languages", timeout=30).json()
    return sorted(l["name"] for l in langs if l.get("available")), \
        sorted(l["name"] for l in langs if not l.get("available"))


def language_cases(langs):
    """(language, what, body, check) for every language offered: hello and echo, or the
    passing and the failing test file."""
    cases = []
    for lang in langs:
        if lang in NEEDS_GPU:
            continue
        if lang in TEST_LANGS:
            d, ok, bad = TEST_LANGS[lang]
            cases.append((lang, "pass", {"code": program(d, ok), "language": lang},
                          lambda a: a["status"] == "Success"))
            cases.append((lang, "fail", {"code": program(d, bad), "language": lang},
                          lambda a: a["status"] == "Failed"))
            continue
        hello, echo = program(lang, "hello"), program(lang, "echo")
        assert hello and echo, f"no hello/echo program for {lang} in tests/sandbox/languages"
        cases.append((lang, "hello", {"code": hello, "language": lang},
                      lambda a: a["status"] == "Success" and a["run_result"]["stdout"] == "hello\n"))
        cases.append((lang, "echo", {"code": echo, "language": lang, "stdin": ECHO_IN},
                      lambda a: a["status"] == "Success" and a["run_result"]["stdout"] == ECHO_IN))
    return cases


def check_languages(url, jobs=6):
    """Every language the server offers answers right; returns (offered, not offered)."""
    offered, missing = available_languages(url)
    cases = language_cases(offered)
    wrong = []
    with concurrent.futures.ThreadPoolExecutor(jobs) as pool:
        futs = {pool.submit(post, url, "/run_code",
                            {**body, "compile_timeout": 120, "run_timeout": 20}): (lang, what, check)
                for lang, what, body, check in cases}
        for f in concurrent.futures.as_completed(futs, timeout=900):
            lang, what, check = futs[f]
            a = f.result()
            if not check(a):
                wrong.append(f"{lang} {what}: {json.dumps(a)[:600]}")
    assert not wrong, "\n".join(wrong)
    return offered, missing


HOSTILE = {
    # a fork bomb is bounded by the job's pids limit: fork fails (RE) or the clock runs out
    "forkbomb_py": ("python", "import os\nwhile True:\n    os.fork()\n", {}, {"RE", "TLE"}),
    "forkbomb_c": ("c", "#include <unistd.h>\nint main(void) { for (;;) fork(); }\n", {}, {"RE", "TLE"}),
    "memhog": ("python", "x = bytearray(1 << 30)\nfor i in range(0, len(x), 4096):\n    x[i] = 1\n"
               "print('survived')\n", {"memory_limit_MB": 128}, {"MLE"}),
    "loop": ("python", "while True:\n    pass\n", {"run_timeout": 1}, {"TLE"}),
    "shadow": ("python", "print(open('/etc/shadow').read())\n", {}, {"RE"}),
    "write_usr": ("python", "open('/usr/verdict-pwned', 'w').write('x')\n", {}, {"RE"}),
    "write_root": ("bash", "echo x > /verdict-pwned && echo wrote\n", {}, {"RE"}),
    "connect_server": ("python", "import socket\nsocket.create_connection(('127.0.0.1', 8080), timeout=3)\n"
                       "print('connected')\n", {}, {"RE"}),
    "connect_out": ("python", "import socket\nsocket.create_connection(('10.88.0.1', 8080), timeout=3)\n"
                    "print('connected')\n", {}, {"RE"}),
    # kill(-1) inside the sandbox reaches the job's own processes only
    "kill_all": ("python", "import os, signal\nos.kill(-1, signal.SIGKILL)\nprint('after')\n", {},
                 {"OK", "RE"}),
}


def check_hostile(url, in_container):
    """The probes get the verdicts above, nothing leaks, and the server is unharmed.
    in_container(cmd...) runs a command in the container (for what the probes tried to write)."""
    wrong = []
    for name, (lang, code, extra, want) in HOSTILE.items():
        a = post(url, "/run_code", {"code": code, "language": lang, **extra}, timeout=120)
        rr = a.get("run_result") or {}
        got = rr.get("verdict")
        if got not in want or "root:" in (rr.get("stdout") or "") or "connected" in (rr.get("stdout") or "") \
                or "wrote" in (rr.get("stdout") or "") or "survived" in (rr.get("stdout") or ""):
            wrong.append(f"{name}: {json.dumps(a)[:400]}")
    assert not wrong, "\n".join(wrong)
    r = in_container("sh", "-c", "test ! -e /usr/verdict-pwned && test ! -e /verdict-pwned")
    assert r.returncode == 0, "a probe wrote outside its sandbox"
    # the server is unharmed: healthy, and a program runs right after the probes
    assert requests.get(url + "/healthz", timeout=10).json()["status"] == "ok"
    a = post(url, "/run_code", {"code": "print(6 * 7)", "language": "python"})
    assert a["status"] == "Success" and a["run_result"]["stdout"] == "42\n", a


def humaneval_rows(data, n):
    with gzip.open(os.path.join(data, "HumanEval.jsonl.gz"), "rt") as f:
        rows = [json.loads(l) for l in f]
    return rows[:n]


def check_humaneval(url, data, n=10):
    """/submit of HumanEval/0..n-1 with their canonical solutions: all accepted."""
    names = requests.get(url + "/list_datasets", timeout=30).json()
    assert "humaneval" in names, names
    wrong = []
    for row in humaneval_rows(data, n):
        a = post(url, "/submit", {"dataset": "humaneval", "id": row["task_id"], "config": {},
                                  "completion": row["canonical_solution"]})
        if a.get("accepted") is not True:
            wrong.append(f"{row['task_id']}: {json.dumps(a)[:400]}")
    assert not wrong, "\n".join(wrong)
