"""The web dashboard in a real browser (Debian's headless Chromium, driven by Selenium through
Debian's chromedriver) against the real server: the test sends submissions (a right and a
wrong Python program through /v1/judge, a /run_code that prints markup, two /submit answers
against a small dataset of its own) and two runs (POST /v1/runs), then loads every page and
checks that the DOM shows them, that the printed markup stays text and never runs, that the
runs compare, that open sessions are listed live, that the keyboard reaches the navigation
and that a phone-sized window does not overflow. Screenshots of every page, light and dark, go to $VERDICT_SCREENSHOTS (default: a
temporary directory), whose path is printed."""
import base64
import importlib.util
import json
import os
import shutil
import tempfile
import time

import pytest
import requests

HERE = os.path.dirname(os.path.abspath(__file__))
_spec = importlib.util.spec_from_file_location("api_conftest", os.path.join(HERE, "../api/conftest.py"))
api_conftest = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(api_conftest)
Server = api_conftest.Server

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
CHROMEDRIVER = "/usr/bin/chromedriver"

try:
    from selenium import webdriver
    from selenium.common.exceptions import TimeoutException
    from selenium.webdriver.chrome.service import Service
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys
    from selenium.webdriver.support.ui import WebDriverWait
except ImportError:  # the module is skipped below
    webdriver = None

WAIT = 30  # seconds any one condition may take on a loaded machine

XSS_SCRIPT = "<script>window.__xss=1;alert(1)</script>"
XSS_IMG = "<img src=x onerror=alert(2)>"


def _missing():
    if webdriver is None:
        return "python3-selenium is not installed (scripts/install-deps.sh)"
    for p in (CHROMIUM, CHROMEDRIVER):
        if not os.path.exists(p):
            return f"{p} is missing (chromium, chromium-driver: scripts/install-deps.sh)"
    if os.geteuid() != 0:
        return "the sandbox needs root"
    return None


pytestmark = pytest.mark.skipif(_missing() is not None, reason=_missing() or "")


# ---- the server and what it was sent --------------------------------------------------------

TINY = [  # a HumanEval-shaped dataset of three problems; one prompt carries markup
    {"task_id": f"HumanEval/{i}", "entry_point": f"f{i}",
     "prompt": f"def f{i}(x):\n    \"\"\"Returns x + {i}. <script>window.__xss=3</script>\"\"\"\n",
     "canonical_solution": f"    return x + {i}\n",
     "test": f"def check(c):\n    assert c(1) == {1 + i}\n    assert c(5) == {5 + i}\n"}
    for i in range(3)
]


def _run_doc(label, passed):
    """A run as `verdict bench --server` posts it: three problems, two samples each."""
    results = [{"task_id": f"HumanEval/{i}", "language": "python", "samples": 2, "passed": p,
                "verdicts": {"OK": p, "WA": 2 - p}} for i, p in enumerate(passed)]
    ok = sum(passed)
    p1 = sum(p / 2 for p in passed) / 3
    p2 = sum(1 for p in passed if p) / 3
    return {"dataset": "tiny", "source": "server", "label": label, "model": None,
            "problems": 3, "samples": 6, "judged": 6,
            "pass_at_k": {"1": p1, "2": p2}, "verdicts": {"OK": ok, "WA": 6 - ok},
            "seconds": 1.5, "interrupted": False, "results": results,
            "failed": [{"task_id": r["task_id"], "language": "python", "verdict": "WA"}
                       for r in results for _ in range(2 - r["passed"])]}


@pytest.fixture(scope="module")
def sent():
    data = tempfile.mkdtemp(prefix="verdict-browser-ds-", dir="/var/tmp")
    with open(data + "/tiny.jsonl", "w") as f:
        for row in TINY:
            f.write(json.dumps(row) + "\n")
    s = Server(cells=2, extra=("--datasets", data))
    try:
        ids = {}

        def judged(path, body, key):
            r = s.post(path, body)
            assert r.status_code == 200, r.text
            assert "X-Verdict-Submission" in r.headers, (path, r.headers)
            ids[key] = int(r.headers["X-Verdict-Submission"])
            return r.json()

        tests = [{"stdin": "2\n", "expected": "4\n"}, {"stdin": "3\n", "expected": "6\n"}]
        assert judged("/v1/judge", {"language": "python", "code": "print(int(input()) * 2)\n",
                                    "tests": tests}, "ok")["status"] == "OK"
        wrong = judged("/v1/judge", {"language": "python", "code": "print(int(input()) + 2)\n",
                                     "tests": tests}, "wa")
        assert wrong["passed"] == 1 and wrong["total"] == 2, wrong
        code = f"print({XSS_SCRIPT!r})\nprint({XSS_IMG!r})\n"
        out = judged("/run_code", {"language": "python", "code": code}, "xss")
        assert XSS_SCRIPT in out["run_result"]["stdout"], out
        for key, body in (("submit_ok", "    return x + 0\n"), ("submit_wa", "    return x\n")):
            r = judged("/submit", {"dataset": "tiny", "id": "HumanEval/0" if key == "submit_ok"
                                   else "HumanEval/1", "completion": body,
                                   "config": {"extra": {"is_freeform": False}}}, key)
            assert r["accepted"] == (key == "submit_ok"), r
        runs = []
        for label, passed in (("run-a", [2, 1, 0]), ("run-b", [2, 2, 1])):
            r = s.post("/v1/runs", _run_doc(label, passed))
            assert r.status_code == 201, r.text
            runs.append(r.json()["id"])
        # The store's writer commits in batches: wait until every submission reads back.
        deadline = time.monotonic() + WAIT
        for key, i in ids.items():
            while requests.get(f"{s.url}/v1/submissions/{i}", timeout=10).status_code != 200:
                assert time.monotonic() < deadline, f"submission {key} ({i}) never stored"
                time.sleep(0.1)
        for i in runs:
            while requests.get(f"{s.url}/v1/runs/{i}", timeout=10).status_code != 200:
                assert time.monotonic() < deadline, f"run {i} never stored"
                time.sleep(0.1)
        s.ids, s.runs = ids, runs
        yield s
    finally:
        code, left = s.stop()
        shutil.rmtree(data, ignore_errors=True)
    assert code == 0 and not left


# ---- the browser ------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def shots():
    d = os.environ.get("VERDICT_SCREENSHOTS") or tempfile.mkdtemp(prefix="verdict-screenshots-")
    os.makedirs(d, exist_ok=True)
    print(f"\nscreenshots: {d}")
    return d


@pytest.fixture(scope="module")
def browser():
    o = webdriver.ChromeOptions()
    o.binary_location = CHROMIUM
    # --no-sandbox: the test runs as root (the server's sandbox needs it), and Chromium's own
    # sandbox refuses root. Its only user is this test, loading this test's server on loopback.
    for a in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
              "--window-size=1280,900", "--no-first-run", "--disable-extensions",
              "--disable-background-networking", "--disable-sync", "--disable-component-update"):
        o.add_argument(a)
    o.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    d = webdriver.Chrome(service=Service(CHROMEDRIVER), options=o)  # no selenium-manager
    d.set_page_load_timeout(WAIT)
    # Before any page script: an alert() from anywhere is recorded instead of shown.
    d.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": (
        "window.__alerts = [];"
        "window.alert = function (m) { window.__alerts.push(String(m)); };")})
    yield d
    d.quit()


def wait(d, cond, what):
    try:
        return WebDriverWait(d, WAIT).until(lambda d: cond(d))
    except TimeoutException:
        raise AssertionError(f"timed out waiting for {what}") from None


def load(d, url, page):
    """Loads url as a fresh document and waits until the page has rendered."""
    d.get("about:blank")
    d.get(url)
    wait(d, lambda d: d.execute_script(
        "const m = document.getElementById('main');"
        "return m && m.dataset.page === arguments[0] && m.dataset.ready === '1';", page),
        f"page {page} at {url}")


def go(d, hash_, page):
    """Same-document navigation to hash_, then waits for the page to render."""
    d.execute_script("document.getElementById('main').removeAttribute('data-ready');"
                     "location.hash = arguments[0];", hash_)
    wait(d, lambda d: d.execute_script(
        "const m = document.getElementById('main');"
        "return m.dataset.page === arguments[0] && m.dataset.ready === '1';", page),
        f"page {page} at {hash_}")


def text(d, css):
    return d.find_element(By.CSS_SELECTOR, css).text


def no_injection(d):
    """Nothing the submissions or the problems printed ran or became an element."""
    assert d.execute_script("return window.__xss") is None
    assert d.execute_script("return window.__alerts") == []
    assert d.execute_script("return document.querySelectorAll('img[src=\"x\"], main script').length") == 0


def csp_violations(d):
    return [e["message"] for e in d.get_log("browser")
            if "Content Security Policy" in e["message"] or "Refused to" in e["message"]]


def full_page(d, path):
    """A screenshot of the whole page, below the fold too."""
    shot = d.execute_cdp_cmd("Page.captureScreenshot", {"format": "png", "captureBeyondViewport": True})
    with open(path, "wb") as f:
        f.write(base64.b64decode(shot["data"]))


def no_overflow(d):
    return d.execute_script(
        "return [document.documentElement.scrollWidth, document.documentElement.clientWidth]")


# ---- the pages --------------------------------------------------------------------------------

def test_headers_and_assets(sent):
    r = requests.get(sent.url + "/", timeout=10)
    assert r.status_code == 200 and r.headers["Content-Type"].startswith("text/html")
    csp = r.headers["Content-Security-Policy"]
    assert "script-src 'self'" in csp and "default-src 'none'" in csp and "frame-ancestors 'none'" in csp
    assert r.headers["X-Content-Type-Options"] == "nosniff"
    assert r.headers["Referrer-Policy"] == "no-referrer"
    assert r.headers["Cache-Control"] == "no-cache"
    assert "<script>" not in r.text  # only <script src=...> : nothing inline
    for name, kind in (("app.js", "text/javascript"), ("app.css", "text/css"), ("icon.svg", "image/svg+xml")):
        a = requests.get(f"{sent.url}/assets/{name}", timeout=10)
        assert a.status_code == 200 and a.headers["Content-Type"].startswith(kind), name
        assert a.headers["Content-Security-Policy"] == csp
    miss = requests.get(sent.url + "/assets/nope.js", timeout=10)
    assert miss.status_code == 404 and miss.json()["detail"] and "Content-Security-Policy" in miss.headers
    assert requests.post(sent.url + "/", timeout=10).status_code == 405
    # No token configured on loopback: ?token= is not this server's and sets nothing.
    t = requests.get(sent.url + "/?token=abc", timeout=10, allow_redirects=False)
    assert t.status_code == 401 and "Set-Cookie" not in t.headers
    bad = requests.get(sent.url + "/?token=a%3Bb", timeout=10, allow_redirects=False)
    assert bad.status_code == 422 and bad.json()["detail"][0]["loc"] == ["query", "token"]


def test_overview_updates_live(sent, browser, shots):
    d = browser
    load(d, sent.url + "/#/", "overview")
    wait(d, lambda d: d.find_elements(By.ID, "card-throughput"), "the overview's cards")
    first = d.find_element(By.ID, "main").get_attribute("data-updated")
    d.execute_script("window.__same_document = 1")
    # /v1/stats again 2 s later, without reloading: the stamp moves.
    wait(d, lambda d: d.find_element(By.ID, "main").get_attribute("data-updated") != first,
         "the overview's refresh")
    assert d.execute_script("return window.__same_document") == 1  # not reloaded
    charts = d.find_elements(By.CSS_SELECTOR, "main svg.chart")
    assert len(charts) >= 6, len(charts)  # four line charts, two stacked bars
    titles = [c.get_attribute("aria-label") for c in charts]
    assert "Latency (ms)" in titles and "By language" in titles and "By route" in titles
    bars = d.find_element(By.CSS_SELECTOR, "svg[aria-label='By language']")
    assert "python" in bars.get_attribute("textContent")
    route_bars = d.find_element(By.CSS_SELECTOR, "svg[aria-label='By route']").get_attribute("textContent")
    assert "/v1/judge" in route_bars and "/run_code" in route_bars
    assert "ok" in text(d, "#card-store").lower()
    assert d.find_element(By.ID, "live-cards").get_attribute("aria-live") == "polite"
    assert not csp_violations(d)


def test_submissions_list_and_link(sent, browser):
    d = browser
    ids = sent.ids
    load(d, sent.url + "/#/submissions", "submissions")
    rows = {int(r.get_attribute("data-id")): r for r in d.find_elements(By.CSS_SELECTOR, "table.submissions tbody tr")}
    for key in ("ok", "wa", "xss", "submit_ok", "submit_wa"):
        assert ids[key] in rows, (key, ids[key], sorted(rows))
    order = [int(r.get_attribute("data-id")) for r in d.find_elements(By.CSS_SELECTOR, "table.submissions tbody tr")]
    assert order == sorted(order, reverse=True)  # newest first
    assert rows[ids["ok"]].find_element(By.CSS_SELECTOR, ".badge").text == "OK"
    assert rows[ids["wa"]].find_element(By.CSS_SELECTOR, ".badge").text == "WA"
    assert rows[ids["ok"]].find_element(By.CSS_SELECTOR, ".counts").text == "2/2"
    assert rows[ids["wa"]].find_element(By.CSS_SELECTOR, ".counts").text == "1/2"
    assert "/run_code" in rows[ids["xss"]].text and "tiny" in rows[ids["submit_wa"]].text
    # The filter form: verdict WA only.
    d.find_element(By.CSS_SELECTOR, "#f-verdict option[value='WA']").click()
    d.find_element(By.CSS_SELECTOR, "#filters button[type='submit']").click()
    wait(d, lambda d: "verdict=WA" in d.current_url and d.find_element(By.ID, "main").get_attribute("data-ready") == "1",
         "the filtered list")
    got = {int(r.get_attribute("data-id")) for r in d.find_elements(By.CSS_SELECTOR, "table.submissions tbody tr")}
    assert ids["wa"] in got and ids["ok"] not in got
    assert {b.text for b in d.find_elements(By.CSS_SELECTOR, "table.submissions tbody .badge")} == {"WA"}
    # Paging: one row a page, "Older" goes back one id at a time.
    go(d, "#/submissions?limit=1", "submissions")
    top = int(d.find_element(By.CSS_SELECTOR, "table.submissions tbody tr").get_attribute("data-id"))
    d.find_element(By.ID, "older").click()
    wait(d, lambda d: "before=" in d.current_url and d.find_element(By.ID, "main").get_attribute("data-ready") == "1",
         "the older page")
    older = int(d.find_element(By.CSS_SELECTOR, "table.submissions tbody tr").get_attribute("data-id"))
    assert older < top
    # A row's link opens that submission.
    go(d, "#/submissions", "submissions")
    link = d.find_element(By.CSS_SELECTOR, f"tr[data-id='{ids['wa']}'] a.sub-link")
    link.click()
    wait(d, lambda d: d.find_element(By.ID, "main").get_attribute("data-page") == "submission"
         and d.find_element(By.ID, "main").get_attribute("data-ready") == "1", "the submission page")
    assert d.current_url.endswith(f"#/submissions/{ids['wa']}")
    assert f"#{ids['wa']}" in text(d, "#page-title") and "WA" in text(d, "#page-title")
    assert text(d, "#passed") == "1/2"
    tests = d.find_elements(By.CSS_SELECTOR, "#tests article.test")
    assert len(tests) == 2
    assert "WA" in tests[1].find_element(By.CSS_SELECTOR, "h3").text
    diff = tests[1].find_element(By.CSS_SELECTOR, "pre.diff")
    assert [e.text.strip() for e in diff.find_elements(By.CSS_SELECTOR, ".del")] == ["- 6"]
    assert [e.text.strip() for e in diff.find_elements(By.CSS_SELECTOR, ".ins")] == ["+ 5"]
    code = d.find_element(By.CSS_SELECTOR, "table.code")
    assert "print(int(input()) + 2)" in code.text
    assert code.find_elements(By.CSS_SELECTOR, ".tok-str, .tok-num, .tok-kw")  # highlighted
    assert d.find_element(By.CSS_SELECTOR, "table.code td.ln").text == "1"
    assert not csp_violations(d)


def test_grading_shown_and_filtered(sent, browser):
    """How each submission was decided: a column of the list, a filter of the form, a fact of
    the submission and of each of its tests."""
    d = browser
    ids = dict(sent.ids)
    harnesses = {  # a sealed C harness, and SQL's checks joined to the code (exit status)
        "sealed": {"language": "c", "code": "int twice(int x) { return 2 * x; }\n",
                   "harness": "#include <assert.h>\nint main(void) { assert(twice(2) == 4); return 0; }\n"},
        "exit": {"language": "sql", "code": "CREATE TABLE t(x INTEGER);\nINSERT INTO t VALUES (2);\n",
                 "harness": "SELECT x * 2 FROM t;\n", "allow_exit_status": True},
    }
    for key, body in harnesses.items():
        r = sent.post("/v1/judge", body)
        assert r.status_code == 200 and r.json()["status"] == "OK", r.text
        ids[key] = int(r.headers["X-Verdict-Submission"])
    deadline = time.monotonic() + WAIT
    for key in harnesses:
        while requests.get(f"{sent.url}/v1/submissions/{ids[key]}", timeout=10).status_code != 200:
            assert time.monotonic() < deadline, f"submission {key} never stored"
            time.sleep(0.1)
    want = {"ok": "output", "wa": "output", "xss": "\u2013", "submit_ok": "isolated",
            "submit_wa": "isolated", "sealed": "in-process", "exit": "exit-status"}
    load(d, sent.url + "/#/submissions", "submissions")
    rows = {int(r.get_attribute("data-id")): r for r in d.find_elements(By.CSS_SELECTOR, "table.submissions tbody tr")}
    heads = [th.text for th in d.find_elements(By.CSS_SELECTOR, "table.submissions thead th")]
    col = heads.index("Decided by")
    for key, g in want.items():
        cell = rows[ids[key]].find_elements(By.CSS_SELECTOR, "td, th")[col]
        assert cell.text == g, (key, cell.text)
    # the ones the program could sway are marked
    cell = rows[ids["exit"]].find_element(By.CSS_SELECTOR, ".grading")
    assert "grading-exit-status" in cell.get_attribute("class") and "exit 0" in cell.get_attribute("title")
    # The filter: in-process only.
    d.find_element(By.CSS_SELECTOR, "#f-grading option[value='in-process']").click()
    d.find_element(By.CSS_SELECTOR, "#filters button[type='submit']").click()
    wait(d, lambda d: "grading=in-process" in d.current_url and d.find_element(By.ID, "main").get_attribute("data-ready") == "1",
         "the list filtered by grading")
    got = {int(r.get_attribute("data-id")) for r in d.find_elements(By.CSS_SELECTOR, "table.submissions tbody tr")}
    assert got == {ids["sealed"]}, got
    assert d.find_element(By.CSS_SELECTOR, "#f-grading").get_attribute("value") == "in-process"
    go(d, "#/submissions?grading=isolated", "submissions")
    got = {int(r.get_attribute("data-id")) for r in d.find_elements(By.CSS_SELECTOR, "table.submissions tbody tr")}
    assert got == {ids["submit_ok"], ids["submit_wa"]}, got
    # One submission: the summary says it, and so does each test.
    go(d, f"#/submissions/{ids['ok']}", "submission")
    assert text(d, "#grading").startswith("output") and "outside the sandbox" in text(d, "#grading")
    tests = d.find_elements(By.CSS_SELECTOR, "#tests article.test")
    assert len(tests) == 2 and all("Decided by\noutput" in t.text for t in tests), [t.text for t in tests]
    go(d, f"#/submissions/{ids['submit_ok']}", "submission")
    assert text(d, "#grading").startswith("isolated")
    assert "Decided by\nisolated" in text(d, "#test-0")
    go(d, f"#/submissions/{ids['xss']}", "submission")
    assert text(d, "#grading") == "\u2013"
    assert not csp_violations(d)


def test_markup_shown_as_text(sent, browser):
    d = browser
    load(d, f"{sent.url}/#/submissions/{sent.ids['xss']}", "submission")
    out = d.find_element(By.CSS_SELECTOR, "#test-0 pre.stdout").text
    assert XSS_SCRIPT in out and XSS_IMG in out
    assert XSS_SCRIPT in d.find_element(By.CSS_SELECTOR, "table.code").text
    no_injection(d)
    assert not csp_violations(d)


def test_datasets(sent, browser):
    d = browser
    load(d, sent.url + "/#/datasets", "datasets")
    row = next(r for r in d.find_elements(By.CSS_SELECTOR, "main tbody tr") if r.text.startswith("tiny"))
    cells = [c.text for c in row.find_elements(By.CSS_SELECTOR, "th, td")]
    assert cells[2:6] == ["3", "2", "1", "50.0%"], cells  # problems, submissions, passed, rate
    row.find_element(By.CSS_SELECTOR, "a").click()
    wait(d, lambda d: d.find_element(By.ID, "main").get_attribute("data-page") == "dataset"
         and d.find_element(By.ID, "main").get_attribute("data-ready") == "1", "the dataset page")
    assert text(d, "#problem-count") == "3"
    probs = d.find_elements(By.CSS_SELECTOR, "table.problems tbody tr")
    assert [p.find_element(By.CSS_SELECTOR, "th").text for p in probs] == [f"HumanEval/{i}" for i in range(3)]
    assert [c.text for c in probs[0].find_elements(By.CSS_SELECTOR, "td")][:3] == ["1", "1", "100.0%"]
    assert [c.text for c in probs[2].find_elements(By.CSS_SELECTOR, "td")][:1] == ["0"]  # never submitted
    probs[0].find_element(By.CSS_SELECTOR, "button").click()
    wait(d, lambda d: probs[0].find_elements(By.CSS_SELECTOR, ".prompt pre"), "the problem's text")
    prompt = probs[0].find_element(By.CSS_SELECTOR, ".prompt pre").text
    assert "def f0(x):" in prompt and "<script>window.__xss=3</script>" in prompt
    no_injection(d)


def test_runs_compare(sent, browser):
    d = browser
    a, b = sent.runs
    load(d, sent.url + "/#/runs", "runs")
    body = d.find_element(By.CSS_SELECTOR, "table.runs").text
    assert "run-a" in body and "run-b" in body and "pass@1" in body and "pass@2" in body
    compare = d.find_element(By.ID, "compare")
    assert not compare.is_enabled()
    d.find_element(By.ID, f"pick-{a}").click()
    d.find_element(By.ID, f"pick-{b}").click()
    assert compare.is_enabled()
    compare.click()
    wait(d, lambda d: d.find_element(By.ID, "main").get_attribute("data-page") == "compare"
         and d.find_element(By.ID, "main").get_attribute("data-ready") == "1", "the comparison")
    assert f"ids={a},{b}" in d.current_url
    rows = {r.get_attribute("data-run"): [c.text for c in r.find_elements(By.CSS_SELECTOR, ".passk")]
            for r in d.find_elements(By.CSS_SELECTOR, "table.compare tbody tr")}
    assert rows == {str(a): ["50.0%", "66.7%"], str(b): ["83.3%", "100.0%"]}, rows
    assert len(d.find_elements(By.CSS_SELECTOR, "svg[aria-label='pass@k by run'] rect.bar")) == 4
    differ = d.find_elements(By.CSS_SELECTOR, "table.differ tbody tr")
    assert [r.find_element(By.CSS_SELECTOR, "th").text for r in differ] == ["HumanEval/1", "HumanEval/2"]
    assert [c.text for c in differ[0].find_elements(By.CSS_SELECTOR, "td")] == ["1/2", "2/2"]
    # One run's page.
    go(d, f"#/runs/{a}", "run")
    assert "run-a" in d.find_element(By.ID, "main").text and "HumanEval/2" in d.find_element(By.ID, "main").text


def session_rows(d):
    """The sessions table as {id prefix: {column: text}}."""
    heads = [th.text for th in d.find_elements(By.CSS_SELECTOR, "table.sessions thead th")]
    return {r.get_attribute("data-id"): dict(zip(heads, (c.text for c in r.find_elements(
        By.CSS_SELECTOR, "th, td")))) for r in d.find_elements(By.CSS_SELECTOR, "table.sessions tbody tr")}


def test_sessions_page(sent, browser):
    d = browser
    opened = []
    try:
        for lang in ("python", "bash"):
            r = sent.post("/v1/sessions", {"language": lang})
            assert r.status_code == 201, r.text
            opened.append(r.json())
        py, sh = opened
        r = sent.post(f"/v1/sessions/{py['id']}/exec", {"code": "x = 41\nprint(x + 1)\n"})
        assert r.status_code == 200 and r.json()["verdict"] == "OK", r.text
        assert r.json()["stdout"] == "42\n", r.json()
        load(d, sent.url + "/#/sessions", "sessions")
        assert d.find_element(By.CSS_SELECTOR, "#nav a[data-page='sessions']").get_attribute(
            "aria-current") == "page"
        rows = session_rows(d)
        assert set(rows) == {py["id"][:12], sh["id"][:12]}, rows
        assert rows[py["id"][:12]]["Language"] == "python" and rows[py["id"][:12]]["Calls"] == "1", rows
        assert rows[sh["id"][:12]]["Language"] == "bash" and rows[sh["id"][:12]]["Calls"] == "0", rows
        assert rows[py["id"][:12]]["Last verdict"] == "OK", rows
        assert all(r["State"] == "open" for r in rows.values()), rows
        assert not any(py["id"] in r["Session"] for r in rows.values())  # the prefix only
        assert text(d, "#sess-open .card-value").startswith("2 / "), text(d, "#sess-open")
        # Closed through the API: gone from the table on the next refresh, without a reload.
        before = d.find_element(By.ID, "main").get_attribute("data-updated")
        d.execute_script("window.__same_document = 1")
        r = requests.delete(f"{sent.url}/v1/sessions/{sh['id']}", timeout=30)
        assert r.status_code == 200 and r.json()["state"] == "closed", r.text
        wait(d, lambda d: d.find_element(By.ID, "main").get_attribute("data-updated") != before
             and set(session_rows(d)) == {py["id"][:12]}, "the closed session to leave the table")
        assert d.execute_script("return window.__same_document") == 1
        assert text(d, "#sess-open .card-value").startswith("1 / ")
        assert "deleted 1" in text(d, "#sess-closed"), text(d, "#sess-closed")
        assert text(d, "#sess-calls .card-value") == "1"
        # The overview counts the open session too.
        go(d, "#/", "overview")
        wait(d, lambda d: d.find_elements(By.ID, "card-sessions"), "the overview's sessions card")
        assert text(d, "#card-sessions .card-value").startswith("1 / "), text(d, "#card-sessions")
        no_injection(d)
        assert not csp_violations(d)
    finally:
        for x in opened:
            requests.delete(f"{sent.url}/v1/sessions/{x['id']}", timeout=30)


def test_keyboard(sent, browser):
    d = browser
    load(d, sent.url + "/#/", "overview")
    body = d.find_element(By.TAG_NAME, "body")
    body.send_keys(Keys.TAB)
    assert d.execute_script("return document.activeElement.id") == "skip"
    seen, rings = [], {}
    for _ in range(8):
        d.switch_to.active_element.send_keys(Keys.TAB)
        seen.append(d.execute_script(
            "const e = document.activeElement; return e.closest('#nav') ? 'nav:' + e.textContent : e.id || e.tagName"))
        # The focus ring shows on what the keyboard reached (an outline, not none).
        rings[seen[-1]] = d.execute_script("return getComputedStyle(document.activeElement).outlineStyle")
    assert "nav:Submissions" in seen and "nav:Runs" in seen and "nav:Sessions" in seen, seen
    assert all(rings[k] not in ("none", "") for k in seen if k.startswith("nav:") or k == "theme-toggle"), rings
    # Enter on a focused nav link follows it.
    nav = d.find_element(By.CSS_SELECTOR, "#nav a[data-page='runs']")
    d.execute_script("arguments[0].focus()", nav)
    d.switch_to.active_element.send_keys(Keys.ENTER)
    wait(d, lambda d: d.find_element(By.ID, "main").get_attribute("data-page") == "runs", "Enter on a nav link")


def test_theme_toggle_kept(sent, browser):
    d = browser
    load(d, sent.url + "/#/", "overview")
    d.execute_script("localStorage.removeItem('verdict-theme')")
    load(d, sent.url + "/#/", "overview")
    bg_light = d.execute_script("return getComputedStyle(document.body).backgroundColor")
    d.find_element(By.ID, "theme-toggle").click()
    assert d.execute_script("return document.documentElement.dataset.theme") == "dark"
    assert d.execute_script("return getComputedStyle(document.body).backgroundColor") != bg_light
    load(d, sent.url + "/#/runs", "runs")  # a new document: the choice was kept
    assert d.execute_script("return document.documentElement.dataset.theme") == "dark"
    d.execute_script("localStorage.removeItem('verdict-theme')")


def test_phone_and_screenshots(sent, browser, shots):
    d = browser
    pages = [("overview", "#/", "overview"), ("submissions", "#/submissions", "submissions"),
             ("submission", f"#/submissions/{sent.ids['wa']}", "submission"),
             ("submission-markup", f"#/submissions/{sent.ids['xss']}", "submission"),
             ("datasets", "#/datasets", "datasets"), ("dataset", "#/datasets/tiny", "dataset"),
             ("runs", "#/runs", "runs"), ("run", f"#/runs/{sent.runs[0]}", "run"),
             ("compare", f"#/runs/compare?ids={sent.runs[0]},{sent.runs[1]}", "compare"),
             ("sessions", "#/sessions", "sessions")]
    saved = []
    try:
        for size, (w, h) in (("laptop", (1280, 900)), ("phone", (390, 844))):
            d.set_window_size(w, h)
            for theme in ("light", "dark"):
                d.execute_cdp_cmd("Emulation.setEmulatedMedia", {
                    "features": [{"name": "prefers-color-scheme", "value": theme}]})
                for name, hash_, page in pages:
                    load(d, sent.url + "/" + hash_, page)
                    if page == "overview":
                        wait(d, lambda d: d.find_elements(By.CSS_SELECTOR, "svg.chart"), "the charts")
                    dark = d.execute_script("return matchMedia('(prefers-color-scheme: dark)').matches")
                    assert dark == (theme == "dark")
                    if size == "phone":
                        sw, cw = no_overflow(d)
                        assert sw <= cw, f"{name}: the page is {sw} px wide in a {cw} px window"
                        toggle = d.find_element(By.ID, "menu-toggle")
                        assert toggle.is_displayed()
                        assert not d.find_element(By.CSS_SELECTOR, "#nav a").is_displayed()
                    path = os.path.join(shots, f"{size}-{theme}-{name}.png")
                    full_page(d, path)
                    saved.append(path)
            if size == "phone":  # the collapsed menu opens
                d.find_element(By.ID, "menu-toggle").click()
                assert d.find_element(By.CSS_SELECTOR, "#nav a").is_displayed()
                assert d.find_element(By.ID, "menu-toggle").get_attribute("aria-expanded") == "true"
                path = os.path.join(shots, "phone-dark-menu.png")
                assert d.save_screenshot(path), path
                saved.append(path)
    finally:
        d.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": []})
        d.set_window_size(1280, 900)
    print(f"\n{len(saved)} screenshots in {shots}")
    assert len(saved) == 4 * len(pages) + 1
    no_injection(d)
    assert not csp_violations(d)


TOKEN = "dash-T0ken_for.the~test"


@pytest.fixture(scope="module")
def guarded():
    s = Server(cells=1, extra=("--dashboard-token", TOKEN))
    yield s
    code, left = s.stop()
    assert code == 0 and not left


def test_token_link_sets_the_cookie(guarded, browser):
    u = guarded.url
    for path in ("/", "/assets/app.js", "/v1/stats"):
        r = requests.get(u + path, timeout=10)
        assert r.status_code == 401 and r.json()["detail"], (path, r.status_code)
        assert "Content-Security-Policy" in r.headers or path == "/v1/stats"
    wrong = requests.get(u + "/?token=nope", timeout=10, allow_redirects=False)
    assert wrong.status_code == 401 and "Set-Cookie" not in wrong.headers
    r = requests.get(f"{u}/?token={TOKEN}", timeout=10, allow_redirects=False)
    assert r.status_code == 303 and r.headers["Location"] == "/"
    assert r.headers["Set-Cookie"] == f"verdict_token={TOKEN}; HttpOnly; SameSite=Strict; Path=/"
    assert requests.get(u + "/", headers={"Authorization": f"Bearer {TOKEN}"}, timeout=10).status_code == 200
    assert requests.get(u + "/v1/ping", timeout=10).status_code == 200  # judging stays open
    # The browser follows the link: the cookie, then the page and its JSON with it.
    d = browser
    d.get("about:blank")
    d.get(f"{u}/?token={TOKEN}")
    wait(d, lambda d: d.execute_script(
        "const m = document.getElementById('main');"
        "return m && m.dataset.page === 'overview' && !!m.dataset.updated;"), "the guarded overview")
    assert d.current_url == u + "/"  # the token left the address bar
    assert "verdict_token" not in d.execute_script("return document.cookie")  # HttpOnly
    assert not d.find_elements(By.CSS_SELECTOR, ".overview-error .error")
    d.delete_all_cookies()
