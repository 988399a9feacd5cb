"""The trainer examples (examples/) against a real server: TRL's reward function, the
Verifiers-style rubric and the Runloop-style scorer (checkers with a context file), and the
veRL config snippet."""
import base64
import json
import logging
import os

import requests

from conftest import EXAMPLES
from conftest import load_example as load


def judge(server, body):
    r = server.post("/v1/judge", body, timeout=120)
    assert r.status_code == 200, r.text
    return r.json()


# ---- TRL -------------------------------------------------------------------------------------

RIGHT = "Here is my solution:\n```python\na, b = map(int, input().split())\nprint(a + b)\n```\n"
WRONG = "```python\na, b = map(int, input().split())\nprint(a - b)\n```"
ADD_TESTS = [{"stdin": "1 2", "expected": "3"}, {"stdin": "5 5", "expected": "10"}]


def test_trl_reward_in_order(server, caplog):
    trl = load("trl/verdict_reward.py")
    reward = trl.make_verdict_reward(url=server.url, timeout=120)
    c_right = ("<think>easy</think>\n```c\n#include <stdio.h>\nint main(void) { int a, b;\n"
               "scanf(\"%d %d\", &a, &b); printf(\"%d\\n\", a + b); return 0; }\n```")
    completions = [
        RIGHT,                                                    # fenced: right
        WRONG,                                                    # wrong answer
        [{"role": "assistant", "content": RIGHT}],                # chat-style: right
        "```c\nint main(void) { return oops; }\n```",             # compile error
        [{"role": "user", "content": "add"},                      # chat, content parts: one of
         {"role": "assistant", "content": [{"type": "text",       # two tests right
                                            "text": "```python\nprint(3)\n```"}]}],
        c_right,                                                  # a C answer after reasoning
        "no code at all",                                         # nothing to run
    ]
    n = len(completions)
    languages = ["python", "python", "python", "c", "python", "c", "python"]
    with caplog.at_level(logging.ERROR, logger="verdict_reward"):
        got = reward(completions, prompts=["add two numbers"] * n, tests=[ADD_TESTS] * n,
                     language=languages)
    assert got == [1.0, 0.0, 1.0, 0.0, 0.5, 1.0, 0.0], got
    assert not caplog.records  # nothing failed: every item had its line


def test_trl_reward_harness_and_failures(server, caplog):
    trl = load("trl/verdict_reward.py")
    reward = trl.make_verdict_reward(url=server.url, timeout=120)
    code = "```python\ndef add(a, b):\n    return a + b\n```"
    bad = "```python\ndef add(a, b):\n    return a * b\n```"
    with caplog.at_level(logging.ERROR, logger="verdict_reward"):
        got = reward([code, bad, code], harness=["assert add(2, 3) == 5"] * 3,
                     entry_point=["add", "add", "add("],   # the last is invalid: 422 line
                     tests=[None] * 3)
    assert got == [1.0, 0.0, None], got  # an invalid item is not the policy's failure
    assert any("completion 2 not judged" in r.getMessage() for r in caplog.records)
    # tests as a JSON string (a dataset column stored as text); an empty batch
    assert reward([RIGHT], tests=['[{"stdin": "2 2", "expected": "4"}]']) == [1.0]
    assert reward([]) == []
    # a server that cannot be reached: every reward None, with a log line, never an exception
    dead = trl.make_verdict_reward(url="http://127.0.0.1:9", timeout=5, retries=0)
    caplog.clear()
    with caplog.at_level(logging.ERROR, logger="verdict_reward"):
        assert dead([RIGHT, WRONG], tests=[ADD_TESTS] * 2) == [None, None]
    assert any("batch of 2 failed" in r.getMessage() for r in caplog.records)


def test_trl_reward_url_from_env_and_chunks(server, monkeypatch):
    trl = load("trl/verdict_reward.py")
    monkeypatch.setenv("VERDICT_URL", server.url)
    assert trl.verdict_reward([RIGHT, WRONG], tests=[ADD_TESTS] * 2) == [1.0, 0.0]
    # past the server's batch bound the completions go in several requests, still in order
    monkeypatch.setattr(trl, "MAX_BATCH", 2)
    got = trl.verdict_reward([RIGHT, WRONG, WRONG, RIGHT, RIGHT], tests=[ADD_TESTS] * 5)
    assert got == [1.0, 0.0, 0.0, 1.0, 1.0], got


# 512 completions whose stdio tests come to about 31 MB: past serve's 16 MiB body limit.
BIG_N = 12000
BIG_TESTS = [{"stdin": " ".join(map(str, range(BIG_N))), "expected": str(sum(range(BIG_N)))}]
BIG_RIGHT = "```python\nprint(sum(map(int, input().split())))\n```"
BIG_WRONG = "```python\nprint(sum(map(int, input().split())) - 1)\n```"


def test_trl_large_batch_split_by_bytes(server, caplog, monkeypatch):
    """A step of 512 completions with large stdio tests: split under the server's max_body
    (from /healthz), every right answer 1.0 and every wrong one 0.0, nothing lost; told a
    larger limit than the server has, the 413s are split in two until they fit, never resent
    whole; an item alone past the limit is None, the others judged."""
    trl = load("trl/verdict_reward.py")
    assert trl.server_max_body(server.url) == 16 << 20
    n = 512
    comps = [BIG_RIGHT if i % 2 == 0 else BIG_WRONG for i in range(n)]
    want = [1.0 if i % 2 == 0 else 0.0 for i in range(n)]
    sent = []
    post = trl._post_batch

    def counting(url, items, *a):
        sent.append(len(json.dumps({"items": items})))
        return post(url, items, *a)
    monkeypatch.setattr(trl, "_post_batch", counting)
    reward = trl.make_verdict_reward(url=server.url, timeout=300)
    with caplog.at_level(logging.WARNING, logger="verdict_reward"):
        assert reward(comps, tests=[BIG_TESTS] * n) == want
    assert len(sent) >= 2 and max(sent) < 16 << 20, sent  # about 31 MB in requests that fit
    assert not caplog.records
    # a stated limit the server does not have: 413, split, judged all the same
    monkeypatch.setattr(trl, "server_max_body", lambda url: 64 << 20)
    sent.clear()
    reward = trl.make_verdict_reward(url=server.url, timeout=300)
    with caplog.at_level(logging.WARNING, logger="verdict_reward"):
        assert reward(comps, tests=[BIG_TESTS] * n) == want
    assert any("too large" in r.getMessage() for r in caplog.records)
    assert sent[0] > 16 << 20 and sent.count(sent[0]) == 1, sent  # not resent as it was
    # one item alone past the limit: None, the others judged
    monkeypatch.setattr(trl, "server_max_body", lambda url: 16 << 20)
    huge = [{"stdin": "0 " * (9 << 20), "expected": "0"}]
    reward = trl.make_verdict_reward(url=server.url, timeout=300)
    assert reward([BIG_RIGHT, BIG_RIGHT, BIG_WRONG],
                  tests=[BIG_TESTS, huge, BIG_TESTS]) == [1.0, None, 0.0]


def test_extract_validation(server):
    r = server.post("/v1/judge", {"language": "python", "code": RIGHT, "extract": "yes",
                                  "tests": ADD_TESTS})
    assert r.status_code == 422 and r.json()["detail"][0]["loc"] == ["body", "extract"]
    # without extract, the fence is the program: a syntax error
    assert judge(server, {"language": "python", "code": RIGHT, "tests": ADD_TESTS})["reward"] == 0


# ---- Verifiers-style rubric --------------------------------------------------------------------

SUM_RIGHT = "print('Answer:', sum(map(int, input().split())))\n"
SUM_WORDY = ("n = sum(map(int, input().split()))\nprint('Let me think about this carefully.')\n"
             "print('Answer:', n)\n")
SUM_WRONG = "print('Answer:', 0)\n"


def test_verifiers_rubric(server):
    ex = load("verifiers/rubric_request.py")
    r = judge(server, ex.build_request(SUM_RIGHT))
    assert r["status"] == "OK" and r["reward"] == 1, r
    assert r["tests"][0].get("reason", "score 1.00").startswith("score 1.00"), r
    # the right number, but neither one line nor brief: 1.0 / 1.6 < 0.9
    r = judge(server, ex.build_request(SUM_WORDY))
    assert r["reward"] == 0 and r["tests"][0]["verdict"] == "WA", r
    assert "score 0.62" in r["tests"][0]["reason"], r["tests"][0]
    r = judge(server, ex.build_request(SUM_WRONG))
    assert [t["verdict"] for t in r["tests"]] == ["WA", "WA"], r
    # the same program under another rubric (the context alone changed): correctness only
    lenient = {"funcs": [{"name": "correct_answer", "weight": 1.0}], "threshold": 1.0}
    assert judge(server, ex.build_request(SUM_WORDY, rubric=lenient))["reward"] == 1


# ---- Runloop-style scorer ----------------------------------------------------------------------

WORDS_RIGHT = """import sys
from collections import Counter
c = Counter(sys.stdin.read().split())
for w, n in sorted(c.items(), key=lambda p: (-p[1], p[0])):
    print(w, n)
"""
WORDS_UNSORTED = WORDS_RIGHT.replace("sorted(c.items(), key=lambda p: (-p[1], p[0]))",
                                     "sorted(c.items())")
WORDS_WRONG = "import sys\nfor w in sorted(set(sys.stdin.read().split())):\n    print(w, 1)\n"


def test_runloop_scorer(server):
    ex = load("runloop/scorer_request.py")
    r = judge(server, ex.build_request(WORDS_RIGHT))
    assert r["status"] == "OK" and r["reward"] == 1, r
    assert r["tests"][0].get("reason", "score 1.00").startswith("score 1.00"), r
    # right counts, wrong order: 0.8 reaches the default threshold; a stricter context fails it
    r = judge(server, ex.build_request(WORDS_UNSORTED))
    assert r["reward"] == 1, r
    strict = {"expected": {"the": 3, "cat": 2}, "weights": {"counts": 0.8, "sorted": 0.2},
              "pass_threshold": 1.0}
    r = judge(server, ex.build_request(WORDS_UNSORTED, context=strict))
    assert r["reward"] == 0 and "score 0.80" in r["tests"][0]["reason"], r
    r = judge(server, ex.build_request(WORDS_WRONG))
    assert r["reward"] == 0 and r["tests"][0]["verdict"] == "WA", r


def test_checker_files_validation(server):
    ex = load("runloop/scorer_request.py")

    def loc(files):
        body = ex.build_request(WORDS_RIGHT)
        body["compare"]["checker"]["files"] = files
        r = server.post("/v1/judge", body)
        assert r.status_code == 422, r.text
        return r.json()["detail"][0]["loc"]

    where = ["body", "compare", "checker", "files"]
    assert loc([]) == where
    assert loc({"answer.txt": ""}) == where + ["answer.txt"]
    assert loc({"../ctx.json": ""}) == where + ["../ctx.json"]
    assert loc({"ctx.json": "not base64!"}) == where + ["ctx.json"]
    assert loc({f"f{i}": "" for i in range(17)}) == where
    big = base64.b64encode(b"x" * (3 << 20)).decode()
    assert loc({"a": big, "b": big}) == where
    # a checker file reaches a compiled checker too (read at run time: one compile serves
    # every context)
    checker = ("#include <stdio.h>\nint main(void) { FILE *f = fopen(\"ctx\", \"r\");\n"
               "int c = f ? fgetc(f) : -1; fprintf(stderr, \"ctx %c\\n\", c);\n"
               "return c == 'y' ? 0 : 1; }\n")
    for ctx, verdict in ((b"y", "OK"), (b"n", "WA")):
        body = {"language": "python", "code": "print(1)", "tests": [{"expected": "1"}],
                "compare": {"mode": "checker", "checker": {
                    "language": "c", "code": checker,
                    "files": {"ctx": base64.b64encode(ctx).decode()}}}}
        r = judge(server, body)
        assert r["tests"][0]["verdict"] == verdict, r


# ---- veRL ----------------------------------------------------------------------------------------

VERL_KEYS = {"url", "max_concurrent", "memory_limit_mb"}  # SandboxFusionConfig's fields


def read_yaml(path):
    """The snippet as a dict: PyYAML where installed, else a reader of its subset (nested
    `key: value` mappings by indentation, comments, scalars)."""
    try:
        import yaml
    except ImportError:
        yaml = None
    with open(path) as f:
        text = f.read()
    if yaml:
        return yaml.safe_load(text)
    root, stack = {}, [(-1, None)]
    stack[0] = (-1, root)
    for line in text.splitlines():
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        indent = len(line) - len(line.lstrip())
        key, _, value = line.strip().partition(":")
        value = value.split(" #")[0].strip()
        while stack[-1][0] >= indent:
            stack.pop()
        parent = stack[-1][1]
        if value:
            parent[key] = int(value) if value.isdigit() else value
        else:
            parent[key] = {}
            stack.append((indent, parent[key]))
    return root


def test_verl_snippet(server):
    cfg = read_yaml(os.path.join(EXAMPLES, "verl", "reward_model.yaml"))
    sf = cfg["reward_model"]["sandbox_fusion"]
    assert set(sf) == VERL_KEYS, sf
    assert sf["url"].endswith("/run_code") and isinstance(sf["max_concurrent"], int)
    assert isinstance(sf["memory_limit_mb"], int) and sf["memory_limit_mb"] > 0
    # the request veRL sends with it (verl/utils/reward_score/sandbox_fusion/utils.py), at
    # this server: answered as veRL reads it
    url = server.url + "/" + sf["url"].split("/", 3)[3]
    body = {"compile_timeout": 10, "run_timeout": 10, "code": "print(int(input()) * 2)",
            "stdin": "21", "memory_limit_MB": sf["memory_limit_mb"], "language": "python",
            "files": {}, "fetch_files": []}
    r = requests.post(url, json=body, headers={"Accept": "application/json"}, timeout=30)
    assert r.status_code == 200, r.text
    got = r.json()
    assert got["status"] == "Success" and got["run_result"]["stdout"].rstrip("\n") == "42", got
