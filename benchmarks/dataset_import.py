#!/usr/bin/python3
"""How dataset import grows with the number of rows: `verdict datasets import NAME PATH --db TMP`
on generated datasets of SMALL and LARGE rows (default 1,000 and 20,000), HumanEval-shaped
(a harness: prompt, test, canonical_solution) and CodeContests-shaped (SandboxFusion's stdio
rows: content, test as a JSON string of stdin/stdout pairs, labels). Prints the wall time of
each import, the time per row, and the ratio LARGE/SMALL of the time per row: about 1.0 for
linear growth, LARGE/SMALL for quadratic, its square for cubic. Asserts nothing (a
benchmark); runs no program.

usage: dataset_import.py VERDICT_BIN [SMALL=1000] [LARGE=20000] [TIMEOUT_S=600]
A run past TIMEOUT_S is killed and printed as such.
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time

VERDICT = sys.argv[1] if len(sys.argv) > 1 else "build/release/verdict"
SMALL = int(sys.argv[2]) if len(sys.argv) > 2 else 1000
LARGE = int(sys.argv[3]) if len(sys.argv) > 3 else 20000
TIMEOUT = float(sys.argv[4]) if len(sys.argv) > 4 else 600


def humaneval_row(i):
    name = f"f{i}"
    return {"task_id": f"HumanEval/{i}",
            "prompt": f"def {name}(x):\n    \"\"\"Returns x plus {i}.\"\"\"\n",
            "entry_point": name,
            "canonical_solution": f"    return x + {i}\n",
            "test": f"def check(c):\n    assert c(1) == {i + 1}\n    assert c(0) == {i}\n"}


def code_contests_row(i):
    tests = [{"input": {"stdin": f"{i} {k}\n"}, "output": {"stdout": f"{i + k}\n"}} for k in range(5)]
    return {"id": i,
            "content": f"Problem {i}: read two integers and print their sum.",
            "test": json.dumps(tests),
            "labels": json.dumps({"difficulty": i % 5, "name": f"p{i}"})}


def write(path, make, n):
    with open(path, "w") as f:
        for i in range(n):
            f.write(json.dumps(make(i)) + "\n")


def timed_import(tmp, name, path):
    db = os.path.join(tmp, name + ".db")
    t0 = time.monotonic()
    try:
        p = subprocess.run([VERDICT, "datasets", "import", name, path, "--db", db],
                           capture_output=True, text=True, timeout=TIMEOUT)
    except subprocess.TimeoutExpired:
        return None, f"killed after {TIMEOUT:.0f} s"
    dt = time.monotonic() - t0
    return (dt, "") if p.returncode == 0 else (None, p.stderr.strip()[:200])


def main():
    tmp = tempfile.mkdtemp(prefix="verdict-import-bench-")
    try:
        print(f"{'shape':<14} {'rows':>7} {'wall s':>9} {'us/row':>9}")
        for shape, make in (("humaneval", humaneval_row), ("code_contests", code_contests_row)):
            per_row = {}
            for n in (SMALL, LARGE):
                path = os.path.join(tmp, f"{shape}_{n}.jsonl")
                write(path, make, n)
                dt, why = timed_import(tmp, f"{shape}_{n}", path)
                if dt is None:
                    print(f"{shape:<14} {n:>7} {'-':>9} {'-':>9}  ({why})")
                    continue
                per_row[n] = dt / n
                print(f"{shape:<14} {n:>7} {dt:>9.3f} {per_row[n] * 1e6:>9.1f}")
            if len(per_row) == 2:
                print(f"{shape:<14} per-row ratio {LARGE}/{SMALL}: "
                      f"{per_row[LARGE] / per_row[SMALL]:.2f} (linear ~1.0, quadratic "
                      f"~{LARGE / SMALL:.0f}, cubic ~{(LARGE / SMALL) ** 2:.0f})")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
