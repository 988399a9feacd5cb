"""Every imported dataset judged with its own reference solutions (`verdict bench
--reference`), MultiPL-E's harnesses with hand-written completions, verdict's own problem
sets, pass@k on HumanEval sample files, imports that are all-or-nothing, and an interrupted
run that keeps what finished. Data: ../shared/datasets (VERDICT_TEST_DATA) and problems/."""
import gzip
import json
import math
import os
import shutil
import signal
import subprocess
import tempfile
import time

import pytest

VERDICT = os.environ.get("VERDICT_BIN", "build/release/verdict")
LANGUAGES = os.environ.get("VERDICT_LANGUAGES", "languages")
HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
# The benchmark data: $VERDICT_TEST_DATA, else ../shared/datasets beside the checkout, else
# the machines' /work/shared/datasets (a clone elsewhere still finds it).
DATA = next((d for d in (os.environ.get("VERDICT_TEST_DATA"),
                         os.path.join(os.path.dirname(os.path.abspath(__file__)), "../../../shared/datasets"),
                         "/work/shared/datasets") if d and os.path.isdir(d)), "/work/shared/datasets")

# MultiPL-E in 15 more languages, with chat answers and no references: $VERDICT_TEST_MORE_DATA,
# else more-datasets beside the benchmark data. Imported (and checked) where it exists.
MORE = os.environ.get("VERDICT_TEST_MORE_DATA") or os.path.join(os.path.dirname(os.path.abspath(DATA)), "more-datasets")
MORE_LANGS = ["cs", "d", "java", "jl", "js", "lua", "php", "pl", "r", "rb", "rkt", "scala", "sh",
              "swift", "ts"]

# VERDICT_DATASETS_SHARD=I/N: the reference and chat-answer runs judge only every Nth problem
# of each dataset from the Ith (`verdict bench --shard I/N`), so that every dataset and
# language is still covered in minutes. ctest's `datasets` runs 0/4; `datasets_full` (make
# test-datasets) and a run without the variable judge every problem.
SHARD = os.environ.get("VERDICT_DATASETS_SHARD") or "0/1"


def in_shard(rows, shard=SHARD):
    i, n = map(int, shard.split("/"))
    return rows[i::n]


# dataset -> (problems, reference samples)
EXPECTED = {
    "humaneval": (164, 164),
    "mbpp": (974, 974),
    "mbpp_sanitized": (427, 427),
    "humanevalx_cpp": (164, 164),
    "humanevalx_go": (164, 164),
    "humanevalx_rust": (164, 164),
    "mceval_c": (50, 50),
    "mceval_cpp": (50, 50),
    "mceval_go": (50, 50),
    "mceval_rust": (53, 53),
    "multiple_cpp": (161, 0),
    "multiple_go": (154, 0),
    "multiple_rs": (156, 0),
    "multiple_mbpp_cpp": (397, 0),
    "multiple_mbpp_go": (374, 0),
    "multiple_mbpp_rs": (354, 0),
    "code_contests": (20, 0),
}
EXPECTED_MORE = {
    "multiple_cs": (158, 0), "multiple_d": (156, 0), "multiple_java": (158, 0),
    "multiple_jl": (159, 0), "multiple_js": (161, 0), "multiple_lua": (161, 0),
    "multiple_php": (161, 0), "multiple_pl": (161, 0), "multiple_r": (161, 0),
    "multiple_rb": (161, 0), "multiple_rkt": (161, 0), "multiple_scala": (160, 0),
    "multiple_sh": (158, 0), "multiple_swift": (158, 0), "multiple_ts": (159, 0),
    "multiple_mbpp_cs": (386, 0), "multiple_mbpp_d": (358, 0), "multiple_mbpp_java": (386, 0),
    "multiple_mbpp_jl": (390, 0), "multiple_mbpp_js": (397, 0), "multiple_mbpp_lua": (397, 0),
    "multiple_mbpp_php": (397, 0), "multiple_mbpp_pl": (396, 0), "multiple_mbpp_r": (397, 0),
    "multiple_mbpp_rb": (397, 0), "multiple_mbpp_rkt": (397, 0), "multiple_mbpp_scala": (396, 0),
    "multiple_mbpp_sh": (382, 0), "multiple_mbpp_swift": (396, 0), "multiple_mbpp_ts": (390, 0),
}


def known_broken():
    out = {}
    with open(os.path.join(HERE, "known_broken.txt")) as f:
        for line in f:
            if line.strip() and not line.startswith("#"):
                ds, tid, kind, reason = line.split(None, 3)
                out.setdefault(ds, {})[tid] = (kind, reason.strip())
    return out


@pytest.fixture(scope="module")
def env():
    if os.geteuid() != 0:
        pytest.skip("the sandbox needs root")
    if not os.path.exists(os.path.join(DATA, "HumanEval.jsonl.gz")):
        pytest.skip(f"no datasets at {DATA}")
    work = tempfile.mkdtemp(prefix="verdict-datasets-", dir="/var/tmp")
    e = {**os.environ, "VERDICT_DB": work + "/verdict.db"}
    p = subprocess.run([VERDICT, "datasets", "import", DATA], env=e, capture_output=True,
                       text=True, timeout=600)
    assert p.returncode == 0, p.stdout + p.stderr
    assert "cuda_sandboxfusion_torch_op: skipped" in p.stdout  # torch bundles: not ours to run
    p = subprocess.run([VERDICT, "datasets", "import", os.path.join(ROOT, "problems")], env=e,
                       capture_output=True, text=True, timeout=600)
    assert p.returncode == 0, p.stdout + p.stderr
    if os.path.isdir(MORE):
        # every language imports, whether or not this host runs it (julia, swift: SKIP)
        p = subprocess.run([VERDICT, "datasets", "import", MORE], env=e, capture_output=True,
                           text=True, timeout=600)
        assert p.returncode == 0, p.stdout + p.stderr
    yield {"env": e, "work": work}
    shutil.rmtree(work, ignore_errors=True)


def bench(env, *args, timeout=3000):
    p = subprocess.run([VERDICT, "bench", *args, "--summary", "json", "--languages", LANGUAGES,
                        "--cache", env["work"] + "/cache"],
                       env=env["env"], capture_output=True, text=True, timeout=timeout)
    assert p.returncode in (0, 3), p.stderr
    return json.loads(p.stdout), p


def test_import_list(env):
    p = subprocess.run([VERDICT, "datasets", "list", "--json"], env=env["env"],
                       capture_output=True, text=True, timeout=60)
    got = {d["name"]: d["problems"] for d in json.loads(p.stdout)}
    for name, (problems, _) in {**EXPECTED, **(EXPECTED_MORE if os.path.isdir(MORE) else {})}.items():
        assert got.get(name) == problems, name
    assert got["verdict_stdio"] >= 20 and got["verdict_cuda"] >= 12
    # Imported again: nothing is read twice.
    p = subprocess.run([VERDICT, "datasets", "import", DATA], env=env["env"],
                       capture_output=True, text=True, timeout=600)
    assert "humaneval: unchanged" in p.stdout


def test_bad_file_imports_nothing(env, tmp_path):
    rows = [json.loads(l) for l in gzip.open(os.path.join(DATA, "HumanEval.jsonl.gz"), "rt")]
    good = tmp_path / "part.jsonl"
    good.write_text("".join(json.dumps(r) + "\n" for r in rows[:3]))
    run = lambda *a: subprocess.run([VERDICT, "datasets", *a], env=env["env"],
                                    capture_output=True, text=True, timeout=60)
    assert run("import", "part", str(good)).returncode == 0
    rows[4]["entry_point"] = 5
    bad = tmp_path / "bad.jsonl"
    bad.write_text("".join(json.dumps(r) + "\n" for r in rows[:10]))
    p = run("import", "part", str(bad))
    assert p.returncode == 1
    assert f"{bad}:line 5: field \"entry_point\": must be a string" in p.stderr
    assert "nothing imported" in p.stderr
    listed = {d["name"]: d["problems"] for d in json.loads(run("list", "--json").stdout)}
    assert listed["part"] == 3  # the earlier import stands


@pytest.mark.parametrize("dataset", [d for d, (_, refs) in EXPECTED.items() if refs])
def test_reference_solutions(env, dataset):
    broken = known_broken().get(dataset, {})
    out = f"{env['work']}/{dataset}.jsonl"
    d, _ = bench(env, dataset, "--reference", "--shard", SHARD, "--out", out)
    assert d["judged"] == len(in_shard(range(EXPECTED[dataset][1])))
    assert d["verdicts"]["SE"] == 0, d
    failed = {f["task_id"] for f in d["failed"]}
    assert failed - set(broken) == set(), f"unexpected failures: {d['failed']}"
    judged = {json.loads(l)["task_id"] for l in open(out)}
    stale = {t for t, (kind, _) in broken.items() if kind == "broken" and t in judged} - failed
    assert not stale, f"known broken but passed: {stale}"


@pytest.mark.parametrize("lang", ["cpp", "go", "rs"])
def test_multiple_hand_written(env, lang):
    samples = os.path.join(HERE, "multiple", f"{lang}.jsonl")
    want = [json.loads(l)["expect"] for l in open(samples)]
    assert len(want) >= 24 and want.count("pass") >= 12 and want.count("fail") >= 12
    out = f"{env['work']}/multiple_{lang}.jsonl"
    d, _ = bench(env, f"multiple_{lang}", samples, "-k", "1", "--out", out)
    assert d["judged"] == len(want) and d["verdicts"]["SE"] == 0
    got = {r["sample"]: r for r in map(json.loads, open(out))}
    for i, w in enumerate(want):
        assert got[i]["passed"] == (w == "pass"), got[i]


# MultiPL-E's gpt_solution: free-form markdown answers from a chat model (whole functions with
# their own includes, imports, use lines, main and tests). ../shared/datasets/README.md found
# this many passing with a lenient hand-made harness; extraction and assembly must do at
# least as well (the rest are mostly wrong answers). For shard 0/4, what its problems gave
# (cpp 34 of 41, rs 35 of 39, go 30 of 39), less one of margin (an answer near its CPU limit).
# C++'s answers cost two g++ compiles each (the program, its grader: about 3 s of CPU a
# sample), so make test's shard judges every 8th of them (16 of 21 pass), for CI's time.
LENIENT = {"0/1": {"cpp": 130, "rs": 137, "go": 108},
           "0/4": {"rs": 34, "go": 29},
           "0/8": {"cpp": 15}}
CHAT_SHARD = {"0/4": {"cpp": "0/8"}}


@pytest.mark.parametrize("lang", ["cpp", "go", "rs"])
def test_multiple_chat_answers(env, lang, tmp_path):
    shard = CHAT_SHARD.get(SHARD, {}).get(lang, SHARD)
    assert lang in LENIENT.get(shard, {}), f"no threshold measured for shard {shard}"
    rows = [json.loads(l) for l in open(os.path.join(DATA, "multipl-e", f"humaneval-{lang}.jsonl"))]
    write(tmp_path / "gpt.jsonl", [{"task_id": r["name"], "completion": r["gpt_solution"]} for r in rows])
    out = tmp_path / "out.jsonl"
    d, _ = bench(env, f"multiple_{lang}", str(tmp_path / "gpt.jsonl"), "-k", "1", "--shard", shard,
                 "--out", str(out))
    assert d["judged"] == len(in_shard(rows, shard)) and d["verdicts"]["SE"] == 0
    assert d["verdicts"]["OK"] >= LENIENT[shard][lang], d["verdicts"]


# The same for the other 15 languages (../shared/more-datasets): every CHAT_STRIDE-th problem
# of each humaneval-<lang> file, from the first (every 4th; Java's every 12th and Scala's
# every 24th, whose compiles cost seconds each, scalac's ten or more: two a sample, with their
# graders), which keeps them
# to about five minutes on two cores. At least CHAT_MORE of those pass: what the full files' results give for the subset
# (docs/design.md has the full counts), less one of margin (a few answers run close to their
# CPU limit; CPU time, not load, decides their TLE, within the clock's grace). Where the
# host cannot run a language (no template, no toolchain: julia and swift on Debian) every
# sample is SKIP, never SE, and julia's and swift's thresholds are unmeasured (1). Racket's
# was 28 while rackunit's failures outside a test case passed: 6 of the subset's answers print
# FAILURE and now fail (docs/integrity/rrkt.md).
CHAT_STRIDE = {"java": 12, "scala": 24}
CHAT_MORE = {"cs": 25, "d": 21, "java": 10, "jl": 1, "js": 31, "lua": 29, "php": 32, "pl": 32,
             "r": 23, "rb": 32, "rkt": 22, "scala": 4, "sh": 25, "swift": 1, "ts": 31}


@pytest.mark.parametrize("lang", MORE_LANGS)
def test_multiple_chat_answers_more(env, lang, tmp_path):
    path = os.path.join(MORE, "multipl-e", f"humaneval-{lang}.jsonl")
    if not os.path.exists(path):
        pytest.skip(f"no {path}")
    rows = [json.loads(l) for l in open(path)][::CHAT_STRIDE.get(lang, 4)]
    write(tmp_path / "gpt.jsonl", [{"task_id": r["name"], "completion": r["gpt_solution"]} for r in rows])
    out = tmp_path / "out.jsonl"
    d, _ = bench(env, f"multiple_{lang}", str(tmp_path / "gpt.jsonl"), "-k", "1", "-j", "2",
                 "--out", str(out))
    assert d["judged"] == len(rows) and d["verdicts"]["SE"] == 0, d["verdicts"]
    if d["verdicts"]["SKIP"]:
        assert d["verdicts"]["SKIP"] == len(rows), d["verdicts"]
        assert all("not available here" in json.loads(l)["reason"] for l in open(out))
    else:
        assert d["verdicts"]["OK"] >= CHAT_MORE[lang], d["verdicts"]


def test_own_problem_sets(env):
    d, _ = bench(env, "verdict_stdio", "--reference", "-k", "1")
    assert d["problems"] >= 20 and d["judged"] == 5 * d["problems"]
    assert d["failed"] == [] and d["verdicts"]["OK"] == d["judged"]
    d, _ = bench(env, "verdict_cuda", "--reference", "-k", "1")
    assert d["problems"] >= 12
    # The CPU references always run; the CUDA ones run where there is a GPU and are reported
    # skipped (compiled, not run) elsewhere.
    assert d["failed"] == [], d["failed"]
    assert d["verdicts"]["OK"] + d["verdicts"]["SKIP"] == d["judged"] == 2 * d["problems"]


def test_language_option_for_stdio(env, tmp_path):
    """--language names the language of stdin/stdout samples that name none."""
    sol = os.path.join(ROOT, "problems", "stdio", "01-sum-of-pairs", "solutions")
    write(tmp_path / "s.jsonl", [
        {"task_id": "01-sum-of-pairs", "completion": open(os.path.join(sol, "c.c")).read()},
        {"task_id": "01-sum-of-pairs", "completion": open(os.path.join(sol, "python.py")).read(),
         "language": "python"}])
    out = tmp_path / "out.jsonl"
    d, _ = bench(env, "verdict_stdio", str(tmp_path / "s.jsonl"), "-k", "1", "--language", "c",
                 "--out", str(out))
    assert d["verdicts"]["OK"] == 2
    assert sorted(json.loads(l)["language"] for l in open(out)) == ["c", "python"]


def humaneval_rows():
    return [json.loads(l) for l in gzip.open(os.path.join(DATA, "HumanEval.jsonl.gz"), "rt")]


def write(path, samples):
    with open(path, "w") as f:
        for s in samples:
            f.write(json.dumps(s) + "\n")


def test_humaneval_pass_at_k(env, tmp_path):
    rows = humaneval_rows()
    write(tmp_path / "canonical.jsonl",
          [{"task_id": r["task_id"], "completion": r["canonical_solution"]} for r in rows])
    d, _ = bench(env, "humaneval", str(tmp_path / "canonical.jsonl"), "-k", "1")
    assert d["pass_at_k"] == {"1": 1.0} and d["problems_judged"] == 164

    write(tmp_path / "empty.jsonl", [{"task_id": r["task_id"], "completion": "    pass\n"} for r in rows])
    d, _ = bench(env, "humaneval", str(tmp_path / "empty.jsonl"), "-k", "1")
    assert d["pass_at_k"] == {"1": 0.0} and d["verdicts"]["OK"] == 0

    # Mixed: 12 problems with 5 samples each, c of them correct (c = i % 6).
    samples, cs = [], []
    for i, r in enumerate(rows[:12]):
        c = i % 6
        cs.append(c)
        for j in range(5):
            samples.append({"task_id": r["task_id"],
                            "completion": r["canonical_solution"] if j < c else "    return None\n"})
    write(tmp_path / "mixed.jsonl", samples)
    d, _ = bench(env, "humaneval", str(tmp_path / "mixed.jsonl"), "-k", "1,2,5,10")

    def passk(n, c, k):
        return 1.0 if n - c < k else 1.0 - math.comb(n - c, k) / math.comb(n, k)

    # c = 0..5 twice: pass@1 = mean(c/5) = 0.5; pass@2 = mean(1 - C(5-c,2)/C(5,2))
    # = mean(0, .4, .7, .9, 1, 1) = 0.6667; pass@5 = 10/12.
    for k, hand in ((1, 0.5), (2, (0 + .4 + .7 + .9 + 1 + 1) / 6), (5, 10 / 12)):
        assert abs(d["pass_at_k"][str(k)] - hand) < 1e-9
        assert abs(d["pass_at_k"][str(k)] - sum(passk(5, c, k) for c in cs) / 12) < 1e-9
    assert d["pass_at_k"]["10"] is None  # fewer than 10 samples per problem
    assert d["problems_judged"] == 12 and d["judged"] == 60


def test_unknown_task_and_dataset(env, tmp_path):
    write(tmp_path / "s.jsonl", [{"task_id": "HumanEval/0", "completion": "x"},
                                 {"task_id": "HumanEval/999", "completion": "x"}])
    p = subprocess.run([VERDICT, "bench", "humaneval", str(tmp_path / "s.jsonl")], env=env["env"],
                       capture_output=True, text=True, timeout=60)
    assert p.returncode == 1 and "line 2: field \"task_id\": \"HumanEval/999\" is not in humaneval" in p.stderr
    p = subprocess.run([VERDICT, "bench", "nope", str(tmp_path / "s.jsonl")], env=env["env"],
                       capture_output=True, text=True, timeout=60)
    assert p.returncode == 1 and "no dataset \"nope\"" in p.stderr
    for bad in ("4/4", "1/0", "-1/3", "1/", "x", "1/3x"):
        p = subprocess.run([VERDICT, "bench", "humaneval", str(tmp_path / "s.jsonl"), "--shard", bad],
                           env=env["env"], capture_output=True, text=True, timeout=60)
        assert p.returncode == 1 and "--shard: expected I/N" in p.stderr, (bad, p.stderr)


def test_interrupt_keeps_what_finished(env, tmp_path):
    rows = [json.loads(l) for l in open(os.path.join(DATA, "mbpp", "mbpp.jsonl"))]
    write(tmp_path / "s.jsonl", [{"task_id": str(r["task_id"]), "completion": r["code"]} for r in rows])
    out = tmp_path / "out.jsonl"
    p = subprocess.Popen([VERDICT, "bench", "mbpp", str(tmp_path / "s.jsonl"), "-j", "1",
                          "--out", str(out), "--summary", "json", "--languages", LANGUAGES,
                          "--cache", env["work"] + "/cache"],
                         env=env["env"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    deadline = time.time() + 60
    while time.time() < deadline and (not out.exists() or out.stat().st_size < 500):
        time.sleep(0.1)
    p.send_signal(signal.SIGINT)
    stdout, stderr = p.communicate(timeout=120)
    assert p.returncode == 130, stderr
    d = json.loads(stdout)
    assert d["interrupted"] is True and 0 < d["judged"] < 974
    lines = [json.loads(l) for l in open(out)]
    assert len(lines) == d["judged"] and all(l["passed"] for l in lines)
    assert d["pass_at_k"]["1"] == 1.0 and d["problems_judged"] == d["judged"]
