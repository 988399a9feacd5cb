"""Judges a program with the Runloop-style scorer: one /v1/judge request (standard library).

    python3 scorer_request.py PROGRAM.py [URL]      # URL default $VERDICT_URL or :8080

The scorer (scorer.py) runs as verdict's checker; its context (scorer_context.json: the
expected behaviour and the weights) reaches it as compare.checker.files, a file in its work
dir. A test's `expected` is unused by this scorer (answer.txt is empty).
"""
import base64
import json
import os
import sys
import urllib.request

HERE = os.path.dirname(os.path.abspath(__file__))

STDIN = "the cat sat on the mat\nthe cat\n"


def build_request(code, language="python", context=None, stdin=STDIN):
    with open(os.path.join(HERE, "scorer.py")) as f:
        scorer = f.read()
    if context is None:
        with open(os.path.join(HERE, "scorer_context.json"), "rb") as f:
            raw = f.read()
    else:
        raw = json.dumps(context).encode()
    return {"language": language, "code": code, "tests": [{"stdin": stdin, "expected": ""}],
            "compare": {"mode": "checker",
                        "checker": {"language": "python", "code": scorer,
                                    "files": {"scorer_context.json":
                                              base64.b64encode(raw).decode()}}}}


def judge(url, body):
    req = urllib.request.Request(url.rstrip("/") + "/v1/judge", data=json.dumps(body).encode(),
                                 headers={"Content-Type": "application/json"}, method="POST")
    with urllib.request.urlopen(req, timeout=120) as resp:
        return json.load(resp)


if __name__ == "__main__":
    with open(sys.argv[1]) as f:
        program = f.read()
    url = sys.argv[2] if len(sys.argv) > 2 else os.environ.get("VERDICT_URL",
                                                               "http://127.0.0.1:8080")
    result = judge(url, build_request(program))
    t = result["tests"][0]
    print(t["verdict"], t["reason"])
    print("reward", result["reward"])
