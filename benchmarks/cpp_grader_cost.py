#!/usr/bin/python3
"""What C++'s compiled grader costs (docs/integrity/cpp.md): HumanEval-X's C++ canonical
solutions judged by `verdict bench` with two builds side by side, one from before the grader
(the tests sealed into the program) and this one, ROUNDS times each, interleaved in the same
session so that both see the same load; the ratio of medians is printed for three states of
the compile cache:
- cold: an empty cache (every program compiles; with the grader, each problem's grader too,
  beside it): a problem's first sample;
- grader cached: the programs' entries removed, the graders' kept: a new sample of a problem
  already judged once (the usual case in training, k samples a problem);
- warm: everything cached (runs only).
It asserts nothing (a benchmark).

usage: cpp_grader_cost.py BEFORE_BIN BEFORE_LANGUAGES AFTER_BIN AFTER_LANGUAGES [ROUNDS=3]
       [J=nproc] [N=164]   (root: verdict uses cells; N: the first N problems)
A build from before: `git worktree add /tmp/before f5e11ea` and build it there. Reads
../shared/datasets/humaneval-x/humaneval_cpp.jsonl.gz (or VERDICT_TEST_DATA).
"""
import gzip
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
SOURCE = os.path.join(DATA, "humaneval-x", "humaneval_cpp.jsonl.gz")


class Build:
    def __init__(self, name, exe, languages, root, samples):
        self.name, self.exe, self.languages, self.samples = name, exe, languages, samples
        self.work = os.path.join(root, name)
        self.cache = self.work + "/cache"
        os.makedirs(self.work)
        self.env = {**os.environ, "VERDICT_DB": self.work + "/verdict.db"}
        subprocess.run([exe, "datasets", "import", "humanevalx_cpp", SOURCE], env=self.env,
                       check=True, capture_output=True)

    def run(self, jobs):
        t = time.monotonic()
        p = subprocess.run([self.exe, "bench", "humanevalx_cpp", self.samples, "-k", "1", "-j",
                            str(jobs), "--summary", "json", "--languages", self.languages,
                            "--cache", self.cache, "--no-record"],
                           env=self.env, capture_output=True, text=True, timeout=3600)
        took = time.monotonic() - t
        return took, json.loads(p.stdout)["verdicts"].get("OK", 0)

    def forget_programs(self):
        """Removes the programs' cache entries (those holding `main`), keeping the graders'."""
        for root, dirs, files in os.walk(self.cache):
            if "main" in files:
                shutil.rmtree(root, ignore_errors=True)

    def forget_all(self):
        shutil.rmtree(self.cache, ignore_errors=True)


def main():
    if len(sys.argv) < 5:
        sys.exit(__doc__)
    rounds = int(sys.argv[5]) if len(sys.argv) > 5 else 3
    jobs = int(sys.argv[6]) if len(sys.argv) > 6 else os.cpu_count()
    n = int(sys.argv[7]) if len(sys.argv) > 7 else 164
    root = tempfile.mkdtemp(prefix="verdict-bench-cpp-", dir="/var/tmp")
    samples = os.path.join(root, "samples.jsonl")
    with gzip.open(SOURCE, "rt") as f, open(samples, "w") as out:
        for row in [json.loads(l) for l in f][:n]:
            out.write(json.dumps({"task_id": row["task_id"],
                                  "completion": row["canonical_solution"]}) + "\n")
    states = ("cold", "grader cached", "warm")
    try:
        builds = [Build("before", sys.argv[1], sys.argv[2], root, samples),
                  Build("after", sys.argv[3], sys.argv[4], root, samples)]
        times = {(b.name, s): [] for b in builds for s in states}
        for r in range(rounds):
            line = []
            for b in builds if r % 2 == 0 else builds[::-1]:
                b.forget_all()
                for s in states:
                    if s == "grader cached":
                        b.forget_programs()
                    t, ok = b.run(jobs)
                    times[(b.name, s)].append(t)
                    line.append(f"{b.name} {s} {t:.1f} s ({ok} OK)")
            print("round %d: %s" % (r + 1, "; ".join(line)), flush=True)
        for s in states:
            before = statistics.median(times[("before", s)])
            after = statistics.median(times[("after", s)])
            print(f"HumanEval-X C++, {n} reference solutions, {jobs} at a time, {s}, median of "
                  f"{rounds}: before {before:.2f} s, after {after:.2f} s, "
                  f"ratio {after / before:.2f}x")
    finally:
        shutil.rmtree(root, ignore_errors=True)


if __name__ == "__main__":
    main()
