"""The libraries RL datasets import, inside the sandbox: GET /v1/languages lists Python's
(`packages`: name, version, import name, from the template's packages command), every
listed one imports in a judged program under the language's default limits (cold and warm:
the warm interpreter has numpy imported already), all of them at once too, matplotlib
draws with its Agg backend into the work dir, and Perl's Data::Compare loads. The list is
what imports: a package listed but broken, or installed by scripts/install-deps.sh but not
listed, fails here."""
import base64
import concurrent.futures

import pytest

from conftest import Server, needs_root

# What scripts/install-deps.sh installs for Python, by the name /v1/languages gives it.
REQUIRED = {"numpy", "scipy", "pandas", "sympy", "networkx", "matplotlib", "scikit-learn",
            "regex", "python-dateutil", "sortedcontainers"}


@pytest.fixture(scope="module")
def srv():
    needs_root()
    s = Server(cells=2)
    s.langs = {l["name"]: l for l in s.get_json("/v1/languages")}
    yield s
    code, left = s.stop()
    assert code == 0 and not left


def judge(srv, lang, code, expected, **extra):
    r = srv.post("/v1/judge", {"language": lang, "code": code,
                               "tests": [{"stdin": "", "expected": expected}], **extra},
                 timeout=120)
    assert r.status_code == 200, r.text
    return r.json()


def test_python_lists_what_install_deps_installs(srv):
    pk = srv.langs["python"]["packages"]
    names = {p["name"] for p in pk}
    assert REQUIRED <= names, f"not offered: {REQUIRED - names}"
    for p in pk:
        assert p["version"][0].isdigit() and p["import"].isidentifier(), p
    assert {p["import"] for p in pk if p["name"] == "scikit-learn"} == {"sklearn"}
    # languages without a packages command list none
    assert srv.langs["bash"]["packages"] == []


def test_each_listed_package_imports_in_the_sandbox(srv):
    """Each import, as a judged program under the default limits, prints the version the
    list states (cold: a fresh interpreter per run is what /v1/judge's python gives unless the
    cell is warm; both paths are exercised by the repeat below)."""
    pk = srv.langs["python"]["packages"]
    code = ("import importlib, importlib.metadata as m\n"
            "name, mod = input().split()\n"
            "importlib.import_module(mod)\n"
            "print(m.version(name))\n")

    def one(p):
        r = srv.post("/v1/judge", {"language": "python", "code": code,
                                   "tests": [{"stdin": f"{p['name']} {p['import']}\n",
                                              "expected": p["version"]}] * 2},
                     timeout=120)
        assert r.status_code == 200, r.text
        res = r.json()
        assert res["status"] == "OK" and res["reward"] == 1, (p, res)
        return p["name"]
    with concurrent.futures.ThreadPoolExecutor(2) as pool:
        assert sorted(pool.map(one, pk)) == sorted(p["name"] for p in pk)


def test_all_at_once_under_the_default_memory_limit(srv):
    """Every listed package imported by one program, with the language's own limits: the
    stack fits (about 170 MB resident), and numpy's BLAS runs one thread (OPENBLAS_NUM_THREADS:
    a thread per core would meet the pids limit on a large host)."""
    imports = [p["import"] for p in srv.langs["python"]["packages"]]
    code = ("import threading\n" + "".join(f"import {i}\n" for i in imports) +
            "import numpy as np\n"
            "a = np.random.default_rng(0).random((200, 200))\n"
            "np.linalg.inv(a)\n"
            "print(threading.active_count(), len(__import__('os').listdir('/proc/self/task')))\n")
    res = judge(srv, "python", code, "1 1")
    assert res["status"] == "OK", res
    assert res["tests"][0]["memory_kib"] < 400 * 1024, res


def test_matplotlib_draws_without_a_display(srv):
    """pyplot with the Agg backend writes a PNG into the work dir, fetched back: no display,
    no writable home needed (the config dir is /tmp), and no warning about either."""
    code = ("import matplotlib.pyplot as plt\n"
            "plt.plot([1, 2, 3], [1, 4, 9])\n"
            "plt.savefig('plot.png')\n"
            "print('saved')\n")
    r = srv.post("/run_code", {"language": "python", "code": code, "fetch_files": ["plot.png"]},
                 timeout=120)
    assert r.status_code == 200, r.text
    out = r.json()
    assert out["status"] == "Success", out
    # fc-list, which matplotlib asks for the system's fonts, finds no /etc/fonts in the cell
    # and says so; matplotlib then scans the font directories itself
    err = [l for l in out["run_result"]["stderr"].splitlines() if not l.startswith("Fontconfig")]
    assert err == [], out["run_result"]["stderr"]
    assert base64.b64decode(out["files"]["plot.png"])[:8] == b"\x89PNG\r\n\x1a\n"


def test_pandas_and_sklearn_compute(srv):
    """Beyond importing: a DataFrame grouped, a model fitted (scipy and scikit-learn's
    compiled parts load and run under seccomp)."""
    code = ("import pandas as pd\n"
            "from sklearn.linear_model import LinearRegression\n"
            "df = pd.DataFrame({'k': ['a', 'b', 'a'], 'v': [1, 2, 3]})\n"
            "print(df.groupby('k')['v'].sum().to_dict())\n"
            "m = LinearRegression().fit([[0], [1], [2]], [1, 3, 5])\n"
            "print(round(float(m.coef_[0]), 6), round(float(m.intercept_), 6))\n"
            "import scipy.optimize\n"
            "print(round(float(scipy.optimize.brentq(lambda x: x * x - 2, 0, 2)), 6))\n")
    res = judge(srv, "python", code, "{'a': 4, 'b': 2}\n2.0 1.0\n1.414214\n")
    assert res["status"] == "OK", res


def test_perl_data_compare(srv):
    """SandboxFusion's Perl tests compare with Data::Compare."""
    if not srv.langs.get("perl", {}).get("runnable"):
        pytest.skip("no perl")
    code = "use Data::Compare;\nprint Compare([1, {a => 2}], [1, {a => 2}]) ? \"same\\n\" : \"no\\n\";\n"
    res = judge(srv, "perl", code, "same")
    assert res["status"] == "OK", res
