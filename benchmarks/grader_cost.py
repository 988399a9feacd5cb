#!/usr/bin/python3
"""What judging harness tests in a grader process costs (docs/integrity.md): the same samples
judged by `verdict bench` with two builds side by side, BEFORE (e.g. the tests joined into the
program, or sealed) and AFTER (the tests in a grader process), ROUNDS times each, interleaved in
the same session so that both see the same load; per dataset, the ratio of medians is printed.
It asserts nothing (a benchmark).

usage: grader_cost.py BEFORE_BIN BEFORE_LANGUAGES AFTER_BIN AFTER_LANGUAGES
                      [--rounds N] [--jobs J] [--dataset NAME]...
A dataset NAME is judged with its reference solutions (humaneval, mbpp, humanevalx_cpp, ...);
multiple_<lang> and multiple_mbpp_<lang> with MultiPL-E's chat answers (gpt_solution), every
--stride-th problem. Default: humaneval. A build from before: `git worktree add /tmp/before REV`
and build it there; for a grader that lives in templates only, the same binary with the old
languages/ directory. Root (verdict uses cells). Data: VERDICT_TEST_DATA (../shared/datasets)
and VERDICT_TEST_MORE_DATA (../shared/more-datasets).
"""
import argparse
import json
import os
import shutil
import statistics
import subprocess
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
DATA = next(d for d in (os.environ.get("VERDICT_TEST_DATA"),
                        os.path.join(HERE, "..", "..", "shared", "datasets"),
                        "/work/shared/datasets") if d and os.path.isdir(d))
MORE = os.environ.get("VERDICT_TEST_MORE_DATA") or os.path.join(os.path.dirname(
    os.path.abspath(DATA)), "more-datasets")


def chat_answers(name, stride, out):
    """MultiPL-E's chat answers for multiple_[mbpp_]<lang>, every stride-th, as a samples file;
    None when the data are not here."""
    lang = name.rsplit("_", 1)[1]
    kind = "mbpp" if name.startswith("multiple_mbpp_") else "humaneval"
    for root in (DATA, MORE):
        path = os.path.join(root, "multipl-e", f"{kind}-{lang}.jsonl")
        if os.path.exists(path):
            rows = [json.loads(l) for l in open(path)][::stride]
            with open(out, "w") as f:
                for r in rows:
                    f.write(json.dumps({"task_id": r["name"], "completion": r["gpt_solution"]})
                            + "\n")
            return out
    return None


class Build:
    def __init__(self, name, exe, languages, root):
        self.name, self.exe, self.languages = name, exe, languages
        self.work = os.path.join(root, name)
        os.makedirs(self.work)
        self.env = {**os.environ, "VERDICT_DB": self.work + "/verdict.db"}
        for src in (DATA, MORE):
            if os.path.isdir(src):
                subprocess.run([exe, "datasets", "import", src], env=self.env, check=True,
                               capture_output=True, timeout=600)

    def run(self, dataset, samples, jobs):
        what = ["--reference", dataset] if samples is None else [dataset, samples]
        t = time.monotonic()
        p = subprocess.run([self.exe, "bench", *what, "-k", "1", "-j", str(jobs), "--summary",
                            "json", "--languages", self.languages, "--cache",
                            self.work + "/cache", "--no-record"],
                           env=self.env, capture_output=True, text=True, timeout=1800)
        took = time.monotonic() - t
        if p.returncode not in (0, 3):
            raise RuntimeError(f"{self.name} {dataset}: {p.stderr.strip()[-400:]}")
        return took, json.loads(p.stdout)["verdicts"]


def main():
    ap = argparse.ArgumentParser(usage=__doc__)
    ap.add_argument("before_bin")
    ap.add_argument("before_languages")
    ap.add_argument("after_bin")
    ap.add_argument("after_languages")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--jobs", type=int, default=os.cpu_count())
    ap.add_argument("--stride", type=int, default=1)
    ap.add_argument("--dataset", action="append")
    a = ap.parse_args()
    root = tempfile.mkdtemp(prefix="verdict-bench-grader-", dir="/var/tmp")
    try:
        builds = [Build("before", a.before_bin, a.before_languages, root),
                  Build("after", a.after_bin, a.after_languages, root)]
        for ds in a.dataset or ["humaneval"]:
            samples = None
            if ds.startswith("multiple_"):
                samples = chat_answers(ds, a.stride, os.path.join(root, ds + ".jsonl"))
                if samples is None:
                    print(f"{ds}: no data here")
                    continue
            times = {b.name: [] for b in builds}
            for b in builds:
                b.run(ds, samples, a.jobs)  # warm: the page cache, the compile caches
            for r in range(a.rounds):
                line = []
                for b in builds if r % 2 == 0 else builds[::-1]:
                    t, v = b.run(ds, samples, a.jobs)
                    times[b.name].append(t)
                    line.append(f"{b.name} {t:.2f} s ({v.get('OK', 0)} OK)")
                print(f"{ds} round {r + 1}: " + "   ".join(line), flush=True)
            before = statistics.median(times["before"])
            after = statistics.median(times["after"])
            print(f"{ds}: {a.jobs} at a time, median of {a.rounds}: before {before:.2f} s, "
                  f"after {after:.2f} s, ratio {after / before:.2f}x", flush=True)
    finally:
        shutil.rmtree(root, ignore_errors=True)


if __name__ == "__main__":
    main()
