"""POST /run_jupyter against the real server: cells in one Python process with their state
kept, each cell's stdout, stderr, display and error, cell_timeout and memory_limit_MB enforced
(the cells finished before the sandbox stopped the run still answered), files in and out, and
bad input answered 422 naming the field."""
import base64
import subprocess

import pytest

from test_metrics import scrape


def run(server, **body):
    r = server.post("/run_jupyter", body)
    assert r.status_code == 200, r.text
    d = r.json()
    assert set(d) >= {"status", "message", "driver", "cells", "executor_pod_name", "files"}
    assert d["executor_pod_name"] is None
    return d


def b64(s):
    return base64.b64encode(s.encode()).decode()


def test_state_across_cells(server):
    d = run(server, cells=["x = 41\nprint('hi')", "def f(v):\n    return v + 1", "f(x)",
                           "print(f(x) * 2)\nx = None", "x"])
    assert d["status"] == "Success", d
    assert d["message"] == ""
    assert d["driver"]["status"] == "Finished" and d["driver"]["return_code"] == 0
    c = d["cells"]
    assert len(c) == 5 and all(x["executed"] and x["error"] == [] for x in c)
    assert c[0]["stdout"] == "hi\n" and c[0]["display"] == []
    assert c[1] == {"stdout": "", "stderr": "", "display": [], "error": [], "executed": True,
                    "output_truncated": False}
    assert c[2]["display"] == [{"text/plain": "42"}]  # the last expression, as its repr
    assert c[3]["stdout"] == "84\n" and c[3]["display"] == []
    assert c[4]["display"] == []  # None is not displayed


def test_display_text_plain_is_repr(server):
    d = run(server, cells=["'a' + 'b'", "[1, 2][1:]\n", "x = 3\nx; ", "import math\nmath.pi"])
    texts = [c["display"][0]["text/plain"] if c["display"] else None for c in d["cells"]]
    assert texts == ["'ab'", "[2]", "3", repr(3.141592653589793)]


def test_error_in_the_middle_cell(server):
    cells = ["x = 1\nprint('before')", "def g():\n    return 1 / 0\ng()", "print('after', x)"]
    d = run(server, cells=cells)
    assert d["status"] == "Success", d  # the driver finished: the error is the cell's
    first, middle, last = d["cells"]
    assert first["stdout"] == "before\n" and first["error"] == []
    assert len(middle["error"]) == 1
    e = middle["error"][0]
    assert e["ename"] == "ZeroDivisionError" and e["evalue"] == "division by zero"
    assert e["traceback"][0].startswith("Traceback")
    assert e["traceback"][-1] == "ZeroDivisionError: division by zero"
    assert any("<cell 1>" in line and "g()" in line for line in e["traceback"])
    assert not any("main.py" in line for line in e["traceback"])  # the driver's frames hidden
    # Jupyter's "run all" stops at an error: the later cell is listed, not run
    assert last == {"stdout": "", "stderr": "", "display": [], "error": [], "executed": False,
                    "output_truncated": False}
    d = run(server, cells=cells, stop_on_error=False)
    assert d["cells"][2]["stdout"] == "after 1\n" and d["cells"][2]["executed"]


def test_syntax_error_and_exit_are_cell_errors(server):
    d = run(server, cells=["x = (", "import sys\nsys.exit(3)", "print('still here')"],
            stop_on_error=False)
    assert d["status"] == "Success", d
    syntax, exit_, last = d["cells"]
    assert syntax["error"][0]["ename"] == "SyntaxError"
    assert exit_["error"][0]["ename"] == "SystemExit" and exit_["error"][0]["evalue"] == "3"
    assert last["stdout"] == "still here\n"


def test_cell_timeout(server):
    d = run(server, cells=["print('a')", "import time\nwhile True: pass", "print('b')"],
            cell_timeout=1)
    assert d["status"] == "Success", d
    a, loop, b = d["cells"]
    assert a["stdout"] == "a\n" and a["error"] == []
    assert loop["error"][0]["ename"] == "CellTimeoutError"
    assert "cell_timeout" in loop["error"][0]["evalue"]
    assert not b["executed"]
    assert d["driver"]["execution_time"] < 30  # the timer stopped the cell, not the run


def test_cell_timeout_not_swallowed_by_except(server):
    code = "n = 0\nwhile True:\n    try:\n        while True: n += 1\n    except Exception:\n" \
           "        pass"
    d = run(server, cells=[code, "print('next')"], cell_timeout=1, stop_on_error=False)
    assert d["cells"][0]["error"][0]["ename"] == "CellTimeoutError"
    assert d["cells"][1]["stdout"] == "next\n"


def test_total_timeout_stops_a_cell_that_blocks_the_timer(server):
    block = ("import signal\nsignal.pthread_sigmask(signal.SIG_BLOCK, [signal.SIGALRM])\n"
             "print('blocking', flush=True)\nwhile True: pass")
    d = run(server, cells=["print('a')", block, "print('c')"], cell_timeout=1, total_timeout=1)
    assert d["status"] == "Failed", d
    assert d["driver"]["status"] == "TimeLimitExceeded"
    a, stopped, c = d["cells"]
    assert a["stdout"] == "a\n" and a["executed"]
    assert stopped["executed"] and stopped["stdout"] == "blocking\n"  # its output so far
    assert stopped["error"][0]["ename"] == "CellTimeoutError"
    assert "total_timeout" in stopped["error"][0]["evalue"]
    assert not c["executed"]


def test_memory_limit(server):
    cells = ["print('small')", "x = bytearray(400 << 20)\nprint(len(x))", "print('never')"]
    d = run(server, cells=cells, memory_limit_MB=128)
    assert d["status"] == "Failed", d
    assert d["driver"]["memory_limit_exceeded"] is True
    small, big, never = d["cells"]
    assert small["stdout"] == "small\n"
    assert big["executed"] and big["error"][0]["ename"] == "MemoryError"
    assert "128 MiB" in big["error"][0]["evalue"]
    assert not never["executed"]
    # the same cells fit a larger limit
    d = run(server, cells=cells[:2], memory_limit_MB=1024)
    assert d["status"] == "Success", d
    assert d["cells"][1]["stdout"] == str(400 << 20) + "\n"


def test_dead_kernel(server):
    d = run(server, cells=["print('x')", "import os\nos._exit(0)", "print('y')"])
    assert d["status"] == "Failed", d
    assert d["cells"][0]["stdout"] == "x\n"
    assert d["cells"][1]["error"][0]["ename"] == "DeadKernelError"
    assert not d["cells"][2]["executed"]


def test_files_in_and_out(server):
    cells = ["print(open('data/in.txt').read())",
             "import helper\nhelper.twice(21)",  # the work dir's modules import
             "import os\nos.makedirs('out', exist_ok=True)\n"
             "open('out/result.txt', 'w').write('written')"]
    d = run(server, cells=cells,
            files={"data/in.txt": b64("hello file"), "helper.py": b64("def twice(v): return 2 * v"),
                   "skipped": None},
            fetch_files=["out/result.txt", "missing", "/etc/passwd"])
    assert d["status"] == "Success", d
    assert d["cells"][0]["stdout"] == "hello file\n"
    assert d["cells"][1]["display"] == [{"text/plain": "42"}]
    assert d["files"] == {"out/result.txt": b64("written")}  # never the driver's own files


def test_stdout_stderr_and_subprocess(server):
    cells = ["import sys\nprint('out')\nprint('err', file=sys.stderr)\n"
             "sys.stdout.buffer.write(b'bytes\\n')",
             "import subprocess\nsubprocess.run(['/bin/echo', 'child'])\nprint('parent')"]
    d = run(server, cells=cells)
    one, two = d["cells"]
    assert one["stdout"] == "out\nbytes\n" and one["stderr"] == "err\n"
    assert "child\n" in two["stdout"] and "parent\n" in two["stdout"]
    assert d["driver"]["stdout"] == "" and d["driver"]["stderr"] == ""


def test_cell_output_bounded(server):
    d = run(server, cells=["print('x' * (3 << 20))", "print('ok')"])
    big, ok = d["cells"]
    assert big["output_truncated"] is True and len(big["stdout"]) == 1 << 20
    assert ok["stdout"] == "ok\n" and ok["output_truncated"] is False


def test_rich_display(server):
    cells = ["class Pic:\n    def _repr_png_(self):\n        return b'\\x89PNG fake'\n"
             "    def _repr_html_(self):\n        return '<b>pic</b>'\n"
             "    def __repr__(self):\n        return 'Pic()'\nPic()",
             "display(1, 'two')\nprint('between')"]
    d = run(server, cells=cells)
    pic, shown = d["cells"]
    assert pic["display"] == [{"image/png": base64.b64encode(b"\x89PNG fake").decode(),
                               "text/html": "<b>pic</b>", "text/plain": "Pic()"}]
    assert shown["display"] == [{"text/plain": "1"}, {"text/plain": "'two'"}]
    assert shown["stdout"] == "between\n"


def have_matplotlib():
    return subprocess.run(["/usr/bin/python3", "-c", "import matplotlib"],
                          capture_output=True).returncode == 0


@pytest.mark.skipif(not have_matplotlib(), reason="python3-matplotlib not installed")
def test_matplotlib_figure_is_an_image(server):
    d = run(server, cells=["import matplotlib.pyplot as plt\nplt.plot([1, 2, 3])\nNone"],
            total_timeout=60)
    assert d["status"] == "Success", d
    png = [x for x in d["cells"][0]["display"] if "image/png" in x]
    assert len(png) == 1 and base64.b64decode(png[0]["image/png"]).startswith(b"\x89PNG")


def test_stateless_between_requests(server):
    run(server, cells=["leaked = 1"])
    d = run(server, cells=["leaked"])
    assert d["cells"][0]["error"][0]["ename"] == "NameError"


@pytest.mark.parametrize("body, loc", [
    ({}, ["body", "cells"]),
    ({"cells": "print(1)"}, ["body", "cells"]),
    ({"cells": ["ok", 3]}, ["body", "cells", "1"]),
    ({"cells": ["x"] * 1025}, ["body", "cells"]),
    ({"cells": ["#" * ((1 << 20) + 1)]}, ["body", "cells", "0"]),
    ({"cells": [], "cell_timeout": -1}, ["body", "cell_timeout"]),
    ({"cells": [], "cell_timeout": "1"}, ["body", "cell_timeout"]),
    ({"cells": [], "total_timeout": 0}, ["body", "total_timeout"]),
    ({"cells": [], "total_timeout": 301}, ["body", "total_timeout"]),
    ({"cells": [], "memory_limit_MB": 1.5}, ["body", "memory_limit_MB"]),
    ({"cells": [], "memory_limit_MB": 8}, ["body", "memory_limit_MB"]),
    ({"cells": [], "memory_limit_MB": 65537}, ["body", "memory_limit_MB"]),
    ({"cells": [], "kernel": "julia"}, ["body", "kernel"]),
    ({"cells": [], "stop_on_error": "yes"}, ["body", "stop_on_error"]),
    ({"cells": [], "files": []}, ["body", "files"]),
    ({"cells": [], "files": {"a": "***"}}, ["body", "files", "a"]),
    ({"cells": [], "files": {".verdict_jupyter/results.jsonl": ""}},
     ["body", "files", ".verdict_jupyter/results.jsonl"]),
    ({"cells": [], "files": {"main.py": ""}}, ["body", "files", "main.py"]),
    ({"cells": [], "fetch_files": "a"}, ["body", "fetch_files"]),
    ({"cells": [], "fetch_files": [f"f{i}" for i in range(62)]}, ["body", "fetch_files"]),
])
def test_bad_input_422_names_the_field(server, body, loc):
    r = server.post("/run_jupyter", body)
    assert r.status_code == 422, r.text
    assert r.json()["detail"][0]["loc"] == loc


def test_not_json_and_not_an_object(server):
    r = server.post("/run_jupyter", None, data=b"{nope", headers={"Content-Type": "application/json"})
    assert r.status_code == 422
    r = server.post("/run_jupyter", [1])
    assert r.status_code == 422


def test_no_cells_and_get(server):
    d = run(server, cells=[])
    assert d["status"] == "Success" and d["cells"] == []
    assert server.post("/run_jupyter", None, data=b"").status_code == 422
    import requests
    assert requests.get(server.url + "/run_jupyter", timeout=10).status_code == 405


def test_counted_in_metrics(server):
    run(server, cells=["1"])
    server.post("/run_jupyter", {})  # 422
    m = scrape(server)
    assert m['verdict_requests_total{route="/run_jupyter",status="200"}'] >= 1
    assert m['verdict_requests_total{route="/run_jupyter",status="422"}'] >= 1


def test_cells_are_the_main_module(server):
    cells = ["import pickle\nclass Point:\n    pass\nlen(pickle.dumps(Point())) > 0",
             "__name__",
             "import asyncio\nasync def twice(v):\n    await asyncio.sleep(0)\n    return 2 * v",
             "await twice(21)"]  # top-level await, as IPython's
    d = run(server, cells=cells)
    assert d["status"] == "Success", d
    assert [c["display"] for c in d["cells"]] == [
        [{"text/plain": "True"}], [{"text/plain": "'__main__'"}], [], [{"text/plain": "42"}]]


def test_cell_timeout_after_a_cell_replaced_the_handler(server):
    cells = ["import signal\nsignal.signal(signal.SIGALRM, signal.SIG_IGN)\nNone",
             "while True: pass"]
    d = run(server, cells=cells, cell_timeout=1)
    assert d["cells"][1]["error"][0]["ename"] == "CellTimeoutError"


def test_a_forked_child_does_not_run_the_later_cells(server):
    cells = ["import os\npid = os.fork()\nif pid == 0:\n    print('child')\nelse:\n"
             "    os.waitpid(pid, 0)\n    print('parent')",
             "print('once')"]
    d = run(server, cells=cells)
    assert d["status"] == "Success", d
    assert "parent\n" in d["cells"][0]["stdout"]
    assert d["cells"][1]["stdout"] == "once\n"


def test_threads_left_running_do_not_hold_the_end(server):
    cells = ["import threading, time\nthreading.Thread(target=time.sleep, args=(600,)).start()",
             "f = open('unclosed.txt', 'w')\nf.write('flushed at the end')"]
    d = run(server, cells=cells, total_timeout=20, fetch_files=["unclosed.txt"])
    assert d["status"] == "Success", d
    assert d["driver"]["execution_time"] < 15
    assert base64.b64decode(d["files"]["unclosed.txt"]) == b"flushed at the end"


def test_a_stream_kept_from_an_earlier_cell_writes_to_the_current_one(server):
    cells = ["import logging\nlog = logging.getLogger('nb')\n"
             "log.addHandler(logging.StreamHandler())\nlog.warning('first')",
             "log.warning('second')\nimport sys\nsys.stdout.reconfigure(line_buffering=True)"]
    d = run(server, cells=cells)
    assert d["status"] == "Success", d
    assert [c["stderr"] for c in d["cells"]] == ["first\n", "second\n"]


def test_cells_that_remove_the_results_are_failed_not_crashed(server):
    d = run(server, cells=["import shutil\nshutil.rmtree('.verdict_jupyter')", "1"])
    assert d["status"] == "Failed", d
    assert "no results" in d["message"]
    assert [c["executed"] for c in d["cells"]] == [False, False]
