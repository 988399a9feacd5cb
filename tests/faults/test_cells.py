"""A cell killed in the middle of a job, and a job that fills its work tmpfs.

A cell that dies under a job is replaced and the job retried once on the new cell (a second
failure is SE): the answer is the program's real verdict, or SandboxError, never a verdict
that blames the program. Until the fix in runners/cgroup.c the retry ran in the dead cell's
job cgroup (same slot, same leaf name), whose CPU counter still held the killed run's time:
a program killed at 1 s of CPU into a 1.4 s run under a 2 s limit was retried and answered
TLE."""
import concurrent.futures
import os
import signal

from conftest import Server, alive, cell_pids, health, jobs, need_root, wait_for

SLEEPER = "import time\ntime.sleep(3)\nprint('slept', {i})"
# Spins until its own CPU clock reads `spin` seconds, then prints.
SPINNER = ("import time\nwhile time.process_time() < {spin}:\n    pass\nprint('spun')")


def kill_cell_under(s, pending, cpu_at_least):
    """Waits (bounded) for a job of s's cells that has used cpu_at_least seconds of CPU, then
    SIGKILLs its cell (ours: a `verdict __cell` child of the server, never the program)."""
    def running():
        assert not pending.done(), f"answered before its cell was killed: {pending.result().text}"
        return [(cell, job) for job, (cell, cpu) in jobs(cell_pids(s.proc.pid)).items()
                if cpu >= cpu_at_least]
    (cell, job), *_ = wait_for("the job to run in a cell", running, timeout=60)
    os.kill(cell, signal.SIGKILL)
    return cell, job


def test_cell_killed_mid_job_is_retried_never_blamed():
    need_root()
    s = Server(cells=2, extra=("--max-cells", "2"))
    killed = []
    try:
        with concurrent.futures.ThreadPoolExecutor(2) as ex:
            # /run_code: a program that sleeps; its cell is killed while it sleeps.
            f = ex.submit(s.post, "/run_code", {"code": SLEEPER.format(i=1), "language": "python",
                                                "run_timeout": 20}, timeout=120)
            killed.append(kill_cell_under(s, f, 0))
            r = f.result()
            assert r.status_code == 200, r.text
            body = r.json()
            assert body["status"] in ("Success", "SandboxError"), body
            if body["status"] == "Success":  # retried on the new cell: its real verdict
                assert body["run_result"]["stdout"] == "slept 1\n", body

            # /v1/judge: a program killed after 1.2 s of CPU; the retry alone takes 2 s of its
            # 2.5 s (2.75 s with the grace), but 3.2 s and more with the killed run's time.
            f = ex.submit(s.post, "/v1/judge", {
                "code": SPINNER.format(spin=2.0), "language": "python",
                "tests": [{"stdin": "", "expected": "spun"}],
                "limits": {"time_ms": 2500, "wall_ms": 30000}}, timeout=120)
            killed.append(kill_cell_under(s, f, 1.2))
            r = f.result()
            assert r.status_code == 200, r.text
            body = r.json()
            verdicts = [t["verdict"] for t in body["tests"]]
            assert verdicts in (["OK"], ["SE"]) or body["status"] == "SE", body
            print(f"answers after the kills: /run_code retried, /v1/judge {verdicts}")

        for cell, job in killed:  # the program went with its cell's namespace
            wait_for(f"cell {cell} and its job {job} to be gone",
                     lambda: not alive({cell, job}), timeout=30)
        # The pool is back to its size, and every cell serves.
        wait_for("two cells again", lambda: len(alive(cell_pids(s.proc.pid))) == 2, timeout=30)
        assert health(s)["cells_replaced"] >= 2
        with concurrent.futures.ThreadPoolExecutor(4) as ex:
            answers = list(ex.map(lambda i: s.run_code(code=f"print({i} * 2)", language="python"),
                                  range(6)))
        assert [a["run_result"]["stdout"] for a in answers] == [f"{i * 2}\n" for i in range(6)]
    finally:
        code, left = s.stop()
    assert code == 0 and not left


# Fills /tmp and /dev/shm (errors caught), then the work dir, uncaught: the program's own RE.
FILL = """
import os
for d in ("/tmp", "/dev/shm"):
    try:
        with open(os.path.join(d, "fill"), "wb") as f:
            while True:
                f.write(b"x" * (1 << 20))
    except OSError as e:
        print(d, e.strerror, flush=True)
{work}
"""
FILL_BYTES = """
with open("fill", "wb") as f:
    while True:
        f.write(b"x" * (1 << 20))
"""
FILL_INODES = """
for i in range(10 ** 6):
    open(f"f{i}", "w").close()
"""
LOOK = """
import os, shutil
print(sorted(os.listdir(".")), os.listdir("/tmp"), os.listdir("/dev/shm"))
print(max(shutil.disk_usage(d).used for d in (".", "/tmp", "/dev/shm")) < (1 << 20))
"""


def test_full_work_tmpfs_is_the_programs_failure_and_the_next_job_starts_clean():
    need_root()
    s = Server(cells=1, extra=("--max-cells", "1"))  # every job on the same cell
    try:
        (cell,) = s.cells
        for how, work in (("bytes", FILL_BYTES), ("inodes", FILL_INODES)):
            r = s.run_code(code=FILL.format(work=work), language="python", memory_limit_MB=1024,
                           run_timeout=60)
            run = r["run_result"]
            assert r["status"] == "Failed" and run["verdict"] == "RE", (how, r)
            assert run["return_code"] == 1 and "No space left on device" in run["stderr"], (how, r)
            # The next job in that cell: empty directories, and nothing of the last one left.
            r = s.run_code(code=LOOK, language="python")
            assert r["status"] == "Success", r
            assert r["run_result"]["stdout"] == "['main.py'] [] []\nTrue\n", (how, r)
            r = s.run_code(code="print(sum(range(10)))", language="python")
            assert r["run_result"]["stdout"] == "45\n", r
        assert cell_pids(s.proc.pid) == {cell} and health(s)["cells_replaced"] == 0
    finally:
        code, left = s.stop()
    assert code == 0 and not left
