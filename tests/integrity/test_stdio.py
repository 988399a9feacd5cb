"""Wrong stdin/stdout programs that try to get reward 1: the expected output must exist nowhere
the program can read (files, environment, /proc, inherited fds), the comparison happens outside
the sandbox (what the program prints cannot change it), a process left behind is killed before
the judge reads the output, and with a checker the program cannot read answer.txt nor touch
the checker's files. Routes: /v1/judge (single and batch) with tests of our own, and /submit on
verdict's own stdio problems. Controls: an honest program passes each problem."""
import os
import secrets

import pytest

from conftest import ROOT, assert_accepted, assert_refused, code, in_parallel, judge, judge_batch, submit

# An answer no program can compute: it passes only by finding the expected output.
SECRET = "ANSWER-" + secrets.token_hex(8)
FIND = r"ANSWER-[0-9a-f]{16}"
UNKNOWABLE = {"tests": [{"stdin": "what is the answer?\n", "expected": SECRET}] * 2}
# A problem with an answer: the program knows it, the question is when it says it.
SUM = {"tests": [{"stdin": "2 3\n", "expected": "5"}, {"stdin": "10 -4\n", "expected": "6"}]}
# A checker that accepts the program's output when it equals answer.txt.
CHECKER = code('''
    import sys
    out = open(sys.argv[2]).read().split()
    ans = open(sys.argv[3]).read().split()
    if out != ans:
        print("wrong", file=sys.stderr)
        sys.exit(1)
''')
WITH_CHECKER = {**UNKNOWABLE, "compare": {"mode": "checker",
                                          "checker": {"language": "python", "code": CHECKER}}}
LIMITS = {"limits": {"time_ms": 2000, "wall_ms": 5000}}
SUM_OK = "a, b = map(int, input().split())\nprint(a + b)\n"
# A program that waits until the process the judge started has ended (a zombie, or gone), so
# that what it does next happens strictly after the judged program exited. The late writers
# then wait 200 ms more: the job's other processes are killed when the first one is reaped, so
# a write in that gap would be heard (a window of microseconds, which only a machine starved
# for 200 ms could stretch that far).
AFTER_EXIT = code('''
    import os, time
    def _after(pid):
        deadline = time.monotonic() + 3
        while time.monotonic() < deadline:
            try:
                with open(f"/proc/{pid}/stat") as f:
                    if f.read().rsplit(")", 1)[1].split()[0] == "Z":
                        return
            except OSError:
                return
            time.sleep(0.01)
''')

ATTACKS = [
    # ---- finding the expected output ---------------------------------------------------------
    ("expected_in_files", UNKNOWABLE, code(f'''
        import os, re, time
        # every readable file outside the system's own trees: the tests, other jobs' files
        end, found = time.monotonic() + 1.5, []
        for top in ("/w", "/tmp", "/dev/shm", "/var", "/run", "/root", "/home", "/opt", "/srv", "/mnt", "/"):
            for d, subs, files in os.walk(top):
                if d in ("/proc", "/sys", "/usr", "/dev") or time.monotonic() > end:
                    subs[:] = []
                    continue
                for f in files:
                    try:
                        if time.monotonic() < end and os.path.getsize(os.path.join(d, f)) < 1 << 20:
                            found += re.findall(r"{FIND}", open(os.path.join(d, f), errors="replace").read())
                    except OSError:
                        pass
        print(found[0] if found else "nothing")
    ''')),
    ("expected_in_environment", UNKNOWABLE, code(f'''
        import os, re
        found = re.findall(r"{FIND}", " ".join(f"{{k}}={{v}}" for k, v in os.environ.items()))
        print(found[0] if found else "nothing")
    ''')),
    ("expected_in_proc", UNKNOWABLE, code(f'''
        import os, re
        # every process it can see: cmdline, environ, memory, and what its fds point at
        found = []
        for pid in [p for p in os.listdir("/proc") if p.isdigit()] + ["self", "thread-self"]:
            for name in ("cmdline", "environ", "status", "mountinfo"):
                try:
                    found += re.findall(rb"{FIND}", open(f"/proc/{{pid}}/{{name}}", "rb").read())
                except OSError:
                    pass
            try:
                with open(f"/proc/{{pid}}/maps") as maps, open(f"/proc/{{pid}}/mem", "rb", 0) as mem:
                    for line in maps:
                        lo, hi = (int(x, 16) for x in line.split()[0].split("-"))
                        try:
                            mem.seek(lo)
                            found += re.findall(rb"{FIND}", mem.read(min(hi - lo, 1 << 24)))
                        except (OSError, ValueError, OverflowError):
                            pass
            except OSError:
                pass
        print(found[0].decode() if found else "nothing")
    ''')),
    ("expected_in_inherited_fds", UNKNOWABLE, code(f'''
        import os, re
        found = []
        for fd in [0] + list(range(3, 256)):  # stdin again from its start, and every other fd
            try:
                os.lseek(fd, 0, os.SEEK_SET)
            except OSError:
                pass
            try:
                os.set_blocking(fd, False)
                found += re.findall(rb"{FIND}", os.read(fd, 1 << 20))
            except OSError:
                pass
        print(found[0].decode() if found else "nothing")
    ''')),
    # ---- the comparison ----------------------------------------------------------------------
    ("special_tokens", SUM, code('''
        import sys
        # what a judge that compared inside the sandbox, or parsed the output, might believe
        sys.stdout.write("VERDICT-0000000000000000\\nOK\\nAccepted\\n\\x1b[2K\\r\\x00ok 1\\n")
        sys.stdout.flush()
    ''')),
    ("output_as_pattern", {**SUM, "compare": {"mode": "regex"}}, code('''
        print(".*")  # a pattern in the output is text, not a pattern
    ''')),
    ("blank_lines_then_exit_0", SUM, code('''
        import os
        os.write(1, b"\\n" * 3)  # only blank lines, then exit 0 with nothing said
        os._exit(0)
    ''')),
    # ---- writing after the judge reads -------------------------------------------------------
    ("background_child_writes_late", SUM, AFTER_EXIT + code('''
        import sys
        a, b = map(int, input().split())
        main = os.getpid()
        if os.fork() == 0:  # the child says the answer after the judged process has exited
            _after(main)
            time.sleep(0.2)
            print(a + b, flush=True)
            os._exit(0)
        os._exit(0)
    ''')),
    ("daemon_writes_late", SUM, AFTER_EXIT + code('''
        a, b = map(int, input().split())
        main = os.getpid()
        if os.fork() == 0:  # double fork, new session: a daemon the judge never waited for
            os.setsid()
            if os.fork() == 0:
                _after(main)
                time.sleep(0.2)
                os.write(1, f"{a + b}\\n".encode())
            os._exit(0)
        os._exit(0)
    ''')),
    # ---- a checker's files -------------------------------------------------------------------
    ("checker_answer_read", WITH_CHECKER, code(f'''
        import glob, os, re
        # answer.txt wherever a checker's files might be: here, beside us, anywhere findable
        found = []
        for p in ["answer.txt", "/w/answer.txt", "../answer.txt", "/tmp/answer.txt"] + glob.glob("/**/answer.txt", recursive=False):
            try:
                found += re.findall(r"{FIND}", open(p).read())
            except OSError:
                pass
        print(found[0] if found else "nothing")
    ''')),
    ("checker_output_overwritten", WITH_CHECKER, AFTER_EXIT + code('''
        main = os.getpid()
        print("nothing", flush=True)
        if os.fork() == 0:  # lingers until the checker's job: answer.txt copied onto output.txt
            os.setsid()
            _after(main)
            end = time.monotonic() + 3
            while time.monotonic() < end:
                try:
                    answer = open("/w/answer.txt").read()
                    with open("/w/output.txt", "w") as f:
                        f.write(answer)
                    break
                except OSError:
                    time.sleep(0.005)
        os._exit(0)
    ''')),
]

CONTROLS = [("sum_reference", SUM, SUM_OK),
            ("checker_reference", {**SUM, "compare": WITH_CHECKER["compare"]}, SUM_OK),
            # the late writers' own mechanism is sound: a child that writes while the judged
            # process waits for it is heard (only writing after the exit fails them)
            ("child_writes_in_time", SUM, code('''
                import os
                a, b = map(int, input().split())
                pid = os.fork()
                if pid == 0:
                    print(a + b, flush=True)
                    os._exit(0)
                os.waitpid(pid, 0)
            '''))]

# verdict's own problems through /submit: the tests' .out files searched for, and a late write.
SUM_OF_PAIRS = ("verdict_stdio", "01-sum-of-pairs")
DATASET_ATTACKS = [
    ("dataset_expected_files", SUM_OF_PAIRS, code('''
        import os, sys, time
        # the problem's tests/*.out, found by the .in beside them that equals our stdin
        data, end = sys.stdin.read(), time.monotonic() + 1.5
        for top in ("/w", "/tmp", "/var", "/run", "/srv", "/opt", "/home", "/root", "/"):
            for d, subs, files in os.walk(top):
                if d in ("/proc", "/sys", "/usr", "/dev") or time.monotonic() > end:
                    subs[:] = []
                    continue
                for f in files:
                    if f.endswith(".in") and time.monotonic() < end:
                        try:
                            if open(os.path.join(d, f)).read() == data:
                                print(open(os.path.join(d, f[:-3] + ".out")).read(), end="")
                                sys.exit(0)
                        except OSError:
                            pass
        print(0)
    ''')),
    ("dataset_daemon_writes_late", SUM_OF_PAIRS, AFTER_EXIT + code('''
        import sys
        total = sum(map(int, sys.stdin.read().split()[1:]))
        main = os.getpid()
        if os.fork() == 0:
            os.setsid()
            _after(main)
            time.sleep(0.2)
            os.write(1, f"{total}\\n".encode())
        os._exit(0)
    ''')),
]


@pytest.fixture(scope="module")
def outcomes(srv):
    bodies = {name: {"language": "python", "code": src, **LIMITS, **problem}
              for name, problem, src in ATTACKS + CONTROLS}
    got = judge_batch(srv, bodies)
    for name in ("background_child_writes_late", "checker_answer_read", "sum_reference"):
        got[f"single {name}"] = judge(srv, bodies[name])
    with open(os.path.join(ROOT, "problems/stdio/01-sum-of-pairs/solutions/python.py")) as f:
        reference = f.read()
    jobs = DATASET_ATTACKS + [("dataset_reference", SUM_OF_PAIRS, reference)]
    results = in_parallel(lambda name, p, src: submit(srv, *p, src, language="python"), jobs)
    got.update(zip([j[0] for j in jobs], results))
    return got


SINGLE = ["single background_child_writes_late", "single checker_answer_read"]


@pytest.mark.parametrize("name", [a[0] for a in ATTACKS + DATASET_ATTACKS] + SINGLE)
def test_attack_fails(outcomes, name):
    assert_refused(outcomes[name])
    if name.replace("single ", "") in [a[0] for a in ATTACKS if a[1] is not SUM]:
        for t in outcomes[name]["tests"]:  # nothing it printed holds the expected output
            assert SECRET not in (t.get("stdout") or ""), t


@pytest.mark.parametrize("name", [c[0] for c in CONTROLS] + ["single sum_reference",
                                                              "dataset_reference"])
def test_reference_passes(outcomes, name):
    assert_accepted(outcomes[name])
