#!/usr/bin/python3
"""What a compiled grader costs (docs/integrity/cpp.md, c.md, java.md, csharp.md, d.md, scala.md,
go.md, rust.md):
a language's function-harness samples judged by `verdict bench` with two builds side by side,
one without the grader (C++: a build from before it, whose tests are sealed into the program;
or BIN:off, a build run with VERDICT_COMPILED_GRADERS=off: Java's tests joined after the code,
judged by exit status, as before its grader; Go's and C++'s sealed in-process) and
one with it, ROUNDS times each, interleaved in the same session so that both see the same load;
the ratio of medians is printed for three states of the compile cache:
- cold: an empty cache (every program compiles; with the grader, each problem's grader too,
  beside it): a problem's first sample;
- grader cached: the programs' entries removed, the graders' kept: a new sample of a problem
  already judged once (the usual case in training, k samples a problem);
- warm: everything cached (runs only).
It asserts nothing (a benchmark).

usage: compiled_grader_cost.py LANG BEFORE_BIN[:off] BEFORE_LANGUAGES AFTER_BIN AFTER_LANGUAGES
       [ROUNDS=3] [J=nproc] [N=all]   (root: verdict uses cells; N: the first N problems)
LANG: cpp, go or rust (HumanEval-X's canonical solutions, ../shared/datasets/humaneval-x), c
(McEval C's, ../shared/datasets/mceval), cpp_multiple (MultiPL-E's HumanEval C++ chat answers,
../shared/datasets/multipl-e: prompts that include <bits/stdc++.h>), java,
csharp, d or scala (MultiPL-E's HumanEval in that language, ../shared/more-datasets: its
chat answers, right
or wrong, since it has no references). A C++ build from before: `git worktree add /tmp/before f5e11ea`
and build it there.
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
MORE = os.path.join(os.path.dirname(os.path.abspath(DATA)), "more-datasets")
# LANG -> (dataset, its file, the sample's id and code fields, the program's artifact)
LANGS = {
    "c": ("mceval_c", os.path.join(DATA, "mceval", "C.jsonl"),
          "task_id", "canonical_solution", "main"),
    "cpp": ("humanevalx_cpp", os.path.join(DATA, "humaneval-x", "humaneval_cpp.jsonl.gz"),
            "task_id", "canonical_solution", "main"),
    "cpp_multiple": ("multiple_cpp", os.path.join(DATA, "multipl-e", "humaneval-cpp.jsonl"),
                     "name", "gpt_solution", "main"),
    "java": ("multiple_java", os.path.join(MORE, "multipl-e", "humaneval-java.jsonl"),
             "name", "gpt_solution", "main.jar"),
    "csharp": ("multiple_cs", os.path.join(MORE, "multipl-e", "humaneval-cs.jsonl"),
               "name", "gpt_solution", "main.exe"),
    "d": ("multiple_d", os.path.join(MORE, "multipl-e", "humaneval-d.jsonl"),
          "name", "gpt_solution", "main"),
    "scala": ("multiple_scala", os.path.join(MORE, "multipl-e", "humaneval-scala.jsonl"),
              "name", "gpt_solution", "main.jar"),
    "go": ("humanevalx_go", os.path.join(DATA, "humaneval-x", "humaneval_go.jsonl.gz"),
           "task_id", "canonical_solution", "main.test"),
    "rust": ("humanevalx_rust", os.path.join(DATA, "humaneval-x", "humaneval_rust.jsonl.gz"),
             "task_id", "canonical_solution", "main.test"),
}


def rows_of(path):
    with (gzip.open(path, "rt") if path.endswith(".gz") else open(path)) as f:
        return [json.loads(l) for l in f]


class Build:
    def __init__(self, name, exe, languages, root, samples, lang):
        self.name, self.languages, self.samples = name, languages, samples
        self.dataset, source, _, _, self.artifact = LANGS[lang]
        self.work = os.path.join(root, name)
        self.cache = self.work + "/cache"
        os.makedirs(self.work)
        self.env = {**os.environ, "VERDICT_DB": self.work + "/verdict.db"}
        self.exe = exe
        if exe.endswith(":off"):  # this build without its compiled graders
            self.exe = exe[:-4]
            self.env["VERDICT_COMPILED_GRADERS"] = "off"
        subprocess.run([self.exe, "datasets", "import", self.dataset, source], env=self.env,
                       check=True, capture_output=True)

    def run(self, jobs):
        t = time.monotonic()
        p = subprocess.run([self.exe, "bench", self.dataset, self.samples, "-k", "1", "-j",
                            str(jobs), "--summary", "json", "--languages", self.languages,
                            "--cache", self.cache, "--no-record"],
                           env=self.env, capture_output=True, text=True, timeout=3600)
        took = time.monotonic() - t
        return took, json.loads(p.stdout)["verdicts"].get("OK", 0)

    def forget_programs(self):
        """Removes the programs' cache entries (those holding the program's artifact), keeping
        the graders'."""
        for root, dirs, files in os.walk(self.cache):
            if self.artifact in files:
                shutil.rmtree(root, ignore_errors=True)

    def forget_all(self):
        shutil.rmtree(self.cache, ignore_errors=True)


def main():
    if len(sys.argv) < 6 or sys.argv[1] not in LANGS:
        sys.exit(__doc__)
    lang = sys.argv[1]
    rounds = int(sys.argv[6]) if len(sys.argv) > 6 else 3
    jobs = int(sys.argv[7]) if len(sys.argv) > 7 else os.cpu_count()
    dataset, source, id_field, code_field, _ = LANGS[lang]
    rows = rows_of(source)
    n = int(sys.argv[8]) if len(sys.argv) > 8 else len(rows)
    root = tempfile.mkdtemp(prefix=f"verdict-bench-{lang}-", dir="/var/tmp")
    samples = os.path.join(root, "samples.jsonl")
    with open(samples, "w") as out:
        for row in rows[:n]:
            out.write(json.dumps({"task_id": row[id_field], "completion": row[code_field]}) + "\n")
    states = ("cold", "grader cached", "warm")
    try:
        builds = [Build("before", sys.argv[2], sys.argv[3], root, samples, lang),
                  Build("after", sys.argv[4], sys.argv[5], root, samples, lang)]
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
            print(f"{dataset}, {n} samples, {jobs} at a time, {s}, median of "
                  f"{rounds}: before {before:.2f} s, after {after:.2f} s, "
                  f"ratio {after / before:.2f}x")
    finally:
        shutil.rmtree(root, ignore_errors=True)


if __name__ == "__main__":
    main()
