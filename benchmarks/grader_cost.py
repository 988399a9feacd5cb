#!/usr/bin/python3
"""What the out-of-process Python grader costs (docs/integrity.md): HumanEval's 164 canonical
solutions judged by `verdict bench --reference humaneval` with two builds side by side, one
from before the grader (tests joined into the program) and this one, ROUNDS times each,
interleaved in the same session so that both see the same load; the ratio of medians is
printed. It asserts nothing (a benchmark).

usage: grader_cost.py BEFORE_BIN BEFORE_LANGUAGES AFTER_BIN AFTER_LANGUAGES [ROUNDS=3] [J=nproc]
(root: verdict uses cells). A build from before: `git worktree add /tmp/before 5ebad6f` and
build it there. Reads ../shared/datasets/HumanEval.jsonl.gz (or VERDICT_TEST_DATA).
"""
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
DATA = next(d for d in (os.environ.get("VERDICT_TEST_DATA"),
                        os.path.join(HERE, "..", "..", "shared", "datasets"),
                        "/work/shared/datasets") if d and os.path.isdir(d))
SOURCE = os.path.join(DATA, "HumanEval.jsonl.gz")


class Build:
    def __init__(self, name, exe, languages, root):
        self.name, self.exe, self.languages = name, exe, languages
        self.work = os.path.join(root, name)
        os.makedirs(self.work)
        self.env = {**os.environ, "VERDICT_DB": self.work + "/verdict.db"}
        subprocess.run([exe, "datasets", "import", "humaneval", SOURCE], env=self.env,
                       check=True, capture_output=True)

    def run(self, jobs):
        t = time.monotonic()
        p = subprocess.run([self.exe, "bench", "--reference", "humaneval", "-k", "1", "-j",
                            str(jobs), "--summary", "json", "--languages", self.languages,
                            "--cache", self.work + "/cache"],
                           env=self.env, capture_output=True, text=True, timeout=900)
        took = time.monotonic() - t
        return took, json.loads(p.stdout)["verdicts"].get("OK", 0)


def main():
    if len(sys.argv) < 5:
        sys.exit(__doc__)
    rounds = int(sys.argv[5]) if len(sys.argv) > 5 else 3
    jobs = int(sys.argv[6]) if len(sys.argv) > 6 else os.cpu_count()
    root = tempfile.mkdtemp(prefix="verdict-bench-grader-", dir="/var/tmp")
    try:
        builds = [Build("before", sys.argv[1], sys.argv[2], root),
                  Build("after", sys.argv[3], sys.argv[4], root)]
        times = {b.name: [] for b in builds}
        for b in builds:
            b.run(jobs)  # warm: page cache, the first cells
        for r in range(rounds):
            line = []
            for b in builds if r % 2 == 0 else builds[::-1]:
                t, ok = b.run(jobs)
                times[b.name].append(t)
                line.append(f"{b.name} {t:.2f} s ({ok} passed)")
            print("round %d: %s" % (r + 1, "   ".join(line)), flush=True)
        before, after = statistics.median(times["before"]), statistics.median(times["after"])
        print(f"HumanEval 164 reference solutions, {jobs} at a time, median of {rounds}: "
              f"before {before:.2f} s, after (grader) {after:.2f} s, ratio {after / before:.2f}x")
    finally:
        shutil.rmtree(root, ignore_errors=True)


if __name__ == "__main__":
    main()
