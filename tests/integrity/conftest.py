"""A real `verdict serve` on 127.0.0.1 for the integrity tests: tests/api/conftest.py's Server,
started with the compiled harness datasets (HumanEval-X, McEval) from ../shared/datasets."""
import importlib.util
import os
import shutil
import tempfile

import pytest

_spec = importlib.util.spec_from_file_location(
    "api_conftest", os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "api", "conftest.py"))
_api = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_api)
Server = _api.Server

DATA = next((d for d in (os.environ.get("VERDICT_TEST_DATA"),
                         os.path.join(os.path.dirname(os.path.abspath(__file__)), "../../../shared/datasets"),
                         "/work/shared/datasets") if d and os.path.isdir(d)), "/work/shared/datasets")


@pytest.fixture(scope="module")
def server():
    if os.geteuid() != 0:
        pytest.skip("the sandbox needs root")
    d = tempfile.mkdtemp(prefix="verdict-integrity-", dir="/var/tmp")
    for sub in ("humaneval-x", "mceval"):
        if os.path.isdir(os.path.join(DATA, sub)):
            os.symlink(os.path.abspath(os.path.join(DATA, sub)), os.path.join(d, sub))
    s = Server(cells=2, extra=("--datasets", d))
    yield s
    code, left = s.stop()
    shutil.rmtree(d, ignore_errors=True)
    assert code == 0 and not left
