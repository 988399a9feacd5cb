"""Judges a program with the rubric checker: one /v1/judge request (standard library only).

    python3 rubric_request.py PROGRAM.py [URL]      # URL default $VERDICT_URL or :8080

The checker (rubric_checker.py) and its context (rubric.json) travel in the request:
compare.checker.code and compare.checker.files (base64), so the server needs nothing
installed for them.
"""
import base64
import json
import os
import sys
import urllib.request

HERE = os.path.dirname(os.path.abspath(__file__))

# The task: print the sum of the numbers on stdin as "Answer: N".
TESTS = [{"stdin": "2 3\n", "expected": "5"}, {"stdin": "10 -4 1\n", "expected": "7"}]


def build_request(code, language="python", rubric=None, tests=TESTS):
    with open(os.path.join(HERE, "rubric_checker.py")) as f:
        checker = f.read()
    if rubric is None:
        with open(os.path.join(HERE, "rubric.json"), "rb") as f:
            context = f.read()
    else:
        context = json.dumps(rubric).encode()
    return {"language": language, "code": code, "tests": tests,
            "compare": {"mode": "checker",
                        "checker": {"language": "python", "code": checker,
                                    "files": {"rubric.json": base64.b64encode(context).decode()}}}}


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
    for t in result["tests"]:
        print(t["index"], t["verdict"], t["reason"])
    print("reward", result["reward"])
